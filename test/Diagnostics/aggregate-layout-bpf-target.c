// The body reads a copied aggregate with BPF's layout, which is Clang's for
// the BPF target, not x86_64's: a long double is 8 bytes in BPF and 16 on
// x86_64 and aarch64. A union of the same size either way still has its
// members at other sizes, so the binding is refused, also when the probed
// architecture is x86_64 itself.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=x86 -fplugin-arg-bpfprobe-arch=x86_64 %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=a64 -fplugin-arg-bpfprobe-arch=aarch64 %s

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

union ld { long double d; char c[32]; }; // 32 bytes everywhere
struct same { int a; long long b; };

// x86-error@+2 {{parameter 'u' of type 'const union ld *' points at 'const union ld', whose members lie at other offsets or have other sizes in the x86_64 layout than in BPF's; take it as 'const void *' and read the x86_64 layout yourself}}
// a64-error@+1 {{whose members lie at other offsets or have other sizes in the aarch64 layout than in BPF's}}
SEC("uprobe/./demo:f(union ld)")
int ld(struct pt_regs *ctx, const union ld *u) { return 0; } // x86-note {{parameter declared here}} a64-note {{parameter declared here}}

// The same layout in both, or an opaque pointer, is fine.
SEC("uprobe/./demo:f(struct same)")
int same(struct pt_regs *ctx, const struct same *s) { return 0; }
SEC("uprobe/./demo:f(union ld)")
int opaque(struct pt_regs *ctx, const void *u) { return 0; }

char LICENSE[] SEC("license") = "GPL";
