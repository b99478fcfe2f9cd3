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

/* libbpf's messages are kept while loading, to trim the verifier log. */
static char *libbpf_log;
static size_t libbpf_log_len, libbpf_log_cap;
static bool capture_libbpf;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char *buf = NULL;
	int n;

	if (level == LIBBPF_DEBUG && !opt.verbose)
		return 0;
	/* A verifier log comes as one long message: format it whole. */
	n = vasprintf(&buf, fmt, ap);
	if (n < 0)
		return 0;
	if (capture_libbpf && level == LIBBPF_WARN &&
	    libbpf_log_len + n + 1 <= (64u << 20)) {
		if (libbpf_log_len + n + 1 > libbpf_log_cap) {
			size_t cap = (libbpf_log_len + n + 1) * 2;
			char *p = realloc(libbpf_log, cap);

			if (p) {
				libbpf_log = p;
				libbpf_log_cap = cap;
			}
		}
		if (libbpf_log_len + n + 1 <= libbpf_log_cap) {
			memcpy(libbpf_log + libbpf_log_len, buf, n);
			libbpf_log_len += n;
			libbpf_log[libbpf_log_len] = 0;
		}
	}
	/* While loading, warnings wait: a verifier log is shown trimmed. */
	if (opt.verbose || (level == LIBBPF_WARN && !capture_libbpf))
		fputs(buf, stderr);
	free(buf);
	return 0;
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

/* Prints the last lines of the verifier log that libbpf printed. */
static void report_verifier_log(const char *log)
{
	const char *begin = strstr(log, "-- BEGIN PROG LOAD LOG --");
	const char *end, *p, *prog_start, *tail;
	const int keep = 20;
	int lines = 0, shown = 0;
	char prog[128] = "?";

	/* "libbpf: prog 'NAME': -- BEGIN PROG LOAD LOG --" */
	for (prog_start = begin; prog_start > log && prog_start[-1] != '\n'; prog_start--)
		;
	sscanf(prog_start, "libbpf: prog '%127[^']'", prog);
	begin = strchr(begin, '\n');
	begin = begin ? begin + 1 : log;
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end)
		end = begin + strlen(begin);
	for (p = begin; p < end; p++)
		if (*p == '\n')
			lines++;
	tail = end;
	while (tail > begin && shown <= keep) {
		tail--;
		if (tail > begin && tail[-1] == '\n')
			shown++;
	}
	if (shown > keep)
		tail = strchr(tail, '\n') + 1;
	if (opt.verbose) {
		err_msg("the verifier rejected program '%s' (its log is above)\n", prog);
		return;
	}
	err_msg("the verifier rejected program '%s'; the end of its log:\n", prog);
	if (tail > begin)
		fprintf(stderr, "  ... %d earlier line%s omitted (-v shows the whole log)\n",
			lines - keep, lines - keep == 1 ? "" : "s");
	for (p = tail; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		int len = nl ? (int)(nl - p) : (int)(end - p);

		fprintf(stderr, "  | %.*s\n", len, p);
		p += len + 1;
	}
}

static int load_object(struct bpf_object *obj)
{
	int err;

	capture_libbpf = true;
	err = bpf_object__load(obj);
	capture_libbpf = false;
	if (!err) {
		if (libbpf_log_len && !opt.verbose)
			fputs(libbpf_log, stderr);
		return EXIT_OK;
	}
	if (libbpf_log && strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --")) {
		report_verifier_log(libbpf_log);
		return EXIT_VERIFIER;
	}
	if (libbpf_log_len && !opt.verbose)
		fputs(libbpf_log, stderr);
	if (err == -EPERM) {
		err_msg("loading %s: %s; it needs root, or CAP_BPF and CAP_PERFMON\n",
			opt.obj_path, strerror(-err));
		return EXIT_PERM;
	}
	err_msg("loading %s failed: %s\n", opt.obj_path, strerror(-err));
	return EXIT_ERROR;
}

/* Does \p prog call bpf_trace_printk or bpf_trace_vprintk? */
static bool uses_printk(const struct bpf_program *prog)
{
	const struct bpf_insn *insn = bpf_program__insns(prog);
	size_t n = bpf_program__insn_cnt(prog);

	for (size_t i = 0; insn && i < n; i++)
		if (insn[i].code == (BPF_JMP | BPF_CALL) && insn[i].src_reg == 0 &&
		    (insn[i].imm == BPF_FUNC_trace_printk ||
		     insn[i].imm == 177 /* BPF_FUNC_trace_vprintk */))
			return true;
	return false;
}

