/* Hand-written libbpf probes on args.c, without the plugin: each fetches its
 * arguments by the x86-64 SysV convention itself (PT_REGS-style register
 * reads, stack reads for arguments 7..) and prints the line the target
 * prints. This is the reference that proves the live harness (target, loader,
 * ring buffer, diff) independently of the plugin.
 *
 *   clang -target bpf -g -O2 -DTARGET='"/path/to/args"' -c args-plain.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

#include "args.h"
#include "emit.h"

#ifndef TARGET
#error "define TARGET as the quoted path of the args binary"
#endif

/* Argument N (1-based) at function entry: rdi, rsi, rdx, rcx, r8, r9, then
 * 8-byte stack slots above the return address. */
static __always_inline unsigned long arg(struct pt_regs *ctx, int N) {
  unsigned long V = 0;
  switch (N) {
  case 1: return ctx->rdi;
  case 2: return ctx->rsi;
  case 3: return ctx->rdx;
  case 4: return ctx->rcx;
  case 5: return ctx->r8;
  case 6: return ctx->r9;
  default:
    bpf_probe_read_user(&V, sizeof(V), (void *)(ctx->rsp + 8 * (N - 6)));
    return V;
  }
}

#define A(N, T) ((T)arg(ctx, N))
/* A _Bool is bit 0 of its byte; the bits above the byte are undefined. */
#define B(N) ((_Bool)(unsigned char)arg(ctx, N))

SEC("uprobe/" TARGET ":f1")
int plain_f1(struct pt_regs *ctx) {
  EMIT(F1_FMT, A(1, int));
  return 0;
}

SEC("uprobe/" TARGET ":f2")
int plain_f2(struct pt_regs *ctx) {
  EMIT(F2_FMT, A(1, char), A(2, unsigned char));
  return 0;
}

SEC("uprobe/" TARGET ":f3")
int plain_f3(struct pt_regs *ctx) {
  EMIT(F3_FMT, A(1, short), A(2, unsigned short), B(3));
  return 0;
}

SEC("uprobe/" TARGET ":f4")
int plain_f4(struct pt_regs *ctx) {
  EMIT(F4_FMT, A(1, int), A(2, unsigned), A(3, long), A(4, unsigned long));
  return 0;
}

SEC("uprobe/" TARGET ":f5")
int plain_f5(struct pt_regs *ctx) {
  char S[32];
  EMIT(F5_FMT, A(1, long long), A(2, unsigned long long), USER_STR(S, arg(ctx, 3)),
       A(4, int), B(5));
  return 0;
}

SEC("uprobe/" TARGET ":f6")
int plain_f6(struct pt_regs *ctx) {
  char S[32];
  EMIT(F6_FMT, A(1, char), A(2, short), A(3, int), A(4, long), A(5, long long),
       USER_STR(S, arg(ctx, 6)));
  return 0;
}

SEC("uprobe/" TARGET ":f7")
int plain_f7(struct pt_regs *ctx) {
  char S[32];
  EMIT(F7_FMT, A(1, unsigned char), A(2, short), A(3, unsigned), A(4, long),
       USER_STR(S, arg(ctx, 5)), A(6, long long), A(7, char));
  return 0;
}

SEC("uprobe/" TARGET ":f8")
int plain_f8(struct pt_regs *ctx) {
  EMIT(F8_FMT, A(1, int), A(2, int), A(3, int), A(4, int), A(5, int), A(6, int),
       A(7, short), A(8, unsigned short));
  return 0;
}

SEC("uprobe/" TARGET ":f9")
int plain_f9(struct pt_regs *ctx) {
  char S[32];
  EMIT(F9_FMT, A(1, unsigned long), USER_STR(S, arg(ctx, 2)), A(3, long),
       A(4, int), A(5, unsigned char), B(6), A(7, long long),
       A(8, unsigned), A(9, char));
  return 0;
}

SEC("uprobe/" TARGET ":f10")
int plain_f10(struct pt_regs *ctx) {
  char S[32];
  EMIT(F10_FMT, A(1, char), A(2, unsigned char), A(3, short),
       A(4, unsigned short), A(5, int), B(6), A(7, char), A(8, short),
       A(9, long), USER_STR(S, arg(ctx, 10)));
  return 0;
}

SEC("uprobe/" TARGET ":f11")
int plain_f11(struct pt_regs *ctx) {
  char S[32], T[32];
  EMIT(F11_FMT, A(1, unsigned long), A(2, int), USER_STR(S, arg(ctx, 3)),
       A(4, short), A(5, unsigned), B(6), A(7, long long),
       A(8, unsigned char), USER_STR(T, arg(ctx, 9)), A(10, int), A(11, long));
  return 0;
}

SEC("uprobe/" TARGET ":f12")
int plain_f12(struct pt_regs *ctx) {
  char S[32];
  EMIT(F12_FMT, A(1, long long), A(2, unsigned long), A(3, int),
       A(4, unsigned long), A(5, unsigned char), A(6, unsigned), A(7, char),
       A(8, unsigned short), B(9), A(10, short), USER_STR(S, arg(ctx, 11)),
       A(12, long));
  return 0;
}

SEC("uprobe/" TARGET ":fdirty")
int plain_fdirty(struct pt_regs *ctx) {
  EMIT(FDIRTY_FMT, A(1, int), A(2, unsigned), A(3, short), A(4, char),
       A(5, unsigned char), B(6), A(7, int), A(8, unsigned));
  return 0;
}
