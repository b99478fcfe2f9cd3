/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The reference reader of the `.bpfprobe` section (docs/metadata.md): text
 * records `bpfprobe-site 1` ... `end`, separated by any number of NULs. It is
 * strict, because a site attached from a half-read record reads the wrong
 * memory: every truncation, bad escape, missing or repeated key and bad
 * number fails with one line naming the record, its line and byte offset.
 * It depends on libc only, so the fuzzer links it alone.
 */
#define _GNU_SOURCE /* asprintf */
#include "Internal.h"
#include "Support/Escape.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A recording site's record_id and its index: sorted, the look-up of
 * every record is a binary search (10,000 sites of a line's copies). */
struct record_key {
	__u32 id;
	size_t idx;
};

struct bpfprobe_meta {
	char *text; /* owned copy of the section; strings point into it */
	struct bpfprobe_site *sites;
	size_t site_cnt;
	struct record_key *by_id;
	size_t by_id_cnt;
};

const char *bpfprobe_kind__str(enum bpfprobe_kind kind)
{
	switch (kind) {
	case BPFPROBE_KPROBE: return "kprobe";
	case BPFPROBE_KRETPROBE: return "kretprobe";
	case BPFPROBE_UPROBE: return "uprobe";
	case BPFPROBE_URETPROBE: return "uretprobe";
	case BPFPROBE_FENTRY: return "fentry";
	case BPFPROBE_FEXIT: return "fexit";
	}
	return "unknown";
}

/* Where the parser is, for messages. */
struct parse_pos {
	size_t record;      /* 1-based record number */
	size_t record_off;  /* byte offset of the record's first line */
	size_t line;        /* 1-based line within the record */
	size_t line_off;    /* byte offset of the line */
};

/* Prints \p s (at most \p max bytes) for a message, escaped as quoted
 * text (Support/Escape.h). */
static void quote(char *out, size_t out_sz, const char *s, size_t len)
{
	size_t o = 0;
	size_t max = 40;
	char esc[8];
	int n;

	for (size_t i = 0; i < len && o + 5 < out_sz; i++) {
		unsigned char c = s[i];

		if (i == max) {
			o += snprintf(out + o, out_sz - o, "...");
			break;
		}
		n = bpfprobe_quote_escape(c, 0, esc);
		if (!n)
			out[o++] = c;
		else if (o + n < out_sz)
			o += snprintf(out + o, out_sz - o, "%s", esc);
		else
			break;
	}
	out[o < out_sz ? o : out_sz - 1] = 0;
}

__attribute__((format(printf, 2, 3)))
static int corrupt(const struct parse_pos *pos, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (pos->line)
		pr_warn("corrupt .bpfprobe metadata: record %zu (byte %zu), line %zu (byte %zu): %s\n",
			pos->record, pos->record_off, pos->line, pos->line_off, msg);
	else
		pr_warn("corrupt .bpfprobe metadata: record %zu (byte %zu): %s\n",
			pos->record, pos->record_off, msg);
	return -EBADMSG;
}

/* Undoes the escaping of docs/metadata.md in place: \\ \n \t
 * (Support/Escape.h, the rules the plugin's writer uses). */
static int unescape(const struct parse_pos *pos, const char *key, char *s)
{
	char *w = s;
	int c;

	for (char *r = s; *r; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		r++;
		if ((c = bpfprobe_value_unescape(*r)) >= 0)
			*w++ = c;
		else if (!*r)
			return corrupt(pos, "value of '%s' ends with a lone backslash", key);
		else
			return corrupt(pos, "value of '%s' has an unknown escape '\\%c' (only \\\\, \\n and \\t exist)",
				       key, isprint((unsigned char)*r) ? *r : '?');
	}
	*w = 0;
	return 0;
}

static int parse_u64(const struct parse_pos *pos, const char *key,
		     const char *s, int base, __u64 *out)
{
	__u64 v = 0;
	const char *p = s;

	if (base == 16) {
		/* address: 0x-prefixed hex; a bare 0 means "not resolved" */
		if (strcmp(s, "0") == 0) {
			*out = 0;
			return 0;
		}
		if (strncmp(s, "0x", 2) != 0 || !s[2])
			return corrupt(pos, "'%s' must be 0x-prefixed hex, found '%s'", key, s);
		p = s + 2;
	}
	if (!*p)
		return corrupt(pos, "'%s' is empty; expected a %s number", key,
			       base == 16 ? "hex" : "decimal");
	for (; *p; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return corrupt(pos, "'%s' must be a %s number, found '%s'", key,
				       base == 16 ? "hex" : "decimal", s);
		if (v > (UINT64_MAX - d) / base)
			return corrupt(pos, "'%s' does not fit in 64 bits: '%s'", key, s);
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/*
 * The place of the spec, for labels: "uprobe/./srv:handle:12(req->len, fd)"
 * with target "./srv" gives "handle:12"; a quoted C++ name
 * "'ns::f(int)'+8" gives "ns::f+8". Falls back to symbol[+offset].
 */
static const char *make_label(struct bpfprobe_site *site, char *scratch,
			      size_t scratch_sz)
{
	const char *p = strchr(site->spec, '/');
	size_t tlen = strlen(site->target);
	size_t len;

	if (p) {
		p++;
		if (tlen && strncmp(p, site->target, tlen) == 0 && p[tlen] == ':')
			p += tlen + 1;
		else if (tlen)
			p = NULL; /* target spelled differently: do not guess */
	}
	if (p && (*p == '\'' || *p == '"') && strchr(p + 1, *p)) {
		/* A quoted C++ name ('ns::f(int)'+8): the name without its
		 * parameter list, then what follows the quote. */
		const char *close = strchr(p + 1, *p);
		size_t name = strcspn(p + 1, "(");
		size_t tail = strcspn(close + 1, "(");

		if (name > (size_t)(close - p - 1))
			name = close - p - 1;
		while (name && isspace((unsigned char)p[name]))
			name--;
		if (name && name + tail < scratch_sz) {
			memcpy(scratch, p + 1, name);
			memcpy(scratch + name, close + 1, tail);
			scratch[name + tail] = 0;
			return scratch;
		}
	} else if (p) {
		len = strcspn(p, "(");
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len && len < scratch_sz) {
			memcpy(scratch, p, len);
			scratch[len] = 0;
			return scratch;
		}
	}
	if (site->offset)
		snprintf(scratch, scratch_sz, "%s+%llu", site->symbol,
			 (unsigned long long)site->offset);
	else
		snprintf(scratch, scratch_sz, "%s", site->symbol);
	return scratch;
}

/* ---- kernel architectures (BPFPROBE_KERNEL_ARCHES) ---- */

static const struct bpfprobe_kernel_arch kernel_arches[] = { BPFPROBE_KERNEL_ARCHES };

const struct bpfprobe_kernel_arch *bpfprobe_kernel_arch_by_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(kernel_arches) / sizeof(kernel_arches[0]); i++)
		if (!strcmp(name, kernel_arches[i].name))
			return &kernel_arches[i];
	return NULL;
}

