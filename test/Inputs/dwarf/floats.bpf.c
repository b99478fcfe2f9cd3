/* floats.c's scale:6 (SCALE_LINE 21): float and double members behind a
 * pointer and in stack slots, recorded and printed as gdb prints them;
 * with -DWITH_K (gcc) also the double parameter k from its stack slot.
 * BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./floats"
#endif

#ifdef WITH_K
BPF_PROBE_RECORD_NAMED(on_scale, "uprobe/" BIN ":scale:6(s->weight, s->ratio, twice, w, k)");
#else
BPF_PROBE_RECORD_NAMED(on_scale, "uprobe/" BIN ":scale:6(s->weight, s->ratio, twice, w)");
#endif

char LICENSE[] SEC("license") = "GPL";
