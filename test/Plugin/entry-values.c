// `@entry(...)` in return probes: each return program gets an entry program
// on the same function (uprobe for uretprobe, kprobe for kretprobe) that
// saves the values, an LRU hash map defined in BTF, and metadata that
// pairs the two programs; the plan prints the entry-time fetch inside
// @entry(...). fexit reads a plain entry argument from its own context:
// no entry program.
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -Xclang -llvm-verify-each \
// RUN:   -fplugin-arg-bpfprobe-print-plan | FileCheck %s --check-prefix=PLAN
// RUN: llvm-objdump -t %t.o | FileCheck %s --check-prefix=SYMS
// RUN: llvm-objcopy --dump-section=.bpfprobe=%t.meta %t.o %t.copy.o
// RUN: FileCheck %s --check-prefix=META --match-full-lines < %t.meta
// RUN: %bpftool btf dump file %t.o | FileCheck %s --check-prefix=BTF
// RUN: not %clang_bpf -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOG
// entry-pairing=map: no session program, so no session kfunc to resolve
// (the object loads without the kernel's BTF); the map pair is unchanged.
// RUN: %clang_bpf -O2 -g -c %s -o %t.map.o -fplugin-arg-bpfprobe-entry-pairing=map
// RUN: llvm-objdump -t %t.map.o | FileCheck %s --check-prefix=MAPSYMS --implicit-check-not=session
// RUN: llvm-objcopy --dump-section=.bpfprobe=%t.map.meta %t.map.o %t.map.copy.o
// RUN: FileCheck %s --check-prefix=MAPMETA --implicit-check-not=session_program < %t.map.meta
// MAPSYMS: on_f__entry
// MAPMETA: entry_program=on_f__entry

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

// PLAN: r:on_f ./demo:f rv=%ax:s64 a1=@entry(%di):s64 a2=@entry(%si):u32
SEC("uretprobe/./demo:f($retval, @entry($arg1), @entry($arg2):u32)")
int on_f(struct pt_regs *ctx, long rv, long a1, unsigned a2) { return a2; }

// PLAN-NEXT: r:on_read vfs_read rv=%ax:s64 count=@entry(%dx):u64
BPF_PROBE("kretprobe/vfs_read($retval:s64, @entry($arg3))")
int on_read(struct pt_regs *ctx, long rv, unsigned long count) { return 0; }

// PLAN-NEXT: f:on_fexit vfs_read%return rv=$retval:s64 count=$arg3:u64
SEC("fexit/vfs_read($retval:s64, @entry($arg3):u64)")
int on_fexit(unsigned long long *ctx, long rv, unsigned long count) { return 0; }

// A chain at fexit would read exit-time memory: it gets an fentry program,
// paired by call depth (trampolines have no stack pointer).
// PLAN-NEXT: f:on_fexit_pos vfs_read%return rv=$retval:s64 pos=@entry(+0($arg4)):s64
SEC("fexit/vfs_read($retval:s64, @entry(*$arg4):s64)")
int on_fexit_pos(unsigned long long *ctx, long rv, long long pos) { return 0; }

char LICENSE[] SEC("license") = "GPL";

// SYMS-DAG: F uprobe/./demo:f {{.*}} on_f__entry
// SYMS-DAG: F uretprobe/./demo:f {{.*}} on_f
// SYMS-DAG: O .maps {{.*}} bpfprobe_entry_on_f
// SYMS-DAG: F kprobe/vfs_read {{.*}} on_read__entry
// SYMS-DAG: F kretprobe/vfs_read {{.*}} on_read
// SYMS-DAG: F fexit/vfs_read {{.*}} on_fexit
// SYMS-DAG: F fentry/vfs_read {{.*}} on_fexit_pos__entry
// SYMS-DAG: O .maps {{.*}} bpfprobe_entry_on_fexit_pos
// SYMS-DAG: O .maps {{.*}} bpfprobe_depth_on_fexit_pos
// SYMS-NOT: on_fexit__entry
// SYMS-NOT: bpfprobe_depth_on_f{{$}}
// SYMS-NOT: bpfprobe_depth_on_read

// The entry program comes first, so it is attached first.
// META:      program=on_f__entry
// META-NEXT: section=uprobe/./demo:f
// META-NEXT: kind=uprobe
// META:      entry_of=on_f
// META-NEXT: arg=a1	s64	%di:s64	@entry($arg1)
// META-NEXT: arg=a2	u32	%si:u32	@entry($arg2):u32
// META-NEXT: end
// META:      program=on_f
// META-NEXT: section=uretprobe/./demo:f
// META-NEXT: kind=uretprobe
// META:      entry_program=on_f__entry
// META-NEXT: session_program=on_f__session
// META-NEXT: arg=rv	s64	%ax:s64	$retval
// META-NEXT: arg=a1	s64	@entry(%di):s64	@entry($arg1)
// META-NEXT: arg=a2	u32	@entry(%si):u32	@entry($arg2):u32
// META:      program=on_read__entry
// META-NEXT: section=kprobe/vfs_read
// META-NEXT: kind=kprobe
// META:      program=on_read
// META:      entry_program=on_read__entry
// META:      program=on_fexit
// META-NOT:  entry_program
// META:      program=on_fexit_pos__entry
// META-NEXT: section=fentry/vfs_read
// META-NEXT: kind=fentry
// META:      program=on_fexit_pos
// META:      entry_program=on_fexit_pos__entry
// META-NOT:  session_program

// Values: key {pid_tgid, stack pointer at the entry}, the fault word and
// one word per value; BPF_MAP_TYPE_LRU_HASH (9), 16384 entries.
// BTF:      STRUCT '(anon)' size=32 vlen=4
// BTF-NEXT: 'type' type_id={{[0-9]+}} bits_offset=0
// BTF-NEXT: 'max_entries' type_id={{[0-9]+}} bits_offset=64
// BTF-NEXT: 'key_size' type_id={{[0-9]+}} bits_offset=128
// BTF-NEXT: 'value_size' type_id={{[0-9]+}} bits_offset=192
// BTF-NEXT: VAR 'bpfprobe_entry_on_f' type_id={{[0-9]+}}, linkage=global
// BTF:      VAR 'bpfprobe_entry_on_read'
// BTF:      DATASEC '.maps' size=0 vlen=4

// NOG: error: bpfprobe: '@entry(...)' in 'on_f' needs debug info (-g): its maps are defined in BTF
