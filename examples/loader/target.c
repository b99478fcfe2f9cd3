/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* The program the example probes: ./target [COUNT] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long long add3(int a, long long b, const char *s)
{
	__asm__ volatile("" ::: "memory");
	return a + b + (long long)strlen(s);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	const char *word = "hello";
	long long sum = 0;

	/* Fault the string's page in: a uprobe cannot, and would read "". */
	(void)*(volatile const char *)word;
	for (int i = 1; i <= n; i++)
		sum += add3(i, -2LL * i, word);
	fprintf(stderr, "sum=%lld\n", sum);
	return 0;
}
