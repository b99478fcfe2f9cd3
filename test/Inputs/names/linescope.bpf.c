/* Probes at lines of linescope.c whose scope is an inlined function's: a
 * line of init_state named relative to reset, and (gcc, where link's code
 * starts at add's line) link's local at add's line. BIN names the
 * target. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#ifndef BIN
#define BIN "./linescope"
#endif

BPF_PROBE_RECORD_NAMED(on_init, "uprobe/" BIN ":reset:14(st->w_size, st->level)");
#ifdef WITH_LINK
BPF_PROBE_RECORD_NAMED(on_add, "uprobe/" BIN ":add:2(last->id, list->id, item->id)");
#endif

char LICENSE[] SEC("license") = "GPL";
