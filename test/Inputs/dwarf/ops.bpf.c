/* Probes on test/Inputs/dwarf/ops.c: locals that exist only as DWARF
 * expressions over registers. BIN names the target binary; CLANG selects
 * the places clang's code keeps them (gcc keeps them all at line 30). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./ops"
#endif

#ifndef CLANG
BPF_PROBE_RECORD_NAMED(on_ops, "uprobe/" BIN ":ops.c:30(sum, diff, prod, neg, inv, x, o, m, hi, sa, sl, q, r, lt, mn)");
#else
BPF_PROBE_RECORD_NAMED(on_ops, "uprobe/" BIN ":ops.c:30(prod, inv, sa, sl, q, r, neg, lt)");
BPF_PROBE_RECORD_NAMED(on_ops2, "uprobe/" BIN ":ops.c:28(sum, diff, x, o)");
#endif

char LICENSE[] SEC("license") = "GPL";
