/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The processes a run records: the BPFPROBE_SCOPE_MAP of a loaded object
 * (tgid -> 1), filled with the command or the --pid processes, and, when
 * their descendants are followed, two small programs of the runtime's own,
 * written as raw BPF instructions (no compiler at run time): one on the
 * tracepoint sched/sched_process_fork, which runs in the parent before the
 * child first runs and adds the child when the parent's process is in the
 * map, and one on sched/sched_process_exit, which removes the exiting
 * thread's id (a process's own id when its leader exits). Both share the
 * object's map by its fd.
 */
#include "Internal.h"

#include <bpf/bpf.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

struct bpfprobe_scope {
	int map_fd;
	int prog_fd[2]; /* fork, exit */
	int event_fd[2];
};

/* ---- instructions (include/uapi/linux/bpf.h, as libbpf's bpf_insn.h) ---- */

#define INSN(c, d, s, o, i)                                                    \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),       \
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define RSH64_IMM(d, i) INSN(BPF_ALU64 | BPF_RSH | BPF_K, d, 0, 0, i)
#define LDX_W(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_W, d, s, o, 0)
#define STX_W(d, s, o) INSN(BPF_STX | BPF_MEM | BPF_W, d, s, o, 0)
#define ST_B(d, o, i) INSN(BPF_ST | BPF_MEM | BPF_B, d, 0, o, i)
#define JEQ_IMM(d, i, o) INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* Two slots: the map's fd, resolved by the kernel. */
#define LD_MAP_FD(d, fd)                                                       \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd),          \
		INSN(0, 0, 0, 0, 0)

/*
 * sched_process_fork, in the parent:
 *   key = bpf_get_current_pid_tgid() >> 32;
 *   if (bpf_map_lookup_elem(scope, &key)) {
 *     key = ctx->child_pid; val = 1;
 *     bpf_map_update_elem(scope, &key, &val, BPF_ANY);
 *   }
 */
static int load_fork(int map_fd, int child_off)
{
	struct bpf_insn insns[] = {
		MOV64_REG(BPF_REG_6, BPF_REG_1),
		CALL(BPF_FUNC_get_current_pid_tgid),
		RSH64_IMM(BPF_REG_0, 32),
		STX_W(BPF_REG_10, BPF_REG_0, -4),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 11),
		LDX_W(BPF_REG_1, BPF_REG_6, child_off),
		STX_W(BPF_REG_10, BPF_REG_1, -8),
		ST_B(BPF_REG_10, -12, 1),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -8),
		MOV64_REG(BPF_REG_3, BPF_REG_10),
		ADD64_IMM(BPF_REG_3, -12),
		MOV64_IMM(BPF_REG_4, BPF_ANY),
		CALL(BPF_FUNC_map_update_elem),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	return bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "bpfprobe_fork", "GPL",
			     insns, sizeof(insns) / sizeof(insns[0]), NULL);
}

/*
 * sched_process_exit, in the exiting thread:
 *   key = (u32)bpf_get_current_pid_tgid();  (the tgid when the leader exits)
 *   bpf_map_delete_elem(scope, &key);
 * A thread's id, which the fork program adds as it adds a process's, goes
 * with the thread.
 */
static int load_exit(int map_fd)
{
	struct bpf_insn insns[] = {
		CALL(BPF_FUNC_get_current_pid_tgid),
		STX_W(BPF_REG_10, BPF_REG_0, -4),
		LD_MAP_FD(BPF_REG_1, map_fd),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_delete_elem),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};

	return bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, "bpfprobe_exit", "GPL",
			     insns, sizeof(insns) / sizeof(insns[0]), NULL);
}

/* ---- the tracepoints ---- */

