/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Messages of the runtime library go through one replaceable callback, as
 * libbpf's do; this file holds it, and the check of extensible options
 * structs that every entry point taking `*_opts` runs first.
 */
#include "Internal.h"

#include <stdarg.h>
#include <stdio.h>

static int default_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bpfprobe_print_fn_t print_fn = default_print;

bpfprobe_print_fn_t bpfprobe_set_print(bpfprobe_print_fn_t fn)
{
	bpfprobe_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void bpfprobe_pr(enum libbpf_print_level level, const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
	errno = saved;
}

bool bpfprobe_validate_opts(const char *opts, size_t opts_sz, size_t user_sz,
			    const char *type_name)
{
	if (user_sz < sizeof(size_t)) {
		pr_warn("%s has a size (%zu) smaller than its 'sz' field; declare it with BPFPROBE_OPTS()\n",
			type_name, user_sz);
		return false;
	}
	/* A newer caller may pass a bigger struct: its extra fields must be zero. */
	for (size_t i = opts_sz; i < user_sz; i++) {
		if (opts[i]) {
			pr_warn("%s has non-zero fields this library does not know (byte %zu); it is older than the header you built with\n",
				type_name, i);
			return false;
		}
	}
	return true;
}
