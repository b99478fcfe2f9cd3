/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Decodes one ring-buffer record of a default-body probe (the layout of
 * include/bpfprobe/metadata.h: struct bpfprobe_record_hdr, then one 8-byte
 * or 64-byte slot per argument) with the names and kprobe_events types of
 * its site, and prints it as `handle:12 pid=4121 req->len=512 fd=7` or as a
 * JSON object. Records come from the kernel and are checked like input.
 */
#include "Internal.h"
#include "Support/Escape.h"

#include <stdarg.h>
#include <string.h>

static bool is_counted_string(const char *type)
{
	return !strcmp(type, BPFPROBE_TYPE_COUNTED_STRING) ||
	       !strcmp(type, BPFPROBE_TYPE_COUNTED_USTRING);
}

size_t bpfprobe_slot_size(const char *type)
{
	if (!strcmp(type, "string") || !strcmp(type, "ustring"))
		return BPFPROBE_RECORD_STR_LEN;
	if (is_counted_string(type))
		return BPFPROBE_RECORD_COUNTED_STR_LEN;
	return 8;
}

/* snprintf-like appender: counts what it would need past the buffer. */
struct out {
	char *buf;
	size_t sz;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	size_t room = o->len < o->sz ? o->sz - o->len : 0;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += n;
}

/* Text or JSON string, quoted (Support/Escape.h). */
static void put_str(struct out *o, const char *s, size_t len, bool json)
{
	char esc[8];

	put(o, "\"");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (bpfprobe_quote_escape(c, json, esc))
			put(o, "%s", esc);
		else
			put(o, "%c", c);
	}
	put(o, "\"");
}

/* A label printed as it is: no space, '=', quote, backslash or control
 * character ("o->cust->name", "@entry(o->id)", "$retval", "v[2]"). */
static bool plain_label(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == '=' || *s == '"' ||
		    *s == '\\' || (unsigned char)*s == 0x7f)
			return false;
	return true;
}

/* Bits of an integer type: "s32" -> 32; bitfields "b4@3/32" -> 4. */
static int type_bits(const char *type)
{
	int bits = 0;
	const char *p = type + 1;

	if (!*type)
		return 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (bits <= 64) /* past 64 it is no integer type: stop counting */
			bits = bits * 10 + (*p - '0');
	if (*type == 'b' ? *p != '@' : *p != 0)
		return 0;
	return bits > 0 && bits <= 64 ? bits : 0;
}

/*
 * A float ("f32") or double ("f64") from the low bits of its slot, printed
 * as gdb prints one: the shortest %g precision that always round-trips (9
 * and 17 digits: 0.1 is 0.10000000000000001, 3.0 is 3), "inf", and a NaN
 * with its mantissa bits ("-nan(0x8000000000000)"). In JSON a number, or
 * a string where JSON has no number for it.
 */
static void put_float(struct out *o, bool single, __u64 v, bool json)
{
	bool neg = v >> (single ? 31 : 63) & 1;
	__u64 mant = v & (single ? 0x7fffffull : 0xfffffffffffffull);
	unsigned int exp = single ? (v >> 23 & 0xff) : (v >> 52 & 0x7ff);
	bool special = exp == (single ? 0xffu : 0x7ffu);
	const char *q = json && special ? "\"" : "";

	if (special && mant) {
		put(o, "%s%snan(0x%llx)%s", q, neg ? "-" : "", (unsigned long long)mant, q);
	} else if (single) {
		__u32 b = (__u32)v;
		float f;

		memcpy(&f, &b, sizeof(f));
		put(o, "%s%.9g%s", q, (double)f, q);
	} else {
		double d;

		memcpy(&d, &v, sizeof(d));
		put(o, "%s%.17g%s", q, d, q);
	}
}

static void put_value(struct out *o, const char *type, const void *slot,
		      bool json)
{
	__u64 v;
	int bits = type_bits(type);
	__u64 mask;

	if (!strcmp(type, "string") || !strcmp(type, "ustring")) {
		put_str(o, slot, strnlen(slot, BPFPROBE_RECORD_STR_LEN), json);
		return;
	}
	if (is_counted_string(type)) {
		/* The bytes the probe copied (NULs in the string included),
		 * then, when it was longer than the slot, "..." and its whole
		 * length: "abc"...(len=5000). JSON gives the length in the
		 * record's "lengths" object instead. */
		__u64 len;

		memcpy(&len, (const char *)slot + BPFPROBE_RECORD_STR_LEN,
		       sizeof(len));
		put_str(o, slot,
			len < BPFPROBE_RECORD_STR_LEN ? len :
			BPFPROBE_RECORD_STR_LEN - 1, json);
		if (!json && len >= BPFPROBE_RECORD_STR_LEN)
			put(o, "...(len=%llu)", (unsigned long long)len);
		return;
	}
	memcpy(&v, slot, sizeof(v));
	if (!strcmp(type, "f32") || !strcmp(type, "f64")) {
		put_float(o, type[1] == '3', v, json);
		return;
	}
	mask = bits == 64 || !bits ? ~0ull : (1ull << bits) - 1;
	switch (bits ? type[0] : 0) {
	case 's':
		put(o, "%lld", (long long)v);
		return;
	case 'u':
	case 'b':
		put(o, "%llu", (unsigned long long)(v & mask));
		return;
	case 'x':
		put(o, json ? "\"0x%llx\"" : "0x%llx", (unsigned long long)(v & mask));
		return;
	}
	if (!strcmp(type, "char")) {
		char c = (char)v;

		put_str(o, &c, 1, json);
		return;
	}
	/* symbol, symstr, or a type newer than this reader: the raw slot. */
	put(o, json ? "\"0x%llx\"" : "0x%llx", (unsigned long long)v);
}

