/* A line of the inline-only step() inlined twice, where one copy keeps no
 * location for x (gcc -O2): that copy is left out with a warning, the other
 * probed. BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./names"
#endif

BPF_PROBE_RECORD_NAMED(on_step3, "uprobe/" BIN ":step:3(x, y)");

char LICENSE[] SEC("license") = "GPL";
