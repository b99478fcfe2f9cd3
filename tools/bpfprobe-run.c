/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * bpfprobe-run: the command-line face of the runtime helper. Opens a BPF
 * object built with the bpfprobe plugin, loads it (showing the useful tail
 * of the verifier log when the kernel refuses it), checks and attaches every
 * probe site, starts a command if one is given (only once everything is
 * attached), and streams the programs' bpf_printk lines and the records of
 * default-body probes until the command or the traced process exits, or
 * Ctrl-C. Exit codes are listed in usage() and docs/runtime.md.
 *
 *   bpfprobe-run prog.o [--pid N] [--json] [--force] [-- command args...]
 *   bpfprobe-run -e 'uprobe/./shop:ship+30(o->customer, weight)' -- ./shop
 */
#define _GNU_SOURCE
#include <bpfprobe/runtime.h>

#include "Support/Escape.h"
#include "bpfprobe-oneliner.h"

#include <bpf/bpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/bpf.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Exit codes: distinct per failure a user can act on (docs/runtime.md). */
enum {
	EXIT_OK = 0,
	EXIT_ERROR = 1,        /* anything else */
	EXIT_USAGE = 2,        /* bad command line */
	EXIT_PERM = 3,         /* not root / no CAP_BPF+CAP_PERFMON */
	EXIT_NO_SUPPORT = 4,   /* kernel without kprobe / uprobe support */
	EXIT_TARGET = 5,       /* binary, symbol or module missing or moved */
	EXIT_NO_METADATA = 6,  /* object without .bpfprobe (or not an object) */
	EXIT_BAD_METADATA = 7, /* corrupt or newer .bpfprobe */
	EXIT_VERIFIER = 8,     /* the verifier rejected a program */
	EXIT_STALE = 9,        /* build-id / address / size mismatch */
	EXIT_PID_GONE = 10,    /* --pid process does not exist */
	EXIT_COMMAND = 11,     /* the command could not be started */
	EXIT_PARTIAL = 12,     /* ran, but some probes could not attach */
	EXIT_ONELINER = ONELINER_COMPILE, /* 13: an -e spec did not compile */
	EXIT_SETUP = ONELINER_SETUP,      /* 14: no plugin/clang/headers/directory for -e */
};

static const char *prog_name = "bpfprobe-run";

/* At most this many --pid processes. */
#define MAX_PIDS 64

static struct {
	const char *obj_path;
	pid_t pid;      /* the one --pid process, when exactly one is given */
	pid_t pids[MAX_PIDS]; /* every --pid */
	size_t pid_cnt;
	bool children;  /* --children: the --pid processes' descendants too */
	bool all;       /* --all: every process */
	bool time_abs;  /* --time=abs */
	unsigned int fields; /* --fields: enum bpfprobe_record_field */
	bool json;
	bool perf_names; /* --labels=perf */
	const char *output; /* -o FILE */
	bool force;
	bool force_address;
	bool dry_run;
	bool dump;
	bool check_kernel;
	bool no_printk;
	bool verbose;
	bool count_only;
	const char *hist; /* --hist ARG */
	bool all_or_nothing;
	enum bpfprobe_attach_mode attach_mode; /* --attach */
	unsigned long long count;  /* --count: first N hits per record site */
	unsigned long long ring_size; /* --ring-size bytes; 0 = by site count */
	unsigned long long duration_ms; /* 0 = until the command/pid ends or ^C */
	char *specs[64];  /* -e */
	size_t spec_cnt;
	const char *list_spec; /* -L / -V */
	bool list_vars;
	const char *clang;
	const char *plugin;    /* --plugin */
	const char *debuginfo; /* --debuginfo */
	bool no_cache;
	char **cmd;
} opt;

static volatile sig_atomic_t stop_sig;

static struct timespec started; /* for -v's timings */

static double ms_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6;
}

static double ms_since_start(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ms_between(&started, &now);
}

__attribute__((format(printf, 1, 2)))
static void err_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s [options] prog.o [-- command [args...]]\n"
"       %s [options] -e SPEC [-e SPEC...] [-- command [args...]]\n"
"       %s -L SPEC | -V SPEC\n"
"\n"
"Loads a BPF object built with the bpfprobe plugin, checks and attaches\n"
"every probe site in its .bpfprobe section, runs the command (if any) once\n"
"everything is attached, and prints bpf_printk lines and default-body\n"
"records until the command or --pid process exits, --duration passes, or\n"
"Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, ...). Then it\n"
"detaches, reads the rest of the ring buffer (up to 1 s; what is left is\n"
"counted unread) and prints per recording probe where every hit went:\n"
"  hits = records + lost (ring full) + dropped (read, not printed: other\n"
"  process, past --count, malformed, unread) + filtered (rejected in BPF)\n"
"\n"
"one-liners:\n"
"  -e SPEC          record every hit of SPEC (the annotation syntax of\n"
"                   bpfprobe(7), e.g. 'uprobe/./shop:ship+30(o->customer)'):\n"
"                   the probe is written, compiled with the plugin and the\n"
"                   clang bpfprobe was built for, cached by the specs and\n"
"                   the binaries' build-ids, and run; repeatable\n"
"  --clang PATH     the clang for -e (default: the one bpfprobe was built\n"
"                   with; never taken from the environment)\n"
"  --plugin PATH    the bpfprobe plugin for -e (default: the installed one)\n"
"  --debuginfo PATH the debug info for -e's binaries (a file, or a\n"
"                   directory holding .build-id/; the plugin's option)\n"
"  --no-cache       compile the -e probes again\n"
"  -L SPEC          list the lines of a function a probe can be put on\n"
"                   (perf probe -L; bpfprobe-resolve --lines)\n"
"  -V SPEC          list the variables visible at a site (perf probe -V;\n"
"                   bpfprobe-resolve --vars)\n"
"\n"
"options:\n"
"  --pid N          record only process N (1 to pid_max - 1); repeatable;\n"
"                   stop when every one has exited\n"
"  --children       with --pid, also the processes' descendants, those they\n"
"                   have and those they fork (a command's always are)\n"
"  --all            record every process on the machine (the default when\n"
"                   there is neither a command nor --pid; with a command,\n"
"                   only its own processes are recorded otherwise)\n"
"  --time=rel|abs   record times in seconds since the start (rel, the\n"
"                   default) or as the wall clock HH:MM:SS.uuuuuu (abs)\n"
"  --fields LIST    the context a record line starts with, comma-separated\n"
"                   from time,comm,pid,tid,cpu (default: all; --json\n"
"                   always has all of them)\n"
"  --json           print JSON lines instead of text\n"
"  -o, --output FILE  write records, counts and bpf_printk lines to FILE\n"
"                   (created or truncated); the command keeps its stdout\n"
"  --labels=KIND    name record values as written in the spec ('written',\n"
"                   the default: $retval, o->id) or as kprobe_events and\n"
"                   perf probe -D name them ('perf': arg1, id), e.g. to pair\n"
"                   records with the kernel's own events\n"
"  --force          attach sites whose build-id, address or size check\n"
"                   failed (each is reported; values may be wrong)\n"
"  --force-address  with --force, also attach a site past its function's\n"
"                   entry in a changed binary (it may be mid-instruction:\n"
"                   check the address with objdump -d first)\n"
"  --dry-run        check every site and print where it would attach;\n"
"                   load and attach nothing (no privileges needed)\n"
"  --dump-metadata  print the parsed .bpfprobe metadata and exit; FILE may\n"
"                   also be a raw section (llvm-objcopy --dump-section)\n"
"  --check-kernel   report what this kernel supports; exit 0 if the bpf()\n"
"                   syscall and uprobes work\n"
"  --no-printk      do not stream bpf_printk lines\n"
"  --all-or-nothing a probe that cannot attach fails the run (its exit\n"
"                   code below); by default it is reported and skipped,\n"
"                   the others attach, and the run exits with 12\n"
"  --attach=MODE    how the copies of a site that share one program (a\n"
"                   line inlined into many functions) attach: multi, one\n"
"                   uprobe_multi link per program and binary (Linux 6.6+);\n"
"                   single, one uprobe per copy; auto (default): multi\n"
"                   where the kernel has it. -v says which was used\n"
"  --count N        record only the first N hits of each recording probe\n"
"                   (enforced in BPF: a busy probe cannot push out the\n"
"                   records of a quiet one); 1 to 2^63, K M G = 10^3 10^6 10^9\n"
"  --count-only     count the hits of each recording probe in BPF and\n"
"                   print the counts at exit; no records\n"
"  --hist ARG       with --count-only's counts, a log2 histogram of the\n"
"                   recording probes' argument ARG (as records name it),\n"
"                   kept in BPF and printed at exit (bpftrace's hist())\n"
"  --ring-size B    bytes of the records ring buffer: a power of two from\n"
"                   the page size to 1G (B of kernel memory, 2B resident);\n"
"                   K M G = 2^10 2^20 2^30; default 512K per recording\n"
"                   probe, at least 1M, at most 64M\n"
"  --duration SEC   stop after SEC seconds: 0.001 to 31536000 (a year)\n"
"  -v, --verbose    show libbpf's and the runtime's debug messages\n"
"  -h, --help       this text\n"
"\n"
"exit codes:\n"
"  0 ok                     6 object has no .bpfprobe section\n"
"  1 other error            7 corrupt or unsupported .bpfprobe metadata\n"
"  2 usage error            8 the verifier rejected a program\n"
"  3 not root / no CAP_BPF  9 build-id, address or size mismatch (see --force)\n"
"  4 no kprobe/uprobe       10 the --pid process does not exist\n"
"    support in the kernel  11 the command could not be started\n"
"  5 binary, symbol or module missing or moved, binary not a regular file\n"
"  12 the run went on without the probes that could not attach (each was\n"
"     reported); without --all-or-nothing, codes 3-9 mean no probe attached\n"
"  13 an -e spec did not compile (the error is shown under the spec)\n"
"  14 no plugin, headers or clang for -e, or no directory to compile in\n",
		prog_name, prog_name, prog_name);
}

