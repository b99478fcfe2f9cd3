/* Elements of a constant array (test/Inputs/dwarf/const-block.c). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_check, "uprobe/./cb:check(my_version[0], my_version[5], my_version[6])");

char LICENSE[] SEC("license") = "GPL";
