/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Decodes one ring-buffer record of a default-body probe (the layout of
 * include/bpfprobe/metadata.h: struct bpfprobe_record_hdr, then one 8-byte
 * or 64-byte slot per argument) with the names and kprobe_events types of
 * its site, and prints it as `   0.001234 srv 4121/4123 [001] handle:12
 * req->len=512 fd=7` (time, comm, pid/tid and CPU as --fields chooses) or as
 * a JSON object. Records come from the kernel and are checked like input.
 */
#include "Internal.h"
#include "Support/Escape.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

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

/*
 * The context fields of a text record: "   0.001234 shop 22268/22268 [001] ",
 * each only when asked and when the record has it.
 */
static void put_context(struct out *o, const struct bpfprobe_record_hdr *hdr,
			const struct bpfprobe_record_ctx *ctx,
			const struct bpfprobe_format_opts *opts, unsigned int fields)
{
	if (ctx && (fields & BPFPROBE_FIELD_TIME)) {
		if (OPTS_GET(opts, time_abs, false)) {
			/* Wall clock: the monotonic stamp moved by the offset
			 * measured once at the start of the run. */
			long long off = OPTS_GET(opts, realtime_offset_ns, 0);
			long long ns = -1;
			time_t sec;
			struct tm tm;

			/* A stamp the kernel should not give is no time. */
			if (ctx->time_ns <= (__u64)LLONG_MAX &&
			    (off <= 0 || (long long)ctx->time_ns <= LLONG_MAX - off))
				ns = (long long)ctx->time_ns + off;
			sec = (time_t)(ns / 1000000000);
			if (ns >= 0 && localtime_r(&sec, &tm))
				put(o, "%02d:%02d:%02d.%06lld ", tm.tm_hour, tm.tm_min,
				    tm.tm_sec, ns % 1000000000 / 1000);
			else
				put(o, "? ");
		} else {
			__u64 base = OPTS_GET(opts, time_base_ns, 0), t = ctx->time_ns;
			bool neg = t < base;
			__u64 d = neg ? base - t : t - base;

			char num[48];

			/* Right-aligned as perf script's: "   0.001234". */
			snprintf(num, sizeof(num), "%s%llu.%06llu", neg ? "-" : "",
				 (unsigned long long)(d / 1000000000),
				 (unsigned long long)(d % 1000000000 / 1000));
			put(o, "%11s ", num);
		}
	}
	if (ctx && (fields & BPFPROBE_FIELD_COMM)) {
		size_t len = strnlen(ctx->comm, sizeof(ctx->comm));

		/* A thread may name itself anything: one word, escaped. */
		for (size_t i = 0; i < len; i++) {
			unsigned char c = ctx->comm[i];

			if (c <= ' ' || c >= 0x7f || c == '\\')
				put(o, "\\x%02x", c);
			else
				put(o, "%c", c);
		}
		put(o, len ? " " : "? ");
	}
	if ((fields & BPFPROBE_FIELD_PID) && (fields & BPFPROBE_FIELD_TID))
		put(o, "%u/%u ", hdr->pid, hdr->tid);
	else if (fields & BPFPROBE_FIELD_PID)
		put(o, "%u ", hdr->pid);
	else if (fields & BPFPROBE_FIELD_TID)
		put(o, "%u ", hdr->tid);
	if (ctx && (fields & BPFPROBE_FIELD_CPU))
		put(o, "[%03u] ", ctx->cpu);
}

int bpfprobe_record__context(const struct bpfprobe_site *site, const void *data,
			     size_t size, struct bpfprobe_record_ctx *ctx)
{
	if (!site || !data || !ctx)
		return -EINVAL;
	if (!site->context_size)
		return -ENODATA;
	if (size < sizeof(struct bpfprobe_record_hdr) + site->context_size)
		return -EBADMSG;
	memcpy(ctx, (const char *)data + sizeof(struct bpfprobe_record_hdr),
	       sizeof(*ctx));
	ctx->comm[sizeof(ctx->comm) - 1] = 0;
	return 0;
}

int bpfprobe_record__snprintf(const struct bpfprobe_meta *meta, const void *data,
			      size_t size, char *buf, size_t buf_sz,
			      unsigned int flags)
{
	BPFPROBE_OPTS(bpfprobe_format_opts, opts, .flags = flags);

	return bpfprobe_record__format(meta, data, size, buf, buf_sz, &opts);
}

int bpfprobe_record__format(const struct bpfprobe_meta *meta, const void *data,
			    size_t size, char *buf, size_t buf_sz,
			    const struct bpfprobe_format_opts *opts)
{
	struct bpfprobe_record_hdr hdr;
	struct bpfprobe_record_ctx ctx;
	unsigned long long missed = 0;
	const struct bpfprobe_site *site;
	const char *slots;
	size_t need, head;
	unsigned int flags = OPTS_GET(opts, flags, 0);
	unsigned int fields = OPTS_GET(opts, fields, 0) ?: BPFPROBE_FIELDS_ALL;
	bool json = flags & BPFPROBE_FMT_JSON;
	bool perf = flags & BPFPROBE_FMT_PERF_NAMES;
	struct out o = { .buf = buf, .sz = buf_sz };
	size_t label_len;

	if (!meta || !data || !OPTS_VALID(opts, bpfprobe_format_opts) ||
	    (flags & ~(BPFPROBE_FMT_JSON | BPFPROBE_FMT_PERF_NAMES)) ||
	    (fields & ~BPFPROBE_FIELDS_ALL))
		return -EINVAL;
	if (buf && buf_sz)
		buf[0] = 0;
	if (size < sizeof(hdr))
		return -EBADMSG;
	memcpy(&hdr, data, sizeof(hdr));
	site = bpfprobe_meta__find_record(meta, hdr.record_id);
	if (!site || hdr.nargs != (site->arg_cnt |
				   (site->context_size ? BPFPROBE_RECORD_NARGS_CTX : 0)))
		return -EBADMSG;
	/* The context, when the site's records carry one, then the slots. */
	head = sizeof(hdr) + site->context_size;
	need = head;
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
	if (site->context_size)
		bpfprobe_record__context(site, data, size, &ctx);

	/* perf's name of the place: the label without "%return" or the copy. */
	label_len = strlen(site->label);
	if (perf) {
		const char *in = strstr(site->label, " [in ");

		label_len = in ? (size_t)(in - site->label) : label_len;
		if (label_len >= 7 && !strncmp(site->label + label_len - 7, "%return", 7))
			label_len -= 7;
	}
	slots = (const char *)data + head;
	if (json) {
		put(&o, "{\"type\":\"record\",\"probe\":");
		put_str(&o, site->label, label_len, true);
		put(&o, ",\"program\":");
		put_str(&o, site->program, strlen(site->program), true);
		if (site->context_size) {
			put(&o, ",\"time_ns\":%llu,\"comm\":",
			    (unsigned long long)ctx.time_ns);
			put_str(&o, ctx.comm, strlen(ctx.comm), true);
		}
		put(&o, ",\"pid\":%u,\"tid\":%u", hdr.pid, hdr.tid);
		if (site->context_size)
			put(&o, ",\"cpu\":%u", ctx.cpu);
		put(&o, ",\"args\":{");
	} else {
		put_context(&o, &hdr, site->context_size ? &ctx : NULL, opts, fields);
		put(&o, "%.*s", (int)label_len, site->label);
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
		slots = (const char *)data + head;
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
