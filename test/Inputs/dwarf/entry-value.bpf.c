/* Entry values through the callers' call sites
 * (test/Inputs/dwarf/entry-value.c, built by gcc -O2). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_work, "uprobe/./ev:entry-value.c:16(x, y)");

char LICENSE[] SEC("license") = "GPL";
