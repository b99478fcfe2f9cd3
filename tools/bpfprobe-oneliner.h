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
	const char *clang;     /* --clang; NULL: the one bpfprobe was built for */
	const char *plugin;    /* --plugin; NULL: the installed one */
	const char *debuginfo; /* --debuginfo; NULL: the plugin's default */
	bool no_cache;
	bool hist;         /* --hist: declare the histogram map */
	bool verbose;
};

/* Results besides 0, as bpfprobe-run's exit codes. */
enum {
	ONELINER_USAGE = 2,    /* a spec with a control character */
	ONELINER_COMPILE = 13, /* a spec did not compile (shown with a caret) */
	ONELINER_SETUP = 14,   /* no plugin, headers, clang or directory to compile in */
};

/*
 * 0 when the \p len bytes of \p spec (given with \p flag: "-e", "-L", "-V")
 * are one line of text; else says where the control character (newline,
 * carriage return, NUL, ...) is, with a caret under it, and returns
 * ONELINER_USAGE. Nothing is written before this check.
 */
int oneliner_check_spec(const char *flag, const char *spec, size_t len);

/*
 * Writes, compiles (or finds in the cache, checked) the record probes of
 * \p specs; the object's path goes to \p obj. 0 or ONELINER_*. Without a
 * safe cache directory the object is in a private directory removed at
 * exit.
 */
int oneliner_build(char **specs, size_t n, const struct oneliner_opts *o,
		   char *obj, size_t obj_sz);

/* Execs bpfprobe-resolve --lines (or --vars) SPEC; returns only on error. */
int oneliner_list(const char *spec, bool vars);

#endif
