// Calling-convention mode refuses what pt_regs cannot hold, with a reason.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// expected-error@+1 {{cannot fetch 'double': floating-point arguments are passed in FP registers (System V AMD64 psABI 3.2.3), which struct pt_regs does not hold}}
SEC("uprobe/./demo:f(int, double)")
int fp(struct pt_regs *ctx, int a, long b) { return 0; }

// expected-error@+1 {{cannot fetch 'float': floating-point arguments}}
SEC("uprobe/./demo:f(float)")
int fp32(struct pt_regs *ctx, long b) { return 0; }

// expected-error@+1 {{cannot fetch '__int128': 128-bit integers are not supported by the calling-convention mode}}
SEC("uprobe/./demo:f(__int128)")
int wide(struct pt_regs *ctx, long b) { return 0; }

// A struct passed by value in registers binds to a pointer to its copy.
struct pair { long a, b; };
// expected-error@+1 {{parameter 'b' of type 'long' cannot receive 'struct pair' (x8[16]) by value; declare it as 'const struct pair *': the prologue copies the value to the BPF stack and passes its address}}
SEC("uprobe/./demo:f(struct pair)")
int byval(struct pt_regs *ctx, long b) { return 0; } // expected-note {{parameter declared here}}

// A struct whose eightbytes are all float travels in XMM registers.
struct fpair { double x, y; };
// expected-error@+1 {{cannot fetch 'struct fpair': an eightbyte of it is of class SSE (System V AMD64 psABI 3.2.3) and travels in an XMM register, which struct pt_regs does not hold}}
SEC("uprobe/./demo:f(int, struct fpair)")
int sse(struct pt_regs *ctx, int a, const struct fpair *p) { return 0; }

// Layouts the table cannot derive are refused, not guessed.
struct bits { int a : 3; int b : 5; };
// expected-error@+1 {{cannot lay out 'struct bits' for x86_64: 'struct bits' has the bit-field 'a', whose layout is not derived}}
SEC("uprobe/./demo:f(struct bits)")
int bitfields(struct pt_regs *ctx, const struct bits *p) { return 0; }

// expected-error@+1 {{'void' is not an argument type; did you mean 'void *'?}}
SEC("uprobe/./demo:f(void)")
int voidarg(struct pt_regs *ctx, long b) { return 0; }

// expected-error@+1 {{unknown type 'foo_t'; declare it in this file (or include vmlinux.h) or use a built-in type}}
SEC("uprobe/./demo:f(foo_t *, foo_t)")
int unknown(struct pt_regs *ctx, long a, long b) { return 0; }

// expected-error@+1 {{invalid type 'unsigned signed int': both signed and unsigned}}
SEC("uprobe/./demo:f(unsigned signed int)")
int both(struct pt_regs *ctx, long b) { return 0; }

// expected-error@+1 {{arguments by type are only known at function entry, not at f+16; fetch names with debug info: pass -fplugin-arg-bpfprobe-debuginfo=PATH}}
SEC("uprobe/./demo:f+16(int)")
int notentry(struct pt_regs *ctx, int a) { return 0; }

// expected-error@+1 {{a return probe cannot fetch arguments by the calling convention: argument registers are clobbered at return; use '$retval' for the return value}}
SEC("uretprobe/./demo:f(int)")
int retargs(struct pt_regs *ctx, int a) { return 0; }

// expected-error@+1 {{cannot mix C type names and expressions in one argument list: '%ax' is an expression but 'int' is a type}}
SEC("uprobe/./demo:f(int, %ax)")
int mixed(struct pt_regs *ctx, int a, long b) { return 0; }

// A lone name is a type if the file declares it as one; then it cannot be
// mixed with a register expression either.
typedef unsigned int myint;
// expected-error@+1 {{cannot mix C types and expressions in one argument list}}
SEC("uprobe/./demo:f(myint, %ax)")
int mixed_typedef(struct pt_regs *ctx, unsigned a, long b) { return 0; }

// expected-error@+1 {{unexpected 'x' after type 'foo_t *'; write only the type, without a parameter name}}
SEC("uprobe/./demo:f(foo_t *x)")
int named(struct pt_regs *ctx, long a) { return 0; }

char LICENSE[] SEC("license") = "GPL";
