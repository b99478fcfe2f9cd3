/* The bundled demo target: a tiny "shop". The demo probes checkout() at its
 * entry without debug info (types by the calling convention) and a line in
 * the middle of ship() with debug info (a local and a member chain).
 * Build: gcc -g -O2 shop.c -o shop. It prints each call the way the probes
 * report it, so the two can be compared by eye. */
#include <stdio.h>
#include <stdlib.h>

struct item { const char *name; int grams; };
struct order { int customer; const struct item *item; short qty; };

__attribute__((noinline)) long checkout(int customer, long long cents,
					const char *item, short qty)
{
	printf("shop:     checkout(customer=%d, cents=%lld, item=\"%s\", qty=%d)\n",
	       customer, cents, item, qty);
	return cents * qty;
}

__attribute__((noinline)) int ship(const struct order *o)
{
	int weight = o->item->grams * o->qty;
	printf("shop:     ship(customer=%d, item=\"%s\", weight=%d)\n",
	       o->customer, o->item->name, weight);
	return weight > 1000 && o->customer > 100;
}

int main(int argc, char **argv)
{
	static const struct item items[] = {
		{"apple", 180}, {"pear", 200}, {"plum", 60}};
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	long total = 0;

	/* Touch the strings first: a uprobe cannot fault a page in, so a string
	 * the process has never read would show up as <fault>. */
	printf("shop:     selling %s, %s, %s\n", items[0].name, items[1].name,
	       items[2].name);
	for (int i = 0; i < rounds; i++) {
		const struct item *it = &items[i % 3];
		struct order o = {100 + i, it, (short)(i + 1)};

		total += checkout(o.customer, 250LL * (i + 1) - 1000, it->name,
				  (short)(i - 1));
		ship(&o);
	}
	printf("shop:     total %ld\n", total);
	return 0;
}
