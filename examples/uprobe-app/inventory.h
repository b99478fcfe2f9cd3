/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * Shared by the traced program (inventory.c), the BPF probes
 * (inventory.bpf.c) and the loader
 * (inventory-trace.c): the layout of an item, and of the event the probes
 * send to the loader through the ring buffer.
 */
#ifndef INVENTORY_H
#define INVENTORY_H

#define ITEM_NAME_LEN 32

struct item {
	char name[ITEM_NAME_LEN];
	int stock;
	long long price_cents;
};

/* One ring-buffer record per call of restock(). */
struct restock_event {
	unsigned int pid;
	int count;            /* units added */
	long long unit_cents; /* price per unit */
	long long cost;       /* count * unit_cents: a local, line probe only */
	int stock;            /* stock after the update: line probe only */
	int from_line_probe;  /* 0: entry probe by types, 1: line probe */
	char name[ITEM_NAME_LEN];
};

#endif
