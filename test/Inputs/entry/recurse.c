/* A recursive function whose calls at each depth have their own argument
 * and return values, for `@entry(...)` in a uretprobe: every return must
 * get the argument of its own call (test/Live/entry-recursion.test). */
#include <stdio.h>
#include <stdlib.h>

struct req {
	long id;
	long depth;
};

/* Modifies its argument before returning, so a value read at the
 * return would differ from the one at the entry. */
__attribute__((noinline)) long descend(struct req *r, long n)
{
	long ret;

	printf("enter n=%ld id=%ld depth=%ld\n", n, r->id, r->depth);
	if (n == 0) {
		ret = r->id;
	} else {
		struct req inner = { r->id * 10 + n, r->depth + 1 };

		ret = descend(&inner, n - 1) + 1;
	}
	printf("return n=%ld ret=%ld\n", n, ret);
	r->id = -1;
	__asm__ volatile("" : : "r"(r) : "memory");
	return ret;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3;
	struct req top = { 7, 0 };
	long r = descend(&top, n);

	printf("result %ld\n", r);
	fflush(stdout);
	return 0;
}
