/* Probe target for the live tests: f1..f12 take 1..12 parameters of mixed
 * integer, pointer, string and _Bool types, so arguments 7..12 are passed on
 * the stack (x86-64 SysV). Each prints exactly one line in the format of
 * args.h; a probe on the function prints the same line from the values it
 * fetched, and the test diffs the two.
 *
 *   args            call f1..f12 in order
 *   args N          call only fN (N = 1..12)
 *   args dirty      call fdirty through dirty_call(), which leaves garbage in
 *                   bits 32..63 of every argument (x86-64 only)
 *
 * Values come from runtime data (the volatile Zero, strings built on the
 * stack) and the functions are noinline/noipa, so neither gcc nor clang can
 * specialize or clone them: every argument really travels by the calling
 * convention. Strings are written at run time so their pages are resident
 * when a probe reads them without faulting. */
#include "args.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

#if defined(__clang__)
#define PROBED __attribute__((noinline, used))
#else
#define PROBED __attribute__((noinline, noipa, used))
#endif

static volatile long Zero;

PROBED void f1(int a) { printf(F1_FMT "\n", a); }

PROBED void f2(char a, unsigned char b) { printf(F2_FMT "\n", a, b); }

PROBED void f3(short a, unsigned short b, _Bool c) {
  printf(F3_FMT "\n", a, b, c);
}

PROBED void f4(int a, unsigned b, long c, unsigned long d) {
  printf(F4_FMT "\n", a, b, c, d);
}

PROBED void f5(long long a, unsigned long long b, char *s, int c, _Bool d) {
  printf(F5_FMT "\n", a, b, s, c, d);
}

PROBED void f6(char a, short b, int c, long d, long long e, char *s) {
  printf(F6_FMT "\n", a, b, c, d, e, s);
}

/* From here on, arguments 7.. are on the stack. */
PROBED void f7(unsigned char a, short b, unsigned c, long d, char *s,
               long long e, char g) {
  printf(F7_FMT "\n", a, b, c, d, s, e, g);
}

PROBED void f8(int a, int b, int c, int d, int e, int f, short g,
               unsigned short h) {
  printf(F8_FMT "\n", a, b, c, d, e, f, g, h);
}

PROBED void f9(void *p, char *s, long a, int b, unsigned char c, _Bool d,
               long long e, unsigned f, char g) {
  printf(F9_FMT "\n", (unsigned long)p, s, a, b, c, d, e, f, g);
}

PROBED void f10(char a, unsigned char b, short c, unsigned short d, int e,
                _Bool f, char g, short h, long i, char *s) {
  printf(F10_FMT "\n", a, b, c, d, e, f, g, h, i, s);
}

PROBED void f11(unsigned long a, int b, char *s, short c, unsigned d, _Bool e,
                long long f, unsigned char g, char *t, int h, long i) {
  printf(F11_FMT "\n", a, b, s, c, d, e, f, g, t, h, i);
}

PROBED void f12(long long a, unsigned long b, int c, void *p, unsigned char d,
                unsigned e, char f, unsigned short g, _Bool h, short i,
                char *s, long j) {
  printf(F12_FMT "\n", a, b, c, (unsigned long)p, d, e, f, g, h, i, s, j);
}

PROBED void fdirty(int a, unsigned b, short c, char d, unsigned char e,
                   _Bool f, int g, unsigned h) {
  printf(FDIRTY_FMT "\n", a, b, c, d, e, f, g, h);
}

#if defined(__x86_64__)
/* fdirty(-1, 0xdeadbeef, -30000, -5, 250, 0, -2, 0x80000001) with bits
 * 32..63 of each register and stack slot set to 0x5a5a5a5a, so a probe that
 * reads more than the low 32 bits (or tests a whole register for a _Bool)
 * prints something else. Bits 8..31 of the narrow types are extended, as
 * clang expects of its callers. */
