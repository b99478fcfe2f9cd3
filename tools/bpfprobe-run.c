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
#include <linux/bpf.h>
#include <poll.h>
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
	EXIT_SETUP = ONELINER_SETUP,      /* 14: no plugin/clang/headers for -e */
};

static const char *prog_name = "bpfprobe-run";

static struct {
	const char *obj_path;
	pid_t pid;
	bool json;
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
	double duration; /* seconds; 0 = until the command/pid ends or ^C */
	char *specs[64];  /* -e */
	size_t spec_cnt;
	const char *list_spec; /* -L / -V */
	bool list_vars;
	const char *clang;
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
"records until the command or --pid process exits, or Ctrl-C.\n"
"\n"
"one-liners:\n"
"  -e SPEC          record every hit of SPEC (the annotation syntax of\n"
"                   bpfprobe(7), e.g. 'uprobe/./shop:ship+30(o->customer)'):\n"
"                   the probe is written, compiled with the plugin and the\n"
"                   clang bpfprobe was built for, cached by the specs and\n"
"                   the binaries' build-ids, and run; repeatable\n"
"  --clang PATH     the clang for -e (default: $BPFPROBE_CLANG, else the\n"
"                   one bpfprobe was built with)\n"
"  --no-cache       compile the -e probes again\n"
"  -L SPEC          list the lines of a function a probe can be put on\n"
"                   (perf probe -L; bpfprobe-resolve --lines)\n"
"  -V SPEC          list the variables visible at a site (perf probe -V;\n"
"                   bpfprobe-resolve --vars)\n"
"\n"
"options:\n"
"  --pid N          user probes fire only in process N; stop when it exits\n"
"  --json           print JSON lines instead of text\n"
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
"                   records of a quiet one)\n"
"  --count-only     count the hits of each recording probe in BPF and\n"
"                   print the counts at exit; no records\n"
"  --hist ARG       with --count-only's counts, a log2 histogram of the\n"
"                   recording probes' argument ARG (as records name it),\n"
"                   kept in BPF and printed at exit (bpftrace's hist())\n"
"  --ring-size B    bytes of the records ring buffer (a power of two;\n"
"                   K and M suffixes); default 512K per recording probe,\n"
"                   at least 1M, at most 64M\n"
"  --duration SEC   stop after SEC seconds\n"
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
"  5 binary, symbol or module missing or moved\n"
"  12 the run went on without the probes that could not attach (each was\n"
"     reported); without --all-or-nothing, codes 3-9 mean no probe attached\n"
"  13 an -e spec did not compile (the error is shown under the spec)\n"
"  14 no plugin, headers, clang or cache directory for -e\n",
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
	if (err == -EPERM) {
		err_msg("loading %s: %s; it needs root, or CAP_BPF and CAP_PERFMON\n",
			opt.obj_path, strerror(-err));
		return EXIT_PERM;
	}
	err_msg("loading %s failed: %s\n", opt.obj_path, strerror(-err));
	return EXIT_ERROR;
}

/* ---- the command ---- */

struct command {
	pid_t pid;
	int go_fd;   /* parent writes one byte: attached, exec now */
	int exec_fd; /* child writes errno if exec fails; EOF on success */
};

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

		close(go[1]);
		close(ex[0]);
		/* Wait until every site is attached; EOF means give up. */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
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

	if (write(c->go_fd, "g", 1) != 1)
		return -errno;
	close(c->go_fd);
	c->go_fd = -1;
	n = read(c->exec_fd, &e, sizeof(e));
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
	waitpid(c->pid, NULL, 0);
	c->pid = 0;
}

/* ---- streaming ---- */

static void on_signal(int sig)
{
	stop_sig = sig;
}

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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
 * What the ring holds, in batches, for at most budget seconds, flushed
 * once. The budget keeps --duration, signals and the command's exit seen
 * on time when probes fill the ring as fast as it is read (a busy writer
 * in a slow guest: whatever is not read in time is counted as lost).
 */
