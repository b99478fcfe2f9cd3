/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Programs of an object that its `.bpfprobe` metadata does not describe
 * (plain libbpf sections beside the probe sites, e.g. a tracepoint that
 * counts something): attached the way libbpf attaches a section, reported
 * and skipped when libbpf cannot.
 */
#include "Internal.h"

#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>

struct bpfprobe_plain_links {
	size_t cnt;
	struct bpf_link *links[];
};

static bool described(const struct bpfprobe_meta *meta,
		      const struct bpf_program *prog)
{
	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);

		/* A site's session program or dispatcher is attached with the site. */
		if (!strcmp(s->program, bpf_program__name(prog)) ||
		    (s->session_program &&
		     !strcmp(s->session_program, bpf_program__name(prog))) ||
		    (s->dispatcher &&
		     !strcmp(s->dispatcher, bpf_program__name(prog))))
			return true;
	}
	return false;
}

struct bpfprobe_plain_links *
bpfprobe_object__attach_plain(struct bpf_object *obj,
			      const struct bpfprobe_meta *meta,
			      const struct bpfprobe_plain_opts *opts)
{
	struct bpfprobe_plain_links *l;
	struct bpf_program *prog;
	size_t n = 0;
	pid_t pid;

	if (!obj || !meta || !OPTS_VALID(opts, bpfprobe_plain_opts)) {
		errno = EINVAL;
		return NULL;
	}
	pid = OPTS_GET(opts, pid, 0);
	bpf_object__for_each_program(prog, obj)
		n++;
	l = calloc(1, sizeof(*l) + n * sizeof(l->links[0]));
	if (!l)
		return NULL;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_link *link;

		if (described(meta, prog))
			continue;
		link = bpf_program__attach(prog);
		if (!link) {
			pr_warn("warning: program '%s' (section '%s') is not a bpfprobe site and libbpf cannot attach it by its section: %s; skipped\n",
				bpf_program__name(prog), bpf_program__section_name(prog),
				strerror(errno));
			continue;
		}
		if (pid > 0)
			pr_warn("warning: program '%s' is attached by its section name and fires in every process, not only %d\n",
				bpf_program__name(prog), (int)pid);
		l->links[l->cnt++] = link;
	}
	return l;
}

size_t bpfprobe_plain_links__cnt(const struct bpfprobe_plain_links *l)
{
	return l ? l->cnt : 0;
}

void bpfprobe_plain_links__destroy(struct bpfprobe_plain_links *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->cnt; i++)
		bpf_link__destroy(l->links[i]);
	free(l);
}
