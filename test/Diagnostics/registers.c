// Register expressions resolve without debug info; misuse is diagnosed.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// expected-error@+1 {{unknown register '%xyz' on x86_64; registers: %r15, %r14}}
SEC("uprobe/./demo:f(%xyz)")
int badreg(struct pt_regs *ctx, long a) { return 0; }

// expected-error@+1 {{'$retval' is only available in kretprobe, uretprobe and fexit probes}}
SEC("uprobe/./demo:f($retval)")
int retval_entry(struct pt_regs *ctx, long a) { return 0; }

// expected-error@+1 {{'$arg2' is not available in a return probe: argument registers are clobbered at return}}
SEC("uretprobe/./demo:f($arg2)")
int arg_in_ret(struct pt_regs *ctx, long a) { return 0; }

// expected-error@+1 {{'$arg1' is only known at function entry, not at f+8}}
SEC("uprobe/./demo:f+8($arg1)")
int arg_not_entry(struct pt_regs *ctx, long a) { return 0; }

// These are fine.
SEC("uretprobe/./demo:f($retval)")
int ok_ret(struct pt_regs *ctx, long a) { return 0; }
SEC("uprobe/./demo:f+8(%ax, %rdi:u8)")
int ok_regs(struct pt_regs *ctx, long a, int b) { return 0; }

char LICENSE[] SEC("license") = "GPL";
