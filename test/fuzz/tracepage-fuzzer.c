/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * libFuzzer target for the trace-page parser (lib/Runtime/TracePage.c): the
 * pages bpfprobe-run reads from per_cpu/cpuN/trace_pipe_raw come from the
 * kernel's ring buffer and are input. The input's first byte picks one of
 * four layouts (8- or 4-byte commit word, a __data_loc or a fixed string);
 * the rest is the page, in a block of exactly its length. A page is either
 * refused with nothing handed on, or every event handed on lies inside it.
 *
 *   ninja -C build bpfprobe-tracepage-fuzzer
 *   utils/fuzz-campaign.sh tracepage [SEEDS] [RUNS]     mutation campaigns
 */
#include "Runtime/Internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char *page_begin, *page_end;
static int handed_on;

static void check_event(void *ctx, const struct bpfprobe_trace_event *ev)
{
	const unsigned char *s = (const unsigned char *)ev->str;

	handed_on++;
	if (s < page_begin || s + ev->len > page_end)
		abort();
	/* Every byte the caller may read is inside the page (ASan checks). */
	for (size_t i = 0; i < ev->len; i++)
		if (!s[i])
			abort(); /* len stops at the string's NUL */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char header8[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	static const char header4[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
	static const char event_loc[] =
		"name: bpf_trace_printk\nID: 550\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\tfield:__data_loc char[] bpf_string;\toffset:8;\tsize:4;\tsigned:0;\n";
	static const char event_fixed[] =
		"name: bpf_trace_printk\nID: 550\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\tfield:char bpf_string[16];\toffset:8;\tsize:16;\tsigned:0;\n";
	struct bpfprobe_trace_format f = { 0 };
	unsigned char *page;
	int n;

	if (!size)
		return 0;
	if (bpfprobe_trace_format__header_page(&f, data[0] & 1 ? header4 : header8) ||
	    bpfprobe_trace_format__event(&f, data[0] & 2 ? event_fixed : event_loc))
		abort();
	page = malloc(size - 1 ? size - 1 : 1);
	memcpy(page, data + 1, size - 1);
	page_begin = page;
	page_end = page + size - 1;
	handed_on = 0;
	n = bpfprobe_trace_page__parse(&f, page, size - 1, check_event, NULL);
	if ((n < 0 && handed_on) || (n >= 0 && n != handed_on))
		abort();
	free(page);
	return 0;
}
