/* A target for gdb's name semantics: an inline-only function, a gcc clone,
 * a struct defined only in other.c, a global of other.c, a caller's line
 * whose address is an inlined callee's (both have an 'rf'), and a line
 * inlined twice where one copy keeps no location for a value. Line
 * numbers are used by the tests: keep them. */
#include <stdio.h>
#include <stdlib.h>

struct opaque;                          /* defined in other.c only */
struct opaque *make_opaque(int id);
extern int shared_total;                /* defined in other.c */
volatile int sink;

struct rq_flags { long flags; int cookie; };
void publish(struct rq_flags *p);       /* other.c: rf must be in memory */

static inline __attribute__((always_inline)) int step(int x)
{
	int y = x * 3 + sink;           /* STEP_LINE 19 */
	sink = y;
	return y + 1;
}

static inline __attribute__((always_inline)) void lock_rq(struct rq_flags *rf)
{
	rf->cookie = sink + 1;          /* LOCK_LINE 26 */
	sink = (int)rf->flags;
}

static __attribute__((noinline)) int scale(int *p, int k)
{
	sink = *p * k;                  /* SCALE_LINE 32 */
	return sink + k;
}

__attribute__((noinline)) int use(struct opaque *o, int n)
{
	struct rq_flags rf = { n + 100, 0 };
	publish(&rf); lock_rq(&rf);     /* CALL_LINE 39 */
	sink = rf.cookie;
	int a = n;
	return step(n) + step(sink) + scale(&a, 5) + scale(&n, 5) + (o != 0);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	struct opaque *o = make_opaque(40 + n);
	for (int i = 0; i < n; i++)
		printf("use=%d total=%d\n", use(o, i + 1), shared_total);
	return 0;
}
