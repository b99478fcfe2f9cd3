// Every member offset of a BTF-resolved chain is a CO-RE field relocation
// (byte offset) in .BTF.ext, against synthesized `<name>___bpfprobe` types
// that hold the members used at their real offsets (in offset order, as
// the kernel's BTF checker wants); `file->f_path.dentry` is one access from
// struct file, an anonymous union and struct are steps of the access. The
// object's BTF is accepted by the kernel (checked in core-relocate-*.test).
// Without -g there is no BTF to relocate, at -O0 the backend makes no
// relocations: both are errors.
// RUN: %clang -target bpf -g -O2 -c %S/Inputs/kernel-types.c -o %t.types.o
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -fplugin-arg-bpfprobe-btf=%t.types.o
// RUN: llvm-objdump -dr %t.o | FileCheck %s
// RUN: %bpftool btf dump file %t.o | FileCheck %s --check-prefix=TYPES
// RUN: not %clang_bpf -O2 -c %s -o %t.nog.o -fplugin-arg-bpfprobe-btf=%t.types.o 2>&1 | FileCheck %s --check-prefix=NOG
// RUN: not %clang_bpf -O0 -g -c %s -o %t.O0.o -fplugin-arg-bpfprobe-btf=%t.types.o 2>&1 | FileCheck %s --check-prefix=O0

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// CHECK: CO-RE <byte_off> [[[DENTRY:[0-9]+]]] struct dentry___bpfprobe::d_name.name (0:0:1)
// CHECK: CO-RE <byte_off> [[[FILE:[0-9]+]]] struct file___bpfprobe::f_path.dentry (0:0:0)
// CHECK: CO-RE <byte_off> [[[FILE]]] struct file___bpfprobe::f_pos (0:2)
// CHECK: CO-RE <byte_off> [[[DENTRY]]] struct dentry___bpfprobe::d_name.<anon 0>.<anon 0>.len (0:0:0:0:0)
// CHECK: CO-RE <byte_off> [[[FILE]]] struct file___bpfprobe::f_flags (0:1)
SEC("kprobe/vfs_write(file->f_path.dentry->d_name.name:string, count, file->f_pos, file->f_path.dentry->d_name.len, file->f_flags)")
int on_write(struct pt_regs *ctx, const char *name, unsigned long count,
             long long pos, unsigned len, unsigned flags) {
  bpf_printk("%s %lu %lld %u %u", name, count, pos, len, flags);
  return 0;
}

// TYPES:    STRUCT 'dentry___bpfprobe' size=56 vlen=1
// TYPES-NEXT:   'd_name' type_id={{[0-9]+}} bits_offset=64
// TYPES:    STRUCT 'file___bpfprobe' size=72 vlen=3
// TYPES-NEXT:   'f_path' type_id={{[0-9]+}} bits_offset=64
// TYPES-NEXT:   'f_flags' type_id={{[0-9]+}} bits_offset=256
// TYPES-NEXT:   'f_pos' type_id={{[0-9]+}} bits_offset=384

// NOG: error: bpfprobe: probes resolved through BTF read members through CO-RE relocations, which need the object's BTF: compile with -g
// O0: error: bpfprobe: probe 'on_write': members read through BTF are CO-RE relocations, which the BPF backend makes only when optimizing: compile with -O1 or higher

char LICENSE[] SEC("license") = "GPL";
