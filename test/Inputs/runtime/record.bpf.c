/* A default-body probe written by hand, as the plugin would generate it for
 * BPF_PROBE_RECORD("uprobe/./demo:add3(int, long long, char *)"): one
 * record per hit in the layout of include/bpfprobe/metadata.h, and a count
 * of the records the full ring buffer refused. record.meta describes it. */
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

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bpfprobe_lost SEC(".maps");

struct add3_record {
	struct bpfprobe_record_hdr hdr;
	__u64 a, b;
	char s[BPFPROBE_RECORD_STR_LEN];
};

#define ON_ADD3_RECORD_ID 1878827485u /* FNV-1a of "on_add3" */

SEC("uprobe/./demo:add3")
int on_add3(struct pt_regs *ctx)
{
	struct add3_record *r;
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	r = bpf_ringbuf_reserve(&bpfprobe_records, sizeof(*r), 0);
	if (!r) {
		__u32 key = 0;
		__u64 *lost = bpf_map_lookup_elem(&bpfprobe_lost, &key);

		if (lost)
			__sync_fetch_and_add(lost, 1);
		return 0;
	}
	__builtin_memset(&r->hdr, 0, sizeof(r->hdr)); /* ring buffer memory is not zeroed */
	r->hdr.record_id = ON_ADD3_RECORD_ID;
	r->hdr.pid = pid_tgid >> 32;
	r->hdr.tid = (__u32)pid_tgid;
	r->hdr.nargs = 3;
	r->a = (__s64)(int)PT_REGS_PARM1(ctx); /* s32, sign-extended */
	r->b = PT_REGS_PARM2(ctx);
	if (bpf_probe_read_user_str(r->s, sizeof(r->s), (void *)PT_REGS_PARM3(ctx)) < 0)
		r->s[0] = 0;
	bpf_ringbuf_submit(r, 0);
	return 0;
}
