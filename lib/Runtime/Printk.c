/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The bpf_printk lines of a run, read from a private tracefs instance: its
 * own buffer, so that other readers of the global trace_pipe neither steal
 * these lines nor get them. The instance's per-CPU trace_pipe_raw files are
 * read as binary pages (TracePage.c), so each line's thread is the event's
 * common_pid, never a pid parsed out of text a task can put its name into.
 * Lines are ordered by timestamp, named (the tasks the caller knows by
 * name, else /proc's, else the trace's saved_cmdlines), filtered by process
 * and handed to a callback or printed as text or JSON.
 *
 * Instances are shared state: every process of every pid namespace sees
 * them. A run names its instance bpfprobe-<pid>-<random>, keeps its
 * trace_pipe_raw files open from right after mkdir to its end (the kernel
 * then refuses rmdir with EBUSY), and removes another run's instance only
 * by rmdir, never by writing to it: an instance whose owner was killed
 * holds no reader and goes; a live one is busy and stays.
 */
#include "Internal.h"
#include "Support/Escape.h"

#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PRINTK_EVENT "events/bpf_trace/bpf_trace_printk"
#define BATCH_PAGES 1024 /* pages read by one bpfprobe_printk__read() */

/* A line of the batch at hand, waiting to be ordered by time. */
struct pending {
	__u64 ts;
	__s32 tid;
	int cpu;
	size_t msg; /* offset of its NUL-terminated message in the arena */
};

/* What /proc or the trace said of a thread, for the batch at hand. */
struct known_task {
	pid_t tid, tgid;
	bool named;
	char comm[16]; /* TASK_COMM_LEN */
};

struct bpfprobe_printk {
	int epfd;
	int wake_fd; /* the global trace_pipe, polled and never read */
	int *fds;  /* per CPU: trace_pipe_raw, -1 if it could not be opened */
	int ncpu;
	char tracefs[256];
	char instance[512]; /* "" when reading the global buffer */
	struct bpfprobe_trace_format fmt;
	pid_t pid, self;
	unsigned int flags;
	bpfprobe_printk_fn on_line;
	void *ctx;
	/* Tasks named by the caller (the command it started, the --pid
	 * process): /proc may be gone by the time their lines are read, and
	 * the trace's saved_cmdlines cache may hold another task's name. */
	struct {
		pid_t pid;
		char comm[16];
	} tasks[8];
	size_t task_cnt;
	char comm[16]; /* a name read from /proc for bpfprobe_printk__name_task */
	struct known_task known[64];
	size_t known_cnt;
	__u64 lines, filtered, bad_pages;
	/* The batch: pages, then their lines. */
	size_t page_size;
	unsigned char *page;
	int cur_cpu;
	char *arena;
	size_t arena_len, arena_cap;
	struct pending *pend;
	size_t pend_cnt, pend_cap;
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

const char *bpfprobe_find_tracefs(void)
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

/* A small tracefs file, NUL-terminated, into a malloc'd buffer. */
static char *read_small_file(const char *dir, const char *file)
{
	char path[1600], *buf;
	size_t len = 0, cap = 8192;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf && (n = read(fd, buf + len, cap - 1 - len)) > 0) {
		len += (size_t)n;
		if (len == cap - 1 && cap < (1u << 20)) {
			char *b = realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		} else if (len == cap - 1) {
			break;
		}
	}
	close(fd);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* bpfprobe-PID, bpfprobe-run-PID (older runtimes), bpfprobe-PID-HEX. */
static bool is_our_kind(const char *name)
{
	const char *s = name;

	if (strncmp(s, "bpfprobe-", 9))
		return false;
	s += 9;
	if (!strncmp(s, "run-", 4))
		s += 4;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	if (*s == '-' && isxdigit((unsigned char)s[1]))
		for (s++; isxdigit((unsigned char)*s); s++)
			;
	return !*s;
}

/*
 * Instances of readers that died without cleaning up (SIGKILL) would keep
 * collecting lines. A pid says nothing across pid namespaces, so this
 * only tries rmdir, which the kernel refuses (EBUSY) while any reader
 * holds a file of the instance open: a live run keeps its trace_pipe_raw
 * files open for its whole life. Nothing is written to another instance.
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
		if (!is_our_kind(e->d_name))
			continue;
		snprintf(inst, sizeof(inst), "%s/%s", dir, e->d_name);
		if (!rmdir(inst))
			pr_debug("removed a tracefs instance no reader holds: %s\n", inst);
	}
	closedir(d);
}

static void close_cpus(struct bpfprobe_printk *p)
{
	for (int i = 0; i < p->ncpu; i++)
		if (p->fds[i] >= 0)
			close(p->fds[i]);
	free(p->fds);
	p->fds = NULL;
	p->ncpu = 0;
}

/*
 * Opens dir's per_cpu/cpuN/trace_pipe_raw for every CPU it has; 0 when at
 * least one opened, else -errno (-ENOENT: the directory is gone).
 */
static int open_cpus(struct bpfprobe_printk *p, const char *dir)
{
	char path[1100];
	struct dirent *e;
	int opened = 0, err = -ENOENT, max = -1;
	DIR *d;

	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long cpu;

		if (strncmp(e->d_name, "cpu", 3))
			continue;
		cpu = strtol(e->d_name + 3, &end, 10);
		if (*end || cpu < 0 || cpu > 65535)
			continue;
		if (cpu > max)
			max = (int)cpu;
	}
	closedir(d);
	if (max < 0)
		return -ENOENT;
	p->ncpu = max + 1;
	p->fds = malloc(sizeof(int) * (size_t)p->ncpu);
	if (!p->fds) {
		p->ncpu = 0;
		return -ENOMEM;
	}
	for (int i = 0; i < p->ncpu; i++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, i);
		p->fds[i] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (p->fds[i] >= 0)
			opened++;
		else if (errno != ENOENT || err == -ENOENT)
			err = -errno;
	}
	if (!opened) {
		close_cpus(p);
		return err;
	}
	return 0;
}

