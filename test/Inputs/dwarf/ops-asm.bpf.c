/* Probes on test/Inputs/dwarf/ops-asm.s: locals described by hand-written
 * DWARF expressions (gen-ops-asm.py). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_ops1, "uprobe/./ops-asm:ops-asm.c:24(v_implicit, v_mask, v_rot, v_pick, v_skip, v_cmp, v_conv8, v_abs, v_bra)");
BPF_PROBE_RECORD_NAMED(on_ops2, "uprobe/./ops-asm:ops-asm.c:24(t_deref, t_rsp, bp, t_reinterp, sc, uc, w16.lo, w16.hi, v_div0)");

char LICENSE[] SEC("license") = "GPL";
