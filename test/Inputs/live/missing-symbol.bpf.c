/* A plain libbpf probe on a function args.c does not have: attaching it
 * must fail, and bpfprobe-test-loader must name the program. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("uprobe/" TARGET ":no_such_function")
int probe_missing(struct pt_regs *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
