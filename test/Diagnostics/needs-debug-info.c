// Forms that need DWARF say so, and what to pass.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

// expected-error@+1 {{'req' needs debug info: pass -fplugin-arg-bpfprobe-debuginfo=PATH}}
SEC("uprobe/./srv:handle+0x4a(req->hdr.len, conn->fd)")
int members(struct pt_regs *ctx, unsigned len, int fd) { return 0; }

// expected-error@+1 {{source-line probes need debug info: pass -fplugin-arg-bpfprobe-debuginfo=PATH}}
SEC("uprobe/./srv:handle:12(%di)")
int relline(struct pt_regs *ctx, long x) { return 0; }

// expected-error@+1 {{source-line probes need debug info}}
SEC("uprobe/./srv:server.c:142(%ax)")
int fileline(struct pt_regs *ctx, long x) { return 0; }

// expected-error@+1 {{'@counter' needs debug info}}
SEC("uprobe/./srv:handle(@counter)")
int global(struct pt_regs *ctx, long x) { return 0; }

// expected-error@+1 {{'$arg1->len' needs debug info}}
SEC("uprobe/./srv:handle($arg1->len)")
int member_of_reg(struct pt_regs *ctx, long x) { return 0; }

char LICENSE[] SEC("license") = "GPL";
