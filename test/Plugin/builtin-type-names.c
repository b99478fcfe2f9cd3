// The built-in type names of docs/syntax.md (fixed-width, POSIX and kernel
// typedefs) need no declaration in the file: a lone `size_t` is a type, so
// the argument list is read by the calling convention, as bpfprobe-resolve
// reads it. This file declares none of them (no <stddef.h>, no vmlinux.h;
// the record probes have no parameters to type); a one-liner
// (`bpfprobe-run -e '...malloc(size_t)'`) is such a file.
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -fplugin-arg-bpfprobe-print-plan | FileCheck %s
// RUN: bpfprobe-resolve 'uprobe/./demo:malloc(size_t)' | FileCheck %s --check-prefix=RESOLVE

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

// CHECK: p:bpfprobe_record_{{[0-9]+}} ./demo:malloc arg1=%di:u64
// RESOLVE: ./demo:malloc arg1=%di:u64
BPF_PROBE_RECORD("uprobe/./demo:malloc(size_t)");
#define BPF_PROBE_RECORD_AS(name, spec) \
  __attribute__((bpfprobe_record(spec), used)) int name(void *ctx) { return 0; }
// CHECK-NEXT: p:two ./demo:f arg1=%di:u64 arg2=%si:u32 arg3=%dx:s32 arg4=%cx:s32 arg5=%r8:s64 arg6=%r9:s64 arg7=+8(%sp):s64 arg8=+16(%sp):u32
BPF_PROBE_RECORD_AS(two, "uprobe/./demo:f(u64, u32, pid_t, int32_t, loff_t, ssize_t, s64, uid_t)")
