/* The bundled demo target: a tiny "shop" whose checkout() the demo probes.
 * Build: gcc -g -O2 shop.c -o shop. It prints each call the way the probe
 * reports it, so the two can be compared by eye. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) long checkout(int customer, long long cents,
					       const char *item, short qty)
{
	printf("shop:     checkout(customer=%d, cents=%lld, item=\"%s\", qty=%d)\n",
	       customer, cents, item, qty);
	return cents * qty;
}

int main(int argc, char **argv)
{
	static const char *items[] = {"apple", "pear", "plum"};
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	long total = 0;

	/* Touch the strings first: a uprobe cannot fault a page in, so a string
	 * the process has never read would show up as <fault>. */
	printf("shop:     selling %s, %s, %s\n", items[0], items[1], items[2]);

	for (int i = 0; i < rounds; i++)
		total += checkout(100 + i, 250LL * (i + 1) - 1000, items[i % 3],
				  (short)(i - 1));
	printf("shop:     total %ld\n", total);
	return 0;
}
