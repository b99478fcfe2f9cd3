// At -O0 clang loads libbpf's helper pointers (static long (*bpf_x)(...) =
// (void *)N) from globals; the pass folds the loads so every call names its
// helper id, which is what the verifier accepts.
// RUN: %clang_bpf -O0 -g -c %s -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s
// RUN: %clang_bpf -O0 -g -c %s -o %t.plain.o -DNO_PROBE
// RUN: llvm-objdump -d %t.plain.o | FileCheck %s --check-prefix=UNTOUCHED

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

#ifndef NO_PROBE
SEC("uprobe/./demo:f(int)")
int on_f(struct pt_regs *ctx, int a)
{
	bpf_printk("a=%d", a);
	return 0;
}
#else
// Without a probe in the file the pass changes nothing.
SEC("uprobe/./demo:f")
int on_f(struct pt_regs *ctx)
{
	bpf_printk("x");
	return 0;
}
#endif
char LICENSE[] SEC("license") = "GPL";

// CHECK-LABEL: <on_f>:
// CHECK-NOT: callx
// CHECK: call 0x6
// CHECK-NOT: callx
// UNTOUCHED-LABEL: <on_f>:
// UNTOUCHED: callx
