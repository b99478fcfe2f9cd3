// With debug info, $argN is the Nth parameter in declaration order, also in
// an inlined copy whose DWARF lists its parameters in another order: the
// plans for $arg2 and for its name, bias, are the same at both copies.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -g -O2 %inputs/dwarf/srv.c -o srv
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-print-plan %s | FileCheck %s
// RUN: %clang_host -g -O2 %inputs/dwarf/srv.c -o srv
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-print-plan %s | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(by_name, "uprobe/./srv:srv.c:16(bias, r->id)");
BPF_PROBE_RECORD_NAMED(by_pos, "uprobe/./srv:srv.c:16($arg2, $arg1->id)");
char LICENSE[] SEC("license") = "GPL";

// CHECK: p:by_name ./srv:handle+[[OFF1:[0-9]+]] bias=[[B1:[^ ]+]] id=[[R1:[^ ]+]]
// CHECK: p:by_name__1 ./srv:handle+[[OFF2:[0-9]+]] bias=[[B2:[^ ]+]] id=[[R2:[^ ]+]]
// CHECK: p:by_pos ./srv:handle+[[OFF1]] arg1=[[B1]] id=[[R1]]
// CHECK: p:by_pos__1 ./srv:handle+[[OFF2]] arg1=[[B2]] id=[[R2]]