/* ---- bpf_printk lines: a private tracefs instance ---- */

struct printk_reader {
	int fd;
	char instance[512]; /* "" when reading the global trace_pipe */
	char buf[65536];
	size_t len;
	unsigned long long lines, filtered, lost_lines;
};

static const char *find_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };

	for (int i = 0; i < 2; i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/trace_pipe", dirs[i]);
		if (!access(p, R_OK))
			return dirs[i];
	}
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return dirs[0];
	return NULL;
}

static int write_file(const char *dir, const char *file, const char *val)
{
	char path[1024];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Instances of bpfprobe-runs that died without cleaning up (SIGKILL) would
 * keep collecting lines: remove those whose process is gone.
 */
static void remove_stale_instances(const char *tracefs)
{
	char dir[512], inst[1024];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/instances", tracefs);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		int pid;
		char end;

		if (sscanf(e->d_name, "bpfprobe-run-%d%c", &pid, &end) != 1 || pid <= 0)
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(inst, sizeof(inst), "%s/%s", dir, e->d_name);
		write_file(inst, "events/bpf_trace/bpf_trace_printk/enable", "0");
		if (!rmdir(inst) && opt.verbose)
			err_msg("removed the tracefs instance of a dead bpfprobe-run: %s\n", inst);
	}
	closedir(d);
}

static int printk_open(struct printk_reader *r)
{
	const char *tracefs = find_tracefs();
	char path[1024];

	r->fd = -1;
	if (!tracefs) {
		err_msg("warning: bpf_printk lines will not be shown: tracefs is not mounted and cannot be mounted at /sys/kernel/tracing\n");
		return -ENOENT;
	}
	remove_stale_instances(tracefs);
	/*
	 * A private instance: its own buffer, so other readers of the global
	 * trace_pipe neither steal our lines nor get ours, and the record-tgid
	 * option tells which process each line came from.
	 */
	snprintf(r->instance, sizeof(r->instance), "%s/instances/bpfprobe-run-%d",
		 tracefs, (int)getpid());
	if (mkdir(r->instance, 0700) == 0 &&
	    !write_file(r->instance, "events/bpf_trace/bpf_trace_printk/enable", "1")) {
		write_file(r->instance, "options/record-tgid", "1");
		snprintf(path, sizeof(path), "%s/trace_pipe", r->instance);
	} else {
		if (r->instance[0])
			rmdir(r->instance);
		r->instance[0] = 0;
		err_msg("warning: cannot create a tracefs instance (%s); reading the global trace_pipe, which other readers share\n",
			strerror(errno));
		snprintf(path, sizeof(path), "%s/trace_pipe", tracefs);
	}
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		err_msg("warning: cannot open %s: %s; bpf_printk lines will not be shown\n",
			path, strerror(errno));
		if (r->instance[0])
			rmdir(r->instance);
		return -errno;
	}
	return 0;
}

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

/*
 * Tasks whose names bpfprobe-run knows itself: the command it started (the
 * base name it ran) and the --pid process (its name at the start). A trace
 * line names its task from the kernel's saved_cmdlines cache, which may have
 * lost it ("<...>-18430: ...") or hold another task's name for a reused pid;
 * so the lines of these tasks are named from here, and other "<...>" lines
 * from /proc while the task lives.
 */
static struct {
	pid_t pid;
	char comm[16]; /* TASK_COMM_LEN */
} known_tasks[2];
static size_t known_task_cnt;

static void know_task(pid_t pid, const char *name)
{
	const char *slash = strrchr(name, '/');

	if (pid <= 0 || known_task_cnt == sizeof(known_tasks) / sizeof(known_tasks[0]))
		return;
	known_tasks[known_task_cnt].pid = pid;
	/* The kernel's comm after exec: the file's base name, 15 bytes. */
	snprintf(known_tasks[known_task_cnt].comm, sizeof(known_tasks[0].comm),
		 "%s", slash ? slash + 1 : name);
	known_task_cnt++;
}

/* "/proc/<pid>/comm" without its newline, into buf; false if gone. */
static bool read_comm(long pid, char *buf, size_t sz)
{
	char path[64];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)sz, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok && *buf;
}

static const char *task_name(const char *traced, long tid, long tgid)
{
	static char comm[16];

	for (size_t i = 0; i < known_task_cnt; i++)
		if (known_tasks[i].pid == tgid || known_tasks[i].pid == tid)
			return known_tasks[i].comm;
	if (strcmp(traced, "<...>"))
		return traced;
	if (tid > 0 && read_comm(tid, comm, sizeof(comm)))
		return comm;
	return traced;
}

