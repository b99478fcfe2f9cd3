/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * The program the example traces: restocks a few items and prints the
 * bill. Build it with -g so the line probe (on_restock_line in
 * inventory.bpf.c) can find its locals.
 *
 *   inventory [ITEM COUNT UNIT_CENTS]...    default: apple 3 120 pear 5 90
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"

/* Keep restock() a real, separate function with its own symbol: no
 * inlining and no constant-propagated clone (what a uprobe attaches to). */
#if defined(__GNUC__) && !defined(__clang__)
#define PROBE_TARGET __attribute__((noipa))
#else
#define PROBE_TARGET __attribute__((noinline))
#endif

PROBE_TARGET long long restock(struct item *it, int count, long long unit_cents)
{
	long long cost = count * unit_cents;

	it->stock += count;
	/* line probe: RESTOCK_LINE (fires before this line runs: the stock is
	 * already updated, cost is live) */
	printf("restocked %d x %s for %lld.%02lld\n", count, it->name,
	       cost / 100, cost % 100);
	return cost;
}

int main(int argc, char **argv)
{
	static const char *defaults[] = {"apple", "3", "120", "pear", "5", "90"};
	const char **args = (const char **)argv + 1;
	int nargs = argc - 1;
	long long total = 0;

	if (nargs == 0) {
		args = defaults;
		nargs = 6;
	}
	if (nargs % 3) {
		fprintf(stderr, "usage: inventory [ITEM COUNT UNIT_CENTS]...\n");
		return 2;
	}
	for (int i = 0; i < nargs; i += 3) {
		struct item it = {.stock = 0};

		snprintf(it.name, sizeof(it.name), "%s", args[i]);
		it.price_cents = atoll(args[i + 2]);
		total += restock(&it, atoi(args[i + 1]), it.price_cents);
	}
	printf("total %lld.%02lld\n", total / 100, total % 100);
	return 0;
}
