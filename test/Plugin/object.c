// The object is an ordinary libbpf object: one program per probe in the
// clean section, the body inlined away, BTF func info with a named ctx, and
// the .bpfprobe section. Built at -O2 and -O0, with the IR verified after
// every pass.
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -Xclang -llvm-verify-each
// RUN: llvm-objdump -h %t.o | FileCheck %s --check-prefix=SECTIONS
// RUN: llvm-objdump -t %t.o | FileCheck %s --check-prefix=SYMS
// RUN: llvm-objcopy --dump-section=.bpfprobe=%t.meta %t.o %t.copy.o
// RUN: FileCheck %s --check-prefix=META --match-full-lines < %t.meta
// RUN: %bpftool btf dump file %t.o | FileCheck %s --check-prefix=BTF
// RUN: %clang_bpf -O0 -g -c %s -o %t.O0.o -Xclang -llvm-verify-each
// RUN: llvm-objdump -t %t.O0.o | FileCheck %s --check-prefix=SYMS
// RUN: %bpftool btf dump file %t.O0.o | FileCheck %s --check-prefix=BTF

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

SEC("uprobe/./demo:add3(int, long long, char *)")
int on_add3(struct pt_regs *ctx, int a, long long b, char *s)
{
	bpf_printk("add3 %d %lld %p", a, b, s);
	return 0;
}

BPF_PROBE("kprobe/vfs_write+0x10(%di, %si:u32)")
int on_write(struct pt_regs *ctx, void *file, unsigned count) { return count; }

// An ordinary libbpf program in the same file keeps its section.
SEC("kprobe/do_nothing")
int plain(struct pt_regs *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";

// SECTIONS-DAG: uprobe/./demo:add3
// SECTIONS-DAG: kprobe/vfs_write+0x10
// SECTIONS-DAG: kprobe/do_nothing
// SECTIONS-DAG: .bpfprobe

// SYMS-NOT: __bpfprobe_body
// SYMS-DAG: g F uprobe/./demo:add3 {{[0-9a-f]+}} on_add3
// SYMS-DAG: g F kprobe/vfs_write+0x10 {{[0-9a-f]+}} on_write
// SYMS-DAG: g F kprobe/do_nothing {{[0-9a-f]+}} plain
// SYMS-NOT: __bpfprobe_body

// META:      bpfprobe-site 1
// META-NEXT: program=on_add3
// META-NEXT: section=uprobe/./demo:add3
// META-NEXT: kind=uprobe
// META-NEXT: target=./demo
// META-NEXT: symbol=add3
// META-NEXT: offset=0
// META-NEXT: address=0x0
// META-NEXT: arch=x86_64
// META-NEXT: kernel_machine=62
// META-NEXT: compat=0
// META-NEXT: build_id=
// META-NEXT: source=cc
// META-NEXT: spec=uprobe/./demo:add3(int, long long, char *)
// META-NEXT: arg=a{{[[:blank:]]}}s32{{[[:blank:]]}}%di:s32{{[[:blank:]]}}int
// META-NEXT: arg=b{{[[:blank:]]}}s64{{[[:blank:]]}}%si:s64{{[[:blank:]]}}long long
// META-NEXT: arg=s{{[[:blank:]]}}x64{{[[:blank:]]}}%dx:x64{{[[:blank:]]}}char *
// META-NEXT: end
// META-NEXT: bpfprobe-site 1
// META-NEXT: program=on_write
// META-NEXT: section=kprobe/vfs_write+0x10
// META-NEXT: kind=kprobe
// META-NEXT: target=
// META-NEXT: symbol=vfs_write
// META-NEXT: offset=16
// META:      arg=file{{[[:blank:]]}}x64{{[[:blank:]]}}%di:x64{{[[:blank:]]}}%di
// META-NEXT: arg=count{{[[:blank:]]}}u32{{[[:blank:]]}}%si:u32{{[[:blank:]]}}%si:u32
// META-NEXT: end

// The wrappers' prototypes name their one parameter.
// BTF-NOT: __bpfprobe_body
// BTF: FUNC 'plain'
// BTF-NEXT: FUNC_PROTO '(anon)' ret_type_id={{[0-9]+}} vlen=1
// BTF-NEXT: 'ctx' type_id=
// BTF-NEXT: FUNC 'on_add3' type_id={{[0-9]+}} linkage=global
// BTF-NEXT: FUNC_PROTO '(anon)' ret_type_id={{[0-9]+}} vlen=1
// BTF-NEXT: 'ctx' type_id=
// BTF-NEXT: FUNC 'on_write' type_id={{[0-9]+}} linkage=global
// BTF-NOT: __bpfprobe_body
