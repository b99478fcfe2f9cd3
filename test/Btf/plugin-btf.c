// The plugin resolves a named kernel probe through BTF given by
// -fplugin-arg-bpfprobe-btf=PATH (here an object's .BTF), records
// source=btf and no build-id in .bpfprobe (a BTF site is not pinned to one
// kernel build), and reports BTF refusals at the annotation.
// RUN: %clang -target bpf -g -O2 -c %S/Inputs/kernel-types.c -o %t.types.o
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -fplugin-arg-bpfprobe-btf=%t.types.o -fplugin-arg-bpfprobe-print-plan | FileCheck %s
// RUN: llvm-objdump -s -j .bpfprobe %t.o | FileCheck %s --check-prefix=META
// RUN: not %clang_bpf -O2 -g -c %s -o %t.bad.o -fplugin-arg-bpfprobe-btf=%t.types.o -DBAD 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %clang_bpf -O2 -g -c %s -o %t.bad.o -fplugin-arg-bpfprobe-btf=%t.nonexistent 2>&1 | FileCheck %s --check-prefix=NOBTF

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// CHECK: p:on_write vfs_write name=+0(+16(+16(%di))):string count=%dx:u64 pos=+48(%di):s64
SEC("kprobe/vfs_write(file->f_path.dentry->d_name.name:string, count, file->f_pos)")
int on_write(struct pt_regs *ctx, const char *name, unsigned long count, long long pos) {
  bpf_printk("%s %lu %lld", name, count, pos);
  return 0;
}

// META: source{{.*}}btf

#ifdef BAD
// BAD: plugin-btf.c:[[@LINE+1]]:29: error: 'struct file' has no member 'f_pso'; did you mean 'f_pos'?
SEC("kprobe/vfs_write(file->f_pso)")
int on_bad(struct pt_regs *ctx, long long pos) { return 0; }
#endif
// NOBTF: error: no DWARF and no BTF for the kernel: cannot read BTF from '{{.*}}nonexistent': No such file or directory; pass -fplugin-arg-bpfprobe-btf=PATH or -fplugin-arg-bpfprobe-debuginfo=PATH

char LICENSE[] SEC("license") = "GPL";
