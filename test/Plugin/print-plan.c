// -fplugin-arg-bpfprobe-print-plan prints each site's plan in kprobe_events
// syntax; the values follow the System V AMD64 ABI: six registers, then
// eightbytes on the stack above the return address.
// RUN: %clang_bpf -O2 -g -c %s -o %t.o -fplugin-arg-bpfprobe-print-plan | FileCheck %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

// CHECK: p:on_add3 ./demo:add3 a=%di:s32 b=%si:s64 s=%dx:x64
SEC("uprobe/./demo:add3(int, long long, char *)")
int on_add3(struct pt_regs *ctx, int a, long long b, char *s) { return a; }

// CHECK-NEXT: p:on_write vfs_write file=%di:x64 buf=%si:x64 count=%dx:u64
BPF_PROBE("kprobe/vfs_write(void *, const char *, unsigned long)")
int on_write(struct pt_regs *ctx, void *file, const char *buf, unsigned long count) { return 0; }

// CHECK-NEXT: p:twelve ./demo:f12 a1=%di:s8 a2=%si:u8 a3=%dx:s16 a4=%cx:u16 a5=%r8:s32 a6=%r9:u32 a7=+8(%sp):s64 a8=+16(%sp):u64 a9=+24(%sp):u8 a10=+32(%sp):x64 a11=+40(%sp):s64 a12=+48(%sp):u32
SEC("uprobe/./demo:f12(signed char, unsigned char, short, unsigned short, int, unsigned, long, unsigned long, _Bool, void *, long long, __u32)")
int twelve(struct pt_regs *ctx, long a1, long a2, long a3, long a4, long a5, long a6,
           long a7, long a8, long a9, void *a10, long a11, long a12) { return 0; }

// Registers anywhere, $argN at entry, $retval in return probes.
// CHECK-NEXT: p:regs ./demo:f+16 ax=%ax:s64 lo=%di:u8
SEC("uprobe/./demo:f+16(%ax, %rdi:u8)")
int regs(struct pt_regs *ctx, long ax, int lo) { return 0; }
// CHECK-NEXT: p:args ./demo:f12 a=%si:s32 b=+8(%sp):u64
SEC("uprobe/./demo:f12($arg2, $arg7)")
int args(struct pt_regs *ctx, int a, unsigned long b) { return 0; }
// CHECK-NEXT: r:ret ./demo:f rv=%ax:s32
SEC("uretprobe/./demo:f($retval:s32)")
int ret(struct pt_regs *ctx, long rv) { return 0; }
// Typedefs from the file and tags are looked up; the kernel module prefix is
// recorded but libbpf's section has none.
typedef unsigned short port_t;
enum color { RED = -1, BLUE };
struct file;
// CHECK-NEXT: p:lookups vfs_read p=%di:u16 c=%si:s32 f=%dx:x64
SEC("kprobe/vfs_read(port_t, enum color, struct file *)")
int lookups(struct pt_regs *ctx, int p, int c, struct file *f) { return 0; }

// Strings are copied; the parameter points at the copy.
// CHECK-NEXT: p:str ./demo:f name=+0(%di):string
SEC("uprobe/./demo:f($arg1:string)")
int str(struct pt_regs *ctx, const char *name) { return 0; }
// CHECK-NEXT: p:kstr do_sys_open path=+0(%si):ustring
SEC("kprobe/do_sys_open($arg2:ustring)")
int kstr(struct pt_regs *ctx, const char *path) { return 0; }

// Recording probes name their values by the expression text.
// CHECK-NEXT: p:rec ./demo:f arg1=%di:s32 arg2=%si:u64
BPF_PROBE_RECORD_NAMED(rec, "uprobe/./demo:f($arg1:s32, $arg2)");

// Ordinary libbpf sections are left alone.
SEC("kprobe/do_nothing")
int plain(struct pt_regs *ctx) { return 0; }

// CHECK-NOT: plain
char LICENSE[] SEC("license") = "GPL";
