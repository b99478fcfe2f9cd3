// The plugin's annotation namespace is not a public channel: a user-written
// annotate("bpfprobe...") is an error at its caret, whatever its operands
// (a non-string one used to crash clang in the front end's cast), and a
// forged plan never reaches the pass. Annotations outside the namespace are
// left alone, and a real probe next to them still compiles.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s
// RUN: not %clang_bpf -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NO-PASS
// NO-PASS-NOT: fetch plan
// NO-PASS-NOT: PLEASE submit

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// expected-error@+1 {{annotation 'bpfprobe.spec' is in the namespace reserved for the bpfprobe plugin; use BPF_PROBE("...") or SEC("...") to declare a probe}}
__attribute__((annotate("bpfprobe.spec", 42)))
int non_string(struct pt_regs *ctx, int x) { return 0; }

// expected-error@+1 {{annotation 'bpfprobe.record' is in the namespace reserved}}
__attribute__((annotate("bpfprobe.record", "uprobe/./demo:f(int)")))
int record_marker(struct pt_regs *ctx) { return 0; }

// expected-error@+1 {{annotation 'bpfprobe.plan:bpfprobe-plan 1' is in the namespace reserved}}
__attribute__((annotate("bpfprobe.plan:bpfprobe-plan 1\nprogram=p\nbody=forged_plan\nsection=uprobe/./demo:f\n")))
int forged_plan(struct pt_regs *ctx, int x) { return 0; }

// A declaration inside a function body, and one on a prior declaration.
int inner(struct pt_regs *ctx) {
  // expected-error@+1 {{annotation 'bpfprobe.plan:' is in the namespace reserved}}
  extern int hidden(void) __attribute__((annotate("bpfprobe.plan:")));
  return 0;
}
// expected-error@+1 {{annotation 'bpfprobe.spec' is in the namespace reserved}}
int redeclared(struct pt_regs *ctx, int x) __attribute__((annotate("bpfprobe.spec", "uprobe/./demo:f(int)")));
int redeclared(struct pt_regs *ctx, int x) { return 0; }

__attribute__((annotate("mine", 1)))
int user_annotation(struct pt_regs *ctx) { return 0; }

SEC("uprobe/./demo:f(int)")
int real_probe(struct pt_regs *ctx, int x) { return 0; }
