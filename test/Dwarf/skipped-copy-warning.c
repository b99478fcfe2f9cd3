// A line inlined twice where one copy has no location for a value: the
// plugin leaves that copy out with a warning that names it, and probes the
// other; when no copy has the value, it is an error.
// REQUIRES: gcc
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -g -O2 %inputs/names/names.c %inputs/names/other.c -o names
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-print-plan %s 2>/dev/null | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

// expected-warning@+1 {{left out one of the 2 sites: 'x' is optimized out at use+0x}}
BPF_PROBE_RECORD_NAMED(one_copy, "uprobe/./names:step:3(x, y)");
// CHECK: p:one_copy ./names:use+{{[0-9]+}} x=%{{[a-z0-9]+}}:s32 y=%{{[a-z0-9]+}}:s32
// CHECK-NOT: one_copy__1

// Both copies (inline-only step by name).
BPF_PROBE_RECORD_NAMED(both, "uprobe/./names:step(x)");
// CHECK: p:both ./names:use+{{[0-9]+}} x=
// CHECK: p:both__1 ./names:use+{{[0-9]+}} x=

// expected-error@+1 {{'y' is optimized out at use+0x}}
BPF_PROBE_RECORD_NAMED(none, "uprobe/./names:step:2(y)");

char LICENSE[] SEC("license") = "GPL";
