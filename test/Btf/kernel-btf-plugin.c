// The plugin without -fplugin-arg-bpfprobe-btf or -debuginfo: no DWARF of
// the running kernel is installed here, so a named kernel probe resolves
// with the running kernel's own BTF and is recorded as such.
// REQUIRES: kernel-btf, no-kernel-dwarf
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -fplugin-arg-bpfprobe-print-plan | FileCheck %s
// RUN: llvm-objdump -s -j .bpfprobe %t.o | FileCheck %s --check-prefix=META

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// CHECK: p:on_write vfs_write pos=+{{[0-9]+}}(%di):s64 count=%dx:u64
SEC("kprobe/vfs_write(file->f_pos, count)")
int on_write(struct pt_regs *ctx, long long pos, unsigned long count) {
  bpf_printk("%lld %lu", pos, count);
  return 0;
}
// META: source{{.*}}btf

char LICENSE[] SEC("license") = "GPL";
