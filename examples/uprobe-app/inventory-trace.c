/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * inventory-trace: a loader of your own, as a real tool would have one.
 * It opens the skeleton bpftool generated from inventory_probes.bpf.o, lets the
 * bpfprobe runtime check and attach every probe site (it reads the
 * `.bpfprobe` metadata from the object embedded in the skeleton), then
 * starts the command, if one is given, and prints one line per restock()
 * until the command exits (or Ctrl-C).
 *
 *   sudo ./inventory-trace -- ./inventory apple 3 120 pear 5 90
 *
 * Exit status: 0 ok, 1 could not load or attach (the reason is printed),
 * 2 usage, 3 the command could not be started or failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <bpfprobe/runtime.h>

#include "inventory.h"
#include "inventory_probes.skel.h"

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

static int on_event(void *ctx, void *data, size_t size)
{
	const struct restock_event *e = data;

	if (size < sizeof(*e))
		return 0;
	if (e->from_line_probe)
		printf("restock:line pid=%u item=%s count=%d cost=%lld stock=%d\n",
		       e->pid, e->name, e->count, e->cost, e->stock);
	else
		printf("restock pid=%u item=%s count=%d unit_cents=%lld\n",
		       e->pid, e->name, e->count, e->unit_cents);
	fflush(stdout);
	return 0;
}

/* Starts argv once everything is attached; -1 when it cannot be started. */
static pid_t start(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "inventory-trace: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	struct inventory_probes *skel = NULL;
	struct bpfprobe_attachment *att = NULL;
	struct ring_buffer *rb = NULL;
	char **cmd = NULL;
	pid_t child = 0;
	int status = 0, ret = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--") && i + 1 < argc) {
			cmd = argv + i + 1;
			break;
		} else {
			fprintf(stderr, "usage: %s [-v] [-- command [args...]]\n", argv[0]);
			return 2;
		}
	}
	libbpf_set_print(print_libbpf);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	skel = inventory_probes__open_and_load();
	if (!skel) {
		fprintf(stderr, "inventory-trace: cannot load the BPF object: %s\n",
			strerror(errno));
		goto out;
	}
	/* The skeleton embeds the whole object, .bpfprobe section included. */
	BPFPROBE_OPTS(bpfprobe_attach_opts, opts,
		      .obj_buf = skel->skeleton->data,
		      .obj_buf_sz = skel->skeleton->data_sz);
	att = bpfprobe_object__attach(skel->obj, &opts);
	if (!att) {
		/* The runtime has printed why (build-id, symbol, permissions). */
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, NULL, NULL);
	if (!rb) {
		fprintf(stderr, "inventory-trace: ring buffer: %s\n", strerror(errno));
		goto out;
	}
	fprintf(stderr, "inventory-trace: %zu probe site(s) attached\n",
		bpfprobe_attachment__link_cnt(att));
	if (cmd) {
		child = start(cmd);
		if (child < 0) {
			perror("inventory-trace: fork");
			ret = 3;
			goto out;
		}
	}
	ret = 0;
	while (!stop) {
		int err = ring_buffer__poll(rb, 100);

		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "inventory-trace: poll: %s\n", strerror(-err));
			ret = 1;
			break;
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			ring_buffer__consume(rb); /* what arrived before the exit */
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				ret = 3;
			break;
		}
	}
out:
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	ring_buffer__free(rb);
	bpfprobe_attachment__destroy(att);
	inventory_probes__destroy(skel);
	return ret;
}
