/* Entry values through the callers' call sites, and where none gives the
 * value, from an entry program (test/Inputs/dwarf/entry-value.c, built by
 * gcc -O2). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

BPF_PROBE_RECORD_NAMED(on_work, "uprobe/./ev:entry-value.c:16(x, y)");
/* No call site gives v: an entry program saves it at by_pointer's entry. */
BPF_PROBE_RECORD_NAMED(on_ptr, "uprobe/./ev:entry-value.c:24(v)");

char LICENSE[] SEC("license") = "GPL";
