/* A call value that is itself an entry value: outer() passes its own
 * parameter on unchanged, so gcc -O2 describes inner's argument at its call
 * site as DW_OP_entry_value(DW_OP_reg5) of outer, resolved one caller
 * further (test/Live/entry-value-nested.test). */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) void sink(long v) { __asm__ volatile("" : : "r"(v)); }
__attribute__((noinline)) long inner(long x)
{
	sink(x * 3);
	sink(0);
	return 1;
}
__attribute__((noinline)) long outer(long y)
{
	return inner(y) + 1;
}
int main(int argc, char **argv)
{
	long a = argc > 1 ? atol(argv[1]) : 5;
	long r = outer(a);
	r += outer(a + 4);
	printf("%ld %ld\n", r, a);
	return 0;
}
