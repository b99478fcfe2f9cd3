/* A probe the verifier must reject: a map value used without the NULL check,
 * after enough instructions that the log is longer than what bpfprobe-run
 * shows of it (a hash map: newer kernels know a constant-key array lookup
 * cannot fail). record.meta (program on_add3) describes it. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

SEC("uprobe/./demo:add3")
int on_add3(struct pt_regs *ctx)
{
	__u32 key = 0;
	__u64 sum = 0, *v;

#pragma unroll
	for (int i = 0; i < 16; i++)
		sum += bpf_get_prandom_u32();
	v = bpf_map_lookup_elem(&counts, &key);
	*v += sum; /* R0 may be NULL: rejected */
	return 0;
}
