/* A kernel probe written by hand, as the plugin would generate it for
 * SEC("kprobe/vfs_write(file, count)"); kprobe.meta describes it. This
 * kernel may have no kprobes: the tests check it up to the attach call. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("kprobe/vfs_write")
int on_write(struct pt_regs *ctx)
{
	bpf_printk("vfs_write count=%lu", (unsigned long)PT_REGS_PARM3(ctx));
	return 0;
}
