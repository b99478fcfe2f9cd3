// A calling-convention probe reads no debug info, but when its binary is at
// hand the compile checks that the symbol exists: a function that exists
// only inlined has no symbol to attach to, and its DWARF says so; a name
// the binary does not have at all is refused too. Without the binary the
// check is left to the runtime.
// REQUIRES: host-x86_64
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %clang_bpf -fsyntax-only -DNOT_AT_HAND -Xclang -verify=absent %s
// RUN: %clang_host -g -O2 %inputs/runtime/busy.c -o busy
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s
// RUN: llvm-strip --strip-all busy -o stripped
// RUN: %clang_bpf -fsyntax-only -DSTRIPPED -Xclang -verify=stripped %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// absent-no-diagnostics

#ifndef STRIPPED
// expected-error@+1 {{'scaled' exists only inlined in ./busy: no symbol to attach to; probe a source line inside it}}
SEC("uprobe/./busy:scaled(int)")
int inl(struct pt_regs *ctx, int x) { return 0; }

// expected-error@+1 {{symbol 'no_such_fn' not found in ./busy (neither .symtab nor .dynsym has it)}}
SEC("uprobe/./busy:no_such_fn(int)")
int missing(struct pt_regs *ctx, int x) { return 0; }

SEC("uprobe/./busy:quiet(int)")
int fine(struct pt_regs *ctx, int x) { return 0; }
#else
// stripped-error@+1 {{symbol 'quiet' not found in ./stripped: the binary is stripped (no .symtab) and does not export it}}
SEC("uprobe/./stripped:quiet(int)")
int strip(struct pt_regs *ctx, int x) { return 0; }
#endif

char LICENSE[] SEC("license") = "GPL";
