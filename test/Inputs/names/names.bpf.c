/* Probes on test/Inputs/names/names.c that need gdb's name semantics: an
 * inline-only function by name, a gcc clone by its source name, a struct
 * and a global defined only in other.c, and a caller's line whose address
 * is an inlined callee's first instruction. BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./names"
#endif

BPF_PROBE_RECORD_NAMED(on_use, "uprobe/" BIN ":use(o->id, o->weight, @shared_total, n)");
BPF_PROBE_RECORD_NAMED(on_call_line, "uprobe/" BIN ":use:3(rf.flags, n)");
BPF_PROBE_RECORD_NAMED(on_step, "uprobe/" BIN ":step(x)");
BPF_PROBE_RECORD_NAMED(on_scale, "uprobe/" BIN ":scale(k, @sink)");

char LICENSE[] SEC("license") = "GPL";