static void drain(struct bpfprobe_records *recs, struct bpfprobe_printk *pr,
		  double budget)
{
	double until = now() + budget;

	if (recs)
		for (int i = 0; i < 256 && !stop_sig; i++)
			if (bpfprobe_records__consume(recs) < BPFPROBE_RECORDS_BATCH ||
			    now() >= until)
				break;
	if (pr)
		bpfprobe_printk__read(pr);
	fflush(stdout);
}

/*
 * Records are submitted without wake-ups (BPF_RB_NO_WAKEUP) and read on a
 * short timer: one wake-up per record cost more than the probe itself.
 * The end of the command or --pid process is seen through a pidfd at once.
 */
static int stream(struct bpfprobe_records *recs, struct bpfprobe_printk *pr,
		  struct command *cmd)
{
	const int tick_ms = 10;
	double start = now();
	int status = 0, exit_code = EXIT_OK;
	bool child_done = false, proc_gone = false;
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
		if (recs || (watched > 0 && pidfd < 0))
			timeout = recs ? tick_ms : 100;
		if (opt.duration > 0) {
			int left = (int)((opt.duration - (now() - start)) * 1000) + 1;

			timeout = timeout < 0 || left < timeout ? left : timeout;
		}
		if (nfds)
			poll(fds, nfds, timeout);
		else if (timeout >= 0)
			usleep(timeout * 1000);
		else
			pause();
		drain(recs, pr, 0.05);

		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };

			proc_gone = poll(&p, 1, 0) == 1;
		} else if (cmd->pid <= 0 && opt.pid > 0) {
			proc_gone = !process_alive(opt.pid);
		}
		if (cmd->pid > 0 && (pidfd < 0 || proc_gone) &&
		    waitpid(cmd->pid, &status, WNOHANG) == cmd->pid) {
			child_done = true;
			break;
		}
		if (cmd->pid <= 0 && opt.pid > 0 && proc_gone) {
			err_msg("process %d exited\n", (int)opt.pid);
			break;
		}
		if (opt.duration > 0 && now() - start >= opt.duration)
			break;
		if (ferror(stdout))
			break; /* the reader went away */
	}
	if (pidfd >= 0)
		close(pidfd);
	/*
	 * A probe runs in the task that hits it: once the command is gone its
	 * records are in the ring. bpf_printk lines may still be on their way
	 * to trace_pipe's reader page: one short second look.
	 */
	drain(recs, pr, 0.25);
	if (pr) {
		usleep(5 * 1000);
		drain(recs, pr, 0.25);
	}

	if (cmd->pid > 0 && !child_done) {
		if (stop_sig != SIGINT)
			kill(cmd->pid, SIGTERM);
		waitpid(cmd->pid, &status, 0);
		child_done = true;
	}
	if (child_done) {
		if (WIFEXITED(status) && WEXITSTATUS(status))
			err_msg("command exited with status %d\n", WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			err_msg("command killed by signal %d\n", WTERMSIG(status));
	}
	return exit_code;
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
 * One line per recording site: hits counted in BPF, records delivered,
 * records lost. With --count-only the counts are the output (stdout).
 */
static void report_sites(const struct bpfprobe_meta *meta,
			 struct bpfprobe_records *recs)
{
	for (size_t i = 0; recs && i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		struct bpfprobe_site_stats st;

		if (!s->has_record_id || bpfprobe_records__site_stats(recs, s, &st))
			continue;
		/* An object without per-site counters: the summary says it all. */
		if (!st.counted && !opt.count_only)
			continue;
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
				printf(",\"records\":%llu", (unsigned long long)st.records);
				if (st.counted)
					printf(",\"lost_records\":%llu", (unsigned long long)st.lost);
				else
					printf(",\"lost_records\":null");
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
		} else if (st.counted) {
			err_msg("%s: %llu hit%s, %llu record%s, %llu lost\n", s->program,
				(unsigned long long)st.hits, st.hits == 1 ? "" : "s",
				(unsigned long long)st.records, st.records == 1 ? "" : "s",
				(unsigned long long)st.lost);
		}
	}
	fflush(stdout);
}

static void report_losses(const struct bpfprobe_meta *meta,
			  struct bpfprobe_records *recs, struct bpfprobe_printk *pr)
{
	struct bpfprobe_records_stats st = { 0 };
	struct bpfprobe_printk_stats ps = { 0 };

