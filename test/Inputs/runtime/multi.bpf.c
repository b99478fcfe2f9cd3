/* The two sites of the probe "uprobe/./multi:multi.c:10(x)" as the plugin
 * emits them for an inlined line: one wrapper program per site, both
 * default-body (records), described by multi.meta. Written by hand: the
 * sites are the entries of first() and second(), where x is still in %di,
 * rather than the line's addresses the DWARF resolver would pick. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpfprobe/metadata.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} bpfprobe_records SEC(".maps");

struct x_record {
	struct bpfprobe_record_hdr hdr;
	__u64 x;
};

static __always_inline int emit(struct pt_regs *ctx, __u32 id)
{
	struct x_record *r = bpf_ringbuf_reserve(&bpfprobe_records, sizeof(*r), 0);
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	if (!r)
		return 0;
	__builtin_memset(&r->hdr, 0, sizeof(r->hdr)); /* ring buffer memory is not zeroed */
	r->hdr.record_id = id;
	r->hdr.pid = pid_tgid >> 32;
	r->hdr.tid = (__u32)pid_tgid;
	r->hdr.nargs = 1;
	r->x = (__s64)(int)PT_REGS_PARM1(ctx);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("uprobe/./multi:first")
int on_line(struct pt_regs *ctx)
{
	return emit(ctx, 1706445711u /* FNV-1a of "on_line" */);
}

SEC("uprobe/./multi:second")
int on_line__1(struct pt_regs *ctx)
{
	return emit(ctx, 3903407140u /* FNV-1a of "on_line__1" */);
}
