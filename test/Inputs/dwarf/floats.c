/* Floating-point values for the float tests: members behind a pointer, a
 * float and a double in stack slots, special values (-0, inf, a NaN with
 * its mantissa bits, a subnormal), and a double parameter in %xmm0 at the
 * entry, in a stack slot across the call (gcc). SCALE_LINE 21 is scale:6.
 * Line numbers are used by the tests: keep them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct sample { int id; float weight; double ratio; };
volatile double sink;

static void note(int id) { sink = id; }
void (*volatile notify)(int) = note;    /* opaque: it clobbers %xmm0-15 */
__attribute__((noinline)) double scale(struct sample *s, double k)
{
	volatile double twice = k * 2;
	volatile float w = s->weight;
	k += s->ratio;
	notify(s->id);                          /* k is spilled across it */
	sink = twice + w + s->id;               /* SCALE_LINE 21 */
	return k;
}

int main(int argc, char **argv)
{
	struct sample v[] = {
		{ 1, 0.1f, 0.1 },
		{ 2, -0.0f, 1e300 },
		{ 3, INFINITY, -NAN },
		{ 4, 1e-40f, 1.0 / 3 },
	};
	int n = argc > 1 ? atoi(argv[1]) : 4;
	double sum = 0;
	for (int i = 0; i < n && i < 4; i++)
		sum += scale(&v[i], 1.5 + i);
	printf("%g\n", sum);
	return 0;
}
