/* copies.c's line 25 (new_item's memset) in its two copies: create_bool's
 * has no 'fresh' in scope and is left out with a warning, create_number's
 * is probed. BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./copies"
#endif

BPF_PROBE_RECORD_NAMED(on_memset, "uprobe/" BIN ":copies.c:25(fresh, hooks)");

char LICENSE[] SEC("license") = "GPL";
