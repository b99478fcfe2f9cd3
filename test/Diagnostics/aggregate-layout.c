// A struct copied from a 32-bit process has that ABI's layout; a body that
// reads it through a BPF struct with another layout would read the wrong
// bytes, so the binding is refused. Probes of a big-endian architecture need
// a big-endian BPF object.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify -fplugin-arg-bpfprobe-arch=ia32-compat %s
// RUN: not %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-arch=s390x -DENDIAN %s 2>&1 | FileCheck %s --check-prefix=ENDIAN

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

#ifdef ENDIAN
// ENDIAN: error: probes of s390x (big-endian) need a BPF object of the same byte order: compile with -target bpfeb
SEC("uprobe/./demo:f(int)")
int be(struct pt_regs *ctx, int a) { return 0; }
#else

struct widened { char c; long long v; };   // 12 bytes on i386, 16 in BPF
struct longer { int a; long long b; int c; int d; }; // 20 bytes on i386, 24 in BPF
struct same { int a; int b; };

// expected-error@+1 {{parameter 'w' of type 'const struct widened *' points at 'const struct widened', 16 bytes in BPF, but the value copied is 12 bytes in the ia32-compat layout; take it as 'const void *' and read the ia32-compat layout yourself}}
SEC("uprobe/./demo:f(struct widened)")
int widened(struct pt_regs *ctx, const struct widened *w) { return 0; } // expected-note {{parameter declared here}}

// expected-error@+1 {{points at 'const struct longer', 24 bytes in BPF, but the value copied is 20 bytes in the ia32-compat layout}}
SEC("uprobe/./demo:f(struct longer)")
int longer(struct pt_regs *ctx, const struct longer *r) { return 0; } // expected-note {{parameter declared here}}

// The same layout everywhere, or an opaque pointer, is fine.
SEC("uprobe/./demo:f(struct same)")
int same(struct pt_regs *ctx, const struct same *s) { return 0; }
SEC("uprobe/./demo:f(struct widened)")
int opaque(struct pt_regs *ctx, const void *w) { return 0; }
#endif

char LICENSE[] SEC("license") = "GPL";
