// The wrapper the pass synthesizes, instruction by instruction: registers
// loaded from their pt_regs slots, narrowed to the declared type and
// extended per its signedness to the parameter; stack arguments read with
// bpf_probe_read_user (helper 112) into stack slots, with no zeroing store
// (the helper zeroes its destination when the read faults), and loaded
// from the slots after all reads; the body renamed, internal and
// always-inline. Context reads are volatile (one per register between
// helper calls) so they stay at constant offsets from ctx.
// RUN: %clang_bpf -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt_bpfprobe -passes=bpfprobe-wrapper -S %t.ll -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

SEC("uprobe/./demo:f8(short, unsigned char, _Bool, int, long, long, int, char *)")
int on_f8(struct pt_regs *ctx, long a, int b, _Bool c, long d, long e, long f, long g, char *s)
{
	return a + b + c + d + e + f + g + (long)s;
}

// Globals come first: the metadata section holds the site, the wrapper is
// used (the body is not), and the plan annotation is gone.
// CHECK-NOT: llvm.global.annotations
// CHECK: @__bpfprobe_metadata = private constant {{.*}}c"bpfprobe-site 1\0Aprogram=on_f8\0Asection=uprobe/./demo:f8\0A{{.*}}arg=a\09s16\09%di:s16\09short\0A{{.*}}arg=g\09s32\09+8(%sp):s32\09int\0Aarg=s\09x64\09+16(%sp):x64\09char *\0Aend\0A", section ".bpfprobe", align 1
// CHECK-NOT: llvm.global.annotations
// CHECK: @llvm.compiler.used = appending global [3 x ptr] [ptr @LICENSE, ptr @__bpfprobe_metadata, ptr @on_f8]
// CHECK-NOT: llvm.global.annotations

// CHECK-LABEL: define internal i32 @__bpfprobe_body_on_f8(
// CHECK-NOT: section
// CHECK-SAME: #[[BODY:[0-9]+]]

// CHECK-LABEL: define i32 @on_f8(ptr %ctx) {{.*}}section "uprobe/./demo:f8" !dbg
// CHECK-NEXT: entry:
// CHECK-NEXT:   [[SLOT8:%slot[0-9]*]] = alloca i64, align 8
// CHECK-NEXT:   [[SLOT4:%slot[0-9]*]] = alloca i32, align 8
// CHECK-NEXT:   [[P0:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 112
// CHECK-NEXT:   %di = load volatile i64, ptr [[P0]], align 8
// CHECK-NEXT:   [[T0:%.*]] = trunc i64 %di to i16
// CHECK-NEXT:   %a = sext i16 [[T0]] to i64
// CHECK-NEXT:   [[P1:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 104
// CHECK-NEXT:   %si = load volatile i64, ptr [[P1]], align 8
// CHECK-NEXT:   [[T1:%.*]] = trunc i64 %si to i8
// CHECK-NEXT:   %b = zext i8 [[T1]] to i32
// CHECK-NEXT:   [[P2:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 96
// CHECK-NEXT:   %dx = load volatile i64, ptr [[P2]], align 8
// CHECK-NEXT:   [[T2:%.*]] = trunc i64 %dx to i8
// CHECK-NEXT:   [[NZ:%.*]] = icmp ne i8 [[T2]], 0
// CHECK-NEXT:   [[B8:%.*]] = zext i1 [[NZ]] to i8
// CHECK-NEXT:   %c = icmp ne i8 [[B8]], 0
// CHECK-NEXT:   [[P3:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 88
// CHECK-NEXT:   %cx = load volatile i64, ptr [[P3]], align 8
// CHECK-NEXT:   [[T3:%.*]] = trunc i64 %cx to i32
// CHECK-NEXT:   %d = sext i32 [[T3]] to i64
// CHECK-NEXT:   [[P4:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 72
// CHECK-NEXT:   %r8 = load volatile i64, ptr [[P4]], align 8
// CHECK-NEXT:   [[P5:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 64
// CHECK-NEXT:   %r9 = load volatile i64, ptr [[P5]], align 8
// CHECK-NEXT:   [[P6:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 152
// CHECK-NEXT:   [[SP1:%sp[0-9]*]] = load volatile i64, ptr [[P6]], align 8
// CHECK-NEXT:   [[A6:%.*]] = add i64 [[SP1]], 8
// CHECK-NEXT:   [[Q6:%.*]] = inttoptr i64 [[A6]] to ptr
// CHECK-NEXT:   {{%.*}} = call i64 inttoptr (i64 112 to ptr)(ptr [[SLOT4]], i32 4, ptr [[Q6]])
// CHECK-NEXT:   [[P7:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 152
// CHECK-NEXT:   [[SP2:%sp[0-9]*]] = load volatile i64, ptr [[P7]], align 8
// CHECK-NEXT:   [[A7:%.*]] = add i64 [[SP2]], 16
// CHECK-NEXT:   [[Q7:%.*]] = inttoptr i64 [[A7]] to ptr
// CHECK-NEXT:   {{%.*}} = call i64 inttoptr (i64 112 to ptr)(ptr [[SLOT8]], i32 8, ptr [[Q7]])
// CHECK-NEXT:   [[V6:%.*]] = load i32, ptr [[SLOT4]], align 4
// CHECK-NEXT:   [[Z6:%.*]] = zext i32 [[V6]] to i64
// CHECK-NEXT:   [[T6:%.*]] = trunc i64 [[Z6]] to i32
// CHECK-NEXT:   %g = sext i32 [[T6]] to i64
// CHECK-NEXT:   [[V7:%.*]] = load i64, ptr [[SLOT8]], align 8
// CHECK-NEXT:   %s = inttoptr i64 [[V7]] to ptr
// CHECK-NEXT:   [[R:%.*]] = call i32 @__bpfprobe_body_on_f8(ptr %ctx, i64 %a, i32 %b, i1 %c, i64 %d, i64 %r8, i64 %r9, i64 %g, ptr %s)
// CHECK-NEXT:   ret i32 [[R]]
// CHECK-NEXT: }

// The body lost noinline/optnone (-O0) and gained alwaysinline.
// CHECK: attributes #[[BODY]] = {{{.*}}alwaysinline
// CHECK-NOT: optnone
// CHECK-SAME: }

// The wrapper's DISubprogram has one named parameter, ctx.
// CHECK: [[SP:![0-9]+]] = distinct !DISubprogram(name: "on_f8"
// CHECK: !DILocalVariable(name: "ctx", arg: 1, scope: [[SP]]

char LICENSE[] SEC("license") = "GPL";
