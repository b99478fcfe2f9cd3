/* Parameters that are dead after a call: gcc -O2 describes them at the
 * later lines by DW_OP_entry_value, and each call site of work() gives
 * their values (DW_AT_call_value: a constant, a register, that register
 * plus one); the third call, through a pointer, has no call site bpfprobe
 * follows: an entry program saves it at entry. The probes sit on the line of
 * sink(0) (test/Dwarf/entry-value-call-site.test,
 * test/Live/entry-value.test, test/Dwarf/entry-value-refused.test). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void sink(long v) { __asm__ volatile("" : : "r"(v)); }

__attribute__((noinline)) long work(long x, long y)
{
	sink(x * 2 + y);
	sink(0);
	return 1;
}

/* Called only through a pointer: no call site gives its entry values. */
__attribute__((noinline)) long by_pointer(long v)
{
	sink(v * 3);
	sink(0);
	return 2;
}

long (*volatile indirect)(long, long) = work;
long (*volatile indirect1)(long) = by_pointer;

int main(int argc, char **argv)
{
	long a = argc > 1 ? atol(argv[1]) : 5;
	long r = work(a, 7);
	r += work(a + 1, 9);
	r += indirect(a + 2, 11);
	r += indirect1(a + 3);
	printf("%ld %ld\n", r, a);
	return 0;
}
