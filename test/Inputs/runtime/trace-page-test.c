/* The trace-page parser (lib/Runtime/TracePage.c) against good and hostile
 * pages, built with ASan+UBSan: every page lives in a heap block of exactly
 * its length, so a read past it aborts. Prints what each case returned.
 * usage: trace-page-test [TRACEFS]: with a tracefs directory, its
 * events/header_page and bpf_trace_printk format are parsed as well. */
#include "Runtime/Internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char event_format[] =
	"name: bpf_trace_printk\nID: 550\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] bpf_string;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s\", __get_str(bpf_string)\n";

static unsigned char page[4096];
static size_t pos;
static int delivered;

static void put32(unsigned v)
{
	memcpy(page + pos, &v, 4);
	pos += 4;
}

/* A printk event of pid with message msg; type_len 0 when big. */
static void put_event(unsigned delta, int pid, const char *msg, int big)
{
	size_t slen = strlen(msg) + 1, plen = 12 + slen, al = (plen + 3) & ~(size_t)3;
	unsigned short type = 550;
	unsigned loc = 12 | (unsigned)slen << 16;

	if (big) {
		put32(delta << 5);
		put32((unsigned)al + 4);
	} else {
		put32(delta << 5 | (unsigned)(al / 4));
	}
	memset(page + pos, 0, al);
	memcpy(page + pos, &type, 2);
	memcpy(page + pos + 4, &pid, 4);
	memcpy(page + pos + 8, &loc, 4);
	memcpy(page + pos + 12, msg, slen);
	pos += al;
}

static void finish(unsigned long long ts)
{
	unsigned long long commit = pos - 16;

	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
}

static void show(void *ctx, const struct bpfprobe_trace_event *ev)
{
	delivered++;
	if (!ctx)
		return;
	printf("  event ts=%llu pid=%d msg=", (unsigned long long)ev->ts, (int)ev->pid);
	for (size_t i = 0; i < ev->len; i++)
		fputs(ev->str[i] == '\n' ? "\\n" : (char[2]){ ev->str[i], 0 }, stdout);
	putchar('\n');
}

/* Parses a copy of the first len bytes of page in a block of exactly len. */
static int parse(const struct bpfprobe_trace_format *f, size_t len, int verbose)
{
	unsigned char *copy = malloc(len ? len : 1);
	int n;

	memcpy(copy, page, len);
	delivered = 0;
	n = bpfprobe_trace_page__parse(f, copy, len, show, verbose ? (void *)1 : NULL);
	free(copy);
	if (n < 0 && delivered)
		printf("BUG: %d events handed on from a refused page\n", delivered);
	return n;
}

static void build_good(void)
{
	memset(page, 0, sizeof(page));
	pos = 16;
	put_event(5, 101, "small one\n", 0);
	put32(30 | 3u << 5); /* time extend: + (1 << 27) + 3 */
	put32(1);
	put_event(2, 102, "a big one\n", 1);
	put32(29 | 1u << 5); /* a discarded event: padding, 16 bytes in all */
	put32(12);
	pos += 8;
	put_event(1, -7, "x (4242) [", 0);
	finish(1000);
}

