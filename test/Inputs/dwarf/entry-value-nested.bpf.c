/* An entry value two calls up (test/Inputs/dwarf/entry-value-nested.c). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_inner, "uprobe/./nest:entry-value-nested.c:11(x)");

char LICENSE[] SEC("license") = "GPL";
