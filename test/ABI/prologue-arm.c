// The 32-bit arm prologue (AAPCS 6.5): uregs[] has 4-byte slots (r0 at 0,
// sp at 52), so every register load is 4 bytes wide. A long long takes an
// even/odd register pair (C.3: r2:r3 after an int in r0, r1 left empty) and
// is rebuilt as lo | hi << 32; once the pair does not fit, it goes to an
// 8-aligned stack slot (C.4, C.6: sp+8 after an int at sp+0). A structure may
// be split between the last core registers and the stack (C.5). A 64-bit
// $retval is r1:r0.
// RUN: %clang_bpf -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes -fplugin-arg-bpfprobe-arch=arm %s -o %t.ll
// RUN: %opt_bpfprobe -passes=bpfprobe-wrapper -S %t.ll -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct s12 { int a, b, c; };

SEC("kprobe/g(int, long long, int, long long)")
int pairs(struct pt_regs *ctx, int a, long long b, int c, long long d) {
  return a + b + c + d;
}

// CHECK-LABEL: define i32 @pairs(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 0
// CHECK-NEXT:   %r0 = load volatile i32
// CHECK:        [[P2:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 8
// CHECK-NEXT:   %r2 = load volatile i32, ptr [[P2]], align 4
// CHECK-NEXT:   [[LO:%.*]] = zext i32 %r2 to i64
// CHECK:        [[P3:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 12
// CHECK-NEXT:   %r3 = load volatile i32, ptr [[P3]], align 4
// CHECK-NEXT:   [[HI:%.*]] = zext i32 %r3 to i64
// CHECK-NEXT:   [[HIM:%.*]] = and i64 [[HI]], 4294967295
// CHECK-NEXT:   [[HIS:%.*]] = shl i64 [[HIM]], 32
// CHECK-NEXT:   %b = or i64 {{%.*}}, [[HIS]]
// c at sp+0, 4 bytes; d at sp+8, 8 bytes (kernel reads: helper 113).
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 52
// CHECK-NEXT:   %sp = load volatile i32
// CHECK:        call i64 inttoptr (i64 113 to ptr)(ptr %slot, i32 4, ptr
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 52
// CHECK-NEXT:   [[SP:%.*]] = load volatile i32
// CHECK-NEXT:   [[SP64:%.*]] = zext i32 [[SP]] to i64
// CHECK-NEXT:   [[D:%.*]] = add i64 [[SP64]], 8
// CHECK:        [[DP:%.*]] = inttoptr i64 [[D]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 113 to ptr)(ptr %slot2, i32 8, ptr [[DP]])
// CHECK:        call i32 @__bpfprobe_body_pairs(ptr %ctx, i32 %a, i64 %b, i32 %c, i64 %d)

SEC("uprobe/./x:h(int, int, struct s12, short)")
int split(struct pt_regs *ctx, int a, int b, const struct s12 *c, short d) {
  return a + b + c->c + d;
}

// CHECK-LABEL: define i32 @split(ptr %ctx)
// CHECK:        %r0 = load volatile i32
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 4
// CHECK-NEXT:   %r1 = load volatile i32
// The structure: r2, r3, then its last 4 bytes from sp+0 (user reads: 112).
// CHECK:        [[C0:%.*]] = getelementptr inbounds i8, ptr %c.val, i64 0
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 8
// CHECK-NEXT:   %r2 = load volatile i32
// CHECK-NEXT:   zext i32 %r2 to i64
// CHECK-NEXT:   [[V2:%.*]] = trunc i64 {{%.*}} to i32
// CHECK-NEXT:   store i32 [[V2]], ptr [[C0]]
// CHECK-NEXT:   [[C4:%.*]] = getelementptr inbounds i8, ptr %c.val, i64 4
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 12
// CHECK-NEXT:   %r3 = load volatile i32
// CHECK-NEXT:   zext i32 %r3 to i64
// CHECK-NEXT:   [[V3:%.*]] = trunc i64 {{%.*}} to i32
// CHECK-NEXT:   store i32 [[V3]], ptr [[C4]]
// CHECK-NEXT:   [[C8:%.*]] = getelementptr inbounds i8, ptr %c.val, i64 8
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 52
// CHECK-NEXT:   %sp = load volatile i32
// CHECK-NEXT:   [[SPC:%.*]] = zext i32 %sp to i64
// CHECK-NEXT:   [[SPP:%.*]] = inttoptr i64 [[SPC]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr [[C8]], i32 4, ptr [[SPP]])
// d after it, at sp+4.
// CHECK:        [[DA:%.*]] = add i64 {{%.*}}, 4
// CHECK:        [[DP2:%.*]] = inttoptr i64 [[DA]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr %slot, i32 2, ptr [[DP2]])

SEC("kretprobe/g($retval:s64)")
int ret64(struct pt_regs *ctx, long long r) { return r != 0; }

// CHECK-LABEL: define i32 @ret64(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 0
// CHECK-NEXT:   %r0 = load volatile i32
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 4
// CHECK-NEXT:   %r1 = load volatile i32
// CHECK:        shl i64 {{%.*}}, 32
// CHECK-NEXT:   %r = or i64

char LICENSE[] SEC("license") = "GPL";
