/* A probe target for the runtime tests: calls add3(i, -2*i, TAG) COUNT
 * times, DELAY_MS apart. usage: demo [COUNT [TAG [DELAY_MS]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long long add3(int a, long long b, const char *s)
{
	__asm__ volatile("" ::: "memory");
	return a + b + (long long)strlen(s);
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 1;
	const char *tag = argc > 2 ? argv[2] : "hi";
	int delay_ms = argc > 3 ? atoi(argv[3]) : 0;
	long long sum = 0;

	for (int i = 1; i <= count; i++) {
		sum += add3(i, -2LL * i, tag);
		if (delay_ms)
			usleep(delay_ms * 1000);
	}
	printf("sum=%lld\n", sum);
	return 0;
}