/* The trace's layouts: events/header_page and the printk event's format. */
static int read_formats(struct bpfprobe_printk *p)
{
	char *hdr = read_small_file(p->tracefs, "events/header_page");
	char *fmt = read_small_file(p->tracefs, PRINTK_EVENT "/format");
	int err = -ENOENT;

	if (hdr && fmt) {
		err = bpfprobe_trace_format__header_page(&p->fmt, hdr);
		if (!err)
			err = bpfprobe_trace_format__event(&p->fmt, fmt);
	}
	free(hdr);
	free(fmt);
	return err;
}

/*
 * mkdir instances/bpfprobe-<pid>-<random>, then open its trace_pipe_raw
 * files before anything else: until one is open another run's reaper may
 * take the new instance for a dead one, and then it is made again under
 * another name. 0, or -errno with nothing left behind.
 */
static int make_instance(struct bpfprobe_printk *p)
{
	int err = -EEXIST;

	for (int attempt = 0; attempt < 8; attempt++) {
		unsigned long long r = 0;

		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			r ^= (unsigned long long)time(NULL) * 2654435761u + (unsigned)attempt;
		snprintf(p->instance, sizeof(p->instance), "%s/instances/bpfprobe-%d-%016llx",
			 p->tracefs, (int)p->self, r);
		if (mkdir(p->instance, 0700)) {
			err = -errno;
			if (err == -EEXIST)
				continue;
			break;
		}
		err = open_cpus(p, p->instance);
		if (!err)
			break;
		rmdir(p->instance);
		if (err != -ENOENT)
			break;
		pr_debug("tracefs instance %s was removed before it was opened; making another\n",
			 p->instance);
	}
	if (err)
		p->instance[0] = 0;
	return err;
}

struct bpfprobe_printk *bpfprobe_printk__open(const struct bpfprobe_printk_opts *opts)
{
	const char *tracefs;
	struct bpfprobe_printk *p;
	char *sub;
	int err;

