/* Rust lengths (test/Inputs/rust/vec.rs): a Vec behind a reference
 * (`items->len()`, its `len` member) and a slice in two registers
 * (`window.len()`, its `length` piece). BIN names the target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./vec"
#endif

BPF_PROBE_RECORD_NAMED(on_sum, "uprobe/" BIN ":vec::sum(items->len(), window.len())");

char LICENSE[] SEC("license") = "GPL";
