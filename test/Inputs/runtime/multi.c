/* A target where one source line exists twice: helper() is inlined into
 * first() and second(), so a probe on its line has two sites. */
#include <stdio.h>
#include <stdlib.h>

int g = 5;

static inline __attribute__((always_inline)) int helper(int x)
{
	return x * 2 + g; /* multi.c:10 */
}

__attribute__((noinline)) int first(int x)
{
	return helper(x) + 1;
}

__attribute__((noinline)) int second(int x)
{
	return helper(x) - 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	fprintf(stderr, "%d\n", first(n) + second(n + 100));
	return 0;
}