int main(int argc, char **argv)
{
	struct bpfprobe_trace_format f = { 0 };
	size_t good_len;
	unsigned long long seed = 42;
	int refused = 0, accepted = 0;

	if (bpfprobe_trace_format__header_page(&f, header_page) ||
	    bpfprobe_trace_format__event(&f, event_format))
		return printf("format: not parsed\n"), 1;
	printf("format: data at %u, commit %u/%u, id %u, pid at %u, string at %u loc %d\n",
	       f.data_off, f.commit_off, f.commit_size, f.event_id, f.pid_off, f.str_off,
	       f.str_loc);
	if (argc > 1) {
		struct bpfprobe_trace_format live = { 0 };
		char path[512], *text[2];

		for (int i = 0; i < 2; i++) {
			FILE *fp;
			size_t n;

			snprintf(path, sizeof(path), "%s/%s", argv[1],
				 i ? "events/bpf_trace/bpf_trace_printk/format" : "events/header_page");
			fp = fopen(path, "r");
			text[i] = calloc(1, 65536);
			n = fp ? fread(text[i], 1, 65535, fp) : 0;
			(void)n;
			if (fp)
				fclose(fp);
		}
		printf("live format: %s\n",
		       !bpfprobe_trace_format__header_page(&live, text[0]) &&
				       !bpfprobe_trace_format__event(&live, text[1]) &&
				       live.pid_off == f.pid_off && live.data_off == f.data_off
			       ? "parsed, same layout"
			       : "NOT parsed");
		free(text[0]);
		free(text[1]);
	}
	/* Formats that lie about sizes are refused. */
	{
		struct bpfprobe_trace_format g = { 0 };

		printf("format with a 2-byte pid: %d\n",
		       bpfprobe_trace_format__event(
			       &g, "ID: 1\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\n"
				   "\tfield:int common_pid;\toffset:4;\tsize:2;\n"
				   "\tfield:__data_loc char[] bpf_string;\toffset:8;\tsize:4;\n"));
		printf("header page with data at 1 MiB: %d\n",
		       bpfprobe_trace_format__header_page(
			       &g, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\n"
				   "\tfield: local_t commit;\toffset:8;\tsize:8;\n"
				   "\tfield: char data;\toffset:1048576;\tsize:4080;\n"));
	}

	build_good();
	good_len = pos;
	printf("good page: %d\n", parse(&f, sizeof(page), 1));

	/* Hostile pages, each alone. */
	build_good();
	{
		unsigned long long big = 5000;

		memcpy(page + 8, &big, 8);
	}
	printf("commit beyond the page: %d\n", parse(&f, sizeof(page), 0));
	printf("page shorter than its header: %d\n", parse(&f, 10, 0));
	build_good();
	printf("page cut inside an event: %d\n", parse(&f, good_len - 6, 0));
	build_good();
	{
		unsigned long long commit = good_len - 16 - 6;

		memcpy(page + 8, &commit, 8);
	}
	printf("commit inside an event: %d\n", parse(&f, sizeof(page), 0));
	build_good();
	{
		unsigned loc = 12 | 4000u << 16; /* string runs past its event */

		memcpy(page + 16 + 4 + 8, &loc, 4);
	}
	printf("string beyond its event: %d\n", parse(&f, sizeof(page), 0));
	build_good();
	{
		unsigned len = 0xfffffff0u; /* type_len 0 with a huge length */

		memcpy(page + 16 + 28 + 8 + 4, &len, 4); /* after event 1 and the extend */
	}
	printf("event length beyond the page: %d\n", parse(&f, sizeof(page), 0));
	build_good();
	{
		unsigned len = 2; /* type_len 0 with a length below its own word */

		memcpy(page + 16 + 28 + 8 + 4, &len, 4); /* after event 1 and the extend */
	}
	printf("event length below its word: %d\n", parse(&f, sizeof(page), 0));

	/* Every byte of the good page changed, and random pages: nothing is
	 * read outside the block (ASan), a refused page hands nothing on. */
	for (size_t i = 0; i < good_len; i++)
		for (int v = 0; v < 256; v += 17) {
			build_good();
			page[i] = (unsigned char)v;
			if (parse(&f, good_len, 0) < 0)
				refused++;
			else
				accepted++;
		}
	for (int round = 0; round < 20000; round++) {
		size_t len;

		build_good();
		for (int k = 0; k < 4; k++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			page[16 + (seed >> 33) % (good_len - 16)] = (unsigned char)(seed >> 13);
		}
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		len = (seed >> 40) % 3 ? good_len : (seed >> 33) % (good_len + 1);
		if (parse(&f, len, 0) < 0)
			refused++;
		else
			accepted++;
	}
	printf("mutated pages: %s\n", refused && accepted ? "some refused, some parsed" : "ONE-SIDED");
	return 0;
}
