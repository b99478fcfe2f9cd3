// Binding checks: argument count and parameter widths, reported at the
// annotation token and at the parameter.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// expected-error@+1 {{the annotation lists 2 arguments but 'too_few' takes 3 after the context}}
SEC("uprobe/./demo:f(int, int)")
int too_few(struct pt_regs *ctx, int a, int b, int c) { return 0; } // expected-note {{first parameter without an argument}}

// expected-error@+1 {{the annotation lists 3 arguments but 'too_many' takes 1 after the context}}
SEC("uprobe/./demo:f(int, int, int)")
int too_many(struct pt_regs *ctx, int a) { return 0; } // expected-note {{probe body declared here}}

// expected-error@+1 {{parameter 'b' of type 'int' (4 bytes) is too narrow for 'long long' (s64) (8 bytes)}}
SEC("uprobe/./demo:f(int, long long)")
int narrow(struct pt_regs *ctx, int a, int b) { return 0; } // expected-note {{parameter declared here}}

// expected-error@+1 {{parameter 'p' of type 'char *' is a pointer but 'unsigned long' (u64) is an integer; declare it as an integer type}}
SEC("uprobe/./demo:f(unsigned long)")
int ptr_for_int(struct pt_regs *ctx, char *p) { return 0; } // expected-note {{parameter declared here}}

// expected-error@+1 {{parameter 'x' of type 'short' (2 bytes) is too narrow for 'void *' (x64) (8 bytes)}}
SEC("uprobe/./demo:f(void *)")
int narrow_ptr(struct pt_regs *ctx, short x) { return 0; } // expected-note {{parameter declared here}}

struct pair { long a, b; };
// expected-error@+1 {{parameter 'p' of type 'struct pair' cannot receive 'long' (s64); use an integer or pointer type}}
SEC("uprobe/./demo:f(long)")
int aggregate_param(struct pt_regs *ctx, struct pair p) { return 0; } // expected-note {{parameter declared here}}

SEC("uprobe/./demo:f(int)")
int no_ctx(int a) { return 0; } // expected-error {{probe body 'no_ctx' must take the context pointer first: 'struct pt_regs *ctx'}}

// expected-error@+1 {{parameter 'name' of type 'long' cannot receive the string '$arg1:string' (string); declare it 'const char *': it will point at a copy}}
SEC("uprobe/./demo:f($arg1:string)")
int str_to_int(struct pt_regs *ctx, long name) { return 0; } // expected-note {{parameter declared here}}

// expected-error@+2 {{a recording probe's function takes only the context; its arguments go to the records ring buffer}}
__attribute__((bpfprobe_record("uprobe/./demo:f($arg1)")))
int rec_with_params(struct pt_regs *ctx, long a) { return 0; }

// Widening is fine: an int value into a long parameter, a pointer into an
// unsigned long, any integer into an int from a bool.
SEC("uprobe/./demo:f(int, void *, _Bool)")
int widen(struct pt_regs *ctx, long a, unsigned long p, int b) { return 0; }

char LICENSE[] SEC("license") = "GPL";