void dirty_call(void);
__asm__(".text\n"
        ".globl dirty_call\n"
        ".type dirty_call, @function\n"
        "dirty_call:\n"
        "  .cfi_startproc\n"
        "  subq $24, %rsp\n"
        "  .cfi_def_cfa_offset 32\n"
        "  movabsq $0x5a5a5a5afffffffe, %rax\n"
        "  movq %rax, 0(%rsp)\n"
        "  movabsq $0x5a5a5a5a80000001, %rax\n"
        "  movq %rax, 8(%rsp)\n"
        "  movabsq $0x5a5a5a5affffffff, %rdi\n"
        "  movabsq $0x5a5a5a5adeadbeef, %rsi\n"
        "  movabsq $0x5a5a5a5affff8ad0, %rdx\n"
        "  movabsq $0x5a5a5a5afffffffb, %rcx\n"
        "  movabsq $0x5a5a5a5a000000fa, %r8\n"
        "  movabsq $0x5a5a5a5a00000000, %r9\n"
        "  call fdirty\n"
        "  addq $24, %rsp\n"
        "  .cfi_def_cfa_offset 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        "  .size dirty_call, .-dirty_call\n");
#endif

int main(int argc, char **argv) {
  const char *Only = argc > 1 ? argv[1] : NULL;
#define WANT(Name) (!Only || !strcmp(Only, Name))
  long Z = Zero;
  char Hello[16], Six[16], Seven[16], Nine[16], Ten[16], Eleven[16],
      Empty[4], Twelve[16];
  strcpy(Hello, "hello");
  strcpy(Six, "six args");
  strcpy(Seven, "seven");
  strcpy(Nine, "nine");
  strcpy(Ten, "ten");
  strcpy(Eleven, "eleven");
  strcpy(Empty, "");
  strcpy(Twelve, "twelve");
  static char Object[32];
  char Local[8];

  if (Only && !strcmp(Only, "dirty")) {
#if defined(__x86_64__)
    dirty_call();
    return 0;
#else
    fprintf(stderr, "args: 'dirty' needs x86-64\n");
    return 1;
#endif
  }
  if (WANT("1"))
    f1((int)(Z - 7));
  if (WANT("2"))
    f2((char)(Z - 5), (unsigned char)(Z + 250));
  if (WANT("3"))
    f3((short)(Z - 30000), (unsigned short)(Z + 65000), Z == 0);
  if (WANT("4"))
    f4((int)(Z - 123456), (unsigned)(Z + 0xdeadbeefu), Z - 1234567890123L,
       (unsigned long)Z + 0xfedcba9876543210UL);
  if (WANT("5"))
    f5(Z - 1LL, (unsigned long long)Z + 0x1122334455667788ULL, Hello,
       (int)(Z + INT_MIN), Z != 0);
  if (WANT("6"))
    f6((char)(Z + 127), (short)(Z - 1), (int)(Z + INT_MAX), Z + LONG_MIN,
       Z + 0x1122334455667788LL, Six);
  if (WANT("7"))
    f7((unsigned char)(Z + 200), (short)(Z - 2), (unsigned)(Z + 3000000000u),
       Z - 4, Seven, Z - 6000000000LL, (char)(Z - 7));
  if (WANT("8"))
    f8((int)(Z - 1), (int)(Z - 2), (int)(Z - 3), (int)(Z - 4), (int)(Z - 5),
       (int)(Z - 6), (short)(Z - 7), (unsigned short)(Z + 65535));
  if (WANT("9"))
    f9(Object + Z, Nine, Z - 9000000000L, (int)(Z - 9),
       (unsigned char)(Z + 255), Z == 0, Z + LLONG_MAX,
       (unsigned)(Z + UINT_MAX), (char)(Z - 128));
  if (WANT("10"))
    f10((char)(Z - 10), (unsigned char)(Z + 10), (short)(Z - 10000),
        (unsigned short)(Z + 10000), (int)(Z - 100000), Z != 0,
        (char)(Z + 100), (short)(Z + SHRT_MIN), Z - 1000000000000L, Ten);
  if (WANT("11"))
    f11((unsigned long)Z + ULONG_MAX, (int)(Z - 11), Eleven,
        (short)(Z + SHRT_MAX), (unsigned)(Z + 11), Z == 0, Z + LLONG_MIN,
        (unsigned char)(Z + 128), Empty, (int)(Z - INT_MAX), Z + 11000000000L);
  if (WANT("12"))
    f12(Z + 0x1122334455667788LL, (unsigned long)Z + 0xfedcba9876543210UL,
        (int)(Z - 12), Local + Z, (unsigned char)(Z + 251),
        (unsigned)(Z + 0x80000000u), (char)(Z - 5), (unsigned short)(Z + 65000),
        Z == 0, (short)(Z - 30000), Twelve, Z - 1);
  return 0;
}
