// Plugin arguments: unknown ones and unknown architectures are errors; the
// architecture can come from libbpf's __TARGET_ARCH_* macro.
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-bogus %s 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: error: bpfprobe: unknown plugin argument 'bogus'; expected arch=NAME, debuginfo=PATH, btf=PATH, btf-base=PATH, cc=NAME, entry-pairing=auto|map or print-plan
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-entry-pairing=session %s 2>&1 | FileCheck %s --check-prefix=PAIRING
// PAIRING: error: bpfprobe: unknown entry pairing 'session' in -fplugin-arg-bpfprobe-entry-pairing; expected 'auto' (a session program too, chosen at attach time) or 'map'
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-arch=vax %s 2>&1 | FileCheck %s --check-prefix=VAX
// VAX: error: bpfprobe: unknown architecture 'vax' in -fplugin-arg-bpfprobe-arch; known: x86_64
// RUN: %clang_bpf -fsyntax-only -D__TARGET_ARCH_x86 -fplugin-arg-bpfprobe-print-plan %s | FileCheck %s --check-prefix=MACRO
// MACRO: p:on_f ./demo:f a=%di:s32
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-arch=amd64 -fplugin-arg-bpfprobe-print-plan %s | FileCheck %s --check-prefix=MACRO
// Without names, debuginfo= is not consulted; with them it is used.
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-debuginfo=%t.nonexistent %s
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-debuginfo=%t.nonexistent -DNEEDS_DWARF %s 2>&1 | FileCheck %s --check-prefix=DWARF
// DWARF: error: cannot open the probed binary './demo': not found

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("uprobe/./demo:f(int)")
int on_f(struct pt_regs *ctx, int a) { return 0; }

#ifdef NEEDS_DWARF
SEC("uprobe/./demo:f(req->len)")
int on_g(struct pt_regs *ctx, int a) { return 0; }
#endif
char LICENSE[] SEC("license") = "GPL";
