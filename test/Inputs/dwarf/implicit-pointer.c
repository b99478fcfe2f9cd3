/* gcc -O2 -gdwarf-5 describes the parameters of the inlined get() with
 * DW_OP_implicit_pointer: p points to the struct s, held in registers
 * (one piece a register, one DW_OP_shl of a register as a stack value), and
 * q to the local k. `*q`, `p->x`, `p->y` have values; `p` and `q`
 * themselves have none (gdb: <synthetic pointer>). */
#include <stdio.h>
#include <stdlib.h>

struct pt { long x, y; };

__attribute__((noinline)) void sink(long v) { printf("sink %ld\n", v); }

static inline __attribute__((always_inline)) long get(const struct pt *p,
                                                      const long *q)
{
	sink(p->x);
	sink(*q);
	return p->x + p->y + *q;
}

__attribute__((noinline)) long f(long a, long b)
{
	struct pt s = { a, b * 2 };
	long k = a + 5;
	return get(&s, &k);
}

int main(int argc, char **argv)
{
	return f(argc > 1 ? atol(argv[1]) : 10, 3) == 12345;
}