/* ---- messages of libbpf and the runtime ---- */

/* libbpf's warnings (a verifier log comes through bpfprobe_object__load());
 * its info and debug messages with -v. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level != LIBBPF_WARN && !opt.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int runtime_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	if (level == LIBBPF_DEBUG && !opt.verbose)
		return 0;
	fprintf(stderr, "%s: ", prog_name);
	/* The library prefixes "bpfprobe: "; one prefix is enough. */
	if (!strncmp(fmt, "bpfprobe: ", 10))
		fmt += 10;
	return vfprintf(stderr, fmt, ap);
}

static int exit_for_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case EPERM:
	case EACCES:
		return EXIT_PERM;
	case EOPNOTSUPP:
		return EXIT_NO_SUPPORT;
	case ENOENT:
	case ENOTUNIQ:
		return EXIT_TARGET;
	case ENODATA:
		return EXIT_NO_METADATA;
	case EBADMSG:
	case EPROTONOSUPPORT:
		return EXIT_BAD_METADATA;
	case ESTALE:
		return EXIT_STALE;
	case ESRCH:
		return EXIT_PID_GONE;
	default:
		return EXIT_ERROR;
	}
}

/* Reading the metadata: "not an ELF object" is an object without it. */
static int exit_for_meta_errno(int err)
{
	return err == ENOEXEC ? EXIT_NO_METADATA : exit_for_errno(err);
}

/* ---- privileges and kernel support ---- */

static unsigned long long cap_eff(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long caps = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps;
}

static bool have_bpf_caps(void)
{
	unsigned long long caps = cap_eff();
	const int cap_sys_admin = 21, cap_perfmon = 38, cap_bpf = 39;

	if (caps & (1ull << cap_sys_admin))
		return true;
	return (caps & (1ull << cap_bpf)) && (caps & (1ull << cap_perfmon));
}

static bool pmu_exists(const char *kind)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", kind);
	return access(path, F_OK) == 0;
}

static int check_kernel(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char id[129];
	int fd, ok = 1;

	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bpfprobe_check", "GPL", insns,
			   2, NULL);
	printf("bpf() syscall: %s\n", fd >= 0 ? "yes" : strerror(errno));
	if (fd >= 0)
		close(fd);
	else
		ok = 0;
	printf("uprobes: %s\n", pmu_exists("uprobe") ? "yes" : "no (no uprobe PMU)");
	ok &= pmu_exists("uprobe");
	printf("kprobes: %s\n",
	       pmu_exists("kprobe") ? "yes" : "no: this kernel has no kprobe support");
	printf("kernel BTF: %s\n", access("/sys/kernel/btf/vmlinux", R_OK) ? "no" : "yes");
	printf("kernel build-id: %s\n",
	       bpfprobe_kernel_build_id(NULL, id, sizeof(id)) > 0 ? id : "none");
	return ok ? EXIT_OK : EXIT_NO_SUPPORT;
}

/* ---- --dump-metadata ---- */

/* Text in double quotes, escaped as a C string literal or, for JSON, as a
 * JSON string (Support/Escape.h). */
static void print_quoted(const char *s, size_t len, bool json)
{
	char esc[8];

	putchar('"');
	for (size_t i = 0; i < len; i++) {
		if (bpfprobe_quote_escape(s[i], json, esc))
			fputs(esc, stdout);
		else
			putchar(s[i]);
	}
	putchar('"');
}

/* A value as the metadata escapes it; quoted when asked (it may hold spaces). */
static void dump_str(const char *v, bool quoted)
{
	if (quoted) {
		print_quoted(v, strlen(v), false);
		return;
	}
	for (; *v; v++) {
		const char *esc = bpfprobe_value_escape(*v);

		if (esc)
			fputs(esc, stdout);
		else
			putchar(*v);
	}
}

static void dump_value(const char *key, const char *v)
{
	printf("  %s=", key);
	dump_str(v, false);
	putchar('\n');
}

static int dump_metadata(const char *path)
{
	struct bpfprobe_meta *meta;
	unsigned char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");

	if (!f) {
		err_msg("cannot open %s: %s\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4)) {
		fclose(f);
		meta = bpfprobe_meta__open_file(path);
	} else {
		/* A raw section, as llvm-objcopy --dump-section writes it. */
		char *buf = NULL;
		size_t len = 0, cap = 0, n;

		rewind(f);
		do {
			if (len + 4096 > cap) {
				cap = (cap + 4096) * 2;
				buf = realloc(buf, cap);
				if (!buf) {
					fclose(f);
					return EXIT_ERROR;
				}
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		meta = bpfprobe_meta__parse(buf, len);
		free(buf);
	}
	if (!meta)
		return exit_for_meta_errno(errno);

	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);

		printf("site %zu\n", i);
		dump_value("program", s->program);
		dump_value("section", s->section);
		dump_value("kind", bpfprobe_kind__str(s->kind));
		dump_value("target", s->target);
		dump_value("symbol", s->symbol);
		printf("  offset=%llu\n", (unsigned long long)s->offset);
		printf("  address=0x%llx\n", (unsigned long long)s->address);
		if (s->has_symbol_size)
			printf("  symbol_size=%llu\n", (unsigned long long)s->symbol_size);
		dump_value("arch", s->arch);
		printf("  kernel_machine=%u\n", s->kernel_machine);
		printf("  compat=%d\n", s->compat);
		dump_value("build_id", s->build_id);
		dump_value("source", s->source);
		dump_value("spec", s->spec);
		if (s->has_record_id)
			printf("  record_id=%u\n", s->record_id);
		if (s->dispatcher) {
			dump_value("dispatcher", s->dispatcher);
			printf("  cookie=%llu\n", (unsigned long long)s->cookie);
		}
		dump_value("label", s->label);
		for (size_t a = 0; a < s->arg_cnt; a++) {
			printf("  arg[%zu] name=", a);
			dump_str(s->args[a].name, false);
			printf(" type=");
			dump_str(s->args[a].type, false);
			printf(" fetch=");
			dump_str(s->args[a].fetch, false);
			printf(" text=");
			dump_str(s->args[a].text, true);
			printf(" label=");
			dump_str(s->arg_labels[a], true);
			putchar('\n');
		}
	}
	bpfprobe_meta__free(meta);
	return EXIT_OK;
}

/* ---- loading ---- */

static int load_object(struct bpf_object *obj, const struct bpfprobe_meta *meta)
{
	BPFPROBE_OPTS(bpfprobe_load_opts, lo, .whole_log = opt.verbose,
		      .whole_log_hint = "-v shows the whole log", .meta = meta,
		      .attach_mode = opt.attach_mode);
	int err = bpfprobe_object__load(obj, &lo);

	if (!err)
		return EXIT_OK;
	if (err == -LIBBPF_ERRNO__VERIFY)
		return EXIT_VERIFIER;
	if (err == -EPERM && have_bpf_caps()) {
		/* Root's privileges and still EPERM: not a privilege the user
		 * lacks, but something the kernel does not do (fentry/fexit
		 * without BPF trampolines), or a lockdown. */
		const struct bpfprobe_site *tramp = NULL;

		for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta) && !tramp; i++) {
			const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);

			if (s->kind == BPFPROBE_FENTRY || s->kind == BPFPROBE_FEXIT)
				tramp = s;
		}
		if (tramp)
			err_msg("loading %s: the kernel refused '%s' (%s) with EPERM although this process has root's BPF privileges: it has no BPF trampolines for fentry/fexit (they need CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS), or forbids them; probe the same place with kprobe/ or kretprobe/\n",
				opt.obj_path, tramp->program, tramp->spec);
		else
			err_msg("loading %s: the kernel refused it with EPERM although this process has root's BPF privileges (a lockdown, or a raised memlock limit needed: -v shows libbpf's log)\n",
				opt.obj_path);
		return EXIT_NO_SUPPORT;
	}
	if (err == -EPERM) {
		err_msg("loading %s: %s; it needs root, or CAP_BPF and CAP_PERFMON\n",
			opt.obj_path, strerror(-err));
		return EXIT_PERM;
	}
	err_msg("loading %s failed: %s\n", opt.obj_path, strerror(-err));
	return EXIT_ERROR;
}

