// The powerpc64le prologue (64-bit ELF V2 ABI 2.2.3): every argument takes
// whole doublewords, the first eight in r3-r10 (gpr[3..10] at 24..80 of
// struct pt_regs, r1 at 8), the rest in the caller's parameter save area,
// which starts at 32(r1) at entry and shadows the registers: doubleword N is
// at 32 + 8*N. A structure may be split between r10 and the save area; one
// of 24 bytes is passed by value in doublewords, not by reference.
// RUN: %clang_bpf -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes -fplugin-arg-bpfprobe-arch=powerpc64le %s -o %t.ll
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
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 24
// CHECK-NEXT:   %gpr3 = load volatile i64
// CHECK-NEXT:   %a = trunc i64 %gpr3 to i32
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 32
// CHECK-NEXT:   %gpr4 = load volatile i64
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 40
// CHECK-NEXT:   %gpr5 = load volatile i64
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 72
// CHECK-NEXT:   %gpr9 = load volatile i64
// g (doublewords 7 and 8): r10, then 32 + 8*8 = 96(r1).
// CHECK:        [[G0:%.*]] = getelementptr inbounds i8, ptr %g.val, i64 0
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 80
// CHECK-NEXT:   %gpr10 = load volatile i64
// CHECK-NEXT:   store i64 %gpr10, ptr [[G0]]
// CHECK-NEXT:   [[G8:%.*]] = getelementptr inbounds i8, ptr %g.val, i64 8
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 8
// CHECK-NEXT:   %gpr1 = load volatile i64
// CHECK-NEXT:   [[A96:%.*]] = add i64 %gpr1, 96
// CHECK-NEXT:   [[P96:%.*]] = inttoptr i64 [[A96]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr [[G8]], i32 8, ptr [[P96]])
// h (doubleword 9): one byte at 104(r1), the slot's low address.
// CHECK:        [[A104:%.*]] = add i64 {{%.*}}, 104
// CHECK:        [[P104:%.*]] = inttoptr i64 [[A104]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr %slot, i32 1, ptr [[P104]])
// i (doublewords 10-12): 24 bytes at 112(r1).
// CHECK:        [[A112:%.*]] = add i64 {{%.*}}, 112
// CHECK-NEXT:   [[P112:%.*]] = inttoptr i64 [[A112]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr {{%.*}}, i32 24, ptr [[P112]])

SEC("uretprobe/./x:f($retval:s64)")
int ret(struct pt_regs *ctx, long r) { return r != 0; }

// CHECK-LABEL: define i32 @ret(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 24
// CHECK-NEXT:   %gpr3 = load volatile i64

char LICENSE[] SEC("license") = "GPL";