	if (!OPTS_VALID(opts, bpfprobe_printk_opts)) {
		errno = EINVAL;
		return NULL;
	}
	tracefs = bpfprobe_find_tracefs();
	if (!tracefs) {
		pr_warn("warning: bpf_printk lines will not be shown: tracefs is not mounted and cannot be mounted at /sys/kernel/tracing\n");
		errno = ENOENT;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->epfd = -1;
	p->wake_fd = -1;
	snprintf(p->tracefs, sizeof(p->tracefs), "%s", tracefs);
	p->self = getpid();
	p->pid = OPTS_GET(opts, pid, 0);
	p->flags = OPTS_GET(opts, flags, 0);
	p->on_line = OPTS_GET(opts, on_line, NULL);
	p->ctx = OPTS_GET(opts, ctx, NULL);
	err = read_formats(p);
	if (err) {
		pr_warn("warning: bpf_printk lines will not be shown: cannot read the trace's page layout from %s/events (header_page, bpf_trace_printk/format): %s\n",
			tracefs, strerror(-err));
		free(p);
		errno = -err;
		return NULL;
	}
	remove_stale_instances(tracefs);
	err = make_instance(p);
	if (!err) {
		/* Wake the reader on the first line, not at half a buffer. */
		write_file(p->instance, "buffer_percent", "0");
		/* saved_tgids: the process of a thread gone from /proc. */
		write_file(p->instance, "options/record-tgid", "1");
		err = write_file(p->instance, PRINTK_EVENT "/enable", "1");
		if (err) {
			close_cpus(p);
			rmdir(p->instance);
			p->instance[0] = 0;
		}
	}
	if (err) {
		pr_warn("warning: cannot create a tracefs instance (%s); reading the global trace buffer, which other readers share\n",
			strerror(-err));
		err = open_cpus(p, tracefs);
		if (err) {
			pr_warn("warning: cannot open %s/per_cpu/cpu*/trace_pipe_raw: %s; bpf_printk lines will not be shown\n",
				tracefs, strerror(-err));
			free(p);
			errno = -err;
			return NULL;
		}
	}
	p->page_size = (size_t)sysconf(_SC_PAGESIZE);
	sub = read_small_file(p->instance[0] ? p->instance : tracefs, "buffer_subbuf_size_kb");
	if (sub && strtoul(sub, NULL, 10) * 1024 > p->page_size &&
	    strtoul(sub, NULL, 10) <= 1024)
		p->page_size = strtoul(sub, NULL, 10) * 1024;
	free(sub);
	p->arena_cap = p->page_size * BATCH_PAGES;
	p->page = malloc(p->page_size);
	p->arena = malloc(p->arena_cap);
	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	err = p->page && p->arena && p->epfd >= 0 ? 0 : -ENOMEM;
	for (int i = 0; !err && i < p->ncpu; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (__u32)i };

		if (p->fds[i] >= 0 && epoll_ctl(p->epfd, EPOLL_CTL_ADD, p->fds[i], &ev))
			err = -errno;
	}
	if (!err && !p->instance[0]) {
		/* The global buffer's per-CPU files wake a poller only when half
		 * full (buffer_percent, not ours to change); its trace_pipe
		 * polls readable at the first event. */
		char path[512];
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = ~0u };

		snprintf(path, sizeof(path), "%s/trace_pipe", tracefs);
		p->wake_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (p->wake_fd >= 0 && epoll_ctl(p->epfd, EPOLL_CTL_ADD, p->wake_fd, &ev))
			err = -errno;
	}
	if (err) {
		pr_warn("warning: cannot poll the trace's per-CPU buffers: %s; bpf_printk lines will not be shown\n",
			strerror(-err));
		bpfprobe_printk__close(p);
		errno = -err;
		return NULL;
	}
	return p;
}