/*
 * One trace_pipe line:
 *   "  demo-4121  (   4121) [001] ...11  1234.567890: bpf_trace_printk: msg"
 * (the "(tgid)" column only with record-tgid), or "CPU:1 [LOST 12 EVENTS]".
 */
static void printk_line(struct printk_reader *r, char *line)
{
	const char *marker = ": bpf_trace_printk: ";
	char *msg = strstr(line, marker), *task, *cpu, *dash, *ts;
	long tid = -1, tgid = -1;
	unsigned long long lost;

	if (sscanf(line, "CPU:%*d [LOST %llu EVENTS]", &lost) == 1) {
		r->lost_lines += lost;
		return;
	}
	if (!msg)
		return;
	*msg = 0;
	msg += strlen(marker);
	task = line;
	while (isspace((unsigned char)*task))
		task++;
	cpu = strstr(task, " [");
	if (!cpu)
		return;
	*cpu = 0;
	cpu += 2;
	/* The tgid column sits between the task and the CPU. */
	{
		char *paren = strrchr(task, '(');

		if (paren && strchr(paren, ')')) {
			tgid = strtol(paren + 1, NULL, 10);
			*paren = 0;
		}
	}
	for (char *e = task + strlen(task); e > task && isspace((unsigned char)e[-1]); e--)
		e[-1] = 0;
	dash = strrchr(task, '-');
	if (dash) {
		*dash = 0;
		tid = strtol(dash + 1, NULL, 10);
	}
	/* Our own lines: printing one would make the next (a probe on write). */
	if ((opt.pid > 0 && tgid > 0 && tgid != opt.pid) || tgid == getpid() ||
	    (tgid <= 0 && tid == getpid())) {
		r->filtered++;
		return;
	}
	r->lines++;
	task = (char *)task_name(task, tid, tgid);
	ts = strrchr(cpu, ' ');
	if (opt.json) {
		printf("{\"type\":\"printk\",\"comm\":");
		print_quoted(task, strlen(task), true);
		printf(",\"tid\":%ld", tid);
		if (tgid > 0)
			printf(",\"pid\":%ld", tgid);
		printf(",\"cpu\":%d,\"time\":", atoi(cpu));
		if (ts && is_number(ts + 1))
			printf("%s", ts + 1);
		else
			printf("null");
		printf(",\"msg\":");
		print_quoted(msg, strlen(msg), true);
		printf("}\n");
	} else {
		printf("%s-%ld: %s\n", task, tgid > 0 ? tgid : tid, msg);
	}
}

static void printk_read(struct printk_reader *r)
{
	/* A bounded batch: the caller's loop must see signals and deadlines. */
	for (int reads = 0; reads < 64; reads++) {
		ssize_t n = read(r->fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len);
		char *start, *nl;

		if (n <= 0)
			return;
		r->len += n;
		r->buf[r->len] = 0;
		start = r->buf;
		while ((nl = strchr(start, '\n'))) {
			*nl = 0;
			printk_line(r, start);
			start = nl + 1;
		}
		r->len -= start - r->buf;
		memmove(r->buf, start, r->len);
		if (r->len == sizeof(r->buf) - 1)
			r->len = 0; /* a line longer than the buffer: drop it */
	}
}

/* Events the ring buffers overwrote or dropped: per_cpu/cpuN/stats. */
static unsigned long long printk_overruns(struct printk_reader *r)
{
	char dir[1100], path[1400], line[256];
	unsigned long long total = 0, v;
	DIR *d;
	struct dirent *e;

	if (!r->instance[0])
		return 0;
	snprintf(dir, sizeof(dir), "%s/per_cpu", r->instance);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		FILE *f;

		if (strncmp(e->d_name, "cpu", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/stats", dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %llu", &v) == 1 ||
			    sscanf(line, "dropped events: %llu", &v) == 1)
				total += v;
		fclose(f);
	}
	closedir(d);
	return total;
}

static void printk_close(struct printk_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->instance[0]) {
		write_file(r->instance, "events/bpf_trace/bpf_trace_printk/enable", "0");
		if (rmdir(r->instance))
			err_msg("warning: cannot remove tracefs instance %s: %s\n",
				r->instance, strerror(errno));
	}
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
static void drain(struct bpfprobe_records *recs, struct printk_reader *pr,
		  double budget)
{
	double until = now() + budget;

	if (recs)
		for (int i = 0; i < 256 && !stop_sig; i++)
			if (bpfprobe_records__consume(recs) < BPFPROBE_RECORDS_BATCH ||
			    now() >= until)
				break;
	if (pr->fd >= 0)
		printk_read(pr);
	fflush(stdout);
}

