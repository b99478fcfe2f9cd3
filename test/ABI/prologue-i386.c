// The prologue on a 32-bit arch loads 4-byte pt_regs slots, and a 64-bit
// value in a register pair combines both halves (edx:eax for $retval,
// edx:ecx for a regparm(3) long long).
// RUN: %clang_bpf -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes -fplugin-arg-bpfprobe-arch=i386 %s -o %t.ll
// RUN: %opt_bpfprobe -passes=bpfprobe-wrapper -S %t.ll -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("kretprobe/f($retval:s64)")
int ret64(struct pt_regs *ctx, long long r) { return r != 0; }

// CHECK-LABEL: define i32 @ret64(ptr %ctx)
// CHECK:   [[P0:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 24
// CHECK-NEXT:   %ax = load volatile i32, ptr [[P0]]
// CHECK:   [[P1:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 8
// CHECK-NEXT:   %dx = load volatile i32, ptr [[P1]]
// CHECK:   shl i64 {{%.*}}, 32
// CHECK:   or i64

SEC("kprobe/g(int, long long)")
int args(struct pt_regs *ctx, int a, long long b) { return a + (b != 0); }

// CHECK-LABEL: define i32 @args(ptr %ctx)
// CHECK:   getelementptr inbounds i8, ptr %ctx, i64 24
// CHECK-NEXT:   %ax = load volatile i32
// CHECK:   getelementptr inbounds i8, ptr %ctx, i64 8
// CHECK-NEXT:   %dx = load volatile i32
// CHECK:   getelementptr inbounds i8, ptr %ctx, i64 4
// CHECK-NEXT:   %cx = load volatile i32
// CHECK:   shl i64 {{%.*}}, 32

char LICENSE[] SEC("license") = "GPL";
