/* Members of C++ references (test/Inputs/names/refs.cpp): `it.id` reads
 * through the reference, as C++ and gdb do. BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./refs"
#endif

BPF_PROBE_RECORD_NAMED(on_take, "uprobe/" BIN ":take(it.id, it.weight, it.range.hi, out.id)");

char LICENSE[] SEC("license") = "GPL";