const struct bpfprobe_kernel_arch *bpfprobe_kernel_arch_by_uname(const char *machine)
{
	const struct bpfprobe_kernel_arch *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < sizeof(kernel_arches) / sizeof(kernel_arches[0]); i++) {
		const char *p = kernel_arches[i].uname_prefixes;

		while (*p) {
			size_t n = strcspn(p, " ");

			if (n > best_len && !strncmp(machine, p, n)) {
				best = &kernel_arches[i];
				best_len = n;
			}
			p += n;
			p += strspn(p, " ");
		}
	}
	return best;
}

enum {
	K_PROGRAM, K_SECTION, K_KIND, K_TARGET, K_SYMBOL, K_OFFSET, K_ADDRESS,
	K_SYMBOL_SIZE, K_ARCH, K_BUILD_ID, K_SOURCE, K_SPEC, K_RECORD_ID,
	K_KERNEL_MACHINE, K_COMPAT, K_ENTRY_PROGRAM, K_ENTRY_OF, K_SESSION_PROGRAM, K_DISPATCHER,
	K_COOKIE, K_RECORD_CONTEXT, K_CNT
};

static const struct {
	const char *name;
	bool required;
} keys[K_CNT] = {
	[K_PROGRAM] = { BPFPROBE_KEY_PROGRAM, true },
	[K_SECTION] = { BPFPROBE_KEY_SECTION, true },
	[K_KIND] = { BPFPROBE_KEY_KIND, true },
	[K_TARGET] = { BPFPROBE_KEY_TARGET, true },
	[K_SYMBOL] = { BPFPROBE_KEY_SYMBOL, true },
	[K_OFFSET] = { BPFPROBE_KEY_OFFSET, true },
	[K_ADDRESS] = { BPFPROBE_KEY_ADDRESS, false },
	[K_SYMBOL_SIZE] = { BPFPROBE_KEY_SYMBOL_SIZE, false },
	[K_ARCH] = { BPFPROBE_KEY_ARCH, true },
	[K_BUILD_ID] = { BPFPROBE_KEY_BUILD_ID, true },
	[K_SOURCE] = { BPFPROBE_KEY_SOURCE, true },
	[K_SPEC] = { BPFPROBE_KEY_SPEC, true },
	[K_RECORD_ID] = { BPFPROBE_KEY_RECORD_ID, false },
	[K_KERNEL_MACHINE] = { BPFPROBE_KEY_KERNEL_MACHINE, false },
	[K_COMPAT] = { BPFPROBE_KEY_COMPAT, false },
	[K_ENTRY_PROGRAM] = { BPFPROBE_KEY_ENTRY_PROGRAM, false },
	[K_ENTRY_OF] = { BPFPROBE_KEY_ENTRY_OF, false },
	[K_SESSION_PROGRAM] = { BPFPROBE_KEY_SESSION_PROGRAM, false },
	[K_RECORD_CONTEXT] = { BPFPROBE_KEY_RECORD_CONTEXT, false },
	[K_DISPATCHER] = { BPFPROBE_KEY_DISPATCHER, false },
	[K_COOKIE] = { BPFPROBE_KEY_COOKIE, false },
};

