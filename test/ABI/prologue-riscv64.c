// The riscv64 prologue (RISC-V psABI, integer calling convention): a0-a7
// are x10-x17, the 8-byte slots at 80..136 of struct pt_regs (epc at 0, sp
// at 16). A structure of up to 2*XLEN takes a register pair, split between
// a7 and the stack when a7 is the last free register; a larger one is
// passed by reference, here with the pointer itself on the stack; stack
// arguments are 8-byte slots, small values at the low address.
// RUN: %clang_bpf -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes -fplugin-arg-bpfprobe-arch=riscv64 %s -o %t.ll
// RUN: %opt_bpfprobe -passes=bpfprobe-wrapper -S %t.ll -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct s16 { long a, b; };
struct s24 { long a, b, c; };

SEC("uprobe/./x:f(int, struct s16, long, long, long, long, struct s16, char, struct s24)")
int args(struct pt_regs *ctx, int a, const struct s16 *b, long c, long d, long e,
         long f, const struct s16 *g, char h, const struct s24 *i) {
  return a + b->b + c + d + e + f + g->b + h + i->c;
}

// CHECK-LABEL: define i32 @args(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 80
// CHECK-NEXT:   %a0 = load volatile i64
// CHECK-NEXT:   %a = trunc i64 %a0 to i32
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 88
// CHECK-NEXT:   %a1 = load volatile i64
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 96
// CHECK-NEXT:   %a2 = load volatile i64
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 104
// CHECK-NEXT:   %a3 = load volatile i64
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 128
// CHECK-NEXT:   %a6 = load volatile i64
// g: its first half in a7, its second at sp+0.
// CHECK:        [[G0:%.*]] = getelementptr inbounds i8, ptr %g.val, i64 0
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 136
// CHECK-NEXT:   %a7 = load volatile i64
// CHECK-NEXT:   store i64 %a7, ptr [[G0]]
// CHECK-NEXT:   [[G8:%.*]] = getelementptr inbounds i8, ptr %g.val, i64 8
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 16
// CHECK-NEXT:   %sp = load volatile i64
// CHECK-NEXT:   [[SPP:%.*]] = inttoptr i64 %sp to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr [[G8]], i32 8, ptr [[SPP]])
// h: one byte at sp+8.
// CHECK:        [[H:%.*]] = add i64 {{%.*}}, 8
// CHECK:        [[HP:%.*]] = inttoptr i64 [[H]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr %slot, i32 1, ptr [[HP]])
// i: the pointer at sp+16, then 24 bytes from where it points.
// CHECK:        [[I:%.*]] = add i64 {{%.*}}, 16
// CHECK:        [[IP:%.*]] = inttoptr i64 [[I]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr [[S3:%slot[0-9]*]], i32 8, ptr [[IP]])
// CHECK-NEXT:   [[PTR:%.*]] = load i64, ptr [[S3]]
// CHECK-NEXT:   [[PP:%.*]] = inttoptr i64 [[PTR]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr {{%.*}}, i32 24, ptr [[PP]])

SEC("uretprobe/./x:f($retval:s64)")
int ret(struct pt_regs *ctx, long r) { return r != 0; }

// CHECK-LABEL: define i32 @ret(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 80
// CHECK-NEXT:   %a0 = load volatile i64

char LICENSE[] SEC("license") = "GPL";
