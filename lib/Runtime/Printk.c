/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The bpf_printk lines of a run, read from a private tracefs instance: its
 * own buffer, so that other readers of the global trace_pipe neither steal
 * these lines nor get them, with the record-tgid option to tell which
 * process each line came from. Each line is parsed and named (the tasks
 * the caller knows by name, else the trace's name, else /proc's), filtered
 * by process and handed to a callback or printed as text or JSON.
 */
#include "Internal.h"
#include "Support/Escape.h"

#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define PRINTK_EVENT "events/bpf_trace/bpf_trace_printk/enable"

struct bpfprobe_printk {
	int fd;
	char instance[512]; /* "" when reading the global trace_pipe */
	pid_t pid;
	unsigned int flags;
	bpfprobe_printk_fn on_line;
	void *ctx;
	/* Tasks named by the caller (the command it started, the --pid
	 * process): the trace's saved_cmdlines cache may have lost their
	 * names ("<...>") or hold another task's for a reused pid. */
	struct {
		pid_t pid;
		char comm[16]; /* TASK_COMM_LEN */
	} tasks[8];
	size_t task_cnt;
	char comm[16]; /* a name read from /proc for the line at hand */
	__u64 lines, filtered, lost_lines;
	size_t len;
	char buf[65536];
};

bool bpfprobe_program__uses_printk(const struct bpf_program *prog)
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

bool bpfprobe_object__uses_printk(const struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
		if (bpfprobe_program__uses_printk(prog))
			return true;
	return false;
}

/* ---- the tracefs instance ---- */

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
	char path[1600];
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
 * Instances of readers that died without cleaning up (SIGKILL) would keep
 * collecting lines: remove those whose process is gone (bpfprobe-PID, and
 * bpfprobe-run-PID of older runtimes).
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

		if ((sscanf(e->d_name, "bpfprobe-%d%c", &pid, &end) != 1 &&
		     sscanf(e->d_name, "bpfprobe-run-%d%c", &pid, &end) != 1) ||
		    pid <= 0)
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(inst, sizeof(inst), "%s/%s", dir, e->d_name);
		write_file(inst, PRINTK_EVENT, "0");
		if (!rmdir(inst))
			pr_debug("removed the tracefs instance of a dead reader: %s\n", inst);
	}
	closedir(d);
}

struct bpfprobe_printk *bpfprobe_printk__open(const struct bpfprobe_printk_opts *opts)
{
	const char *tracefs;
	struct bpfprobe_printk *p;
	char path[1024];

