// Syntax errors put the caret on the offending character inside the string
// literal, through the SEC() macro and through string concatenation.
// RUN: not %clang_bpf -fsyntax-only -DBIN='"./demo"' %s 2>&1 | FileCheck --strict-whitespace %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

SEC("uprobe/./demo:f(int,, long)")
int empty_arg(struct pt_regs *ctx, int a, long b) { return 0; }
// CHECK: caret-in-sec-string.c:[[@LINE-2]]:26: error: empty argument
// CHECK-NEXT: {{^ *}}[[@LINE-3]] | SEC("uprobe/./demo:f(int,, long)"){{$}}
// CHECK-NEXT: {{^}}      |                          ^{{$}}

SEC("uprobe/" BIN ":f($arg1:u128)")
int bad_type(struct pt_regs *ctx, long a) { return 0; }
// CHECK: caret-in-sec-string.c:[[@LINE-2]]:29: error: unknown fetch type 'u128'
// CHECK-NEXT: {{^ *}}[[@LINE-3]] | SEC("uprobe/" BIN ":f($arg1:u128)"){{$}}
// CHECK-NEXT: {{^}}      |                             ^{{$}}

BPF_PROBE("kprobes/vfs_write(int)")
int bad_kind(struct pt_regs *ctx, int a) { return 0; }
// CHECK: caret-in-sec-string.c:[[@LINE-2]]:12: error: unknown probe kind 'kprobes'
// CHECK-NEXT: {{^ *}}[[@LINE-3]] | BPF_PROBE("kprobes/vfs_write(int)"){{$}}
// CHECK-NEXT: {{^}}      |            ^{{$}}

BPF_PROBE("uprobe/./demo:f(int, long")
int unterminated(struct pt_regs *ctx, int a, long b) { return 0; }
// CHECK: caret-in-sec-string.c:[[@LINE-2]]:37: error: unterminated argument list: missing ')'
// CHECK-NEXT: {{^ *}}[[@LINE-3]] | BPF_PROBE("uprobe/./demo:f(int, long"){{$}}
// CHECK-NEXT: {{^}}      |                                     ^{{$}}

// A resolution error underlines the whole argument.
SEC("uprobe/./demo:f(int, double)")
int fp(struct pt_regs *ctx, int a, long b) { return 0; }
// CHECK: caret-in-sec-string.c:[[@LINE-2]]:27: error: cannot fetch 'double'
// CHECK-NEXT: {{^ *}}[[@LINE-3]] | SEC("uprobe/./demo:f(int, double)"){{$}}
// CHECK-NEXT: {{^}}      |                           ^~~~~~{{$}}

char LICENSE[] SEC("license") = "GPL";