int bpfprobe_record__snprintf(const struct bpfprobe_meta *meta, const void *data,
			      size_t size, char *buf, size_t buf_sz,
			      unsigned int flags)
{
	struct bpfprobe_record_hdr hdr;
	unsigned long long missed = 0;
	const struct bpfprobe_site *site;
	const char *slots;
	size_t need;
	bool json = flags & BPFPROBE_FMT_JSON;
	bool perf = flags & BPFPROBE_FMT_PERF_NAMES;
	struct out o = { .buf = buf, .sz = buf_sz };
	size_t label_len;

	if (!meta || !data || (flags & ~(BPFPROBE_FMT_JSON | BPFPROBE_FMT_PERF_NAMES)))
		return -EINVAL;
	if (buf && buf_sz)
		buf[0] = 0;
	if (size < sizeof(hdr))
		return -EBADMSG;
	memcpy(&hdr, data, sizeof(hdr));
	site = bpfprobe_meta__find_record(meta, hdr.record_id);
	if (!site || hdr.nargs != site->arg_cnt)
		return -EBADMSG;
	need = sizeof(hdr);
	for (size_t i = 0; i < site->arg_cnt; i++)
		need += bpfprobe_slot_size(site->args[i].type);
	if (site->entry_program) {
		/* The missed-entry word follows the slots (metadata.h). */
		if (size < need + sizeof(missed))
			return -EBADMSG;
		memcpy(&missed, (const char *)data + need, sizeof(missed));
		need += sizeof(missed);
	}
	if (size < need)
		return -EBADMSG;

	/* perf's name of the place: the label without "%return" or the copy. */
	label_len = strlen(site->label);
	if (perf) {
		const char *in = strstr(site->label, " [in ");

		label_len = in ? (size_t)(in - site->label) : label_len;
		if (label_len >= 7 && !strncmp(site->label + label_len - 7, "%return", 7))
			label_len -= 7;
	}
	slots = (const char *)data + sizeof(hdr);
	if (json) {
		put(&o, "{\"type\":\"record\",\"probe\":");
		put_str(&o, site->label, label_len, true);
		put(&o, ",\"program\":");
		put_str(&o, site->program, strlen(site->program), true);
		put(&o, ",\"pid\":%u,\"tid\":%u,\"args\":{", hdr.pid, hdr.tid);
	} else {
		put(&o, "%.*s pid=%u", (int)label_len, site->label, hdr.pid);
	}
	for (size_t i = 0; i < site->arg_cnt; i++) {
		const char *label = perf ? site->args[i].name : site->arg_labels[i];

		if (json) {
			if (i)
				put(&o, ",");
			put_str(&o, label, strlen(label), true);
			put(&o, ":");
		} else if (plain_label(label)) {
			put(&o, " %s=", label);
		} else {
			/* "a b", "x=y", a quote: quoted, so the line still
			 * splits into name=value pairs. */
			put(&o, " ");
			put_str(&o, label, strlen(label), false);
			put(&o, "=");
		}
		if (i < BPFPROBE_RECORD_MAX_ARGS && (missed >> i & 1))
			/* An entry value whose entry was not seen: no value. */
			put(&o, json ? "\"<missed>\"" : "<missed>");
		else if (i < BPFPROBE_RECORD_MAX_ARGS && (hdr.faults >> i & 1))
			/* The read faulted: the slot holds no value. */
			put(&o, json ? "null" : "<fault>");
		else
			put_value(&o, site->args[i].type, slots, json);
		slots += bpfprobe_slot_size(site->args[i].type);
	}
	if (json) {
		/* The whole length of each pointer-and-length string whose
		 * read did not fault: "lengths":{"name":5000}. */
		bool first = true;

		put(&o, "}");
		slots = (const char *)data + sizeof(hdr);
		for (size_t i = 0; i < site->arg_cnt; i++) {
			const char *label = perf ? site->args[i].name : site->arg_labels[i];
			__u64 len;

			if (is_counted_string(site->args[i].type) &&
			    !(i < BPFPROBE_RECORD_MAX_ARGS && (hdr.faults >> i & 1))) {
				memcpy(&len, slots + BPFPROBE_RECORD_STR_LEN,
				       sizeof(len));
				put(&o, first ? ",\"lengths\":{" : ",");
				put_str(&o, label, strlen(label), true);
				put(&o, ":%llu", (unsigned long long)len);
				first = false;
			}
			slots += bpfprobe_slot_size(site->args[i].type);
		}
		put(&o, first ? "}" : "}}");
	}
	return o.len > (size_t)INT32_MAX ? -E2BIG : (int)o.len;
}
