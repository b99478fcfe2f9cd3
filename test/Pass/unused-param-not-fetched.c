// A value the body provably never reads is not fetched: a 7th argument on
// x86_64 lives on the stack and costs a bpf_probe_read_user (call 0x70),
// which no later pass may delete. A body that reads it, takes its address
// or passes it on keeps the read; so does -O0, where the parameter's slot
// is written and read back.
// RUN: %clang_bpf -O2 -g -c %s -o %t.unused.o
// RUN: llvm-objdump -d %t.unused.o | FileCheck %s --check-prefix=UNUSED
// RUN: %clang_bpf -O2 -g -c %s -o %t.used.o -DUSE_IT
// RUN: llvm-objdump -d %t.used.o | FileCheck %s --check-prefix=USED
// RUN: %clang_bpf -O2 -g -c %s -o %t.addr.o -DTAKE_ADDRESS
// RUN: llvm-objdump -d %t.addr.o | FileCheck %s --check-prefix=USED
// RUN: %clang_bpf -O0 -g -c %s -o %t.O0.o -DUSE_IT
// RUN: llvm-objdump -d %t.O0.o | FileCheck %s --check-prefix=USED

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

static void sink(const long *p) { bpf_printk("%ld", *p); }

SEC("uprobe/./demo:f(long, long, long, long, long, long, long)")
int on_f(struct pt_regs *ctx, long a1, long a2, long a3, long a4, long a5,
	 long a6, long a7)
{
#if defined(USE_IT)
	bpf_printk("%ld %ld", a1, a7);
#elif defined(TAKE_ADDRESS)
	sink(&a7);
#else
	bpf_printk("%ld", a1);
#endif
	return 0;
}
char LICENSE[] SEC("license") = "GPL";

// UNUSED-LABEL: <on_f>:
// UNUSED-NOT: call 0x70
// UNUSED: call 0x6
// USED-LABEL: <on_f>:
// USED: call 0x70
// USED: call 0x6
