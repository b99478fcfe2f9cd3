/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * write-top: which processes write the most, from a kprobe on vfs_write().
 * Loads the skeleton of write-top.bpf.o, attaches through the bpfprobe
 * runtime, and prints the top writers every INTERVAL seconds, COUNT times.
 *
 *   sudo ./write-top [-i INTERVAL] [-n COUNT] [-v]
 *
 * Exit status: 0 ok, 1 could not load or attach (the runtime says why),
 * 2 usage, 4 this kernel has no kprobe support (the object loaded and
 * passed the verifier, but kprobes cannot be attached).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpfprobe/runtime.h>

#include "write-top.h"
#include "write_top.skel.h"

#define TOP 10

static volatile sig_atomic_t stop;
static bool verbose;

static void on_signal(int sig)
{
	stop = 1;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level != LIBBPF_WARN && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

struct row {
	__u32 tgid;
	struct write_stats s;
};

static int by_bytes(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->s.bytes < y->s.bytes ? 1 : x->s.bytes > y->s.bytes ? -1 : 0;
}

/* Prints the top writers and empties the map for the next interval. */
static void report(int map_fd)
{
	static struct row rows[4096];
	__u32 key, next, *prev = NULL;
	size_t n = 0;

	while (n < 4096 && bpf_map_get_next_key(map_fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(map_fd, &next, &rows[n].s) == 0)
			rows[n++].tgid = next;
		key = next;
		prev = &key;
	}
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(map_fd, &rows[i].tgid);
	qsort(rows, n, sizeof(rows[0]), by_bytes);
	printf("%-8s %-16s %10s %14s\n", "PID", "COMM", "CALLS", "BYTES");
	for (size_t i = 0; i < n && i < TOP; i++)
		printf("%-8u %-16.16s %10llu %14llu\n", rows[i].tgid,
		       rows[i].s.comm, rows[i].s.calls, rows[i].s.bytes);
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct write_top *skel;
	struct bpfprobe_attachment *att;
	int interval = 1, count = 5, opt, ret = 1;

	while ((opt = getopt(argc, argv, "i:n:v")) != -1) {
		switch (opt) {
		case 'i':
			interval = atoi(optarg);
			break;
		case 'n':
			count = atoi(optarg);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-i INTERVAL] [-n COUNT] [-v]\n", argv[0]);
			return 2;
		}
	}
	if (interval < 1 || count < 1 || optind != argc) {
		fprintf(stderr, "usage: %s [-i INTERVAL] [-n COUNT] [-v]\n", argv[0]);
		return 2;
	}
	libbpf_set_print(print_libbpf);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	skel = write_top__open_and_load();
	if (!skel) {
		fprintf(stderr, "write-top: cannot load the BPF object: %s\n",
			strerror(errno));
		return 1;
	}
	fprintf(stderr, "write-top: loaded; the verifier accepted on_vfs_write\n");
	BPFPROBE_OPTS(bpfprobe_attach_opts, opts,
		      .obj_buf = skel->skeleton->data,
		      .obj_buf_sz = skel->skeleton->data_sz);
	att = bpfprobe_object__attach(skel->obj, &opts);
	if (!att) {
		/* The runtime printed why; EOPNOTSUPP: no kprobes here. */
		ret = errno == EOPNOTSUPP ? 4 : 1;
		goto out;
	}
	for (int i = 0; i < count && !stop; i++) {
		sleep(interval);
		report(bpf_map__fd(skel->maps.stats));
	}
	ret = 0;
	bpfprobe_attachment__destroy(att);
out:
	write_top__destroy(skel);
	return ret;
}
