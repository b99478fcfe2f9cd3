// The aarch64 prologue (AAPCS64 6.8.2): x0-x7 are the 8-byte slots
// regs[0..7] of struct user_pt_regs, a 16-byte structure takes a register
// pair, one larger than 16 bytes is passed by reference (B.4: the prologue
// copies what the register points to), and arguments past x7 are read from
// the stack at entry (sp is at offset 248) in 8-byte slots, small values at
// the slot's low address. $retval is x0.
// RUN: %clang_bpf -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes -fplugin-arg-bpfprobe-arch=aarch64 %s -o %t.ll
// RUN: %opt_bpfprobe -passes=bpfprobe-wrapper -S %t.ll -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct s16 { long a, b; };
struct s24 { long a, b, c; };

SEC("uprobe/./x:f(int, long, struct s16, char, short, struct s24, long, long, unsigned char)")
int args(struct pt_regs *ctx, int a, long b, const struct s16 *c, char d, short e,
         const struct s24 *f, long g, long h, unsigned char i) {
  return a + b + c->b + d + e + f->c + g + h + i;
}

// CHECK-LABEL: define i32 @args(ptr %ctx)
// CHECK:        [[A:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 0
// CHECK-NEXT:   %x0 = load volatile i64, ptr [[A]], align 8
// CHECK-NEXT:   %a = trunc i64 %x0 to i32
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 8
// CHECK-NEXT:   %x1 = load volatile i64
// The pair: x2 and x3 into the copy's two halves.
// CHECK:        [[C0:%.*]] = getelementptr inbounds i8, ptr %c.val, i64 0
// CHECK-NEXT:   [[P2:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 16
// CHECK-NEXT:   %x2 = load volatile i64, ptr [[P2]]
// CHECK-NEXT:   store i64 %x2, ptr [[C0]]
// CHECK-NEXT:   [[C8:%.*]] = getelementptr inbounds i8, ptr %c.val, i64 8
// CHECK-NEXT:   [[P3:%.*]] = getelementptr inbounds i8, ptr %ctx, i64 24
// CHECK-NEXT:   %x3 = load volatile i64, ptr [[P3]]
// CHECK-NEXT:   store i64 %x3, ptr [[C8]]
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 32
// CHECK-NEXT:   %x4 = load volatile i64
// CHECK-NEXT:   %d = trunc i64 %x4 to i8
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 40
// CHECK-NEXT:   %x5 = load volatile i64
// CHECK-NEXT:   %e = trunc i64 %x5 to i16
// By reference: x6 points at the caller's copy; 24 bytes are read from it.
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 48
// CHECK-NEXT:   %x6 = load volatile i64
// CHECK-NEXT:   [[PF:%.*]] = inttoptr i64 %x6 to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr {{%.*}}, i32 24, ptr [[PF]])
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 56
// CHECK-NEXT:   %x7 = load volatile i64
// The stack: sp is regs->sp (offset 248); h at sp+0, i at sp+8.
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 248
// CHECK-NEXT:   %sp = load volatile i64
// CHECK:        [[HP:%.*]] = inttoptr i64 %sp to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr %slot, i32 8, ptr [[HP]])
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 248
// CHECK-NEXT:   [[SP2:%.*]] = load volatile i64
// CHECK-NEXT:   [[I:%.*]] = add i64 [[SP2]], 8
// CHECK:        [[IP:%.*]] = inttoptr i64 [[I]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr {{%.*}}, i32 1, ptr [[IP]])
// CHECK:        call i32 @__bpfprobe_body_args(ptr %ctx, i32 %a, i64 %x1, ptr %c.val, i8 %d, i16 %e, ptr %f.val, i64 %x7, i64 %h, i8 %i)

SEC("uretprobe/./x:f($retval:s64)")
int ret(struct pt_regs *ctx, long r) { return r != 0; }

// CHECK-LABEL: define i32 @ret(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 0
// CHECK-NEXT:   %x0 = load volatile i64

char LICENSE[] SEC("license") = "GPL";
