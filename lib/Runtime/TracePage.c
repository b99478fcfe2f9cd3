/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Pages of the kernel's trace ring buffer, as per_cpu/cpuN/trace_pipe_raw
 * hands them out, parsed into the bpf_trace_printk events they hold: the
 * page's timestamp and commit size, then events with 32-bit headers
 * (type_len:5, time_delta:27; type_len 29-31 padding, time extend, time
 * stamp; 0 for a length in the next word). Layouts come from tracefs's
 * events/header_page and the event's format file, not from constants. A
 * page is input from outside the process: every length is checked against
 * it, and a page that breaks a rule is refused whole before any event of
 * it is handed on. No I/O here (Printk.c reads the files).
 */
#include "Internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	TYPE_DATA_MAX = 28,
	TYPE_PADDING = 29,
	TYPE_TIME_EXTEND = 30,
	TYPE_TIME_STAMP = 31,
	TS_SHIFT = 27,
	COMMIT_MASK = (1u << 27) - 1, /* above: missed-events flags */
};

/*
 * "field:<decl> <name>;\toffset:N;\tsize:N;..." lines: the offset and size
 * of the field named \p name, and whether its declaration says \p decl_has.
 */
static bool find_field(const char *text, const char *name, unsigned *off,
		       unsigned *size, const char *decl_has, bool *has)
{
	size_t nlen = strlen(name);

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *field = strstr(line, "field:"), *semi, *end, *o, *s;
		const char *eol = strchr(line, '\n');

		if (!field || (eol && field > eol))
			continue;
		semi = strchr(field, ';');
		if (!semi || (eol && semi > eol))
			continue;
		end = semi;
		while (end > field && (end[-1] == ']' || (end[-1] >= '0' && end[-1] <= '9') ||
				       end[-1] == '['))
			end--; /* "char data[4080]" in older kernels */
		if ((size_t)(end - field) < nlen || memcmp(end - nlen, name, nlen) ||
		    (end - nlen > field && end[-(long)nlen - 1] != ' ' &&
		     end[-(long)nlen - 1] != ':'))
			continue;
		o = strstr(semi, "offset:");
		s = strstr(semi, "size:");
		if (!o || !s || (eol && (o > eol || s > eol)))
			continue;
		*off = (unsigned)strtoul(o + 7, NULL, 10);
		*size = (unsigned)strtoul(s + 5, NULL, 10);
		if (has) {
			char decl[256];
			size_t dlen = (size_t)(end - nlen - field);

			if (dlen >= sizeof(decl))
				dlen = sizeof(decl) - 1;
			memcpy(decl, field, dlen);
			decl[dlen] = 0;
			*has = strstr(decl, decl_has) != NULL;
		}
		return true;
	}
	return false;
}

int bpfprobe_trace_format__header_page(struct bpfprobe_trace_format *f,
				       const char *text)
{
	unsigned data_size;

	if (!find_field(text, "timestamp", &f->ts_off, &f->ts_size, NULL, NULL) ||
	    !find_field(text, "commit", &f->commit_off, &f->commit_size, NULL, NULL) ||
	    !find_field(text, "data", &f->data_off, &data_size, NULL, NULL))
		return -EINVAL;
	if (f->ts_size != 8 || (f->commit_size != 4 && f->commit_size != 8) ||
	    f->ts_off + 8 > f->data_off || f->commit_off + f->commit_size > f->data_off ||
	    f->data_off > 4096)
		return -EINVAL;
	return 0;
}

int bpfprobe_trace_format__event(struct bpfprobe_trace_format *f, const char *text)
{
	const char *id = strstr(text, "\nID:");
	unsigned size;

	if (!id)
		return -EINVAL;
	f->event_id = (unsigned)strtoul(id + 4, NULL, 10);
	if (!find_field(text, "common_type", &f->type_off, &size, NULL, NULL) || size != 2 ||
	    !find_field(text, "common_pid", &f->pid_off, &size, NULL, NULL) || size != 4 ||
	    !find_field(text, "bpf_string", &f->str_off, &f->str_size, "__data_loc",
			&f->str_loc) ||
	    (f->str_loc && f->str_size != 4) || !f->str_size)
		return -EINVAL;
	return 0;
}