	bpfprobe_printk__stats(pr, &ps);

	if (recs)
		bpfprobe_records__stats(recs, &st);
	report_sites(meta, recs);
	if (opt.json) {
		printf("{\"type\":\"summary\",\"records\":%llu,\"malformed_records\":%llu,",
		       (unsigned long long)st.records, (unsigned long long)st.malformed);
		if (st.lost_counted)
			printf("\"lost_records\":%llu,", (unsigned long long)st.lost);
		else
			printf("\"lost_records\":null,");
		printf("\"printk_lines\":%llu,\"lost_printk_lines\":%llu}\n",
		       (unsigned long long)ps.lines, (unsigned long long)ps.lost);
		fflush(stdout);
		return;
	}
	if (recs && (has_record_sites(meta) || st.records || st.malformed)) {
		if (st.lost_counted)
			err_msg("%llu record%s, %llu lost (ring buffer full), %llu malformed\n",
				(unsigned long long)st.records, st.records == 1 ? "" : "s",
				(unsigned long long)st.lost,
				(unsigned long long)st.malformed);
		else
			err_msg("%llu record%s, %llu malformed; records dropped by a full ring buffer are not counted (the object has no '%s' map)\n",
				(unsigned long long)st.records, st.records == 1 ? "" : "s",
				(unsigned long long)st.malformed, BPFPROBE_LOST_MAP);
	}
	if (pr)
		err_msg("%llu bpf_printk line%s, %llu lost (trace buffer overrun)\n",
			(unsigned long long)ps.lines, ps.lines == 1 ? "" : "s",
			(unsigned long long)ps.lost);
}

/* ---- main ---- */

