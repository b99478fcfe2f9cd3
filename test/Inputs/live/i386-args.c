/* Probe target for the 32-bit x86 live test (built with -m32 / i686 and run
 * under the x86_64 kernel's IA-32 emulation): functions with mixed char,
 * short, int, long, long long, pointer, string, struct-by-value, double and
 * float parameters. The System V i386 psABI (cdecl) passes every argument on
 * the stack in 4-byte units: long long in two slots with no extra
 * alignment, structures by value in as many slots as they need. Each
 * function prints one line in the format of i386-args.h; a probe on it
 * prints the same line from the values it fetched, and the test diffs the
 * two. i6 and i7 are also probed at return: a long long comes back in
 * edx:eax, an int in eax.
 *
 *   i386-args        call every function once
 *
 * Values come from runtime data (the volatile Zero) and the functions are
 * noinline/noipa, so every argument really travels by the calling
 * convention. */
#include "i386-args.h"
#include <stdio.h>
#include <string.h>

#if defined(__clang__)
#define PROBED __attribute__((noinline, used))
#else
#define PROBED __attribute__((noinline, noipa, used))
#endif

static volatile int Zero;

PROBED void i1(char a, unsigned char b, short c, unsigned short d, int e,
               unsigned f, long g, unsigned long h) {
  printf(I1_FMT "\n", a, b, c, d, e, f, g, h);
}

PROBED void i2(long long a, int b, unsigned long long c, char *s, void *p) {
  printf(I2_FMT "\n", a, b, c, s, (unsigned long)p);
}

PROBED void i3(struct s8 a, char b, struct s3 c, long long d, struct s6 e) {
  printf(I3_FMT "\n", a.a, a.b, b, c.c, c.s, d, e.a, e.b, e.c);
}

PROBED void i4(double a, float b, int c, long long d) {
  unsigned long long A;
  unsigned B;
  memcpy(&A, &a, sizeof(A));
  memcpy(&B, &b, sizeof(B));
  printf(I4_FMT "\n", A, B, c, d);
}

PROBED void i5(char a, long long b, short c, struct s12 d, char *s,
               long long e, unsigned char f, int g, short h, unsigned long i) {
  printf(I5_FMT "\n", a, b, c, d.a, d.b, s, e, d.c, f, g, h, i);
}

PROBED long long i6(int a, long long b, int c) {
  printf(I6_FMT "\n", a, (int)b, c);
  return b * 3 + a + c;
}

PROBED int i7(int a) { return a * 7 + Zero; }

int main(void) {
  char s1[16], s2[16];
  int z = Zero;
  strcpy(s1, "thirty-two");
  strcpy(s2, "ia32");
  i1(-5 + z, 250 + z, -30000 + z, 65000 + z, -2000000000 + z, 4000000000u + z,
     -123456789L + z, 3000000000ul + z);
  i2(-1234567890123456789LL + z, 77 + z, 18000000000000000000ull + z, s1,
     (void *)(0x12345678ul + z));
  struct s8 a = {-1 + z, 0x7fffffff + z};
  struct s3 c = {'x' + z, -2 + z};
  struct s6 e = {-100 + z, 200 + z, -300 + z};
  i3(a, -7 + z, c, 0x0123456789abcdefLL + z, e);
  i4(-2.5 + z, 1.5f + z, 42 + z, -9000000000LL + z);
  struct s12 d = {-40000 + z, 200 + z, 40000 + z};
  i5(-1 + z, 5000000000LL + z, -2 + z, d, s2, -6000000000LL + z, 255 + z,
     -7 + z, 31000 + z, 4294967295ul + z);
  long long r6 = i6(3 + z, 1000000000000LL + z, -4 + z);
  int r7 = i7(-6 + z);
  printf(R6_FMT "\n", r6);
  printf(R7_FMT "\n", r7);
  return 0;
}
