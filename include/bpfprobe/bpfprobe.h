/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Sugar for BPF programs built with the bpfprobe plugin
 * (clang -target bpf -fplugin=libbpfprobe.so).
 *
 *   BPF_PROBE("uprobe/./demo:add3(int, long long, char *)")
 *   int on_add3(struct pt_regs *ctx, int a, long long b, char *s) { ... }
 *
 * is the same as SEC("uprobe/./demo:add3(int, long long, char *)"); the
 * plugin gives the program the clean libbpf section "uprobe/./demo:add3"
 * and passes the fetched values as parameters.
 */
#ifndef BPFPROBE_BPFPROBE_H
#define BPFPROBE_BPFPROBE_H

#if defined(__bpf__) && defined(__has_attribute)
#if !__has_attribute(bpfprobe)
#error "bpfprobe.h: compile with -fplugin=libbpfprobe.so (the bpfprobe attribute is unknown)"
#endif
#endif

#include <bpfprobe/metadata.h>

/** Declares a probe body: the annotation grammar is in docs/syntax.md. */
#define BPF_PROBE(spec) __attribute__((bpfprobe(spec), used))

/*
 * The ring buffer that recording probes write to (BPFPROBE_RECORDS_MAP in
 * bpfprobe/metadata.h). Every BPF_PROBE_RECORD repeats this tentative
 * definition; C merges them into one map.
 */
struct __bpfprobe_records_map {
	int (*type)[27 /* BPF_MAP_TYPE_RINGBUF */];
	int (*max_entries)[256 * 1024];
};

/* Records the ring buffer had no room for (BPFPROBE_LOST_MAP): one __u64
 * per CPU at key 0, which bpfprobe-run sums and reports. */
struct __bpfprobe_lost_map {
	int (*type)[6 /* BPF_MAP_TYPE_PERCPU_ARRAY */];
	int (*max_entries)[1];
	unsigned int *key;
	unsigned long long *value;
};

/* Per-site hit counts, hit limits and losses (BPFPROBE_SITES_MAP and
 * struct bpfprobe_site_ctl in bpfprobe/metadata.h); bpfprobe-run sizes it
 * to the number of recording sites and fills it before attaching. */
struct __bpfprobe_sites_map {
	int (*type)[1 /* BPF_MAP_TYPE_HASH */];
	int (*max_entries)[64];
	unsigned int *key;
	struct bpfprobe_site_ctl *value;
};

/* The processes scoped sites record (BPFPROBE_SCOPE_MAP in
 * bpfprobe/metadata.h): tgid to 1; bpfprobe-run fills it and follows forks. */
struct __bpfprobe_scope_map {
	int (*type)[1 /* BPF_MAP_TYPE_HASH */];
	int (*max_entries)[16384];
	unsigned int *key;
	unsigned char *value;
};

/*
 * log2 histograms of bpfprobe-run --hist (BPFPROBE_HIST_MAP in
 * bpfprobe/metadata.h). Opt-in: with BPF_PROBE_HIST_MAP; in the file, each
 * recording probe also computes its numeric arguments on a histogram path
 * (more code and BPF stack); bpfprobe-run -e --hist declares it itself.
 */
struct __bpfprobe_hist_map {
	int (*type)[1 /* BPF_MAP_TYPE_HASH */];
	int (*max_entries)[4096];
	unsigned long long *key;
	unsigned long long *value;
};
#define BPF_PROBE_HIST_MAP                                                     \
	struct __bpfprobe_hist_map bpfprobe_hist                               \
		__attribute__((section(".maps")))

#define __BPFPROBE_CAT2(a, b) a##b
#define __BPFPROBE_CAT(a, b) __BPFPROBE_CAT2(a, b)

/**
 * A probe with a default body: every hit sends all its arguments, with the
 * time, pid, tid, thread name and CPU, to the records ring buffer (when
 * bpfprobe-run scopes the run, only the hits of the processes in
 * bpfprobe_scope), and bpfprobe-run prints them with their names and types:
 *
 *   BPF_PROBE_RECORD("uprobe/./demo:add3(int, long long, char *)");
 *   BPF_PROBE_RECORD_NAMED(on_open, "uprobe/./srv:open_file($arg1:string)");
 */
#define BPF_PROBE_RECORD_NAMED(name, spec)                                     \
	struct __bpfprobe_records_map bpfprobe_records                         \
		__attribute__((section(".maps")));                             \
	struct __bpfprobe_lost_map bpfprobe_lost                               \
		__attribute__((section(".maps")));                             \
	struct __bpfprobe_sites_map bpfprobe_sites                             \
		__attribute__((section(".maps")));                             \
	struct __bpfprobe_scope_map bpfprobe_scope                             \
		__attribute__((section(".maps")));                             \
	__attribute__((bpfprobe_record(spec), used)) int name(void *ctx)       \
	{                                                                      \
		return 0;                                                      \
	}                                                                      \
	struct __bpfprobe_records_map bpfprobe_records
#define BPF_PROBE_RECORD(spec)                                                 \
	BPF_PROBE_RECORD_NAMED(__BPFPROBE_CAT(bpfprobe_record_, __LINE__), spec)

#endif /* BPFPROBE_BPFPROBE_H */