void bpfprobe_printk__close(struct bpfprobe_printk *p)
{
	if (!p)
		return;
	if (p->instance[0])
		write_file(p->instance, PRINTK_EVENT "/enable", "0");
	close_cpus(p);
	if (p->wake_fd >= 0)
		close(p->wake_fd);
	if (p->epfd >= 0)
		close(p->epfd);
	if (p->instance[0] && rmdir(p->instance))
		pr_warn("warning: cannot remove tracefs instance %s: %s\n", p->instance,
			strerror(errno));
	if (p->bad_pages)
		pr_warn("warning: %llu malformed trace buffer page%s skipped\n",
			(unsigned long long)p->bad_pages, p->bad_pages == 1 ? "" : "s");
	free(p->page);
	free(p->arena);
	free(p->pend);
	free(p);
}

int bpfprobe_printk__fd(const struct bpfprobe_printk *p)
{
	return p ? p->epfd : -EINVAL;
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

/* The Tgid of thread tid from /proc, or -1 when it is gone. */
static pid_t read_tgid(pid_t tid)
{
	char path[64], line[128];
	long tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %ld", &tgid) == 1)
			break;
	fclose(f);
	return tgid > 0 ? (pid_t)tgid : -1;
}

/*
 * The trace's record of a thread gone from /proc: "pid tgid" lines of
 * saved_tgids or "pid comm" lines of saved_cmdlines, both kept by the
 * kernel at context switches. Numbers and a name, looked up by tid.
 */
static bool trace_lookup(const struct bpfprobe_printk *p, const char *file, pid_t tid,
			 char *out, size_t out_sz)
{
	char *text = read_small_file(p->tracefs, file), *line, *save = NULL;
	bool found = false;

	if (!text)
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end;
		long pid = strtol(line, &end, 10);

		if (pid == tid && end != line && *end == ' ') {
			snprintf(out, out_sz, "%s", end + 1);
			found = true;
		}
	}
	free(text);
	return found;
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

/* What is known of thread tid in this batch, looked up once. */
static struct known_task *know(struct bpfprobe_printk *p, pid_t tid,
			       struct known_task *scratch)
{
	struct known_task *k = scratch;
	char num[32];

	for (size_t i = 0; i < p->known_cnt; i++)
		if (p->known[i].tid == tid)
			return &p->known[i];
	if (p->known_cnt < sizeof(p->known) / sizeof(p->known[0]))
		k = &p->known[p->known_cnt++];
	memset(k, 0, sizeof(*k));
	k->tid = tid;
	k->tgid = tid == p->self ? p->self : read_tgid(tid);
	if (k->tgid < 0 && trace_lookup(p, "saved_tgids", tid, num, sizeof(num)) &&
	    atoi(num) > 0)
		k->tgid = atoi(num);
	return k;
}

static const char *task_name(struct bpfprobe_printk *p, struct known_task *k)
{
	for (size_t i = 0; i < p->task_cnt; i++)
		if (p->tasks[i].pid == k->tgid || p->tasks[i].pid == k->tid)
			return p->tasks[i].comm;
	if (!k->named) {
		k->named = true;
		if (!read_comm(k->tid, k->comm, sizeof(k->comm)) &&
		    !trace_lookup(p, "saved_cmdlines", k->tid, k->comm, sizeof(k->comm)))
			snprintf(k->comm, sizeof(k->comm), "<...>");
	}
	return k->comm;
}

/* ---- lines ---- */

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
		/* One line per line: a newline inside a message cannot start
		 * what reads as another task's line. */
		printf("%s-%ld: ", l->comm, l->pid > 0 ? l->pid : l->tid);
		for (const char *s = l->msg; *s; s++) {
			if (*s == '\n')
				fputs("\\n", stdout);
			else
				putchar(*s);
		}
		putchar('\n');
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

/* One printk event of a page: kept, with a copy of its message, for the
 * batch's ordering. The arena holds at most the pages' bytes. */
static void keep_event(void *ctx, const struct bpfprobe_trace_event *ev)
{
	struct bpfprobe_printk *p = ctx;
	size_t len = ev->len;

	/* The trace's own line end (TP_printk adds "\n"; bpf_printk's format
	 * may have one too). */
	while (len && ev->str[len - 1] == '\n')
		len--;
	if (p->arena_cap - p->arena_len < len + 1)
		return; /* cannot happen: a page's messages fit in the page */
	if (p->pend_cnt == p->pend_cap) {
		size_t cap = p->pend_cap ? p->pend_cap * 2 : 256;
		struct pending *n = realloc(p->pend, cap * sizeof(*n));

		if (!n)
			return;
		p->pend = n;
		p->pend_cap = cap;
	}
	memcpy(p->arena + p->arena_len, ev->str, len);
	p->arena[p->arena_len + len] = 0;
	p->pend[p->pend_cnt++] = (struct pending){ .ts = ev->ts, .tid = ev->pid,
						   .cpu = p->cur_cpu,
						   .msg = p->arena_len };
	p->arena_len += len + 1;
}

static int by_time(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->msg < y->msg ? -1 : x->msg > y->msg;
}

static void deliver(struct bpfprobe_printk *p, const struct pending *e)
{
	struct bpfprobe_printk_line l = { 0 };
	struct known_task scratch, *k;
	unsigned long long us;
	char time[48];

	if (e->tid < 0) {
		p->filtered++; /* no thread has a negative id */
		return;
	}
	if (e->tid == 0) { /* the idle task (an interrupt): no process */
		scratch = (struct known_task){ .tid = 0, .tgid = -1, .named = true,
					       .comm = "<idle>" };
		k = &scratch;
	} else {
		k = know(p, e->tid, &scratch);
	}
	/* Our own lines: printing one would make the next (a probe on write).
	 * --pid: a line is its process's only when the thread is known to
	 * belong to it. */
	if (k->tgid == p->self || k->tid == p->self ||
	    (p->pid > 0 && k->tgid != p->pid && k->tid != p->pid)) {
		p->filtered++;
		return;
	}
	p->lines++;
	us = (e->ts + 500) / 1000; /* as the text trace rounds it */
	snprintf(time, sizeof(time), "%llu.%06llu", us / 1000000, us % 1000000);
	l.tid = k->tid;
	l.pid = k->tgid > 0 ? k->tgid : -1;
	l.cpu = e->cpu;
	l.time = time;
	l.msg = p->arena + e->msg;
	l.comm = task_name(p, k);
	if (p->on_line)
		p->on_line(p->ctx, &l);
	else
		bpfprobe_printk_line__print(&l, p->flags);
}

int bpfprobe_printk__read(struct bpfprobe_printk *p)
{
	int pages = 0;
	__u64 before;
	bool more = true;

	if (!p)
		return -EINVAL;
	before = p->lines;
	p->arena_len = 0;
	p->pend_cnt = 0;
	p->known_cnt = 0;
	/* A bounded batch, a page per CPU in turn: the caller's loop must see
	 * signals and deadlines. */
	while (more && pages < BATCH_PAGES) {
		more = false;
		for (int cpu = 0; cpu < p->ncpu && pages < BATCH_PAGES; cpu++) {
			ssize_t n;

			if (p->fds[cpu] < 0)
				continue;
			n = read(p->fds[cpu], p->page, p->page_size);
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				/* A CPU gone offline, say: the others still count. */
				pr_warn("warning: cannot read the trace buffer of CPU %d: %s; its bpf_printk lines will not be shown\n",
					cpu, strerror(errno));
				epoll_ctl(p->epfd, EPOLL_CTL_DEL, p->fds[cpu], NULL);
				close(p->fds[cpu]);
				p->fds[cpu] = -1;
				continue;
			}
			if (n <= 0)
				continue;
			more = true;
			pages++;
			p->cur_cpu = cpu;
			if (bpfprobe_trace_page__parse(&p->fmt, p->page, (size_t)n, keep_event,
						       p) < 0) {
				if (!p->bad_pages++)
					pr_warn("warning: skipped a malformed trace buffer page (CPU %d, %zd bytes)\n",
						cpu, n);
			}
		}
	}
	if (p->pend_cnt > 1) /* qsort(NULL, 0) is undefined */
		qsort(p->pend, p->pend_cnt, sizeof(*p->pend), by_time);
	for (size_t i = 0; i < p->pend_cnt; i++)
		deliver(p, &p->pend[i]);
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
	stats->lost = overruns(p);
	return 0;
}
