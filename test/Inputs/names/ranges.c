/* A local reassigned many times in a loop: its location list has many
   ranges, adjacent ones (gcc) and ones with holes between (clang). */
#include <stdlib.h>
volatile int sink;
__attribute__((noinline)) int work(int k) { sink += k; return sink; }
__attribute__((noinline)) int f(int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		v = work(i) * 3;
		sink = v;
		v = work(v) + 1;
		sink = v;
		v = work(v) - 2;
		sink = v;
		v = work(v) ^ 5;
		sink = v;
		v = work(v) | 8;
		sink = v;
		v = work(v) & 9;
		sink = v;
	}
	return 0;
}
int main(int argc, char **argv) { return f(argc); }
