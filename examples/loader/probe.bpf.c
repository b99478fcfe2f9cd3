/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Two probes on target.c's add3(): a default-body probe whose records the
 * loader prints, and a probe with a body of its own. Built with the plugin:
 *   clang -g -O2 -target bpf -fplugin=libbpfprobe.so -c probe.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

char LICENSE[] SEC("license") = "GPL";

BPF_PROBE_RECORD_NAMED(on_add3, "uprobe/./target:add3($arg1:s32, $arg2:s64, $arg3:string)");

BPF_PROBE("uprobe/./target:add3(int, long long, char *)")
int big_sums(struct pt_regs *ctx, int a, long long b, char *s)
{
	if (a > 2)
		bpf_printk("add3 called with a=%d", a);
	return 0;
}