struct record_builder {
	char *vals[K_CNT];
	size_t line[K_CNT], line_off[K_CNT]; /* where each key was */
	struct bpfprobe_arg *args;
	size_t arg_cnt, arg_cap;
};

static int add_arg(struct record_builder *rb, const struct parse_pos *pos,
		   char *val)
{
	char *f[4];
	int n = 0;
	char *p = val;
	static const char *const names[4] = { "parameter name", "type",
					      "fetch plan", "argument text" };

	f[n++] = p;
	while ((p = strchr(p, '\t'))) {
		*p++ = 0;
		if (n == 4)
			return corrupt(pos, "'arg' has more than 4 tab-separated fields");
		f[n++] = p;
	}
	if (n != 4)
		return corrupt(pos, "'arg' has %d tab-separated field%s, expected 4: name, type, fetch plan, text",
			       n, n == 1 ? "" : "s");
	for (int i = 0; i < 4; i++) {
		int err = unescape(pos, "arg", f[i]);

		if (err)
			return err;
		if (i < 3 && !*f[i])
			return corrupt(pos, "'arg' has an empty %s", names[i]);
	}
	if (rb->arg_cnt == rb->arg_cap) {
		size_t cap = rb->arg_cap ? rb->arg_cap * 2 : 4;
		void *n_args = realloc(rb->args, cap * sizeof(*rb->args));

		if (!n_args)
			return -ENOMEM;
		rb->args = n_args;
		rb->arg_cap = cap;
	}
	rb->args[rb->arg_cnt++] = (struct bpfprobe_arg){
		.name = f[0], .type = f[1], .fetch = f[2], .text = f[3],
	};
	return 0;
}