static __u64 get_u64(const unsigned char *p)
{
	__u64 v;

	memcpy(&v, p, 8);
	return v;
}

static __u32 get_u32(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * One walk over the page: with on_event NULL it only checks. Events of
 * other types (a shared buffer holds every enabled event) are skipped.
 */
static int walk(const struct bpfprobe_trace_format *f, const unsigned char *page,
		size_t len, bpfprobe_trace_event_fn on_event, void *ctx)
{
	__u64 ts, commit;
	size_t pos, end;
	int events = 0;

	if (len < f->data_off || f->data_off < f->ts_off + 8 ||
	    f->data_off < f->commit_off + f->commit_size)
		return -EINVAL;
	ts = get_u64(page + f->ts_off);
	commit = f->commit_size == 8 ? get_u64(page + f->commit_off)
				     : get_u32(page + f->commit_off);
	commit &= COMMIT_MASK;
	if (commit > len - f->data_off)
		return -EINVAL;
	pos = f->data_off;
	end = f->data_off + (size_t)commit;
	while (pos < end) {
		__u32 hdr, type_len, delta;
		const unsigned char *data;
		size_t plen;

		if (end - pos < 4)
			return -EINVAL;
		hdr = get_u32(page + pos);
		type_len = hdr & 31;
		delta = hdr >> 5;
		switch (type_len) {
		case TYPE_PADDING:
			if (!delta)
				return events; /* the rest of the page is unused */
			if (end - pos < 8)
				return -EINVAL;
			plen = get_u32(page + pos + 4);
			if (plen > end - pos - 4)
				return -EINVAL;
			pos += 4 + plen;
			continue;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			if (end - pos < 8)
				return -EINVAL;
			if (type_len == TYPE_TIME_EXTEND)
				ts += ((__u64)get_u32(page + pos + 4) << TS_SHIFT) + delta;
			else /* absolute, its top bits from the page's */
				ts = (ts & ~((1ull << 59) - 1)) |
				     ((((__u64)get_u32(page + pos + 4) << TS_SHIFT) | delta) &
				      ((1ull << 59) - 1));
			pos += 8;
			continue;
		case 0:
			if (end - pos < 8)
				return -EINVAL;
			plen = get_u32(page + pos + 4);
			if (plen < 4 || plen - 4 > end - pos - 8)
				return -EINVAL;
			plen -= 4;
			data = page + pos + 8;
			pos += 8 + ((plen + 3) & ~(size_t)3);
			if (pos > end)
				pos = end;
			break;
		default:
			plen = (size_t)type_len * 4;
			if (plen > end - pos - 4)
				return -EINVAL;
			data = page + pos + 4;
			pos += 4 + plen;
			break;
		}
		ts += delta;
		{
			struct bpfprobe_trace_event ev = { .ts = ts };
			__u16 type;
			__u32 loc;
			size_t off, slen;

			if ((size_t)f->type_off + 2 > plen)
				return -EINVAL;
			memcpy(&type, data + f->type_off, 2);
			if (type != f->event_id)
				continue;
			if ((size_t)f->pid_off + 4 > plen || (size_t)f->str_off + f->str_size > plen)
				return -EINVAL;
			memcpy(&ev.pid, data + f->pid_off, 4);
			if (f->str_loc) {
				loc = get_u32(data + f->str_off);
				off = loc & 0xffff;
				slen = loc >> 16;
			} else {
				off = f->str_off;
				slen = f->str_size;
			}
			if (off > plen || slen > plen - off)
				return -EINVAL;
			ev.str = (const char *)data + off;
			ev.len = strnlen(ev.str, slen);
			events++;
			if (on_event)
				on_event(ctx, &ev);
		}
	}
	return events;
}

int bpfprobe_trace_page__parse(const struct bpfprobe_trace_format *f,
			       const void *page, size_t len,
			       bpfprobe_trace_event_fn on_event, void *ctx)
{
	int n = walk(f, page, len, NULL, NULL);

	if (n <= 0 || !on_event)
		return n;
	return walk(f, page, len, on_event, ctx);
}
