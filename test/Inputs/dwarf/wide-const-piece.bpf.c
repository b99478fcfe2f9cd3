/* Members of a struct in pieces (test/Inputs/dwarf/wide-const-piece.c). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_line, "uprobe/./wcp:wide-const-piece.c:29(p.buffer, p.length, p.offset, p.depth, p.format)");

char LICENSE[] SEC("license") = "GPL";