static int parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
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
		{ "no-cache", no_argument, NULL, 'N' },
		{ "ring-size", required_argument, NULL, 'R' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, dd = argc;
	char *end;

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
	while ((c = getopt_long(dd, argv, "vhe:L:V:", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			errno = 0;
			opt.pid = (pid_t)strtol(optarg, &end, 10);
			if (errno || *end || opt.pid <= 0) {
				err_msg("--pid wants a process id, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j': opt.json = true; break;
		case 'f': opt.force = true; break;
		case 'A': opt.force_address = true; break;
		case 'n': opt.dry_run = true; break;
		case 'D': opt.dump = true; break;
		case 'K': opt.check_kernel = true; break;
		case 'P': opt.no_printk = true; break;
		case 'd':
			opt.duration = strtod(optarg, &end);
			if (*end || opt.duration <= 0) {
				err_msg("--duration wants seconds, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			errno = 0;
			opt.count = strtoull(optarg, &end, 10);
			if (errno || *end || !opt.count || *optarg == '-') {
				err_msg("--count wants a number of hits > 0, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
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
		case 'N': opt.no_cache = true; break;
		case 'e':
			if (opt.spec_cnt == sizeof(opt.specs) / sizeof(opt.specs[0])) {
				err_msg("at most %zu -e specs\n", opt.spec_cnt);
				return EXIT_USAGE;
			}
			opt.specs[opt.spec_cnt++] = optarg;
			break;
		case 'L':
		case 'V':
			opt.list_spec = optarg;
			opt.list_vars = c == 'V';
			break;
		case 'R':
			errno = 0;
			opt.ring_size = strtoull(optarg, &end, 10);
			if (*end == 'K' || *end == 'k')
				opt.ring_size <<= 10, end++;
			else if (*end == 'M' || *end == 'm')
				opt.ring_size <<= 20, end++;
			if (errno || *end || *optarg == '-' || !opt.ring_size ||
			    (opt.ring_size & (opt.ring_size - 1)) ||
			    opt.ring_size < (unsigned long long)sysconf(_SC_PAGESIZE) ||
			    opt.ring_size > (1ull << 31)) {
				err_msg("--ring-size wants a power of two from the page size to 2G, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
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
	if (opt.pid > 0 && opt.cmd) {
		err_msg("--pid and a command exclude each other\n");
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
	struct command cmd;
};

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
		struct oneliner_opts oo = { .clang = opt.clang, .no_cache = opt.no_cache,
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
	if (opt.pid > 0 && !process_alive(opt.pid)) {
		err_msg("process %d does not exist (pid gone?)\n", (int)opt.pid);
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

	r->att = bpfprobe_object__attach(r->obj, &ao);
	if (!r->att)
		return exit_for_errno(errno);
	return bpfprobe_attachment__skipped_cnt(r->att) ? EXIT_PARTIAL : EXIT_OK;
}

/* The records maps sized, the object loaded, the records reader set up:
 * before attaching, so the per-site limits and counts hold from hit 1. */
static int load(struct run *r)
{
	BPFPROBE_OPTS(bpfprobe_records_opts, ro, .pid = opt.pid,
		      .flags = opt.json ? BPFPROBE_FMT_JSON : 0,
		      .limit = opt.count, .no_wakeup = true, .hist = opt.hist,
		      .mode = opt.count_only ? BPFPROBE_SITE_COUNT
					     : BPFPROBE_SITE_RECORD);
	int ret = bpfprobe_records__prepare(r->obj, r->meta, opt.ring_size);

	if (ret) {
		err_msg("cannot size the records maps: %s\n", strerror(-ret));
		return EXIT_ERROR;
	}
	ret = load_object(r->obj, r->meta);
	if (ret)
		return ret;
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
	BPFPROBE_OPTS(bpfprobe_attach_opts, ao, .meta = r->meta, .pid = opt.pid,
		      .force = opt.force, .force_address = opt.force_address,
		      .partial = !opt.all_or_nothing);
	BPFPROBE_OPTS(bpfprobe_plain_opts, po, .pid = opt.pid);
	BPFPROBE_OPTS(bpfprobe_printk_opts, pko, .pid = opt.pid,
		      .flags = opt.json ? BPFPROBE_FMT_JSON : 0);
	int ret;

	if (opt.cmd && (ret = command_fork(&r->cmd, opt.cmd))) {
		err_msg("cannot fork: %s\n", strerror(-ret));
		return EXIT_COMMAND;
	}
	r->att = bpfprobe_object__attach(r->obj, &ao);
	if (!r->att)
		return exit_for_errno(errno);
	r->plain = bpfprobe_object__attach_plain(r->obj, r->meta, &po);
	if (!opt.no_printk && bpfprobe_object__uses_printk(r->obj))
		r->printk = bpfprobe_printk__open(&pko);
	if (r->printk && opt.cmd)
		bpfprobe_printk__name_task(r->printk, r->cmd.pid, opt.cmd[0]);
	else if (r->printk && opt.pid > 0)
		bpfprobe_printk__name_task(r->printk, opt.pid, NULL);
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
	return EXIT_OK;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: poll() returns */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed stdout (| head) ends the run cleanly, not by SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
}

/* The command started, everything streamed until the end, then counted. */
static int trace(struct run *r)
{
	int ret;

	if (opt.cmd && command_start(&r->cmd, opt.cmd[0]))
		return EXIT_COMMAND;
	ret = stream(r->recs, r->printk, &r->cmd);
	report_losses(r->meta, r->recs, r->printk);
	if (!ret && bpfprobe_attachment__skipped_cnt(r->att)) {
		err_msg("%zu of %zu probes could not attach (reported above); exit code %d\n",
			bpfprobe_attachment__skipped_cnt(r->att),
			bpfprobe_meta__site_cnt(r->meta), EXIT_PARTIAL);
		ret = EXIT_PARTIAL;
	}
	return ret;
}

static void close_run(struct run *r)
{
	struct timespec t0, t1;

	command_abort(&r->cmd);
	bpfprobe_records__free(r->recs);
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
	ret = run_without_loading();
	if (ret >= 0)
		return ret;

	ret = open_object(&r);
	if (!ret && opt.dry_run)
		ret = dry_run(&r);
	else if (!ret && !(ret = load(&r))) {
		/* Output is flushed once per read, not per line. */
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		ret = attach(&r);
		if (!ret) {
			catch_signals();
			ret = trace(&r);
		}
	}
	close_run(&r);
	return ret;
}
