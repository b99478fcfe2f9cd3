/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * A kernel entry probe without any debug info: the annotation lists
 * vfs_write()'s parameter types,
 *
 *   ssize_t vfs_write(struct file *file, const char __user *buf,
 *                     size_t count, loff_t *pos);
 *
 * and the plugin fetches each one from the register the kernel's calling
 * convention passes it in (x86-64: %di, %si, %dx, %cx). Nothing is read
 * from vmlinux or BTF at build time, so the object is not tied to one
 * kernel build (its metadata has no build-id to check).
 *
 * `struct file` only needs a declaration; the plugin knows the kernel's
 * `size_t` and `loff_t`. The body may use any parameter type wide enough
 * for each value (the plugin checks).
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#include "write-top.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32); /* tgid */
	__type(value, struct write_stats);
} stats SEC(".maps");

struct file;

/* The same probe could be written SEC("kprobe/vfs_write(...)"). */
BPF_PROBE("kprobe/vfs_write(struct file *, const char *, size_t, loff_t *)")
int on_vfs_write(struct pt_regs *ctx, struct file *file, const char *buf,
		 unsigned long count, long long *pos)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct write_stats *s, zero = {};
	long long p = 0;

	s = bpf_map_lookup_elem(&stats, &tgid);
	if (!s) {
		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&stats, &tgid, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&stats, &tgid);
		if (!s)
			return 0;
	}
	__sync_fetch_and_add(&s->calls, 1);
	__sync_fetch_and_add(&s->bytes, count);
	/* pos is a kernel pointer (NULL for pipes and sockets). */
	if (pos && bpf_probe_read_kernel(&p, sizeof(p), pos) == 0)
		s->last_pos = p;
	return 0;
}
