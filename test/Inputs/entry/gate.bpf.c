/* DW_OP_entry_value from an entry program (test/Inputs/entry/gate.c). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_gate, "uprobe/./gate:gate.c:51(v)");

char LICENSE[] SEC("license") = "GPL";
