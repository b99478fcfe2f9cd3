/* Probes through implicit pointers (test/Inputs/dwarf/implicit-pointer.c). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_get, "uprobe/./ip:implicit-pointer.c:17(*q, p->x, p->y, q[0])");

char LICENSE[] SEC("license") = "GPL";
