// C++ references: `it.id` of a `const Item &it` reads through the address
// the reference holds, as in C++ and gdb. extern "C" keeps the symbol name
// plain (C++ qualified names are another issue).
#include <cstdio>
#include <cstdlib>

struct Item { int id; long weight; struct { short lo, hi; } range; };
volatile int sink;

extern "C" __attribute__((noinline)) int take(const Item &it, Item &out)
{
	sink = it.id;
	out.weight = it.weight + 1;
	return it.id + it.range.hi;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	for (int i = 0; i < n; i++) {
		Item a{40 + i, 700L * (i + 1), {3, short(9 + i)}};
		Item b{7, 0, {0, 0}};
		int r = take(a, b);
		printf("take id=%d weight=%ld hi=%d out.id=%d r=%d\n", a.id, a.weight, a.range.hi, b.id, r);
	}
	return 0;
}
