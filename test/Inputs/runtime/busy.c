/* A busy site and a quiet one: quiet() once before and once after N calls
 * of busy() (argv[1], default 100000); a second argument drops the call
 * after the loop. Probe target of the busy-probe tests. */
#include <stdlib.h>

__attribute__((noinline)) int quiet(int n)
{
	asm volatile("");
	return n + 1;
}

__attribute__((noinline)) int busy(int i)
{
	asm volatile("");
	return i * 2;
}

/* Inlined into main: DWARF describes it, the symbol table has no entry. */
static inline __attribute__((always_inline)) int scaled(int x)
{
	return x * 3;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	int s = quiet(1) + scaled(argc);

	for (int i = 0; i < n; i++)
		s += busy(i);
	if (argc < 3) /* "./busy N once": quiet() only before the loop */
		s += quiet(2);
	return s == 1 ? 1 : 0;
}
