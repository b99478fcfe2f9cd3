/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * One-line probes of bpfprobe-run (-e SPEC, -L, -V): see
 * bpfprobe-oneliner.c.
 */
#ifndef BPFPROBE_ONELINER_H
#define BPFPROBE_ONELINER_H

#include <stdbool.h>
#include <stddef.h>

struct oneliner_opts {
	const char *clang; /* --clang; NULL: $BPFPROBE_CLANG, then the build's */
	bool no_cache;
	bool hist;         /* --hist: declare the histogram map */
	bool verbose;
};

/* Results besides 0, as bpfprobe-run's exit codes. */
enum {
	ONELINER_COMPILE = 13, /* a spec did not compile (shown with a caret) */
	ONELINER_SETUP = 14,   /* no plugin, headers, clang or cache directory */
};

/*
 * Writes, compiles (or finds in the cache) the record probes of \p specs;
 * the object's path goes to \p obj. 0 or ONELINER_*.
 */
int oneliner_build(char **specs, size_t n, const struct oneliner_opts *o,
		   char *obj, size_t obj_sz);

/* Execs bpfprobe-resolve --lines (or --vars) SPEC; returns only on error. */
int oneliner_list(const char *spec, bool vars);

#endif
