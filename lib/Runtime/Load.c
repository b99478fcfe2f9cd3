/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Loading an object with libbpf and reporting a verifier's refusal by what
 * matters: libbpf prints a rejected program's verifier log as one long
 * warning, whose reason is at its end; it is kept while loading, and the
 * program's name and the last lines of its log are reported through the
 * runtime's message callback (all of it when asked).
 */
#define _GNU_SOURCE /* vasprintf */
#include "Internal.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_BEGIN "-- BEGIN PROG LOAD LOG --"
#define LOG_END "-- END PROG LOAD LOG --"
#define LOG_MAX (64u << 20)

/* libbpf's print callback has no context: one load at a time keeps these. */
static struct {
	char *buf;
	size_t len, cap;
	libbpf_print_fn_t outer; /* the callback before ours */
	bool pass_through;       /* warnings go on at once, too */
} load;

static int forward(enum libbpf_print_level level, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (!load.outer)
		return 0;
	va_start(ap, fmt);
	ret = load.outer(level, fmt, ap);
	va_end(ap);
	return ret;
}

static void keep(const char *msg, size_t n)
{
	if (load.len + n + 1 > LOG_MAX)
		return;
	if (load.len + n + 1 > load.cap) {
		size_t cap = (load.len + n + 1) * 2;
		char *p = realloc(load.buf, cap);

		if (!p)
			return;
		load.buf = p;
		load.cap = cap;
	}
	memcpy(load.buf + load.len, msg, n);
	load.len += n;
	load.buf[load.len] = 0;
}

static int capture_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	char *msg = NULL;
	int n;

	if (level != LIBBPF_WARN)
		return load.outer ? load.outer(level, fmt, ap) : 0;
	/* A verifier log comes as one long message: format it whole. */
	n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		return 0;
	keep(msg, n);
	if (load.pass_through)
		forward(level, "%s", msg);
	free(msg);
	return 0;
}

/*
 * Reports the program whose log \p log holds ("libbpf: prog 'NAME': --
 * BEGIN PROG LOAD LOG --" ... "-- END PROG LOAD LOG --") and, unless
 * \p whole (the log was passed on), its last \p max_lines lines.
 */
static void report_rejection(const char *log, size_t max_lines, bool whole,
			     const char *hint)
{
	const char *begin = strstr(log, LOG_BEGIN);
	const char *end, *p, *prog_start, *tail;
	size_t lines = 0, shown = 0, len = 0;
	char prog[128] = "?";
	char *msg;

	for (prog_start = begin; prog_start > log && prog_start[-1] != '\n'; prog_start--)
		;
	sscanf(prog_start, "libbpf: prog '%127[^']'", prog);
	if (whole) {
		pr_warn("the verifier rejected program '%s' (its log is above)\n", prog);
		return;
	}
	begin = strchr(begin, '\n');
	begin = begin ? begin + 1 : log;
	end = strstr(begin, LOG_END);
	if (!end)
		end = begin + strlen(begin);
	for (p = begin; p < end; p++)
		if (*p == '\n')
			lines++;
	tail = end;
	while (tail > begin && shown <= max_lines) {
		tail--;
		if (tail > begin && tail[-1] == '\n')
			shown++;
	}
	if (shown > max_lines)
		tail = strchr(tail, '\n') + 1;

	/* One message: a callback that prefixes lines prefixes the heading. */
	/* The tail has at most max_lines + 1 lines, each 5 bytes longer. */
	msg = malloc((end - tail) + 5 * (max_lines + 2) + 256 +
		     (hint ? strlen(hint) : 0));
	if (!msg)
		return;
	if (tail > begin)
		len += sprintf(msg + len, "  ... %zu earlier line%s omitted (%s)\n",
			       lines - max_lines, lines - max_lines == 1 ? "" : "s",
			       hint ? hint : "the load's whole_log option shows the whole log");
	for (p = tail; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		int n = nl ? (int)(nl - p) : (int)(end - p);

		len += sprintf(msg + len, "  | %.*s\n", n, p);
		p += n + 1;
	}
	msg[len] = 0;
	pr_warn("the verifier rejected program '%s'; the end of its log:\n%s", prog, msg);
	free(msg);
}

int bpfprobe_object__load(struct bpf_object *obj,
			  const struct bpfprobe_load_opts *opts)
{
	size_t max_lines;
	bool whole;
	int err;

	if (!obj || !OPTS_VALID(opts, bpfprobe_load_opts))
		return -EINVAL;
	max_lines = OPTS_GET(opts, log_lines, 0);
	if (!max_lines)
		max_lines = 20;
	whole = OPTS_GET(opts, whole_log, false);

	if (OPTS_GET(opts, meta, NULL) &&
	    ((err = bpfprobe_choose_pairing(obj, opts->meta)) ||
	     (err = bpfprobe_choose_attach(obj, opts->meta,
					   OPTS_GET(opts, attach_mode, BPFPROBE_ATTACH_AUTO)))))
		return err;
	load.len = 0;
	load.pass_through = whole;
	load.outer = libbpf_set_print(capture_print);
	err = bpf_object__load(obj);
	libbpf_set_print(load.outer);

	if (err && load.buf && strstr(load.buf, LOG_BEGIN)) {
		report_rejection(load.buf, max_lines, whole,
				 OPTS_GET(opts, whole_log_hint, NULL));
		err = -LIBBPF_ERRNO__VERIFY;
	} else if (load.len && !whole) {
		/* Warnings that are no verifier log go on as they came. */
		forward(LIBBPF_WARN, "%s", load.buf);
	}
	free(load.buf);
	load.buf = NULL;
	load.len = load.cap = 0;
	return err;
}
