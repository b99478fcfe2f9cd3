/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * libFuzzer target for the runtime's `.bpfprobe` reader and record decoder:
 * any bytes must parse or fail with a message, never crash, leak or read out
 * of bounds. When the bytes parse, records for each default-body site are
 * built from the same bytes and decoded in text and JSON.
 *
 *   ninja -C build bpfprobe-metadata-fuzzer
 *   build/bin/bpfprobe-metadata-fuzzer -max_len=4096 test/Inputs/runtime/fuzz-corpus
 */
#include <bpfprobe/runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static void decode_records(const struct bpfprobe_meta *meta,
			   const uint8_t *data, size_t size)
{
	char out[256];

	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		struct bpfprobe_record_hdr hdr;
		size_t body = size < 1024 ? size : 1024;
		unsigned char *rec;

		/* Every field of every site must be a valid string. */
		if (!strlen(s->program) || !s->label || !s->spec || !s->build_id)
			abort();
		for (size_t a = 0; a < s->arg_cnt; a++)
			if (strlen(s->args[a].name) + strlen(s->arg_labels[a]) == 0)
				abort();
		if (!s->has_record_id)
			continue;
		hdr.record_id = s->record_id;
		hdr.pid = 1;
		hdr.tid = 1;
		hdr.nargs = (unsigned int)s->arg_cnt |
			    (s->context_size ? BPFPROBE_RECORD_NARGS_CTX : 0);
		rec = malloc(sizeof(hdr) + body);
		if (!rec)
			return;
		memcpy(rec, &hdr, sizeof(hdr));
		memcpy(rec + sizeof(hdr), data, body);
		/* Every prefix: too short must be refused, not over-read. */
		for (size_t len = 0; len <= sizeof(hdr) + body; len += 7) {
			bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), 0);
			bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out),
						  BPFPROBE_FMT_JSON);
		}
		bpfprobe_record__snprintf(meta, rec, sizeof(hdr) + body, NULL, 0, 0);
		free(rec);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfprobe_meta *meta;

	bpfprobe_set_print(quiet);
	meta = bpfprobe_meta__parse(data, size);
	if (!meta)
		return 0;
	decode_records(meta, data, size);
	bpfprobe_meta__free(meta);
	return 0;
}
