/* A probe target for the runtime tests: calls add3(i, -2*i, TAG) COUNT
 * times, DELAY_MS apart. usage: demo [COUNT [TAG [DELAY_MS]]]
 * -DPAD moves add3 (a function before it), -DBIGGER makes add3 longer: the
 * same build-id forced with -Wl,--build-id=0x... then fails the address or
 * size check alone. -DRENAME=\"name\" renames the task (prctl) first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifdef PAD
__attribute__((noinline, used)) int pad_before_add3(int x)
{
	return x * 3 + 1;
}
#endif

__attribute__((noinline)) long long add3(int a, long long b, const char *s)
{
	__asm__ volatile("" ::: "memory");
#ifdef BIGGER
	if (a == 123456)
		return a * b * 7 + b / 3;
#endif
	return a + b + (long long)strlen(s);
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 1;
	const char *tag = argc > 2 ? argv[2] : "hi";
	int delay_ms = argc > 3 ? atoi(argv[3]) : 0;
	long long sum = 0;
#ifdef RENAME
	prctl(PR_SET_NAME, RENAME);
#endif
	/* Touch the string first: a uprobe cannot fault its page in. */
	(void)*(volatile const char *)tag;
	for (int i = 1; i <= count; i++) {
		sum += add3(i, -2LL * i, tag);
		if (delay_ms)
			usleep(delay_ms * 1000);
	}
	fprintf(stderr, "sum=%lld\n", sum);
	return 0;
}
