// A kretprobe or uretprobe with `@entry(...)` also gets a session program
// `<prog>__session` (both halves in one, for kprobe.session/uprobe.session
// kernels) in a `?kprobe`/`?uprobe` section, which libbpf does not load
// unless the runtime asks; the return site's metadata names it and it has no
// site record of its own. Its kfuncs are extern weak FUNCs of BTF's .ksyms,
// as `extern ... __ksym __weak` declares them. fexit gets none.
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -Xclang -llvm-verify-each
// RUN: llvm-objdump -t %t.o | FileCheck %s --check-prefix=SYMS
// RUN: llvm-objcopy --dump-section=.bpfprobe=%t.meta %t.o %t.copy.o
// RUN: FileCheck %s --check-prefix=META < %t.meta
// RUN: %bpftool btf dump file %t.o | FileCheck %s --check-prefix=BTF

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

SEC("uretprobe/./demo:f($retval, @entry($arg1))")
int on_f(struct pt_regs *ctx, long rv, long a1) { return 0; }

BPF_PROBE("kretprobe/vfs_read($retval:s64, @entry($arg3))")
int on_read(struct pt_regs *ctx, long rv, unsigned long count) { return 0; }

SEC("fexit/vfs_read($retval:s64, @entry(*$arg4):s64)")
int on_fexit_pos(unsigned long long *ctx, long rv, long long pos) { return 0; }

// SYMS-DAG: F ?uprobe {{.*}} on_f__session
// SYMS-DAG: F ?kprobe {{.*}} on_read__session
// SYMS-NOT: on_fexit_pos__session

// META:      program=on_f{{$}}
// META:      session_program=on_f__session
// META:      program=on_read{{$}}
// META:      session_program=on_read__session
// META-NOT:  program={{.*}}__session

// BTF-DAG: FUNC 'bpf_session_is_return' type_id={{[0-9]+}} linkage=extern
// BTF-DAG: FUNC 'bpf_session_cookie' type_id={{[0-9]+}} linkage=extern
// BTF:     DATASEC '.ksyms' size=0 vlen=2