/* ---- signals ---- */

static volatile sig_atomic_t stop_cnt; /* terminating signals received */

static void on_signal(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
	stop_cnt++;
}

/*
 * Every signal whose default action ends the process and that can be
 * caught ends the run as Ctrl-C does, through finish() and close_run():
 * probes detached, the ring drained, the tracefs instance removed, the
 * counts printed. (SIGKILL and SIGSTOP cannot be caught; SIGSEGV and the
 * other faults of the program itself are not requests to stop.)
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
	SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

/* What each signal did when bpfprobe-run started: the command gets it back. */
static struct sigaction saved_action[_NSIG];
static bool saved[_NSIG];

static void set_action(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (sig <= 0 || sig >= _NSIG || sigaction(sig, NULL, &old))
		return;
	/*
	 * A hang-up ignored by whoever started us (nohup) stays ignored. The
	 * others are caught even then: a shell starts background jobs with
	 * SIGINT and SIGQUIT ignored, and kill -INT must still stop the run.
	 */
	if (sig == SIGHUP && old.sa_handler == SIG_IGN)
		return;
	saved_action[sig] = old;
	saved[sig] = true;
	sigaction(sig, sa, NULL);
}

static void catch_signals(void)
{
	/*
	 * SA_RESTART: a write to a full pipe goes on after the signal instead
	 * of failing half-way through a line. poll(), pause() and the sleeps
	 * return on a signal regardless (signal(7)).
	 */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct sigaction ign = { .sa_handler = SIG_IGN };

	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		set_action(stop_signals[i], &sa);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		set_action(sig, &sa);
	/* A closed stdout (| head) ends the run through ferror(), not SIGPIPE. */
	set_action(SIGPIPE, &ign);
}

/* The command's dispositions, in its child before exec: those we got. */
static void restore_signals(void)
{
	for (int sig = 1; sig < _NSIG; sig++)
		if (saved[sig])
			sigaction(sig, &saved_action[sig], NULL);
}

/* ---- the command ---- */

struct command {
	pid_t pid;
	int go_fd;   /* parent writes one byte: attached, exec now */
	int exec_fd; /* child writes errno if exec fails; EOF on success */
	bool done;   /* waited for; status is its wait status */
	int status;
};

/* The stdout bpfprobe-run was given, for the command, when -o moved ours. */
static int cmd_stdout = -1;

/*
 * -o FILE: records, counts and printk lines go to FILE; the command keeps
 * the stdout it would have had. The file is opened without following a
 * symbolic link and must be a regular file: a root run must not truncate
 * what a link planted in /tmp points at (docs/security.md).
 */
static int redirect_output(const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);

	if (fd < 0) {
		err_msg("cannot write %s: %s%s\n", path, strerror(errno),
			errno == ELOOP ? " (a symbolic link: name the file itself)" : "");
		return EXIT_USAGE;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_uid != geteuid() && st.st_uid != 0)) {
		err_msg("cannot write %s: %s\n", path,
			!S_ISREG(st.st_mode) ? "not a regular file"
					     : "owned by another user");
		close(fd);
		return EXIT_USAGE;
	}
	if (ftruncate(fd, 0)) {
		err_msg("cannot truncate %s: %s\n", path, strerror(errno));
		close(fd);
		return EXIT_USAGE;
	}
	fflush(stdout);
	cmd_stdout = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (dup2(fd, 1) < 0) {
		err_msg("cannot write %s: %s\n", path, strerror(errno));
		close(fd);
		return EXIT_ERROR;
	}
	close(fd);
	return -1;
}

