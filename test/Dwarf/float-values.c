// float and double values (floats.c, gcc -O2): fetched as their bits with
// the types f32 and f64 (no kprobe_events type: the extended notation),
// bound to integer parameters of their size; a double in %xmm0 is refused
// with the reason and where it is in memory instead.
// REQUIRES: gcc
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %gcc -g -O2 %inputs/dwarf/floats.c -o floats -lm
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-print-plan %s 2>/dev/null | FileCheck %s

#include <linux/ptrace.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

SEC("uprobe/./floats:scale:6(s->weight, s->ratio, k)")
int bits(struct pt_regs *ctx, __u32 weight, __u64 ratio, __u64 k) { return 0; }
// CHECK: p:bits ./floats:scale+{{[0-9]+}} weight=+4(%{{[a-z0-9]+}}):f32 ratio=+8(%{{[a-z0-9]+}}):f64 k=+{{[0-9]+}}(%sp):f64

// expected-error@+1 {{parameter 'ratio' of type 'double' cannot receive 's->ratio' (f64); declare it '__u64': it receives the value's IEEE bits}}
SEC("uprobe/./floats:scale:6(s->ratio)")
int as_double(struct pt_regs *ctx, double ratio) { return 0; } // expected-note {{parameter declared here}}

// expected-error@+1 {{parameter 'w' of type 'unsigned short' cannot receive 's->weight' (f32); declare it '__u32'}}
SEC("uprobe/./floats:scale:6(s->weight)")
int narrow(struct pt_regs *ctx, unsigned short w) { return 0; } // expected-note {{parameter declared here}}

// expected-error-re@+1 {{cannot fetch 'k' at scale+0x0: the value is in DWARF register 17, which struct pt_regs on x86_64 does not hold; it is available at +0x{{[0-9a-f]+}}..+0x{{[0-9a-f]+}} of scale}}
BPF_PROBE_RECORD_NAMED(in_xmm0, "uprobe/./floats:scale(k)");

char LICENSE[] SEC("license") = "GPL";
