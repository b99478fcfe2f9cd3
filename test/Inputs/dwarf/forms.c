/* Location forms for the DWARF tests: a struct passed in two registers
 * (DW_OP_piece), a value computed but never stored (DW_OP_stack_value), a
 * constant local (DW_AT_const_value), a parameter clobbered before the probe
 * point (DW_OP_entry_value). */
#include <stdio.h>
#include <stdlib.h>

struct pair { long lo; long hi; };

__attribute__((noinline)) long split(struct pair p, long x)
{
	const int k = 5;
	long y = x + 1;
	printf("split lo=%ld hi=%ld x=%ld y=%ld k=%d\n", p.lo, p.hi, x, y, k);
	return p.lo + p.hi + y + k;
}

__attribute__((noinline)) long clobber(long a, long b)
{
	long r = a * b;
	printf("clobber r=%ld\n", r);
	return r;
}

struct flags { int a : 3; unsigned b : 5; int c; };

/* A struct of bitfields passed in a register; an untyped pointer. */
__attribute__((noinline)) int bits(struct flags fl, void *v)
{
	printf("bits a=%d b=%u c=%d v=%ld\n", fl.a, fl.b, fl.c, *(long *)v);
	return fl.a + fl.b + fl.c;
}

int main(int argc, char **argv)
{
	struct pair p = { .lo = -5, .hi = 6 };
	struct flags fl = { .a = -2, .b = 19, .c = 7 };
	long x = argc > 1 ? atol(argv[1]) : 41;
	long big = -1234567890123;
	return (int)(split(p, x) + clobber(x, 2) + bits(fl, &big)) & 1;
}
