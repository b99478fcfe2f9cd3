/* A plain libbpf probe the verifier rejects (it dereferences a register
 * value, an unchecked scalar): bpfprobe-test-loader must print the
 * verifier's log. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("uprobe/" TARGET ":f1")
int probe_rejected(struct pt_regs *ctx) { return *(int *)ctx->rdi; }

char LICENSE[] SEC("license") = "GPL";
