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

/** Declares a probe body: the annotation grammar is in docs/syntax.md. */
#define BPF_PROBE(spec) __attribute__((bpfprobe(spec), used))

#endif /* BPFPROBE_BPFPROBE_H */
