// The s390x prologue (s390x ELF ABI, "Parameter Passing"), for a big-endian
// BPF target as on s390x itself: r2-r6 are gprs[2..6] (40..72 of struct
// pt_regs, r15 the stack pointer at 144). A structure of 1, 2, 4 or 8 bytes
// is passed as an integer of its size, in the register's low-order bytes
// (a 4-byte one is the truncated register stored into the copy); others go
// by reference. Stack arguments start at 160(r15), in 8-byte slots with
// small values right-justified (an int at slot + 4). $retval is r2.
// RUN: %clang_bpf -target bpfeb -O0 -g -S -emit-llvm -Xclang -disable-llvm-passes -fplugin-arg-bpfprobe-arch=s390x %s -o %t.ll
// RUN: %opt_bpfprobe -passes=bpfprobe-wrapper -S %t.ll -o - | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct s4 { int a; };
struct s8 { int a, b; };
struct s12 { int a, b, c; };

SEC("uprobe/./x:f(int, struct s4, struct s8, struct s12, long, long, int, struct s8)")
int args(struct pt_regs *ctx, int a, const struct s4 *b, const struct s8 *c,
         const struct s12 *d, long e, long f, int g, const struct s8 *h) {
  return a + b->a + c->b + d->c + e + f + g + h->b;
}

// CHECK-LABEL: define i32 @args(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 40
// CHECK-NEXT:   %r2 = load volatile i64
// CHECK-NEXT:   %a = trunc i64 %r2 to i32
// b: the low 4 bytes of r3.
// CHECK:        [[B0:%.*]] = getelementptr inbounds i8, ptr %b.val, i64 0
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 48
// CHECK-NEXT:   %r3 = load volatile i64
// CHECK-NEXT:   [[B:%.*]] = trunc i64 %r3 to i32
// CHECK-NEXT:   store i32 [[B]], ptr [[B0]]
// c: all 8 bytes of r4.
// CHECK:        [[C0:%.*]] = getelementptr inbounds i8, ptr %c.val, i64 0
// CHECK-NEXT:   getelementptr inbounds i8, ptr %ctx, i64 56
// CHECK-NEXT:   %r4 = load volatile i64
// CHECK-NEXT:   store i64 %r4, ptr [[C0]]
// d: by reference, r5 points at it.
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 64
// CHECK-NEXT:   %r5 = load volatile i64
// CHECK-NEXT:   [[DP:%.*]] = inttoptr i64 %r5 to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr {{%.*}}, i32 12, ptr [[DP]])
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 72
// CHECK-NEXT:   %r6 = load volatile i64
// f at 160(r15), g right-justified at 168 + 4, h at 176.
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 144
// CHECK-NEXT:   %r15 = load volatile i64
// CHECK-NEXT:   [[F:%.*]] = add i64 %r15, 160
// CHECK:        [[FP:%.*]] = inttoptr i64 [[F]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr %slot, i32 8, ptr [[FP]])
// CHECK:        [[G:%.*]] = add i64 {{%.*}}, 172
// CHECK:        [[GP:%.*]] = inttoptr i64 [[G]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr %slot2, i32 4, ptr [[GP]])
// CHECK:        [[H:%.*]] = add i64 {{%.*}}, 176
// CHECK-NEXT:   [[HP:%.*]] = inttoptr i64 [[H]] to ptr
// CHECK-NEXT:   call i64 inttoptr (i64 112 to ptr)(ptr {{%.*}}, i32 8, ptr [[HP]])
// CHECK:        call i32 @__bpfprobe_body_args(ptr %ctx, i32 %a, ptr %b.val, ptr %c.val, ptr %d.val, i64 %r6, i64 %f, i32 %g, ptr %h.val)

SEC("kretprobe/f($retval:s64)")
int ret(struct pt_regs *ctx, long r) { return r != 0; }

// CHECK-LABEL: define i32 @ret(ptr %ctx)
// CHECK:        getelementptr inbounds i8, ptr %ctx, i64 40
// CHECK-NEXT:   %r2 = load volatile i64

char LICENSE[] SEC("license") = "GPL";
