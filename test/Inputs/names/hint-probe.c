/* One probe whose spec the test gives as SPEC (compiled with -DSPEC=...),
   to see the plugin's words for a library error. */
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC(SPEC)
int probe(struct pt_regs *ctx, long a) { return 0; }

char LICENSE[] SEC("license") = "GPL";
