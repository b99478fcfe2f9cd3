/* `@entry(...)` in uretprobes of test/Inputs/entry/hold.c. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_work, "uretprobe/./hold:work($retval, @entry(token))");
BPF_PROBE_RECORD_NAMED(on_deep, "uretprobe/./hold:deep($retval, @entry(n))");

char LICENSE[] SEC("license") = "GPL";
