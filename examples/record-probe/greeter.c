/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * The program example 3 traces: greets each name on the command line and
 * counts the letters.
 *
 *   greeter [NAME]...        default: ada grace
 */
#include <stdio.h>
#include <string.h>

/* A real, separate function with its own symbol: no inlining, no clones. */
#if defined(__GNUC__) && !defined(__clang__)
#define PROBE_TARGET __attribute__((noipa))
#else
#define PROBE_TARGET __attribute__((noinline))
#endif

PROBE_TARGET int greet(const char *name, int times)
{
	int letters = 0;

	for (int i = 0; i < times; i++) {
		printf("hello, %s\n", name);
		letters += (int)strlen(name);
	}
	return letters;
}

int main(int argc, char **argv)
{
	static const char *defaults[] = {"ada", "grace"};
	const char **names = argc > 1 ? (const char **)argv + 1 : defaults;
	int n = argc > 1 ? argc - 1 : 2, letters = 0;

	for (int i = 0; i < n; i++)
		letters += greet(names[i], i + 1);
	printf("%d letters\n", letters);
	return 0;
}
