/* Constants and an entry view (test/Inputs/dwarf/const-entry.c, gcc -O2). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_main, "uprobe/./ce:main(len, small, neg)");
BPF_PROBE_RECORD_NAMED(on_flags, "uprobe/./ce:compile_flags(flags)");

char LICENSE[] SEC("license") = "GPL";