static int command_fork(struct command *c, char **argv)
{
	int go[2], ex[2];

	if (pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		char b;
		int e;

		/* Ctrl-C before the exec ends the child as it would the command. */
		restore_signals();
		/* -o FILE: the command's stdout is the one bpfprobe-run got. */
		if (cmd_stdout >= 0 && dup2(cmd_stdout, 1) < 0)
			_exit(127);
		close(go[1]);
		close(ex[0]);
		/* Wait until every site is attached; EOF means give up. */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	c->go_fd = go[1];
	c->exec_fd = ex[0];
	return 0;
}

static int command_start(struct command *c, const char *name)
{
	int e = 0;
	ssize_t n;

	while ((n = write(c->go_fd, "g", 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		return -errno;
	close(c->go_fd);
	c->go_fd = -1;
	while ((n = read(c->exec_fd, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(c->exec_fd);
	c->exec_fd = -1;
	if (n == sizeof(e)) {
		err_msg("cannot run '%s': %s\n", name, strerror(e));
		waitpid(c->pid, NULL, 0);
		c->pid = 0;
		return -e;
	}
	return 0;
}

static void command_abort(struct command *c)
{
	if (c->pid <= 0)
		return;
	close(c->go_fd); /* the child sees EOF and exits */
	close(c->exec_fd);
	c->go_fd = c->exec_fd = -1;
	if (!c->done)
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	c->pid = 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/*
 * Waits for the command up to \p ms, or (\p ms < 0) until it ends or one
 * more signal comes (stop_cnt passes \p seen), in 10 ms steps.
 */
static bool command_wait(struct command *c, long long ms, int seen)
{
	long long until = now_ms() + ms;

	while (!c->done) {
		pid_t w = waitpid(c->pid, &c->status, WNOHANG);

		if (w == c->pid)
			c->done = true;
		else if (w < 0 && errno != EINTR)
			break;
		else if (ms >= 0 ? now_ms() >= until : stop_cnt != seen)
			break;
		else
			usleep(10 * 1000);
	}
	return c->done;
}

/*
 * Ends the command after the run: Ctrl-C reached it too (the terminal
 * signals the whole group), so it gets a second to exit before SIGINT is
 * passed on; any other end of the run sends SIGTERM. Each further signal
 * to bpfprobe-run while it waits presses harder: SIGTERM, then SIGKILL.
 */
static void command_stop(struct command *c)
{
	int seen = stop_cnt, sig = stop_sig == SIGINT ? SIGINT : SIGTERM;

	if (c->pid <= 0 || c->done)
		return;
	if (sig == SIGINT && command_wait(c, 1000, seen))
		return;
	kill(c->pid, sig);
	while (!command_wait(c, -1, seen)) {
		if (stop_cnt == seen)
			break; /* waitpid failed: not our child any more */
		seen = stop_cnt;
		sig = sig == SIGKILL ? SIGKILL : sig == SIGTERM ? SIGKILL : SIGTERM;
		kill(c->pid, sig);
	}
}

/* ---- streaming ---- */

static bool process_alive(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	if (kill(pid, 0) && errno == ESRCH)
		return false;
	/* A zombie is gone for us, though kill() still finds it. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1) {
		/* comm may contain ')': fall back to the last ") " */
		state = 0;
	}
	fclose(f);
	return state != 'Z' && state != 'X';
}

/* A pidfd polls readable when the process exits: no polling for it. */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * What the ring holds, in batches, for at most budget_ms, flushed once.
 * The budget keeps --duration, signals and the command's exit seen on
 * time when probes fill the ring as fast as it is read; finish() reads
 * the rest.
 */
static void drain(struct bpfprobe_records *recs, struct bpfprobe_printk *pr,
		  int budget_ms)
{
	long long until = now_ms() + budget_ms;

	if (recs)
		for (int i = 0; i < 256 && !stop_sig; i++)
			if (bpfprobe_records__consume(recs) < BPFPROBE_RECORDS_BATCH ||
			    now_ms() >= until)
				break;
	if (pr)
		bpfprobe_printk__read(pr);
	fflush(stdout);
}

/* The longest single wait: poll() takes an int of ms, --duration a year. */
#define MAX_WAIT_MS 60000

/*
 * Records are submitted without wake-ups (BPF_RB_NO_WAKEUP) and read on a
 * short timer: one wake-up per record cost more than the probe itself.
 * The end of the command or --pid process is seen through a pidfd at once.
 * Returns when the command or process ended, --duration passed, a signal
 * came or stdout closed; finish() does the rest.
 */
static void stream(struct bpfprobe_records *recs, struct bpfprobe_printk *pr,
		   struct command *cmd)
{
	const int tick_ms = 10;
	long long start = now_ms();
	bool proc_gone = false;
	pid_t watched = cmd->pid > 0 ? cmd->pid : opt.pid;
	int pidfd = watched > 0 ? open_pidfd(watched) : -1;

	while (!stop_sig) {
		struct pollfd fds[2];
		int nfds = 0, timeout = -1;

		if (pr)
			fds[nfds++] = (struct pollfd){ .fd = bpfprobe_printk__fd(pr),
						       .events = POLLIN };
		if (pidfd >= 0)
			fds[nfds++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		if (recs || (watched > 0 && pidfd < 0) || opt.pid_cnt > 1)
			timeout = recs ? tick_ms : 100;
		if (opt.duration_ms) {
			long long left = (long long)opt.duration_ms - (now_ms() - start);

			left = left < 0 ? 0 : left > MAX_WAIT_MS ? MAX_WAIT_MS : left;
			timeout = timeout < 0 || left < timeout ? (int)left : timeout;
		}
		if (nfds)
			poll(fds, nfds, timeout);
		else if (timeout >= 0)
			usleep((useconds_t)timeout * 1000);
		else
			pause();
		drain(recs, pr, 50);

		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };

			proc_gone = poll(&p, 1, 0) == 1;
		} else if (cmd->pid <= 0 && opt.pid_cnt) {
			/* Several --pid processes: gone when every one is. */
			proc_gone = true;
			for (size_t i = 0; i < opt.pid_cnt; i++)
				proc_gone &= !process_alive(opt.pids[i]);
		}
		if (cmd->pid > 0 && (pidfd < 0 || proc_gone) &&
		    waitpid(cmd->pid, &cmd->status, WNOHANG) == cmd->pid) {
			cmd->done = true;
			break;
		}
		if (cmd->pid <= 0 && opt.pid_cnt && proc_gone) {
			if (opt.pid_cnt == 1)
				err_msg("process %d exited\n", (int)opt.pid);
			else
				err_msg("all %zu processes exited\n", opt.pid_cnt);
			break;
		}
		if (opt.duration_ms && now_ms() - start >= (long long)opt.duration_ms)
			break;
		if (ferror(stdout))
			break; /* the reader went away */
	}
	if (pidfd >= 0)
		close(pidfd);
}

static bool has_record_sites(const struct bpfprobe_meta *meta)
{
	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++)
		if (bpfprobe_meta__site(meta, i)->has_record_id)
			return true;
	return false;
}

/* bpftrace's bucket labels: [2, 4), [1K, 2K), ... */
static void bucket_bound(char *buf, size_t sz, unsigned long long v)
{
	static const char *const sfx[] = { "", "K", "M", "G", "T", "P", "E" };
	int i = 0;

	while (v >= 1024 && !(v % 1024) && i < 6) {
		v /= 1024;
		i++;
	}
	snprintf(buf, sz, "%llu%s", v, sfx[i]);
}

/* bpftrace's label of log2 bucket \p i: (..., 0), [0], [1], [2, 4), ... */
static void bucket_label(int i, char *label, size_t sz)
{
	char l1[24], l2[24];

	if (i == 0) {
		snprintf(label, sz, "(..., 0)");
	} else if (i == 1) {
		snprintf(label, sz, "[0]");
	} else if (i == 2) {
		snprintf(label, sz, "[1]");
	} else {
		bucket_bound(l1, sizeof(l1), 1ull << (i - 2));
		bucket_bound(l2, sizeof(l2), 1ull << (i - 1));
		snprintf(label, sz, "[%s, %s)", l1, l2);
	}
}

/* The histogram of --hist for site \p s, as bpftrace prints hist(). */
static void print_hist(struct bpfprobe_records *recs, const struct bpfprobe_site *s)
{
	static const char bars[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	__u64 b[BPFPROBE_HIST_BUCKETS], max = 0;
	int arg = bpfprobe_records__site_hist(recs, s, b);
	int lo = -1, hi = -1;
	char label[64];

	if (arg < 0)
		return;
	for (int i = 0; i < BPFPROBE_HIST_BUCKETS; i++) {
		if (!b[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		max = b[i] > max ? b[i] : max;
	}
	if (opt.json) {
		printf("{\"type\":\"hist\",\"program\":");
		print_quoted(s->program, strlen(s->program), true);
		printf(",\"arg\":");
		print_quoted(s->arg_labels[arg], strlen(s->arg_labels[arg]), true);
		printf(",\"buckets\":[");
		for (int i = lo; lo >= 0 && i <= hi; i++) {
			bucket_label(i, label, sizeof(label));
			printf("%s{\"bucket\":\"%s\",\"count\":%llu}", i == lo ? "" : ",",
			       label, (unsigned long long)b[i]);
		}
		printf("]}\n");
		return;
	}
	printf("@%s[%s]:\n", s->program, s->arg_labels[arg]);
	for (int i = lo; lo >= 0 && i <= hi; i++) {
		int bar = max ? (int)(b[i] * 52 / max) : 0;

		bucket_label(i, label, sizeof(label));
		printf("%-20s %8llu |%.*s%*s|\n", label, (unsigned long long)b[i], bar,
		       bars, 52 - bar, "");
	}
	printf("\n");
}

/*
 * One line per recording site: hits counted in BPF, and where each went:
 * records delivered, lost (no ring space), dropped (read, not delivered),
 * filtered (rejected in BPF). With --count-only the counts are the output
 * (stdout). Returns how many sites' counts do not add up.
 */
static size_t report_sites(const struct bpfprobe_meta *meta,
			   struct bpfprobe_records *recs)
{
	size_t unbalanced = 0;

	for (size_t i = 0; recs && i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		struct bpfprobe_site_stats st;
		long long off;

		if (!s->has_record_id || bpfprobe_records__site_stats(recs, s, &st))
			continue;
		/* An object without per-site counters: the summary says it all. */
		if (!st.counted && !opt.count_only)
			continue;
		/* Hits minus where they went: 0 when every hit is accounted for. */
		off = (long long)(st.hits - (st.records + st.lost + st.dropped + st.filtered));
		if (st.counted && !opt.count_only && off)
			unbalanced++;
		if (opt.json) {
			printf("{\"type\":\"%s\",\"program\":", opt.count_only ? "count" : "site");
			print_quoted(s->program, strlen(s->program), true);
			printf(",\"label\":");
			print_quoted(s->label, strlen(s->label), true);
			if (st.counted)
				printf(",\"hits\":%llu", (unsigned long long)st.hits);
			else
				printf(",\"hits\":null");
			if (!opt.count_only) {
				printf(",\"records\":%llu,\"lost_records\":%llu,\"dropped\":%llu,\"filtered\":%llu,\"unread\":%llu",
				       (unsigned long long)st.records,
				       (unsigned long long)st.lost,
				       (unsigned long long)st.dropped,
				       (unsigned long long)st.filtered,
				       (unsigned long long)st.unread);
				if (off)
					printf(",\"unaccounted\":%lld", off);
			}
			printf("}\n");
			if (opt.count_only)
				print_hist(recs, s);
		} else if (opt.count_only) {
			if (st.counted)
				printf("%s (%s): %llu\n", s->program, s->label,
				       (unsigned long long)st.hits);
			else
				printf("%s (%s): not counted (the object has no '%s' map)\n",
				       s->program, s->label, BPFPROBE_SITES_MAP);
			print_hist(recs, s);
		} else {
			char unread[64] = "";

			if (st.unread)
				snprintf(unread, sizeof(unread), " (%llu unread at exit)",
					 (unsigned long long)st.unread);
			err_msg("%s: %llu hit%s, %llu record%s, %llu lost, %llu dropped%s, %llu filtered\n",
				s->program, (unsigned long long)st.hits,
				st.hits == 1 ? "" : "s", (unsigned long long)st.records,
				st.records == 1 ? "" : "s", (unsigned long long)st.lost,
				(unsigned long long)st.dropped, unread,
				(unsigned long long)st.filtered);
		}
		if (st.counted && !opt.count_only && off)
			err_msg("%s: %lld hit%s not accounted for: %s\n", s->program,
				off, off == 1 || off == -1 ? "" : "s",
				off > 0 ? "their records were still being written when the run ended"
					: "more records than hits (another writer of the ring?)");
	}
	fflush(stdout);
	return unbalanced;
}

/*
 * The counts, after finish(): per recording site, then the totals.
 * \p drained is bpfprobe_records__drain()'s result.
 */
static void report_losses(const struct bpfprobe_meta *meta,
			  struct bpfprobe_records *recs, struct bpfprobe_printk *pr,
			  int drained)
{
	struct bpfprobe_records_stats st = { 0 };
	struct bpfprobe_printk_stats ps = { 0 };

	bpfprobe_printk__stats(pr, &ps);

	if (recs)
		bpfprobe_records__stats(recs, &st);
	report_sites(meta, recs);
	if (recs && drained == -EINPROGRESS && bpfprobe_records__pending(recs) > 0)
		err_msg("the ring buffer still held %lld bytes of records being written when the run ended; they are not counted\n",
			bpfprobe_records__pending(recs));
	else if (recs && drained == -EINPROGRESS)
		err_msg("records were still being written when the run ended; they are not counted\n");
	else if (recs && drained < 0)
		err_msg("cannot read the rest of the ring buffer: %s; the counts may not add up\n",
			strerror(-drained));
	if (opt.json) {
		printf("{\"type\":\"summary\",\"records\":%llu,\"malformed_records\":%llu,",
		       (unsigned long long)st.records, (unsigned long long)st.malformed);
		if (st.lost_counted)
			printf("\"lost_records\":%llu,", (unsigned long long)st.lost);
		else
			printf("\"lost_records\":null,");
		printf("\"dropped\":%llu,\"filtered\":%llu,\"unread\":%llu,",
		       (unsigned long long)st.dropped, (unsigned long long)st.filtered,
		       (unsigned long long)st.unread);
		printf("\"printk_lines\":%llu,\"lost_printk_lines\":%llu}\n",
		       (unsigned long long)ps.lines, (unsigned long long)ps.lost);
		fflush(stdout);
		return;
	}
	if (recs && (has_record_sites(meta) || st.records || st.malformed)) {
		if (st.lost_counted)
			err_msg("%llu record%s, %llu lost (ring buffer full), %llu malformed, %llu dropped\n",
				(unsigned long long)st.records, st.records == 1 ? "" : "s",
				(unsigned long long)st.lost,
				(unsigned long long)st.malformed,
				(unsigned long long)st.dropped);
		else
			err_msg("%llu record%s, %llu malformed, %llu dropped; records dropped by a full ring buffer are not counted (the object has no '%s' map)\n",
				(unsigned long long)st.records, st.records == 1 ? "" : "s",
				(unsigned long long)st.malformed,
				(unsigned long long)st.dropped, BPFPROBE_LOST_MAP);
	}
	if (pr)
		err_msg("%llu bpf_printk line%s, %llu lost (trace buffer overrun)\n",
			(unsigned long long)ps.lines, ps.lines == 1 ? "" : "s",
			(unsigned long long)ps.lost);
}

/* ---- main ---- */

/*
 * Numeric options. Digits only: no sign, space, base prefix, exponent,
 * inf or nan, so ' -1' is not a huge number and '1e12' not a duration;
 * then a suffix by kind, and a range the message states.
 */
enum num_kind {
	NUM_PLAIN,   /* a whole number */
	NUM_DECIMAL, /* K, M, G: 10^3, 10^6, 10^9 (counts) */
	NUM_BINARY,  /* K, M, G: 2^10, 2^20, 2^30 (bytes) */
	NUM_MILLI,   /* a decimal fraction of up to 3 digits, in thousandths */
};

struct num_opt {
	const char *name;  /* "--count" */
	const char *what;  /* "a number of hits" */
	unsigned long long min, max; /* in thousandths for NUM_MILLI */
	enum num_kind kind;
	bool pow2;         /* a power of two */
	const char *note;  /* said after the range, or NULL */
};

/* \p v as the option would be written: 4K, 1G; 0.001 for thousandths. */
static void format_number(const struct num_opt *o, unsigned long long v,
			  char *buf, size_t sz)
{
	static const char sfx[] = "KMG";
	int i = 0;

	if (o->kind == NUM_MILLI) {
		if (v % 1000)
			snprintf(buf, sz, "%llu.%03llu", v / 1000, v % 1000);
		else
			snprintf(buf, sz, "%llu", v / 1000);
		return;
	}
	if (o->kind == NUM_BINARY)
		while (i < 3 && v && !(v % 1024))
			v /= 1024, i++;
	else if (o->kind == NUM_DECIMAL)
		while (i < 3 && v && !(v % 1000))
			v /= 1000, i++;
	if (i)
		snprintf(buf, sz, "%llu%c", v, sfx[i - 1]);
	else
		snprintf(buf, sz, "%llu", v);
}

static int parse_number(const struct num_opt *o, const char *text,
			unsigned long long *out)
{
	static const char *const units[] = {
		[NUM_PLAIN] = "",
		[NUM_DECIMAL] = "suffixes K, M, G: 10^3, 10^6, 10^9",
		[NUM_BINARY] = "suffixes K, M, G: 2^10, 2^20, 2^30",
		[NUM_MILLI] = "up to 3 decimals",
	};
	unsigned long long v = 0, mul = 1;
	const char *p = text;
	char lo[32], hi[32];
	bool ok = *p >= '0' && *p <= '9';

	for (; ok && *p >= '0' && *p <= '9'; p++) {
		if (v > (ULLONG_MAX - (*p - '0')) / 10)
			ok = false; /* too many digits: out of range below */
		else
			v = v * 10 + (*p - '0');
	}
	if (ok && o->kind == NUM_MILLI) {
		unsigned long long frac = 0;
		int digits = 0;

		if (*p == '.') {
			for (p++; *p >= '0' && *p <= '9'; p++, digits++)
				if (digits < 3)
					frac = frac * 10 + (*p - '0');
			ok = digits >= 1 && digits <= 3;
		}
		for (; digits < 3; digits++)
			frac *= 10;
		ok = ok && v <= (ULLONG_MAX - frac) / 1000;
		v = v * 1000 + frac;
	} else if (ok && *p && o->kind != NUM_PLAIN) {
		const char *at = strchr("KMG", toupper((unsigned char)*p));

		for (const char *q = "KMG"; at && q <= at; q++)
			mul *= o->kind == NUM_BINARY ? 1024 : 1000;
		p += at != NULL;
	}
	ok = ok && !*p;
	if (ok && v > ULLONG_MAX / mul)
		ok = false;
	v *= mul;
	if (ok && o->pow2)
		ok = v && !(v & (v - 1));
	if (ok && v >= o->min && v <= o->max) {
		*out = v;
		return 0;
	}
	format_number(o, o->min, lo, sizeof(lo));
	format_number(o, o->max, hi, sizeof(hi));
	err_msg("%s wants %s from %s to %s (%s%s%s), got '%s'\n", o->name, o->what, lo,
		hi, units[o->kind], *units[o->kind] && o->note ? "; " : "",
		o->note ? o->note : "", text);
	return -1;
}

/* The kernel's largest pid (kernel.pid_max), or its limit when unreadable. */
static unsigned long long pid_max(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v > 1 ? v : 4194304; /* PID_MAX_LIMIT on 64-bit */
}

/* --fields time,comm,pid,tid,cpu */
static int parse_fields(const char *text)
{
	static const struct {
		const char *name;
		unsigned int bit;
	} names[] = {
		{ "time", BPFPROBE_FIELD_TIME }, { "comm", BPFPROBE_FIELD_COMM },
		{ "pid", BPFPROBE_FIELD_PID },   { "tid", BPFPROBE_FIELD_TID },
		{ "cpu", BPFPROBE_FIELD_CPU },
	};
	const char *p = text;
	unsigned int fields = 0;

	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len && !strncmp(p, names[i].name, len))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			err_msg("--fields wants names from time,comm,pid,tid,cpu separated by commas, got '%.*s' in '%s'\n",
				(int)len, p, text);
			return -1;
		}
		fields |= names[i].bit;
		p += len;
		if (*p == ',' && *++p == 0)
			break;
	}
	if (!fields) {
		err_msg("--fields wants at least one of time,comm,pid,tid,cpu, got '%s'\n", text);
		return -1;
	}
	opt.fields = fields;
	return 0;
}

/* At most a year: the poll timeouts are capped, never overflow. */
#define MAX_DURATION_S 31536000ull

static int parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "children", no_argument, NULL, 'F' },
		{ "all", no_argument, NULL, 'X' },
		{ "time", required_argument, NULL, 'T' },
		{ "fields", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "labels", required_argument, NULL, 'W' },
		{ "force", no_argument, NULL, 'f' },
		{ "force-address", no_argument, NULL, 'A' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "dump-metadata", no_argument, NULL, 'D' },
		{ "check-kernel", no_argument, NULL, 'K' },
		{ "no-printk", no_argument, NULL, 'P' },
		{ "duration", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'c' },
		{ "count-only", no_argument, NULL, 'C' },
		{ "hist", required_argument, NULL, 'H' },
		{ "all-or-nothing", no_argument, NULL, 'a' },
		{ "attach", required_argument, NULL, 'M' },
		{ "clang", required_argument, NULL, 'G' },
		{ "plugin", required_argument, NULL, 'U' },
		{ "debuginfo", required_argument, NULL, 'I' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "ring-size", required_argument, NULL, 'R' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, dd = argc;
	unsigned long long v;

	/* Everything after "--" is the command, untouched by getopt. */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	if (dd < argc) {
		if (dd + 1 == argc) {
			err_msg("no command after '--'\n");
			return EXIT_USAGE;
		}
		opt.cmd = argv + dd + 1;
	}
	while ((c = getopt_long(dd, argv, "vhe:L:V:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': {
			struct num_opt o = { "--pid", "a process id", 1, pid_max() - 1,
					     NUM_PLAIN, false, "below kernel.pid_max" };

			if (parse_number(&o, optarg, &v))
				return EXIT_USAGE;
			if (opt.pid_cnt == MAX_PIDS) {
				err_msg("at most %d --pid options\n", MAX_PIDS);
				return EXIT_USAGE;
			}
			opt.pids[opt.pid_cnt++] = (pid_t)v;
			break;
		}
		case 'F': opt.children = true; break;
		case 'X': opt.all = true; break;
		case 'T':
			if (!strcmp(optarg, "abs") || !strcmp(optarg, "rel")) {
				opt.time_abs = !strcmp(optarg, "abs");
				break;
			}
			err_msg("--time wants 'rel' (seconds since the start) or 'abs' (the wall clock), got '%s'\n",
				optarg);
			return EXIT_USAGE;
		case 'S':
			if (parse_fields(optarg))
				return EXIT_USAGE;
			break;
		case 'j': opt.json = true; break;
		case 'o': opt.output = optarg; break;
		case 'W':
			if (strcmp(optarg, "written") && strcmp(optarg, "perf")) {
				err_msg("--labels wants 'written' or 'perf', got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			opt.perf_names = !strcmp(optarg, "perf");
			break;
		case 'f': opt.force = true; break;
		case 'A': opt.force_address = true; break;
		case 'n': opt.dry_run = true; break;
		case 'D': opt.dump = true; break;
		case 'K': opt.check_kernel = true; break;
		case 'P': opt.no_printk = true; break;
		case 'd': {
			static const struct num_opt o = {
				"--duration", "seconds", 1, MAX_DURATION_S * 1000, NUM_MILLI,
				false, "a year at most" };

			if (parse_number(&o, optarg, &opt.duration_ms))
				return EXIT_USAGE;
			break;
		}
		case 'c': {
			static const struct num_opt o = { "--count", "a number of hits", 1,
							  1ull << 63, NUM_DECIMAL, false, NULL };

			if (parse_number(&o, optarg, &opt.count))
				return EXIT_USAGE;
			break;
		}
		case 'C': opt.count_only = true; break;
		case 'H': opt.hist = optarg; opt.count_only = true; break;
		case 'a': opt.all_or_nothing = true; break;
		case 'M':
			if (!strcmp(optarg, "auto"))
				opt.attach_mode = BPFPROBE_ATTACH_AUTO;
			else if (!strcmp(optarg, "multi"))
				opt.attach_mode = BPFPROBE_ATTACH_MULTI;
			else if (!strcmp(optarg, "single"))
				opt.attach_mode = BPFPROBE_ATTACH_SINGLE;
			else {
				err_msg("--attach wants auto, multi or single, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'G': opt.clang = optarg; break;
		case 'U': opt.plugin = optarg; break;
		case 'I': opt.debuginfo = optarg; break;
		case 'N': opt.no_cache = true; break;
		case 'e':
			if (opt.spec_cnt == sizeof(opt.specs) / sizeof(opt.specs[0])) {
				err_msg("at most %zu -e specs\n", opt.spec_cnt);
				return EXIT_USAGE;
			}
			if (oneliner_check_spec("-e", optarg, strlen(optarg)))
				return EXIT_USAGE;
			opt.specs[opt.spec_cnt++] = optarg;
			break;
		case 'L':
		case 'V':
			if (oneliner_check_spec(c == 'V' ? "-V" : "-L", optarg, strlen(optarg)))
				return EXIT_USAGE;
			opt.list_spec = optarg;
			opt.list_vars = c == 'V';
			break;
		case 'R': {
			struct num_opt o = {
				"--ring-size", "a power of two of bytes",
				(unsigned long long)sysconf(_SC_PAGESIZE),
				BPFPROBE_RECORDS_MAX_SIZE, NUM_BINARY, true,
				"a ring of B bytes takes B of kernel memory and 2B of resident memory" };

			if (parse_number(&o, optarg, &opt.ring_size))
				return EXIT_USAGE;
			break;
		}
		case 'v': opt.verbose = true; break;
		case 'h': usage(stdout); exit(EXIT_OK);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (opt.check_kernel || opt.list_spec)
		return -1;
	if (opt.spec_cnt) {
		if (optind < dd) {
			err_msg("unexpected argument '%s': give -e specs or an object, not both; put the command after '--'\n",
				argv[optind]);
			return EXIT_USAGE;
		}
	} else if (optind >= dd) {
		err_msg("no BPF object given\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!opt.spec_cnt)
		opt.obj_path = argv[optind++];
	if (optind < dd) {
		err_msg("unexpected argument '%s'; put the command after '--'\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	if (opt.force_address && !opt.force) {
		err_msg("--force-address goes with --force: it forces one more check\n");
		return EXIT_USAGE;
	}
	/* The one --pid: the kernel's pid filter and the old checks use it. */
	opt.pid = opt.pid_cnt == 1 ? opt.pids[0] : 0;
	if (opt.pid_cnt && opt.cmd) {
		err_msg("--pid and a command exclude each other\n");
		return EXIT_USAGE;
	}
	if (opt.all && opt.pid_cnt) {
		err_msg("--all and --pid exclude each other: --all records every process\n");
		return EXIT_USAGE;
	}
	if (opt.children && !opt.pid_cnt) {
		err_msg("--children goes with --pid (a command's children are always followed)\n");
		return EXIT_USAGE;
	}
	if (opt.count_only && opt.count) {
		err_msg("--count-only and --count exclude each other\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* What a run holds, from the metadata to the printk stream. */
struct run {
	struct bpfprobe_meta *meta;
	struct bpf_object *obj;
	struct bpfprobe_attachment *att;
	struct bpfprobe_records *recs;
	struct bpfprobe_plain_links *plain;
	struct bpfprobe_printk *printk;
	struct bpfprobe_scope *scope; /* NULL: --all, or no scope map */
	struct bpfprobe_format_opts format;
	struct command cmd;
};

/* The run is limited to some processes: a command, or --pid. */
static bool scoping(void)
{
	return !opt.all && (opt.cmd || opt.pid_cnt);
}

/* The pid the kernel filters uprobes by (and the readers drop others by):
 * the one --pid process when its descendants are not followed; else 0. */
static pid_t pid_filter(void)
{
	return opt.children ? 0 : opt.pid;
}

/* The modes that load nothing: -h, --check-kernel, -L/-V, --dump-metadata;
 * -e compiles the object the run uses. -1: go on with the run. */
static int run_without_loading(void)
{
	if (opt.check_kernel)
		return check_kernel();
	if (opt.list_spec)
		return oneliner_list(opt.list_spec, opt.list_vars);
	if (opt.spec_cnt) {
		static char obj[4096];
		struct oneliner_opts oo = { .clang = opt.clang, .plugin = opt.plugin,
					    .debuginfo = opt.debuginfo, .no_cache = opt.no_cache,
					    .verbose = opt.verbose, .hist = opt.hist != NULL };
		int ret = oneliner_build(opt.specs, opt.spec_cnt, &oo, obj, sizeof(obj));

		if (ret)
			return ret;
		opt.obj_path = obj;
	}
	if (opt.dump)
		return dump_metadata(opt.obj_path);
	return -1;
}

/* The metadata first (it says best what is wrong with an object), the
 * privileges and the --pid process, then libbpf's object. */
static int open_object(struct run *r)
{
	if (access(opt.obj_path, R_OK)) {
		err_msg("cannot read %s: %s\n", opt.obj_path, strerror(errno));
		return EXIT_USAGE;
	}
	r->meta = bpfprobe_meta__open_file(opt.obj_path);
	if (!r->meta)
		return exit_for_meta_errno(errno);
	if (!opt.dry_run && !have_bpf_caps()) {
		err_msg("loading BPF programs needs root, or CAP_BPF and CAP_PERFMON (running as uid %d)\n",
			(int)geteuid());
		return EXIT_PERM;
	}
	for (size_t i = 0; i < opt.pid_cnt; i++)
		if (!process_alive(opt.pids[i])) {
			err_msg("process %d does not exist (pid gone?)\n", (int)opt.pids[i]);
			return EXIT_PID_GONE;
		}
	r->obj = bpf_object__open_file(opt.obj_path, NULL);
	if (!r->obj) {
		err_msg("libbpf cannot open %s: %s\n", opt.obj_path, strerror(errno));
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

/* --dry-run: every site checked, where it would attach said; nothing loaded. */
static int dry_run(struct run *r)
{
	BPFPROBE_OPTS(bpfprobe_attach_opts, ao, .meta = r->meta, .pid = opt.pid,
		      .force = opt.force, .force_address = opt.force_address,
		      .dry_run = true, .partial = !opt.all_or_nothing,
		      .attach_mode = opt.attach_mode);

	ao.pid = pid_filter();

	r->att = bpfprobe_object__attach(r->obj, &ao);
	if (!r->att)
		return exit_for_errno(errno);
	return bpfprobe_attachment__skipped_cnt(r->att) ? EXIT_PARTIAL : EXIT_OK;
}

/*
 * --children: the descendants the --pid processes already have, from each
 * process's parent in /proc/<pid>/stat, added until a pass adds none. Forks
 * are followed before this runs, so a child made meanwhile is not missed.
 */
static void scope_add_descendants(struct bpfprobe_scope *scope)
{
	pid_t known[4096];
	size_t n = 0;
	bool grew = true;

	for (size_t i = 0; i < opt.pid_cnt; i++)
		known[n++] = opt.pids[i];
	while (grew && n < sizeof(known) / sizeof(known[0])) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		grew = false;
		while (d && (e = readdir(d)) && n < sizeof(known) / sizeof(known[0])) {
			char path[300], buf[512], *close_paren;
			int pid = atoi(e->d_name), ppid = 0;
			FILE *f;
			bool have = false, parent = false;

			if (pid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/stat", pid);
			f = fopen(path, "re");
			if (!f)
				continue;
			/* The comm may hold ')' and spaces: parse after the last ')'. */
			if (fgets(buf, sizeof(buf), f) && (close_paren = strrchr(buf, ')')))
				ppid = sscanf(close_paren + 1, " %*c %d", &ppid) == 1 ? ppid : 0;
			fclose(f);
			for (size_t i = 0; i < n; i++) {
				have |= known[i] == pid;
				parent |= known[i] == ppid;
			}
			if (have || !parent)
				continue;
			known[n++] = pid;
			grew = true;
			if (!bpfprobe_scope__add(scope, pid) && opt.verbose)
				err_msg("process %d, a child of %d, is in scope\n", pid, ppid);
		}
		if (d)
			closedir(d);
	}
}

/*
 * With a command or --pid: the object's scope map, when it has one (and the
 * per-site map its records check it through), with the --pid processes in
 * it and, for a command or --children, forks followed. The command is added
 * once forked, before it is let go to exec.
 */
static int scope_open(struct run *r)
{
	int err;

	struct bpf_map *sites = bpf_object__find_map_by_name(r->obj, BPFPROBE_SITES_MAP);

	/* Scoped sites count in the per-site map's 'filtered': one built from
	 * an older header has none, and its probes check no scope. */
	if (!scoping() || !sites ||
	    bpf_map__value_size(sites) != sizeof(struct bpfprobe_site_ctl))
		return EXIT_OK;
	r->scope = bpfprobe_scope__new(r->obj);
	if (!r->scope && errno == ENOENT)
		return EXIT_OK; /* an older object: said under -v by attach() */
	if (!r->scope) {
		err_msg("cannot scope the run: %s; --all records every process\n",
			strerror(errno));
		return EXIT_ERROR;
	}
	for (size_t i = 0; i < opt.pid_cnt; i++)
		if ((err = bpfprobe_scope__add(r->scope, opt.pids[i]))) {
			err_msg("cannot add process %d to the scope map: %s\n",
				(int)opt.pids[i], strerror(-err));
			return EXIT_ERROR;
		}
	if ((opt.cmd || opt.children) && (err = bpfprobe_scope__follow(r->scope))) {
		err_msg("cannot follow the %s's children: %s; --all records every process\n",
			opt.cmd ? "command" : "processes", strerror(-err));
		return err == -EPERM || err == -EACCES ? EXIT_PERM : EXIT_ERROR;
	}
	if (opt.children)
		scope_add_descendants(r->scope);
	return EXIT_OK;
}

/* Which processes are recorded, said under -v and in the JSON start line. */
static void report_scope(struct run *r)
{
	const char *mode = !scoping() ? "all" : opt.cmd ? "command" : "pid";
	bool children = opt.cmd || opt.children;

	if (opt.verbose) {
		char pids[MAX_PIDS * 12] = "";
		size_t len = 0;

		for (size_t i = 0; i < opt.pid_cnt; i++)
			len += snprintf(pids + len, sizeof(pids) - len, "%s%d",
					!i ? "" : i + 1 == opt.pid_cnt ? " and " : ", ",
					(int)opt.pids[i]);
		if (!scoping())
			err_msg("tracing: every process%s\n", opt.all ? " (--all)" : "");
		else if (opt.cmd)
			err_msg("tracing: command '%s' (pid %d) and its children\n", opt.cmd[0],
				(int)r->cmd.pid);
		else
			err_msg("tracing: process%s %s%s\n", opt.pid_cnt > 1 ? "es" : "", pids,
				!children ? "" : opt.pid_cnt > 1 ? " and their children" : " and its children");
		for (size_t i = 0; scoping() && i < bpfprobe_meta__site_cnt(r->meta); i++) {
			const struct bpfprobe_site *s = bpfprobe_meta__site(r->meta, i);
			bool user = s->kind == BPFPROBE_UPROBE || s->kind == BPFPROBE_URETPROBE;

			if (s->has_record_id && r->scope)
				continue;
			if (user && pid_filter() > 0)
				continue; /* the kernel's pid filter scopes it */
			err_msg("scoping is not available for probe '%s' (%s): it %s every process\n",
				s->program,
				!s->has_record_id ? "a hand-written body"
				: "the object was built without scoping; rebuild it with this bpfprobe's bpfprobe.h",
				s->has_record_id ? "records" : "fires in");
		}
	}
	if (opt.json) {
		printf("{\"type\":\"start\",\"scope\":\"%s\"", mode);
		if (opt.cmd) {
			printf(",\"command\":");
			print_quoted(opt.cmd[0], strlen(opt.cmd[0]), true);
			printf(",\"pids\":[%d]", (int)r->cmd.pid);
		} else if (opt.pid_cnt) {
			printf(",\"pids\":[");
			for (size_t i = 0; i < opt.pid_cnt; i++)
				printf("%s%d", i ? "," : "", (int)opt.pids[i]);
			printf("]");
		}
		if (scoping())
			printf(",\"children\":%s,\"scoped\":%s", children ? "true" : "false",
			       r->scope ? "true" : "false");
		printf(",\"time_base_ns\":%llu,\"realtime_offset_ns\":%lld}\n",
		       (unsigned long long)r->format.time_base_ns,
		       (long long)r->format.realtime_offset_ns);
	}
}

/* The records maps sized, the object loaded, the records reader set up:
 * before attaching, so the per-site limits and counts hold from hit 1. */
static int load(struct run *r)
{
	BPFPROBE_OPTS(bpfprobe_records_opts, ro, .pid = pid_filter(),
		      .flags = (opt.json ? BPFPROBE_FMT_JSON : 0) |
			       (opt.perf_names ? BPFPROBE_FMT_PERF_NAMES : 0),
		      .limit = opt.count, .no_wakeup = true, .hist = opt.hist,
		      .format = &r->format,
		      .mode = opt.count_only ? BPFPROBE_SITE_COUNT
					     : BPFPROBE_SITE_RECORD);
	struct timespec mono, real;
	int ret = bpfprobe_records__prepare(r->obj, r->meta, opt.ring_size);

	if (ret) {
		err_msg("cannot size the records maps: %s\n", strerror(-ret));
		return EXIT_ERROR;
	}
	ret = load_object(r->obj, r->meta);
	if (ret)
		return ret;
	/* Times are shown from here, the start of the run; the wall clock
	 * is the monotonic clock moved by one offset measured now. */
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	r->format = (struct bpfprobe_format_opts){
		.sz = sizeof(r->format), .flags = ro.flags, .fields = opt.fields,
		.time_base_ns = mono.tv_sec * 1000000000ull + mono.tv_nsec,
		.time_abs = opt.time_abs,
		.realtime_offset_ns = (real.tv_sec - mono.tv_sec) * 1000000000ll +
				      (real.tv_nsec - mono.tv_nsec),
	};
	if ((ret = scope_open(r)))
		return ret;
	ro.scoped = r->scope != NULL;
	r->recs = bpfprobe_records__new(r->obj, r->meta, &ro);
	if (!r->recs && opt.hist && (errno == EINVAL || errno == ENOENT)) {
		if (errno == ENOENT)
			err_msg("--hist: the object has no recording probe\n");
		return EXIT_USAGE;
	}
	if (!r->recs && errno != ENOENT) {
		err_msg("cannot read records: %s\n", strerror(errno));
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

/* The command forked (it waits to exec), the probe sites and the plain
 * programs attached, the printk stream opened, its known tasks named. */
static int attach(struct run *r)
{
	BPFPROBE_OPTS(bpfprobe_attach_opts, ao, .meta = r->meta, .pid = pid_filter(),
		      .force = opt.force, .force_address = opt.force_address,
		      .partial = !opt.all_or_nothing);
	BPFPROBE_OPTS(bpfprobe_plain_opts, po, .pid = pid_filter());
	BPFPROBE_OPTS(bpfprobe_printk_opts, pko, .pid = pid_filter(),
		      .flags = opt.json ? BPFPROBE_FMT_JSON : 0);
	int ret;

	if (opt.cmd && (ret = command_fork(&r->cmd, opt.cmd))) {
		err_msg("cannot fork: %s\n", strerror(-ret));
		return EXIT_COMMAND;
	}
	/* In scope before it may exec: its first hit is recorded. */
	if (opt.cmd && r->scope && (ret = bpfprobe_scope__add(r->scope, r->cmd.pid))) {
		err_msg("cannot add the command to the scope map: %s\n", strerror(-ret));
		return EXIT_ERROR;
	}
	r->att = bpfprobe_object__attach(r->obj, &ao);
	if (!r->att)
		return exit_for_errno(errno);
	r->plain = bpfprobe_object__attach_plain(r->obj, r->meta, &po);
	if (!opt.no_printk && bpfprobe_object__uses_printk(r->obj))
		r->printk = bpfprobe_printk__open(&pko);
	if (r->printk && opt.cmd)
		bpfprobe_printk__name_task(r->printk, r->cmd.pid, opt.cmd[0]);
	for (size_t i = 0; r->printk && i < opt.pid_cnt; i++)
		bpfprobe_printk__name_task(r->printk, opt.pids[i], NULL);
	if (opt.verbose) {
		/* A session link attaches the two sites of an @entry pair. */
		size_t multi = bpfprobe_attachment__multi_site_cnt(r->att);
		size_t links = bpfprobe_attachment__multi_link_cnt(r->att);
		size_t sites = bpfprobe_attachment__link_cnt(r->att) +
			       2 * bpfprobe_attachment__session_cnt(r->att) + multi;

		if (multi)
			err_msg("%zu site%s attached (%zu through %zu uprobe_multi link%s, %zu with one probe each) in %.1f ms\n",
				sites, sites == 1 ? "" : "s", multi, links,
				links == 1 ? "" : "s", sites - multi, ms_since_start());
		else
			err_msg("%zu site%s attached (one probe each) in %.1f ms\n",
				sites, sites == 1 ? "" : "s", ms_since_start());
	}
	report_scope(r);
	return EXIT_OK;
}

/* How long the end of a run reads the ring before counting the rest. */
#define FINAL_DRAIN_MS 1000

/*
 * The end of every run, whatever ended it (the command or --pid process,
 * --duration, a signal, a closed stdout): the probes detached first, so no
 * hit comes after the counts are read; every record left in the ring read
 * (for up to FINAL_DRAIN_MS, then counted unread); the printk lines that
 * arrived; the command stopped and waited for; the counts printed.
 */
static int finish(struct run *r)
{
	size_t skipped = bpfprobe_attachment__skipped_cnt(r->att);
	int drained = 0;

	bpfprobe_plain_links__destroy(r->plain);
	r->plain = NULL;
	bpfprobe_attachment__destroy(r->att);
	r->att = NULL;
	if (r->recs)
		drained = bpfprobe_records__drain(r->recs, FINAL_DRAIN_MS);
	/* bpf_printk lines may still be on their way to the reader page. */
	if (r->printk) {
		bpfprobe_printk__read(r->printk);
		usleep(5 * 1000);
		bpfprobe_printk__read(r->printk);
	}
	fflush(stdout);

	command_stop(&r->cmd);
	if (r->cmd.done) {
		if (WIFEXITED(r->cmd.status) && WEXITSTATUS(r->cmd.status))
			err_msg("command exited with status %d\n", WEXITSTATUS(r->cmd.status));
		else if (WIFSIGNALED(r->cmd.status))
			err_msg("command killed by signal %d\n", WTERMSIG(r->cmd.status));
	}
	report_losses(r->meta, r->recs, r->printk, drained);
	if (skipped) {
		err_msg("%zu of %zu probes could not attach (reported above); exit code %d\n",
			skipped, bpfprobe_meta__site_cnt(r->meta), EXIT_PARTIAL);
		return EXIT_PARTIAL;
	}
	return EXIT_OK;
}

/* The command started, everything streamed until the end, then counted. */
static int trace(struct run *r)
{
	/* A signal while loading or attaching: the command is not started. */
	if (stop_sig)
		command_abort(&r->cmd);
	else if (opt.cmd && command_start(&r->cmd, opt.cmd[0]))
		return EXIT_COMMAND;
	if (!stop_sig)
		stream(r->recs, r->printk, &r->cmd);
	return finish(r);
}

static void *free_scope(void *scope)
{
	bpfprobe_scope__free(scope);
	return NULL;
}

static void close_run(struct run *r)
{
	struct timespec t0, t1;

	pthread_t scope_tid;
	bool scope_thread;

	command_abort(&r->cmd);
	bpfprobe_records__free(r->recs);
	/* The scope's tracepoints detach while the probes do: each waits for
	 * a grace period, and one after the other they made exit ~0.1 s
	 * slower. */
	scope_thread = r->scope && !pthread_create(&scope_tid, NULL, free_scope, r->scope);
	if (!scope_thread)
		bpfprobe_scope__free(r->scope);
	r->scope = NULL;
	bpfprobe_printk__close(r->printk);
	bpfprobe_plain_links__destroy(r->plain);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (r->att && !opt.dry_run && opt.verbose) {
		bpfprobe_attachment__destroy(r->att);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		err_msg("detached in %.1f ms\n", ms_between(&t0, &t1));
	} else {
		bpfprobe_attachment__destroy(r->att);
	}
	if (scope_thread)
		pthread_join(scope_tid, NULL);
	bpf_object__close(r->obj);
	bpfprobe_meta__free(r->meta);
}

int main(int argc, char **argv)
{
	struct run r = { .cmd = { .go_fd = -1, .exec_fd = -1 } };
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &started);
	ret = parse_args(argc, argv);
	if (ret >= 0)
		return ret;
	libbpf_set_print(libbpf_print);
	bpfprobe_set_print(runtime_print);
	if (opt.output && (ret = redirect_output(opt.output)) >= 0)
		return ret;
	ret = run_without_loading();
	if (ret >= 0)
		return ret;

	ret = open_object(&r);
	if (!ret && opt.dry_run)
		ret = dry_run(&r);
	else if (!ret) {
		/* From here on a signal ends the run through close_run(). */
		catch_signals();
		ret = load(&r);
		/* Output is flushed once per read, not per line. */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		if (!ret)
			ret = attach(&r);
		if (!ret)
			ret = trace(&r);
	}
	close_run(&r);
	return ret;
}
