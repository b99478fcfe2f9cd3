/*===- BinarySearch.h - Where a bare binary name is looked for ----*- C -*-===*
 *
 * \file
 * A probe's binary named without a '/' ("uprobe/libc.so.6:malloc",
 * "uprobe/server:handle") is looked for as perf probe, bpftrace and the
 * shell look for it: a shared library (a name with ".so") in
 * $LD_LIBRARY_PATH and then the loader's directories below; any other name
 * in $PATH. The compiler (lib/Resolve, for the debug info) and the runtime
 * (lib/Runtime/Attach.c, for the attach and the build-id check) use this
 * one list, so they find the same file. Plain C, header only.
 *===----------------------------------------------------------------------===*/

#ifndef BPFPROBE_SUPPORT_BINARYSEARCH_H
#define BPFPROBE_SUPPORT_BINARYSEARCH_H

/* The loader's directories, after $LD_LIBRARY_PATH (ld.so(8)'s defaults
 * and Debian's multiarch ones). */
#define BPFPROBE_LIBRARY_DIRS                                                  \
	"/usr/lib64:/usr/lib:/lib64:/lib:/usr/lib/x86_64-linux-gnu:"           \
	"/lib/x86_64-linux-gnu:/usr/lib/aarch64-linux-gnu:"                    \
	"/lib/aarch64-linux-gnu"

#endif
