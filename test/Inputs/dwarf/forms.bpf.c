/* Probes on test/Inputs/dwarf/forms.c: members of a struct held in two
 * registers (DW_OP_piece), the whole struct copied, a constant local
 * (DW_AT_const_value), a line probe. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

struct pair { long lo; long hi; };

BPF_PROBE_RECORD_NAMED(f1, "uprobe/./forms:split(p.lo, p.hi, x)");
BPF_PROBE_RECORD_NAMED(f2, "uprobe/./forms:forms.c:14(y, k, x)");

SEC("uprobe/./forms:split(p)")
int f3(struct pt_regs *ctx, const struct pair *p)
{
	bpf_printk("copy lo=%ld hi=%ld", p->lo, p->hi);
	return 0;
}

/* Bitfields of a struct held in a register; a void pointer read with an
 * explicit type. (clang describes fl's bitfield byte as optimized out at the
 * entry and the rest with DW_OP_shr/convert: refused, see the test.) */
#ifndef NO_BITS
BPF_PROBE_RECORD_NAMED(f4, "uprobe/./forms:bits(fl.a, fl.b, fl.c, *v:s64)");
#endif

char LICENSE[] SEC("license") = "GPL";