static bool is_hex(const char *s)
{
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

/* The ':type' that ends \p text ("x:u32", "$arg1:ustring"), or NULL; a
 * C++ name's "::" is not one. */
static const char *fetch_type_suffix(const char *text)
{
	static const char *const types[] = { "string", "ustring", NULL };
	const char *c = strrchr(text, ':');

	if (!c || c == text || c[-1] == ':')
		return NULL;
	for (size_t i = 0; types[i]; i++)
		if (!strcmp(c + 1, types[i]))
			return c;
	if (strchr("usx", c[1]) && (!strcmp(c + 2, "8") || !strcmp(c + 2, "16") ||
				    !strcmp(c + 2, "32") || !strcmp(c + 2, "64")))
		return c;
	return NULL;
}

/*
 * The name printed for argument \p i: the user's own spelling, without a
 * trailing ":type" ("req->len:u32" -> "req->len", "$retval",
 * "@entry(o->id)", "size_t"), as perf script and bpftrace show what was
 * asked for. The metadata also keeps the kprobe_events name the plugin gave
 * the value ("len", "arg1"), which plans print. A body's calling-convention
 * argument (only a C type was written) is named by the body's parameter,
 * else "$argN". Two values spelled alike are told apart by
 * unique_arg_labels().
 */
static char *arg_label(const struct bpfprobe_site *site, size_t i)
{
	const struct bpfprobe_arg *a = &site->args[i];
	size_t len = strlen(a->text), tlen = strlen(a->type);
	char buf[32];

	if (!site->has_record_id && !strcmp(site->source, "cc") &&
	    !strchr("$%@", a->text[0])) {
		if (strcmp(a->name, a->text))
			return strdup(a->name);
		snprintf(buf, sizeof(buf), "$arg%zu", i + 1);
		return strdup(buf);
	}
	if (!len)
		return strdup(a->name);
	if (len > tlen + 1 && a->text[len - tlen - 1] == ':' &&
	    !strcmp(a->text + len - tlen, a->type))
		len -= tlen + 1;
	else if (fetch_type_suffix(a->text))
		len = fetch_type_suffix(a->text) - a->text;
	return strndup(a->text, len);
}

/* "int, int": the second is "int#2", the third "int#3" (labels only
 * differing in a ':type' the label leaves out: "s", "s#2"). */
static int unique_arg_labels(struct bpfprobe_site *site)
{
	char **labels = (char **)site->arg_labels;

	for (size_t i = site->arg_cnt; i-- > 1;) {
		size_t same = 1;
		char *l;

		for (size_t j = 0; j < i; j++)
			same += !strcmp(labels[j], labels[i]);
		if (same == 1)
			continue;
		if (asprintf(&l, "%s#%zu", labels[i], same) < 0)
			return -ENOMEM;
		free(labels[i]);
		labels[i] = l;
	}
	return 0;
}

/* Points \p pos at the line of key \p k, for a message about its value. */
static struct parse_pos *at(struct parse_pos *pos,
			    const struct record_builder *rb, int k)
{
	pos->line = rb->line[k];
	pos->line_off = rb->line_off[k];
	return pos;
}

/* Checks a complete record and turns it into a site. */
static int finish_record(struct record_builder *rb, struct parse_pos *pos,
			 struct bpfprobe_site *site)
{
	char **v = rb->vals;
	char scratch[256];
	char **labels;
	int err;

	memset(site, 0, sizeof(*site));
	pos->line = 0;
	for (int k = 0; k < K_CNT; k++)
		if (keys[k].required && !v[k])
			return corrupt(pos, "required key '%s' is missing", keys[k].name);

	site->program = v[K_PROGRAM];
	site->section = v[K_SECTION];
	site->target = v[K_TARGET];
	site->symbol = v[K_SYMBOL];
	site->arch = v[K_ARCH];
	site->build_id = v[K_BUILD_ID];
	site->source = v[K_SOURCE];
	site->spec = v[K_SPEC];
	site->entry_program = v[K_ENTRY_PROGRAM];
	site->entry_of = v[K_ENTRY_OF];
	site->session_program = v[K_SESSION_PROGRAM] && *v[K_SESSION_PROGRAM]
					? v[K_SESSION_PROGRAM]
					: NULL;
	if ((site->entry_program && !*site->entry_program) ||
	    (site->entry_of && !*site->entry_of))
		return corrupt(pos, "'%s' is empty",
			       site->entry_program ? BPFPROBE_KEY_ENTRY_PROGRAM
						   : BPFPROBE_KEY_ENTRY_OF);

	if (!*site->program)
		return corrupt(at(pos, rb, K_PROGRAM), "'program' is empty");
	if (!*site->symbol)
		return corrupt(at(pos, rb, K_SYMBOL), "'symbol' is empty");
	if (!strcmp(v[K_KIND], "kprobe"))
		site->kind = BPFPROBE_KPROBE;
	else if (!strcmp(v[K_KIND], "kretprobe"))
		site->kind = BPFPROBE_KRETPROBE;
	else if (!strcmp(v[K_KIND], "uprobe"))
		site->kind = BPFPROBE_UPROBE;
	else if (!strcmp(v[K_KIND], "uretprobe"))
		site->kind = BPFPROBE_URETPROBE;
	else if (!strcmp(v[K_KIND], "fentry"))
		site->kind = BPFPROBE_FENTRY;
	else if (!strcmp(v[K_KIND], "fexit"))
		site->kind = BPFPROBE_FEXIT;
	else
		return corrupt(at(pos, rb, K_KIND), "unknown kind '%s' (expected kprobe, kretprobe, uprobe, uretprobe, fentry or fexit)",
			       v[K_KIND]);
	if ((site->kind == BPFPROBE_UPROBE || site->kind == BPFPROBE_URETPROBE) &&
	    !*site->target)
		return corrupt(at(pos, rb, K_TARGET), "%s site '%s' has an empty 'target' (the binary path)",
			       v[K_KIND], site->program);
	if ((err = parse_u64(at(pos, rb, K_OFFSET), "offset", v[K_OFFSET], 10,
			     &site->offset)))
		return err;
	if (v[K_ADDRESS] &&
	    (err = parse_u64(at(pos, rb, K_ADDRESS), "address", v[K_ADDRESS], 16,
			     &site->address)))
		return err;
	if (v[K_SYMBOL_SIZE]) {
		if ((err = parse_u64(at(pos, rb, K_SYMBOL_SIZE), "symbol_size",
				     v[K_SYMBOL_SIZE], 10,
				     &site->symbol_size)))
			return err;
		site->has_symbol_size = true;
	}
	if (v[K_KERNEL_MACHINE]) {
		__u64 em;

		if ((err = parse_u64(at(pos, rb, K_KERNEL_MACHINE), "kernel_machine",
				     v[K_KERNEL_MACHINE], 10, &em)))
			return err;
		if (!em || em > 0xffff)
			return corrupt(at(pos, rb, K_KERNEL_MACHINE), "'kernel_machine' %s is not an ELF e_machine",
				       v[K_KERNEL_MACHINE]);
		site->kernel_machine = (unsigned short)em;
	} else {
		const struct bpfprobe_kernel_arch *k = bpfprobe_kernel_arch_by_name(site->arch);

		site->kernel_machine = k ? k->e_machine : 0;
	}
	if (v[K_COMPAT]) {
		if (strcmp(v[K_COMPAT], "0") && strcmp(v[K_COMPAT], "1"))
			return corrupt(at(pos, rb, K_COMPAT), "'compat' is '%s', expected 0 or 1",
				       v[K_COMPAT]);
		site->compat = !strcmp(v[K_COMPAT], "1");
	}
	if (v[K_RECORD_ID]) {
		__u64 id;

		if ((err = parse_u64(at(pos, rb, K_RECORD_ID), "record_id",
				     v[K_RECORD_ID], 10, &id)))
			return err;
		if (id > UINT32_MAX)
			return corrupt(at(pos, rb, K_RECORD_ID), "'record_id' %s does not fit in 32 bits",
				       v[K_RECORD_ID]);
		site->record_id = (__u32)id;
		site->has_record_id = true;
	}
	if (v[K_RECORD_CONTEXT]) {
		__u64 sz;

		if ((err = parse_u64(at(pos, rb, K_RECORD_CONTEXT), "record_context",
				     v[K_RECORD_CONTEXT], 10, &sz)))
			return err;
		/* At least the fields this reader knows; 8-byte slots follow. */
		if (!site->has_record_id || sz < BPFPROBE_RECORD_CTX_SIZE || sz % 8 ||
		    sz > 4096)
			return corrupt(at(pos, rb, K_RECORD_CONTEXT),
				       "'record_context' %s is not a context size (a multiple of 8 from %d to 4096, on a site with a record_id)",
				       v[K_RECORD_CONTEXT], BPFPROBE_RECORD_CTX_SIZE);
		site->context_size = (size_t)sz;
	}
	/* A copy sharing a program: both keys, on a uprobe or uretprobe
	 * without entry values (plugin/SiteDispatch.cpp). */
	if (!v[K_DISPATCHER] != !v[K_COOKIE])
		return corrupt(at(pos, rb, v[K_DISPATCHER] ? K_DISPATCHER : K_COOKIE),
			       "'%s' without '%s'; a shared program's site needs both",
			       v[K_DISPATCHER] ? BPFPROBE_KEY_DISPATCHER : BPFPROBE_KEY_COOKIE,
			       v[K_DISPATCHER] ? BPFPROBE_KEY_COOKIE : BPFPROBE_KEY_DISPATCHER);
	if (v[K_DISPATCHER]) {
		if (!*v[K_DISPATCHER])
			return corrupt(at(pos, rb, K_DISPATCHER), "'%s' is empty",
				       BPFPROBE_KEY_DISPATCHER);
		if ((site->kind != BPFPROBE_UPROBE && site->kind != BPFPROBE_URETPROBE) ||
		    site->entry_program || site->entry_of || site->session_program)
			return corrupt(at(pos, rb, K_DISPATCHER), "%s site '%s' names a dispatcher; only uprobe and uretprobe sites without entry values share one",
				       v[K_KIND], site->program);
		if ((err = parse_u64(at(pos, rb, K_COOKIE), "cookie", v[K_COOKIE], 10,
				     &site->cookie)))
			return err;
		site->dispatcher = v[K_DISPATCHER];
	}
	if (!is_hex(site->build_id) || strlen(site->build_id) % 2)
		return corrupt(at(pos, rb, K_BUILD_ID), "'build_id' must be an even number of hex digits, found '%s'",
			       site->build_id);
	for (char *p = v[K_BUILD_ID]; *p; p++)
		*p = tolower((unsigned char)*p);

	site->arg_cnt = rb->arg_cnt;
	site->args = rb->args;
	rb->args = NULL;
	rb->arg_cap = 0;
	labels = calloc(site->arg_cnt + 1, sizeof(*labels));
	if (!labels)
		return -ENOMEM;
	site->arg_labels = (const char *const *)labels;
	for (size_t i = 0; i < site->arg_cnt; i++) {
		labels[i] = arg_label(site, i);
		if (!labels[i])
			return -ENOMEM;
	}
	if ((err = unique_arg_labels(site)))
		return err;
	make_label(site, scratch, sizeof(scratch));
	/* perf's name for a return probe of a function: "func%return". */
	if (site->kind == BPFPROBE_KRETPROBE || site->kind == BPFPROBE_URETPROBE ||
	    site->kind == BPFPROBE_FEXIT)
		err = asprintf((char **)&site->label, "%s%%return",
			       make_label(site, scratch, sizeof(scratch)));
	else
		err = asprintf((char **)&site->label, "%s",
			       make_label(site, scratch, sizeof(scratch)));
	if (err < 0) {
		site->label = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * The record sites of one spec and kind are the copies of an inlined line
 * (or function): each label says which, "ship:3 [in process+0x3a]", as
 * perf probe names each copy by its address.
 */
static int label_copies(struct bpfprobe_meta *meta)
{
	for (size_t i = 0; i < meta->site_cnt; i++) {
		struct bpfprobe_site *s = &meta->sites[i];
		bool copies = false;
		char *l;

		for (size_t j = 0; j < meta->site_cnt && !copies; j++)
			copies = j != i && meta->sites[j].has_record_id &&
				 meta->sites[j].kind == s->kind &&
				 !strcmp(meta->sites[j].spec, s->spec);
		if (!s->has_record_id || !copies)
			continue;
		if (asprintf(&l, "%s [in %s+0x%llx]", s->label, s->symbol,
			     (unsigned long long)s->offset) < 0)
			return -ENOMEM;
		free((void *)s->label);
		s->label = l;
	}
	return 0;
}

static void free_site(struct bpfprobe_site *site)
{
	for (size_t i = 0; site->arg_labels && i < site->arg_cnt; i++)
		free((void *)site->arg_labels[i]);
	free((void *)site->args);
	free((void *)site->arg_labels);
	free((void *)site->label);
}

void bpfprobe_meta__free(struct bpfprobe_meta *meta)
{
	if (!meta)
		return;
	for (size_t i = 0; i < meta->site_cnt; i++)
		free_site(&meta->sites[i]);
	free(meta->sites);
	free(meta->by_id);
	free(meta->text);
	free(meta);
}

static int parse_key(char *line, char **val)
{
	char *eq = strchr(line, '=');

	if (!eq || eq == line)
		return -1;
	for (char *p = line; p < eq; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
			return -1;
	*eq = 0;
	*val = eq + 1;
	return 0;
}

/*
 * The next line of the record at \p pos, NUL-terminated in place, into
 * \p line and \p len; the record must go on to its end line.
 */
static int next_line(char *text, size_t size, size_t *pos, struct parse_pos *pp,
		     char **line, size_t *len)
{
	char *nl, q[64];

	pp->line++;
	pp->line_off = *pos;
	if (*pos == size)
		return corrupt(pp, "record is truncated: the data ends before its '%s' line",
			       BPFPROBE_METADATA_END);
	*line = text + *pos;
	nl = memchr(*line, '\n', size - *pos);
	*len = nl ? (size_t)(nl - *line) : size - *pos;
	if (memchr(*line, 0, *len)) {
		quote(q, sizeof(q), *line, strnlen(*line, *len));
		return corrupt(pp, "record is truncated: NUL byte inside line '%s' before the '%s' line",
			       q, BPFPROBE_METADATA_END);
	}
	if (!nl) {
		quote(q, sizeof(q), *line, *len);
		return corrupt(pp, "record is truncated: last line '%s' has no newline and no '%s' line follows",
			       q, BPFPROBE_METADATA_END);
	}
	*nl = 0;
	*pos += *len + 1;
	return 0;
}

/* A record's first line: the magic and a version this reader reads. */
static int check_version_line(const char *line, size_t len, const struct parse_pos *pp)
{
	const size_t magic_len = strlen(BPFPROBE_METADATA_MAGIC);
	const char *ver = line + magic_len;
	char q[64];

	if (strncmp(line, BPFPROBE_METADATA_MAGIC, magic_len) != 0 || *ver != ' ') {
		quote(q, sizeof(q), line, len);
		return corrupt(pp, "expected '%s %d', found '%s'", BPFPROBE_METADATA_MAGIC,
			       BPFPROBE_METADATA_VERSION, q);
	}
	ver++;
	if (!*ver || strspn(ver, "0123456789") != strlen(ver)) {
		quote(q, sizeof(q), ver, strlen(ver));
		return corrupt(pp, "bad version '%s' after '%s'", q, BPFPROBE_METADATA_MAGIC);
	}
	if (strcmp(ver, "1") != 0) {
		pr_warn("unsupported .bpfprobe metadata: record %zu (byte %zu) has version %.20s; this runtime reads version %d: use a bpfprobe runtime as new as the plugin that built the object\n",
			pp->record, pp->record_off, ver, BPFPROBE_METADATA_VERSION);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

/* A line after the version line: an argument, a key's value, or the end
 * (\p ended set). */
static int parse_line(struct record_builder *rb, struct parse_pos *pp,
		      char *line, size_t len, bool *ended)
{
	char *val, q[64];
	int k, err;

	if (!strcmp(line, BPFPROBE_METADATA_END)) {
		*ended = true;
		return 0;
	}
	if (!strncmp(line, BPFPROBE_METADATA_MAGIC, strlen(BPFPROBE_METADATA_MAGIC)))
		return corrupt(pp, "record is truncated: a new '%s' line starts before its '%s' line",
			       BPFPROBE_METADATA_MAGIC, BPFPROBE_METADATA_END);
	if (parse_key(line, &val)) {
		quote(q, sizeof(q), line, len);
		return corrupt(pp, "expected 'key=value' or '%s', found '%s'",
			       BPFPROBE_METADATA_END, q);
	}
	if (!strcmp(line, BPFPROBE_KEY_ARG))
		return add_arg(rb, pp, val);
	for (k = 0; k < K_CNT; k++)
		if (!strcmp(line, keys[k].name))
			break;
	if (k == K_CNT)
		return 0; /* unknown keys are for newer readers */
	if (rb->vals[k])
		return corrupt(pp, "key '%s' appears twice", line);
	if ((err = unescape(pp, line, val)))
		return err;
	rb->vals[k] = val;
	rb->line[k] = pp->line;
	rb->line_off[k] = pp->line_off;
	return 0;
}

/* The record at \p pos, up to its end line, appended to meta's sites. */
static int parse_record(struct bpfprobe_meta *meta, size_t size, size_t *pos,
			size_t *cap, struct parse_pos *pp, struct record_builder *rb)
{
	bool ended = false;
	char *line;
	size_t len;
	int err;

	pp->record++;
	pp->record_off = *pos;
	pp->line = 0;
	memset(&rb->vals, 0, sizeof(rb->vals));
	rb->arg_cnt = 0;

	if ((err = next_line(meta->text, size, pos, pp, &line, &len)) ||
	    (err = check_version_line(line, len, pp)))
		return err;
	while (!ended)
		if ((err = next_line(meta->text, size, pos, pp, &line, &len)) ||
		    (err = parse_line(rb, pp, line, len, &ended)))
			return err;

	if (meta->site_cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *n = realloc(meta->sites, ncap * sizeof(*meta->sites));

		if (!n)
			return -ENOMEM;
		meta->sites = n;
		*cap = ncap;
	}
	err = finish_record(rb, pp, &meta->sites[meta->site_cnt]);
	if (err) {
		free_site(&meta->sites[meta->site_cnt]);
		return err;
	}
	meta->site_cnt++;
	return 0;
}

static int by_record_id(const void *a, const void *b)
{
	const struct record_key *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The record_id index; a record_id must name one program. */
static int check_record_ids(struct bpfprobe_meta *meta)
{
	meta->by_id = calloc(meta->site_cnt + 1, sizeof(*meta->by_id));
	if (!meta->by_id)
		return -ENOMEM;
	for (size_t i = 0; i < meta->site_cnt; i++)
		if (meta->sites[i].has_record_id)
			meta->by_id[meta->by_id_cnt++] =
				(struct record_key){ meta->sites[i].record_id, i };
	if (meta->by_id_cnt > 1) /* qsort(NULL, 0) is undefined */
		qsort(meta->by_id, meta->by_id_cnt, sizeof(*meta->by_id), by_record_id);
	for (size_t k = 1, first = 0; k < meta->by_id_cnt; k++) {
		const struct bpfprobe_site *a, *b;

		if (meta->by_id[k].id != meta->by_id[first].id) {
			first = k;
			continue;
		}
		b = &meta->sites[meta->by_id[first].idx];
		a = &meta->sites[meta->by_id[k].idx];
		if (strcmp(a->program, b->program)) {
			pr_warn("corrupt .bpfprobe metadata: programs '%s' and '%s' share record_id %u; their records could not be told apart\n",
				b->program, a->program, a->record_id);
			return -EBADMSG;
		}
	}
	return 0;
}

/* Every record of the section (NUL padding between them skipped). */
static int parse_records(struct bpfprobe_meta *meta, size_t size)
{
	size_t pos = 0, cap = 0;
	struct parse_pos pp = { 0 };
	struct record_builder rb = { 0 };
	int err = 0;

	for (;;) {
		while (pos < size && meta->text[pos] == 0)
			pos++;
		if (pos == size)
			break;
		if ((err = parse_record(meta, size, &pos, &cap, &pp, &rb)))
			goto out;
	}
	if (!meta->site_cnt) {
		pr_warn("the .bpfprobe section has no site record (%zu byte%s of padding)\n",
			size, size == 1 ? "" : "s");
		err = -ENODATA;
		goto out;
	}
	err = check_record_ids(meta);
out:
	free(rb.args);
	return err;
}

struct bpfprobe_meta *bpfprobe_meta__parse(const void *data, size_t size)
{
	struct bpfprobe_meta *meta;
	int err;

	if (!data && size) {
		errno = EINVAL;
		return NULL;
	}
	meta = calloc(1, sizeof(*meta));
	if (!meta) {
		errno = ENOMEM;
		return NULL;
	}
	meta->text = malloc(size + 1);
	if (!meta->text) {
		free(meta);
		errno = ENOMEM;
		return NULL;
	}
	if (size)
		memcpy(meta->text, data, size);
	meta->text[size] = 0;

	err = parse_records(meta, size);
	if (!err)
		err = label_copies(meta);
	if (err) {
		bpfprobe_meta__free(meta);
		errno = -err;
		return NULL;
	}
	return meta;
}

size_t bpfprobe_meta__site_cnt(const struct bpfprobe_meta *meta)
{
	return meta ? meta->site_cnt : 0;
}

const struct bpfprobe_site *bpfprobe_meta__site(const struct bpfprobe_meta *meta,
						size_t idx)
{
	if (!meta || idx >= meta->site_cnt) {
		errno = ENOENT;
		return NULL;
	}
	return &meta->sites[idx];
}

const struct bpfprobe_site *
bpfprobe_meta__find_record(const struct bpfprobe_meta *meta, __u32 record_id)
{
	size_t lo = 0, hi = meta ? meta->by_id_cnt : 0;

	/* The first site with that id. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (meta->by_id[mid].id < record_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (meta && lo < meta->by_id_cnt && meta->by_id[lo].id == record_id)
		return &meta->sites[meta->by_id[lo].idx];
	errno = ENOENT;
	return NULL;
}
