/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * libFuzzer target for the runtime's record stream (lib/Runtime/RecordStream.c
 * and RecordFormat.c): the bytes a BPF program writes to the
 * `bpfprobe_records` ring buffer come from the kernel and are input. A fixed
 * metadata section with one site per record slot type (pointer-and-length
 * strings included) is parsed once; the
 * fuzz input is a stream of records, each a 16-bit little-endian length and
 * that many bytes, handed to the ring buffer callback the stream installs
 * (on_record, reached by compiling RecordStream.c into this file) in text,
 * JSON and callback mode with a tiny line buffer, and to
 * bpfprobe_record__snprintf, whose result must be consistent: the length it
 * returns is what a large enough buffer receives, a smaller buffer gets a
 * NUL-terminated prefix of it, a malformed record is -EBADMSG and counted.
 *
 *   ninja -C build bpfprobe-record-fuzzer
 *   build/bin/bpfprobe-record-fuzzer -max_len=2048 test/fuzz/corpus-record
 */
#include "../../lib/Runtime/RecordStream.c"

#include <stdint.h>
#include <stdio.h>

static const char meta_text[] =
	"bpfprobe-site 1\nprogram=on_ints\nsection=uprobe/./d:f\nkind=uprobe\n"
	"target=./d\nsymbol=f\noffset=0\naddress=0x10\nsymbol_size=8\narch=x86_64\n"
	"build_id=ab\nsource=dwarf\nspec=uprobe/./d:f(a, b, c, d, e)\n"
	"record_id=1\n"
	"arg=a\ts32\t%di:s32\ta\n"
	"arg=b\tu8\t%si:u8\tb\n"
	"arg=c\tx64\t%dx:x64\tc\n"
	"arg=d\tb4@3/32\t+0(%cx):b4@3/32\td\n"
	"arg=e\tchar\t%r8:s8\te\n"
	"end\n"
	"bpfprobe-site 1\nprogram=on_strs\nsection=uprobe/./d:g\nkind=uprobe\n"
	"target=./d\nsymbol=g\noffset=0\naddress=0x20\nsymbol_size=8\narch=x86_64\n"
	"build_id=ab\nsource=dwarf\nspec=uprobe/./d:g(s, u, n)\n"
	"record_id=2\n"
	"arg=s\tstring\t+0(%di):string\ts\n"
	"arg=u\tustring\t+0(%si):ustring\tu \\t\\\\q\n"
	"arg=n\tsymbol\t%dx:symbol\tn\n"
	"end\n"
	"bpfprobe-site 1\nprogram=on_lens\nsection=uprobe/./d:k\nkind=uprobe\n"
	"target=./d\nsymbol=k\noffset=0\naddress=0x40\nsymbol_size=8\narch=x86_64\n"
	"build_id=ab\nsource=dwarf\nspec=uprobe/./d:k(s, v)\n"
	"record_id=4\n"
	"arg=s\tstring_len\t+0(+0(%di)):string[+8(%di):u64]\ts\n"
	"arg=v\tustring_len\t+0(%si):ustring[%dx:u64]\tv\n"
	"end\n"
	"bpfprobe-site 1\nprogram=on_none\nsection=uprobe/./d:h\nkind=uprobe\n"
	"target=./d\nsymbol=h\noffset=0\naddress=0x30\nsymbol_size=8\narch=x86_64\n"
	"build_id=ab\nsource=dwarf\nspec=uprobe/./d:h\n"
	"record_id=3\n"
	"end\n";

static struct bpfprobe_meta *meta;
static FILE *devnull;

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (getenv("RECORD_FUZZER_VERBOSE"))
		vfprintf(stderr, fmt, ap);
	return 0;
}

static int check_site(void *ctx, const struct bpfprobe_site *site,
		      const struct bpfprobe_record_hdr *hdr, const void *data,
		      size_t size)
{
	/* Only well-formed records of a known site reach the callback. */
	if (!site || size < sizeof(*hdr) || hdr->nargs != site->arg_cnt)
		abort();
	return 0;
}

/* bpfprobe_record__snprintf: the same answer whatever the buffer. */
static void check_snprintf(const void *rec, size_t len, unsigned int flags)
{
	char small[7], *full;
	int n = bpfprobe_record__snprintf(meta, rec, len, NULL, 0, flags);

	if (n == -EBADMSG)
		return;
	if (n < 0)
		abort();
	full = malloc(n + 1);
	if (!full)
		return;
	memset(small, 'Z', sizeof(small));
	if (bpfprobe_record__snprintf(meta, rec, len, full, n + 1, flags) != n ||
	    strlen(full) != (size_t)n ||
	    bpfprobe_record__snprintf(meta, rec, len, small, sizeof(small),
				      flags) != n ||
	    strlen(small) != (n < (int)sizeof(small) ? (size_t)n : sizeof(small) - 1) ||
	    strncmp(small, full, strlen(small)))
		abort();
	free(full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfprobe_records r = { 0 };
	unsigned int mode;

	if (!meta) {
		bpfprobe_set_print(quiet);
		meta = bpfprobe_meta__parse(meta_text, sizeof(meta_text) - 1);
		devnull = fopen("/dev/null", "w");
		if (!meta || !devnull)
			abort(); /* the fixed metadata must parse */
	}
	if (size < 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	r.meta = meta;
	r.out = devnull;
	r.flags = mode & 1 ? BPFPROBE_FMT_JSON : 0;
	r.fn = mode & 2 ? check_site : NULL;
	r.pid = mode & 4 ? 7 : 0;
	/* The end-of-run drain's undecoded counting, and per-site counts. */
	r.discard = mode & 8;
	if (mode & 16) {
		size_t n = bpfprobe_meta__site_cnt(meta) + 1;

		r.site_records = calloc(n, sizeof(*r.site_records));
		r.site_dropped = calloc(n, sizeof(*r.site_dropped));
		r.site_unread = calloc(n, sizeof(*r.site_unread));
		if (!r.site_records || !r.site_dropped || !r.site_unread)
			abort();
	}
	r.line = malloc(4);
	r.line_sz = r.line ? 4 : 0;
	while (size >= 2) {
		size_t len = data[0] | (size_t)data[1] << 8;
		unsigned char *rec;
		struct bpfprobe_records_stats before = r.stats;

		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		/* An exact-size copy: ASan sees any read past the record. */
		rec = malloc(len ? len : 1);
		if (!rec)
			break;
		memcpy(rec, data, len);
		if (on_record(&r, rec, len) < 0)
			abort();
		if (r.stats.records + r.stats.malformed + r.stats.dropped !=
		    before.records + before.malformed + before.dropped + 1)
			abort(); /* every record is counted exactly once */
		if (r.stats.unread > r.stats.dropped)
			abort(); /* unread records are dropped ones */
		check_snprintf(rec, len, 0);
		check_snprintf(rec, len, BPFPROBE_FMT_JSON);
		free(rec);
		data += len;
		size -= len;
	}
	/* Per site, too: every record of a known site is counted on it once. */
	if (r.site_records) {
		__u64 site_sum = 0;

		for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++)
			site_sum += r.site_records[i] + r.site_dropped[i];
		if (site_sum > r.stats.records + r.stats.malformed + r.stats.dropped)
			abort();
	}
	free(r.site_records);
	free(r.site_dropped);
	free(r.site_unread);
	free(r.line);
	return 0;
}
