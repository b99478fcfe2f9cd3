/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * Probes on inventory.c's restock(), built by bpfprobe_add_object() in
 * CMakeLists.txt:
 *
 *   clang --target=bpf -g -O2 -fplugin=libbpfprobe.so -D__TARGET_ARCH_x86 \
 *         -DINVENTORY_PATH='"/abs/path/inventory"' -c inventory.bpf.c
 *
 * on_restock is an entry probe written by types (calling-convention mode):
 * no debug info is read, the plugin's prologue loads each argument from the
 * register the x86-64 calling convention puts it in and passes it to the
 * body as an ordinary parameter.
 *
 * on_restock_line (-DWITH_LINE_PROBE, CMake option BPFPROBE_EXAMPLE_DWARF,
 * ON by default) fires in the middle of restock(), at the source line
 * marked in inventory.c, and fetches a local variable and a member chain.
 * The plugin resolves them against the program's DWARF (DEBUGINFO in
 * CMakeLists.txt); with -fplugin-arg-bpfprobe-print-plan the plan reads, for
 * the program built without optimization:
 *
 *   p:on_restock_line /abs/path/inventory:restock+55 name=+0(-24(%bp)):string
 *     count=-28(%bp):s32 cost=-8(%bp):s64 stock=+32(-24(%bp)):s32
 */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#include "inventory.h"

#ifndef INVENTORY_PATH
#error "define INVENTORY_PATH as the quoted path of the inventory binary"
#endif

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} events SEC(".maps");

/* Entry of restock(struct item *it, int count, long long unit_cents). */
SEC("uprobe/" INVENTORY_PATH ":restock(struct item *, int, long long)")
int on_restock(struct pt_regs *ctx, struct item *it, int count,
	       long long unit_cents)
{
	struct restock_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->count = count;
	e->unit_cents = unit_cents;
	e->cost = 0;
	e->stock = 0;
	e->from_line_probe = 0;
	/* `it` points into the traced process: copy the name out of it. */
	if (bpf_probe_read_user_str(e->name, sizeof(e->name), it->name) < 0)
		e->name[0] = 0;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

#ifdef WITH_LINE_PROBE
#ifndef RESTOCK_LINE
#error "define RESTOCK_LINE as the quoted line number of the marked line in inventory.c"
#endif
/*
 * In the middle of restock(), after the stock is updated: the local `cost`,
 * the parameter `count` and two members reached through the pointer `it`.
 * `:string` makes the prologue copy the name to the BPF stack; `name`
 * points at that copy.
 */
SEC("uprobe/" INVENTORY_PATH ":inventory.c:" RESTOCK_LINE
    "(it->name:string, count, cost, it->stock)")
int on_restock_line(struct pt_regs *ctx, const char *name, int count,
		    long long cost, int stock)
{
	struct restock_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return 0;
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->count = count;
	e->unit_cents = 0;
	e->cost = cost;
	e->stock = stock;
	e->from_line_probe = 1;
	if (bpf_probe_read_kernel_str(e->name, sizeof(e->name), name) < 0)
		e->name[0] = 0;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
#endif
