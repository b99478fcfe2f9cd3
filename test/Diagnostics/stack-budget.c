// No BPF argument limit, but the prologue's stack is counted: 40 arguments
// put 34 on the stack, 272 bytes of slots, over the 256-byte budget.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

#define L10 long, long, long, long, long, long, long, long, long, long
#define P10(n) long n##0, long n##1, long n##2, long n##3, long n##4, long n##5, long n##6, long n##7, long n##8, long n##9

// expected-error@+1 {{the prologue needs 272 bytes of BPF stack, more than its budget of 256}}
SEC("uprobe/./demo:f(" "long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long" ")")
int forty(struct pt_regs *ctx, P10(a), P10(b), P10(c), P10(d)) { return 0; }

// 32 stack arguments (256 bytes) fit.
SEC("uprobe/./demo:f(" "long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long" ")")
int thirty_eight(struct pt_regs *ctx, P10(a), P10(b), P10(c), long d0, long d1, long d2, long d3, long d4, long d5, long d6, long d7) { return 0; }

char LICENSE[] SEC("license") = "GPL";
