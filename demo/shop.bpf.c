/* The demo probes. Build:
 *   clang -target bpf -O2 -g -fplugin=libbpfprobe.so -c shop.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

/* No debug info needed: the types say where each argument is at entry, and
 * the values arrive as parameters of a body of our own. */
SEC("uprobe/./shop:checkout(int, long long, const char *, short)")
int on_checkout(struct pt_regs *ctx, int customer, long long cents,
		const char *item, short qty)
{
	char name[16] = {};

	bpf_probe_read_user_str(name, sizeof(name), item);
	bpf_printk("checkout(customer=%d, cents=%lld, item=\"%s\"...)", customer,
		   cents, name);
	return 0;
}

/* The return value, with a default body: bpfprobe-run prints it. */
BPF_PROBE_RECORD("uretprobe/./shop:checkout($retval:s64)");

/* With debug info (from ./shop itself): the third line of ship(), after
 * 'weight' is computed; a local and a member chain. */
BPF_PROBE_RECORD("uprobe/./shop:ship:3(o->customer, o->item->name:string, weight)");

char LICENSE[] SEC("license") = "GPL";