	if (!OPTS_VALID(opts, bpfprobe_printk_opts)) {
		errno = EINVAL;
		return NULL;
	}
	tracefs = find_tracefs();
	if (!tracefs) {
		pr_warn("warning: bpf_printk lines will not be shown: tracefs is not mounted and cannot be mounted at /sys/kernel/tracing\n");
		errno = ENOENT;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = OPTS_GET(opts, pid, 0);
	p->flags = OPTS_GET(opts, flags, 0);
	p->on_line = OPTS_GET(opts, on_line, NULL);
	p->ctx = OPTS_GET(opts, ctx, NULL);
	remove_stale_instances(tracefs);
	snprintf(p->instance, sizeof(p->instance), "%s/instances/bpfprobe-%d",
		 tracefs, (int)getpid());
	if (mkdir(p->instance, 0700) == 0 && !write_file(p->instance, PRINTK_EVENT, "1")) {
		write_file(p->instance, "options/record-tgid", "1");
		snprintf(path, sizeof(path), "%s/trace_pipe", p->instance);
	} else {
		int err = errno;

		rmdir(p->instance);
		p->instance[0] = 0;
		pr_warn("warning: cannot create a tracefs instance (%s); reading the global trace_pipe, which other readers share\n",
			strerror(err));
		snprintf(path, sizeof(path), "%s/trace_pipe", tracefs);
	}
	p->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (p->fd < 0) {
		int err = errno;

		pr_warn("warning: cannot open %s: %s; bpf_printk lines will not be shown\n",
			path, strerror(err));
		if (p->instance[0])
			rmdir(p->instance);
		free(p);
		errno = err;
		return NULL;
	}
	return p;
}

void bpfprobe_printk__close(struct bpfprobe_printk *p)
{
	if (!p)
		return;
	close(p->fd);
	if (p->instance[0]) {
		write_file(p->instance, PRINTK_EVENT, "0");
		if (rmdir(p->instance))
			pr_warn("warning: cannot remove tracefs instance %s: %s\n", p->instance,
				strerror(errno));
	}
	free(p);
}

int bpfprobe_printk__fd(const struct bpfprobe_printk *p)
{
	return p ? p->fd : -EINVAL;
}

/* ---- naming the task of a line ---- */

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

int bpfprobe_printk__name_task(struct bpfprobe_printk *p, pid_t pid, const char *name)
{
	const char *slash;

	if (!p || pid <= 0)
		return -EINVAL;
	if (!name) {
		if (!read_comm(pid, p->comm, sizeof(p->comm)))
			return -ESRCH;
		name = p->comm;
	}
	if (p->task_cnt == sizeof(p->tasks) / sizeof(p->tasks[0]))
		return -E2BIG;
	/* The kernel's comm after exec: the file's base name, 15 bytes. */
	slash = strrchr(name, '/');
	p->tasks[p->task_cnt].pid = pid;
	snprintf(p->tasks[p->task_cnt].comm, sizeof(p->tasks[0].comm), "%s",
		 slash ? slash + 1 : name);
	p->task_cnt++;
	return 0;
}

static const char *task_name(struct bpfprobe_printk *p, const char *traced,
			     long tid, long tgid)
{
	for (size_t i = 0; i < p->task_cnt; i++)
		if (p->tasks[i].pid == tgid || p->tasks[i].pid == tid)
			return p->tasks[i].comm;
	if (strcmp(traced, "<...>"))
		return traced;
	if (tid > 0 && read_comm(tid, p->comm, sizeof(p->comm)))
		return p->comm;
	return traced;
}

/* ---- lines ---- */

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

static void print_quoted(const char *s, bool json)
{
	char esc[8];

	putchar('"');
	for (; *s; s++) {
		if (bpfprobe_quote_escape(*s, json, esc))
			fputs(esc, stdout);
		else
			putchar(*s);
	}
	putchar('"');
}

void bpfprobe_printk_line__print(const struct bpfprobe_printk_line *l,
				 unsigned int flags)
{
	if (!(flags & BPFPROBE_FMT_JSON)) {
		printf("%s-%ld: %s\n", l->comm, l->pid > 0 ? l->pid : l->tid, l->msg);
		return;
	}
	printf("{\"type\":\"printk\",\"comm\":");
	print_quoted(l->comm, true);
	printf(",\"tid\":%ld", l->tid);
	if (l->pid > 0)
		printf(",\"pid\":%ld", l->pid);
	printf(",\"cpu\":%d,\"time\":%s", l->cpu, l->time ? l->time : "null");
	printf(",\"msg\":");
	print_quoted(l->msg, true);
	printf("}\n");
}

/*
 * Splits one trace_pipe line in place:
 *   "  demo-4121  (   4121) [001] ...11  1234.567890: bpf_trace_printk: msg"
 * (the "(tgid)" column only with record-tgid). False: not a printk line.
 */
static bool split_line(char *line, struct bpfprobe_printk_line *l, char **task)
{
	const char *marker = ": bpf_trace_printk: ";
	char *msg = strstr(line, marker), *cpu, *dash, *ts, *paren;

	if (!msg)
		return false;
	*msg = 0;
	l->msg = msg + strlen(marker);
	*task = line;
	while (isspace((unsigned char)**task))
		(*task)++;
	cpu = strstr(*task, " [");
	if (!cpu)
		return false;
	*cpu = 0;
	cpu += 2;
	l->cpu = atoi(cpu);
	ts = strrchr(cpu, ' ');
	l->time = ts && is_number(ts + 1) ? ts + 1 : NULL;
	/* The tgid column sits between the task and the CPU. */
	l->pid = -1;
	paren = strrchr(*task, '(');
	if (paren && strchr(paren, ')')) {
		l->pid = strtol(paren + 1, NULL, 10);
		*paren = 0;
	}
	for (char *e = *task + strlen(*task); e > *task && isspace((unsigned char)e[-1]); e--)
		e[-1] = 0;
	l->tid = -1;
	dash = strrchr(*task, '-');
	if (dash) {
		*dash = 0;
		l->tid = strtol(dash + 1, NULL, 10);
	}
	return true;
}

/* One trace_pipe line, or "CPU:1 [LOST 12 EVENTS]". */
static void handle_line(struct bpfprobe_printk *p, char *line)
{
	struct bpfprobe_printk_line l = { 0 };
	unsigned long long lost;
	char *task;

	if (sscanf(line, "CPU:%*d [LOST %llu EVENTS]", &lost) == 1) {
		p->lost_lines += lost;
		return;
	}
	if (!split_line(line, &l, &task))
		return;
	/* Our own lines: printing one would make the next (a probe on write). */
	if ((p->pid > 0 && l.pid > 0 && l.pid != p->pid) || l.pid == getpid() ||
	    (l.pid <= 0 && l.tid == getpid())) {
		p->filtered++;
		return;
	}
	p->lines++;
	l.comm = task_name(p, task, l.tid, l.pid);
	if (p->on_line)
		p->on_line(p->ctx, &l);
	else
		bpfprobe_printk_line__print(&l, p->flags);
}

int bpfprobe_printk__read(struct bpfprobe_printk *p)
{
	__u64 before;

	if (!p)
		return -EINVAL;
	before = p->lines;
	/* A bounded batch: the caller's loop must see signals and deadlines. */
	for (int reads = 0; reads < 64; reads++) {
		ssize_t n = read(p->fd, p->buf + p->len, sizeof(p->buf) - 1 - p->len);
		char *start, *nl;

		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n <= 0)
			break;
		p->len += n;
		p->buf[p->len] = 0;
		start = p->buf;
		while ((nl = strchr(start, '\n'))) {
			*nl = 0;
			handle_line(p, start);
			start = nl + 1;
		}
		p->len -= start - p->buf;
		memmove(p->buf, start, p->len);
		if (p->len == sizeof(p->buf) - 1)
			p->len = 0; /* a line longer than the buffer: drop it */
	}
	return (int)(p->lines - before);
}

/* Events the instance's buffers overwrote or dropped: per_cpu/cpuN/stats. */
static __u64 overruns(const struct bpfprobe_printk *p)
{
	char dir[1100], path[1400], line[256];
	unsigned long long v;
	__u64 total = 0;
	struct dirent *e;
	DIR *d;

	if (!p->instance[0])
		return 0;
	snprintf(dir, sizeof(dir), "%s/per_cpu", p->instance);
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

int bpfprobe_printk__stats(const struct bpfprobe_printk *p,
			   struct bpfprobe_printk_stats *stats)
{
	if (!p || !stats)
		return -EINVAL;
	stats->lines = p->lines;
	stats->filtered = p->filtered;
	stats->lost = p->lost_lines + overruns(p);
	return 0;
}
