/* `@entry(...)` in a uretprobe of a recursive function
 * (test/Inputs/entry/recurse.c): the argument n and the member r->id as they
 * were at each call's entry, beside the return value. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_descend,
		       "uretprobe/./recurse:descend($retval, @entry(n), @entry(r->id), @entry(r->depth))");

char LICENSE[] SEC("license") = "GPL";
