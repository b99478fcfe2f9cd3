/* Probes on args.c through the bpfprobe plugin, by types only (calling
 * convention mode): the plugin's wrapper fetches each argument (registers,
 * then the stack for arguments 7..) and the body prints the line the target
 * prints. Most use the SEC("...") spelling, f2, f7 and f10 the BPF_PROBE
 * attribute.
 *
 *   clang -target bpf -fplugin=libbpfprobe.so -g -O2 \
 *         -DTARGET='"/path/to/args"' [-DONLY=N] -c args.bpf.c
 *
 * -DONLY=N keeps only the probe on fN. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#include "args.h"
#include "emit.h"

#ifndef TARGET
#error "define TARGET as the quoted path of the args binary"
#endif
#ifndef ONLY
#define ONLY 0
#endif
#define WANT(N) (ONLY == 0 || ONLY == (N))

#if WANT(1)
SEC("uprobe/" TARGET ":f1(int)")
int on_f1(struct pt_regs *ctx, int a) {
  EMIT(F1_FMT, a);
  return 0;
}
#endif

#if WANT(2)
BPF_PROBE("uprobe/" TARGET ":f2(char, unsigned char)")
int on_f2(struct pt_regs *ctx, char a, unsigned char b) {
  EMIT(F2_FMT, a, b);
  return 0;
}
#endif

#if WANT(3)
SEC("uprobe/" TARGET ":f3(short, unsigned short, _Bool)")
int on_f3(struct pt_regs *ctx, short a, unsigned short b, _Bool c) {
  EMIT(F3_FMT, a, b, c);
  return 0;
}
#endif

#if WANT(4)
SEC("uprobe/" TARGET ":f4(int, unsigned int, long, unsigned long)")
int on_f4(struct pt_regs *ctx, int a, unsigned b, long c, unsigned long d) {
  EMIT(F4_FMT, a, b, c, d);
  return 0;
}
#endif

#if WANT(5)
SEC("uprobe/" TARGET ":f5(long long, unsigned long long, char *, int, _Bool)")
int on_f5(struct pt_regs *ctx, long long a, unsigned long long b, char *s,
          int c, _Bool d) {
  char S[32];
  EMIT(F5_FMT, a, b, USER_STR(S, s), c, d);
  return 0;
}
#endif

#if WANT(6)
SEC("uprobe/" TARGET ":f6(char, short, int, long, long long, char *)")
int on_f6(struct pt_regs *ctx, char a, short b, int c, long d, long long e,
          char *s) {
  char S[32];
  EMIT(F6_FMT, a, b, c, d, e, USER_STR(S, s));
  return 0;
}
#endif

#if WANT(7)
BPF_PROBE("uprobe/" TARGET ":f7(unsigned char, short, unsigned, long, char *, "
          "long long, char)")
int on_f7(struct pt_regs *ctx, unsigned char a, short b, unsigned c, long d,
          char *s, long long e, char g) {
  char S[32];
  EMIT(F7_FMT, a, b, c, d, USER_STR(S, s), e, g);
  return 0;
}
#endif

#if WANT(8)
SEC("uprobe/" TARGET ":f8(int, int, int, int, int, int, short, unsigned short)")
int on_f8(struct pt_regs *ctx, int a, int b, int c, int d, int e, int f,
          short g, unsigned short h) {
  EMIT(F8_FMT, a, b, c, d, e, f, g, h);
  return 0;
}
#endif

#if WANT(9)
SEC("uprobe/" TARGET ":f9(void *, char *, long, int, unsigned char, _Bool, "
    "long long, unsigned, char)")
int on_f9(struct pt_regs *ctx, void *p, char *s, long a, int b,
          unsigned char c, _Bool d, long long e, unsigned f, char g) {
  char S[32];
  EMIT(F9_FMT, (unsigned long)p, USER_STR(S, s), a, b, c, d, e, f, g);
  return 0;
}
#endif

#if WANT(10)
BPF_PROBE("uprobe/" TARGET ":f10(char, unsigned char, short, unsigned short, "
          "int, _Bool, char, short, long, char *)")
int on_f10(struct pt_regs *ctx, char a, unsigned char b, short c,
           unsigned short d, int e, _Bool f, char g, short h, long i,
           char *s) {
  char S[32];
  EMIT(F10_FMT, a, b, c, d, e, f, g, h, i, USER_STR(S, s));
  return 0;
}
#endif

#if WANT(11)
SEC("uprobe/" TARGET ":f11(unsigned long, int, char *, short, unsigned, "
    "_Bool, long long, unsigned char, char *, int, long)")
int on_f11(struct pt_regs *ctx, unsigned long a, int b, char *s, short c,
           unsigned d, _Bool e, long long f, unsigned char g, char *t, int h,
           long i) {
  char S[32], T[32];
  EMIT(F11_FMT, a, b, USER_STR(S, s), c, d, e, f, g, USER_STR(T, t), h, i);
  return 0;
}
#endif

#if WANT(12)
SEC("uprobe/" TARGET ":f12(long long, unsigned long, int, void *, "
    "unsigned char, unsigned, char, unsigned short, _Bool, short, char *, "
    "long)")
int on_f12(struct pt_regs *ctx, long long a, unsigned long b, int c, void *p,
           unsigned char d, unsigned e, char f, unsigned short g, _Bool h,
           short i, char *s, long j) {
  char S[32];
  EMIT(F12_FMT, a, b, c, (unsigned long)p, d, e, f, g, h, i, USER_STR(S, s),
       j);
  return 0;
}
#endif
