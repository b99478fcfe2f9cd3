/* The demo probes: no debug info needed, types by the calling convention.
 * Build: clang -target bpf -O2 -g -fplugin=libbpfprobe.so -c shop.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

/* A body of our own: the values arrive as parameters. */
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

/* A default body: bpfprobe-run prints every argument by name. */
BPF_PROBE_RECORD("uprobe/./shop:checkout($arg1:s32, $arg2:s64, $arg3:string, $arg4:s16)");

/* The return value. */
BPF_PROBE_RECORD("uretprobe/./shop:checkout($retval:s64)");

char LICENSE[] SEC("license") = "GPL";
