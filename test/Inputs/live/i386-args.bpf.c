/* Probes on i386-args.c, a 32-bit x86 program running under an x86_64
 * kernel, by types only (calling-convention mode) with the ia32-compat
 * table: the x86_64 kernel's struct pt_regs (8-byte slots), the i386 user
 * convention (cdecl, every argument on the stack above the return address).
 * Each body prints the line the target prints.
 *
 *   clang -target bpf -fplugin=libbpfprobe.so -fplugin-arg-bpfprobe-arch=ia32-compat \
 *         -g -O2 -DTARGET='"/path/to/i386-args"' [-DNO_FP] -c i386-args.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#include "i386-args.h"
#include "emit.h"

#ifndef TARGET
#error "define TARGET as the quoted path of the i386-args binary"
#endif

SEC("uprobe/" TARGET ":i1(char, unsigned char, short, unsigned short, int, "
    "unsigned, long, unsigned long)")
int on_i1(struct pt_regs *ctx, char a, unsigned char b, short c,
          unsigned short d, int e, unsigned f, long g, unsigned long h) {
  EMIT(I1_FMT, a, b, c, d, e, f, g, h);
  return 0;
}

/* long long in two 4-byte stack slots, no 8-byte alignment (psABI 2.2). */
SEC("uprobe/" TARGET ":i2(long long, int, unsigned long long, char *, void *)")
int on_i2(struct pt_regs *ctx, long long a, int b, unsigned long long c,
          char *s, void *p) {
  char S[32];
  EMIT(I2_FMT, a, b, c, USER_STR(S, s), (unsigned long)p);
  return 0;
}

/* Structures by value: the prologue copies their stack bytes. */
SEC("uprobe/" TARGET ":i3(struct s8, char, struct s3, long long, struct s6)")
int on_i3(struct pt_regs *ctx, const struct s8 *a, char b, const struct s3 *c,
          long long d, const struct s6 *e) {
  EMIT(I3_FMT, a->a, a->b, b, c->c, c->s, d, e->a, e->b, e->c);
  return 0;
}

/* double and float travel on the stack like integers: their bits. (-DNO_FP
 * leaves this probe out, for tables that refuse floating point.) */
#ifndef NO_FP
BPF_PROBE("uprobe/" TARGET ":i4(double, float, int, long long)")
int on_i4(struct pt_regs *ctx, unsigned long long a, unsigned b, int c,
          long long d) {
  EMIT(I4_FMT, a, b, c, d);
  return 0;
}
#endif

SEC("uprobe/" TARGET ":i5(char, long long, short, struct s12, char *, "
    "long long, unsigned char, int, short, unsigned long)")
int on_i5(struct pt_regs *ctx, char a, long long b, short c,
          const struct s12 *d, char *s, long long e, unsigned char f, int g,
          short h, unsigned long i) {
  char S[32];
  EMIT(I5_FMT, a, b, c, d->a, d->b, USER_STR(S, s), e, d->c, f, g, h, i);
  return 0;
}

SEC("uprobe/" TARGET ":i6(int, long long, int)")
int on_i6(struct pt_regs *ctx, int a, long long b, int c) {
  EMIT(I6_FMT, a, (int)b, c);
  return 0;
}

/* A 64-bit return value in edx:eax. */
SEC("uretprobe/" TARGET ":i6($retval:s64)")
int on_r6(struct pt_regs *ctx, long long r) {
  EMIT(R6_FMT, r);
  return 0;
}

SEC("uretprobe/" TARGET ":i7($retval:s32)")
int on_r7(struct pt_regs *ctx, int r) {
  EMIT(R7_FMT, r);
  return 0;
}
