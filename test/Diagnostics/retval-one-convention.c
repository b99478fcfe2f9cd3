// The plugin asks the same implementation as bpfprobe-resolve where a return
// value is: with the target's debug info at hand, the function's return
// type decides, whatever the body's parameter says, so a structure of one
// double returned in %xmm0 is refused even when the body takes it as a
// pointer or asks for its bits.
// REQUIRES: host-x86_64
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -g -O2 -no-pie %inputs/names/retval.c -o rv64
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s
// RUN: %clang_host -g -O2 -no-pie %inputs/names/retval.c -o rv64
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct D { double d; };

// expected-error@+1 {{cannot fetch '$retval' of 'struct D': it is returned in SSE registers (AMD64 psABI 3.2.3), which struct pt_regs does not hold}}
SEC("uretprobe/./rv64:sd($retval)")
int by_pointer(struct pt_regs *ctx, const struct D *r) { return 0; }

// expected-error@+1 {{cannot fetch '$retval' of 'struct D'}}
SEC("uretprobe/./rv64:sd($retval:x64)")
int bits(struct pt_regs *ctx, unsigned long r) { return 0; }

char LICENSE[] SEC("license") = "GPL";