/*
 * Records are submitted without wake-ups (BPF_RB_NO_WAKEUP) and read on a
 * short timer: one wake-up per record cost more than the probe itself.
 * The end of the command or --pid process is seen through a pidfd at once.
 */
static int stream(struct bpfprobe_records *recs, struct printk_reader *pr,
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

		if (pr->fd >= 0)
			fds[nfds++] = (struct pollfd){ .fd = pr->fd, .events = POLLIN };
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
	if (pr->fd >= 0) {
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
			  struct bpfprobe_records *recs, struct printk_reader *pr)
{
	struct bpfprobe_records_stats st = { 0 };
	unsigned long long printk_lost = pr->lost_lines + printk_overruns(pr);

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
		       pr->lines, printk_lost);
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
	if (pr->fd >= 0 || pr->lines)
		err_msg("%llu bpf_printk line%s, %llu lost (trace buffer overrun)\n",
			pr->lines, pr->lines == 1 ? "" : "s", printk_lost);
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

int main(int argc, char **argv)
{
	struct bpf_object *obj = NULL;
	struct bpfprobe_meta *meta = NULL;
	struct bpfprobe_attachment *att = NULL;
	struct bpfprobe_records *recs = NULL;
	struct bpf_link **plain_links = NULL;
	size_t plain_cnt = 0;
	struct printk_reader *pr;
	struct command cmd = { .go_fd = -1, .exec_fd = -1 };
	struct bpf_program *prog;
	bool printk = false;
	int ret;

	ret = parse_args(argc, argv);
	if (ret >= 0)
		return ret;
	libbpf_set_print(libbpf_print);
	bpfprobe_set_print(runtime_print);
	if (opt.check_kernel)
		return check_kernel();
	if (opt.list_spec)
		return oneliner_list(opt.list_spec, opt.list_vars);
	if (opt.spec_cnt) {
		static char obj[4096];
		struct oneliner_opts oo = { .clang = opt.clang, .no_cache = opt.no_cache,
					    .verbose = opt.verbose, .hist = opt.hist != NULL };

		ret = oneliner_build(opt.specs, opt.spec_cnt, &oo, obj, sizeof(obj));
		if (ret)
			return ret;
		opt.obj_path = obj;
	}
	if (opt.dump)
		return dump_metadata(opt.obj_path);

	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return EXIT_ERROR;
	pr->fd = -1;

	/* The metadata first: it says best what is wrong with an object. */
	if (access(opt.obj_path, R_OK)) {
		err_msg("cannot read %s: %s\n", opt.obj_path, strerror(errno));
		free(pr);
		return EXIT_USAGE;
	}
	meta = bpfprobe_meta__open_file(opt.obj_path);
	if (!meta) {
		free(pr);
		return exit_for_meta_errno(errno);
	}

	if (!opt.dry_run && !have_bpf_caps()) {
		err_msg("loading BPF programs needs root, or CAP_BPF and CAP_PERFMON (running as uid %d)\n",
			(int)geteuid());
		ret = EXIT_PERM;
		goto out;
	}
	if (opt.pid > 0 && !process_alive(opt.pid)) {
		err_msg("process %d does not exist (pid gone?)\n", (int)opt.pid);
		ret = EXIT_PID_GONE;
		goto out;
	}

	obj = bpf_object__open_file(opt.obj_path, NULL);
	if (!obj) {
		err_msg("libbpf cannot open %s: %s\n", opt.obj_path, strerror(errno));
		ret = EXIT_ERROR;
		goto out;
	}

	if (opt.dry_run) {
		BPFPROBE_OPTS(bpfprobe_attach_opts, ao, .meta = meta, .pid = opt.pid,
			      .force = opt.force, .force_address = opt.force_address,
			      .dry_run = true, .partial = !opt.all_or_nothing);

		att = bpfprobe_object__attach(obj, &ao);
		ret = att ? (bpfprobe_attachment__skipped_cnt(att) ? EXIT_PARTIAL : EXIT_OK)
			  : exit_for_errno(errno);
		goto out;
	}

	ret = bpfprobe_records__prepare(obj, meta, opt.ring_size);
	if (ret) {
		err_msg("cannot size the records maps: %s\n", strerror(-ret));
		ret = EXIT_ERROR;
		goto out;
	}
	ret = load_object(obj);
	if (ret)
		goto out;

	/* Before attaching: the per-site limits and counts hold from hit 1. */
	{
		BPFPROBE_OPTS(bpfprobe_records_opts, ro, .pid = opt.pid,
			      .flags = opt.json ? BPFPROBE_FMT_JSON : 0,
			      .limit = opt.count, .no_wakeup = true, .hist = opt.hist,
			      .mode = opt.count_only ? BPFPROBE_SITE_COUNT
						     : BPFPROBE_SITE_RECORD);

		recs = bpfprobe_records__new(obj, meta, &ro);
		if (!recs && opt.hist && (errno == EINVAL || errno == ENOENT)) {
			if (errno == ENOENT)
				err_msg("--hist: the object has no recording probe\n");
			ret = EXIT_USAGE;
			goto out;
		}
		if (!recs && errno != ENOENT) {
			err_msg("cannot read records: %s\n", strerror(errno));
			ret = EXIT_ERROR;
			goto out;
		}
	}
	/* Output is flushed once per read, not per line. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);

	if (opt.cmd && (ret = command_fork(&cmd, opt.cmd))) {
		err_msg("cannot fork: %s\n", strerror(-ret));
		ret = EXIT_COMMAND;
		goto out;
	}
	if (opt.cmd) {
		know_task(cmd.pid, opt.cmd[0]);
	} else if (opt.pid > 0) {
		char comm[16];

		if (read_comm(opt.pid, comm, sizeof(comm)))
			know_task(opt.pid, comm);
	}

	{
		BPFPROBE_OPTS(bpfprobe_attach_opts, ao, .meta = meta, .pid = opt.pid,
			      .force = opt.force, .force_address = opt.force_address,
			      .partial = !opt.all_or_nothing);

		att = bpfprobe_object__attach(obj, &ao);
		if (!att) {
			ret = exit_for_errno(errno);
			goto out;
		}
	}

	/* Programs the metadata does not describe: plain libbpf sections. */
	plain_links = calloc(bpfprobe_meta__site_cnt(meta) + 64, sizeof(*plain_links));
	bpf_object__for_each_program(prog, obj) {
		bool described = false;
		struct bpf_link *link;

		printk |= uses_printk(prog);
		for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++)
			if (!strcmp(bpfprobe_meta__site(meta, i)->program,
				    bpf_program__name(prog)))
				described = true;
		if (described || !plain_links || plain_cnt >= 64 +
		    bpfprobe_meta__site_cnt(meta))
			continue;
		link = bpf_program__attach(prog);
		if (!link) {
			err_msg("warning: program '%s' (section '%s') is not a bpfprobe site and libbpf cannot attach it by its section: %s; skipped\n",
				bpf_program__name(prog), bpf_program__section_name(prog),
				strerror(errno));
			continue;
		}
		if (opt.pid > 0)
			err_msg("warning: program '%s' is attached by its section name and fires in every process, not only %d\n",
				bpf_program__name(prog), (int)opt.pid);
		plain_links[plain_cnt++] = link;
	}

	if (printk && !opt.no_printk)
		printk_open(pr);

	{
		struct sigaction sa = { .sa_handler = on_signal };

		sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: poll() returns */
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		/* A closed stdout (| head) ends the run cleanly, not by SIGPIPE. */
		signal(SIGPIPE, SIG_IGN);
	}
	if (opt.verbose)
		err_msg("%zu site%s attached\n", bpfprobe_attachment__link_cnt(att),
			bpfprobe_attachment__link_cnt(att) == 1 ? "" : "s");

	if (opt.cmd && command_start(&cmd, opt.cmd[0])) {
		ret = EXIT_COMMAND;
		goto out;
	}
	ret = stream(recs, pr, &cmd);
	report_losses(meta, recs, pr);
	if (!ret && bpfprobe_attachment__skipped_cnt(att)) {
		err_msg("%zu of %zu probes could not attach (reported above); exit code %d\n",
			bpfprobe_attachment__skipped_cnt(att), bpfprobe_meta__site_cnt(meta),
			EXIT_PARTIAL);
		ret = EXIT_PARTIAL;
	}
out:
	command_abort(&cmd);
	bpfprobe_records__free(recs);
	printk_close(pr);
	for (size_t i = 0; i < plain_cnt; i++)
		bpf_link__destroy(plain_links[i]);
	free(plain_links);
	bpfprobe_attachment__destroy(att);
	bpf_object__close(obj);
	bpfprobe_meta__free(meta);
	free(pr);
	free(libbpf_log);
	return ret;
}
