/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * A skeleton-based loader that uses the bpfprobe runtime helper instead of
 * the skeleton's own attach: the skeleton cannot read the argument lists and
 * build-ids of the .bpfprobe metadata, the helper can (from the ELF bytes the
 * skeleton embeds). usage: ./loader [COMMAND]
 * Attaches every probe site, runs COMMAND (if given) and prints the records
 * of default-body probes and the bpf_printk lines of the others (from a
 * tracefs instance of its own); without a command it runs until Ctrl-C.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpfprobe/runtime.h>

#include "probe.skel.h"

static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	struct bpfprobe_attachment *att = NULL;
	struct bpfprobe_records *recs = NULL;
	struct bpfprobe_printk *printk = NULL;
	struct probe_bpf *skel;
	size_t elf_sz;
	int ret = 1;

	skel = probe_bpf__open_and_load();
	if (!skel)
		return 1;

	/* The metadata comes from the ELF the skeleton embeds. */
	BPFPROBE_OPTS(bpfprobe_attach_opts, opts,
		      .obj_buf = probe_bpf__elf_bytes(&elf_sz),
		      .obj_buf_sz = elf_sz);
	att = bpfprobe_object__attach(skel->obj, &opts);
	if (!att)
		goto out; /* the reason was printed: build-id mismatch, ... */
	recs = bpfprobe_records__new(skel->obj, bpfprobe_attachment__meta(att), NULL);
	if (!recs)
		goto out;
	fprintf(stderr, "attached %zu sites\n", bpfprobe_attachment__link_cnt(att));
	/* bpf_printk lines, printed as "comm-pid: message" (NULL: no tracefs). */
	if (bpfprobe_object__uses_printk(skel->obj))
		printk = bpfprobe_printk__open(NULL);

	if (argc > 1) {
		if (system(argv[1]) != 0)
			fprintf(stderr, "'%s' failed\n", argv[1]);
	} else {
		signal(SIGINT, on_sigint);
		while (!stop) {
			bpfprobe_records__poll(recs, 100);
			bpfprobe_printk__read(printk);
		}
	}
	bpfprobe_records__consume(recs);
	usleep(50 * 1000); /* the last lines on their way to the trace */
	bpfprobe_printk__read(printk);
	ret = 0;
out:
	bpfprobe_printk__close(printk);
	bpfprobe_records__free(recs);
	bpfprobe_attachment__destroy(att); /* detaches every site */
	probe_bpf__destroy(skel);
	return ret;
}
