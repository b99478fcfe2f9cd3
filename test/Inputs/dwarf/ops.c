/* DWARF arithmetic from real compilers: at -O2, gcc and clang describe
 * these locals, never stored, by expressions over the registers
 * (DW_OP_plus/minus of two registers, mul, div, mod, neg, not, and, or, xor,
 * shl, shr, shra, lt; gcc's min of two registers with dup/swap/over/bra/
 * drop, its remainder with over/over/div/mul/minus; clang's convert). The
 * probes sit on the printf line (test/Dwarf/expr-ops.test,
 * test/Live/expr-ops.test). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void sink(long v) { printf("sink %ld\n", v); }

__attribute__((noinline)) long arith(long a, long b, unsigned long u)
{
	long sum = a + b;
	long diff = a - b;
	long prod = a * 3;
	long neg = -a;
	long inv = ~a;
	long x = a ^ b;
	long o = a | b;
	unsigned long m = u & 0xff;
	unsigned long hi = u >> 8;
	long sa = a >> 3;
	long sl = a << 2;
	long q = a / 7;
	long r = a % 7;
	int lt = a < b;
	long mn = a < b ? a : b;
	printf("arith sum=%ld diff=%ld prod=%ld neg=%ld inv=%ld x=%ld o=%ld m=%lu hi=%lu sa=%ld sl=%ld q=%ld r=%ld lt=%d mn=%ld\n",
	       a + b, a - b, a * 3, -a, ~a, a ^ b, a | b, u & 0xff, u >> 8, a >> 3, a << 2, a / 7, a % 7, a < b, a < b ? a : b);
	sink(0);
	return a;
}

int main(int argc, char **argv)
{
	long a = argc > 1 ? atol(argv[1]) : 1000;
	long b = argc > 2 ? atol(argv[2]) : -77;
	unsigned long u = argc > 3 ? strtoul(argv[3], 0, 0) : 0xabcdef;
	return (int)arith(a, b, u) & 1;
}