/* The text of events/sched/<event>/<file> into \p buf; -errno. */
static int read_event_file(const char *event, const char *file, char *buf,
			   size_t sz)
{
	const char *tracefs = bpfprobe_find_tracefs();
	char path[512];
	ssize_t n;
	int fd;

	if (!tracefs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/sched/%s/%s", tracefs, event, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sz - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

/* The offset of 4-byte field \p name in the event's format; -errno. */
static int field_offset(const char *event, const char *name)
{
	char text[4096], want[64];
	const char *p;
	int off, size, err = read_event_file(event, "format", text, sizeof(text));

	if (err)
		return err;
	snprintf(want, sizeof(want), " %s;", name);
	p = strstr(text, want);
	if (!p || sscanf(p + strlen(want), " offset:%d; size:%d;", &off, &size) != 2 ||
	    off < 0 || off > 4096 || size != 4)
		return -EPROTO;
	return off;
}

/* A perf event on the tracepoint, running \p prog_fd on every CPU. */
static int attach_tracepoint(const char *event, int prog_fd)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT,
					.size = sizeof(attr), .sample_period = 1,
					.wakeup_events = 1 };
	char id[32];
	int fd, err = read_event_file(event, "id", id, sizeof(id));

	if (err)
		return err;
	attr.config = strtoull(id, NULL, 10);
	/* One event is enough: its program runs wherever the tracepoint fires. */
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* ---- API ---- */

struct bpfprobe_scope *bpfprobe_scope__new(struct bpf_object *obj)
{
	struct bpf_map *map = obj ? bpf_object__find_map_by_name(obj, BPFPROBE_SCOPE_MAP) : NULL;
	struct bpfprobe_scope *s;

	if (!obj) {
		errno = EINVAL;
		return NULL;
	}
	if (!map || bpf_map__fd(map) < 0) {
		errno = ENOENT;
		return NULL;
	}
	if (bpf_map__type(map) != BPF_MAP_TYPE_HASH ||
	    bpf_map__key_size(map) != sizeof(__u32) || bpf_map__value_size(map) != 1) {
		pr_warn("map '%s' is not a HASH of __u32 to __u8; the run cannot be scoped\n",
			BPFPROBE_SCOPE_MAP);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	s->map_fd = bpf_map__fd(map);
	s->prog_fd[0] = s->prog_fd[1] = s->event_fd[0] = s->event_fd[1] = -1;
	return s;
}

int bpfprobe_scope__add(struct bpfprobe_scope *s, pid_t pid)
{
	__u32 key = (__u32)pid;
	__u8 one = 1;

	if (!s || pid <= 0)
		return -EINVAL;
	return bpf_map_update_elem(s->map_fd, &key, &one, BPF_ANY) ? -errno : 0;
}

int bpfprobe_scope__follow(struct bpfprobe_scope *s)
{
	int child_off, err;

	if (!s)
		return -EINVAL;
	if (s->event_fd[0] >= 0)
		return 0;
	child_off = field_offset("sched_process_fork", "child_pid");
	if (child_off < 0) {
		pr_warn("cannot read the child_pid field of sched/sched_process_fork in tracefs: %s; children cannot be followed\n",
			strerror(-child_off));
		return child_off;
	}
	s->prog_fd[0] = load_fork(s->map_fd, child_off);
	s->prog_fd[1] = s->prog_fd[0] >= 0 ? load_exit(s->map_fd) : -1;
	if (s->prog_fd[0] < 0 || s->prog_fd[1] < 0) {
		err = -errno;
		pr_warn("cannot load the programs that follow forks: %s\n", strerror(-err));
		return err;
	}
	s->event_fd[0] = attach_tracepoint("sched_process_fork", s->prog_fd[0]);
	if (s->event_fd[0] < 0) {
		err = s->event_fd[0];
		pr_warn("cannot attach to sched/sched_process_fork: %s; children cannot be followed\n",
			strerror(-err));
		return err;
	}
	s->event_fd[1] = attach_tracepoint("sched_process_exit", s->prog_fd[1]);
	if (s->event_fd[1] < 0) {
		err = s->event_fd[1];
		pr_warn("cannot attach to sched/sched_process_exit: %s\n", strerror(-err));
		close(s->event_fd[0]);
		s->event_fd[0] = -1;
		return err;
	}
	pr_debug("following forks: sched_process_fork (child_pid at %d) and sched_process_exit\n",
		 child_off);
	return 0;
}

void bpfprobe_scope__free(struct bpfprobe_scope *s)
{
	if (!s)
		return;
	int events[2];
	size_t n = 0;

	/* Each tracepoint event's close waits for a grace period (about
	 * 80 ms here): the two wait at once (MultiAttach.c). */
	for (int i = 0; i < 2; i++)
		if (s->event_fd[i] >= 0)
			events[n++] = s->event_fd[i];
	bpfprobe_detach_all(NULL, 0, events, n);
	for (int i = 0; i < 2; i++)
		if (s->prog_fd[i] >= 0)
			close(s->prog_fd[i]);
	free(s);
}
