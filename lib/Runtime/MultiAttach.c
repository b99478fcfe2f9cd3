/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Sites that share one program (every inlined copy of a probed line; the
 * plugin's dispatcher, plugin/SiteDispatch.cpp) attach through one
 * uprobe_multi link per program, binary and kind: one BPF_LINK_CREATE for
 * all offsets, each with its cookie, and one synchronization when the link
 * is closed, where a perf-event uprobe per site costs a registration and an
 * unregistration each (about 0.1 s per site on Linux 6.18).
 *
 * A uprobe_multi program must be loaded as one (expected attach type
 * BPF_TRACE_UPROBE_MULTI) and then cannot attach as a perf-event uprobe, so
 * the choice is made before loading (bpfprobe_choose_attach()) and kept
 * with the program: kernels before 6.6, or `--attach=single`, load the
 * dispatcher as a plain uprobe program and Attach.c attaches it once per
 * site with the site's cookie (perf-event BPF cookies: Linux 5.15).
 *
 * The kernel is asked once, as libbpf 1.3 asks (probe_uprobe_multi_link):
 * a trivial uprobe_multi program linked to "/" fails with EBADF where the
 * kernel has the link type (the path is no regular file), with EINVAL
 * where it has not.
 *
 * libbpf 1.1 has no uprobe_multi API: the link is a raw BPF_LINK_CREATE
 * (struct link_create_attr, Internal.h).
 */
#include "Internal.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/filter.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 0: not asked yet; 1: has it; -1: has not. */
static int has_multi;
static const char *multi_why = "";

bool bpfprobe_has_uprobe_multi(const char **why)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, lo,
		    .expected_attach_type = ATTACH_UPROBE_MULTI);
	struct link_create_attr a;
	__u64 off = 0;
	int prog, link, err;

	if (has_multi) {
		*why = multi_why;
		return has_multi > 0;
	}
	prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &lo);
	if (prog < 0) {
		multi_why = "a uprobe_multi program does not load";
		has_multi = -1;
		*why = multi_why;
		return false;
	}
	memset(&a, 0, sizeof(a));
	a.prog_fd = prog;
	a.attach_type = ATTACH_UPROBE_MULTI;
	a.uprobe_multi.path = (__u64)(unsigned long)"/";
	a.uprobe_multi.offsets = (__u64)(unsigned long)&off;
	a.uprobe_multi.cnt = 1;
	link = syscall(__NR_bpf, CMD_LINK_CREATE, &a, sizeof(a));
	err = link < 0 ? errno : 0;
	if (link >= 0)
		close(link);
	close(prog);
	has_multi = err == EBADF ? 1 : -1;
	multi_why = has_multi > 0 ? "" : "it has no uprobe_multi links (Linux 6.6+, CONFIG_UPROBES)";
	*why = multi_why;
	return has_multi > 0;
}

struct bpf_program *bpfprobe_site_program(struct bpf_object *obj,
					  const struct bpfprobe_site *s,
					  struct bpfprobe_prog_cache *cache)
{
	const char *name = s->dispatcher ? s->dispatcher : s->program;

	if (!cache->name || strcmp(cache->name, name)) {
		cache->name = name;
		cache->prog = bpf_object__find_program_by_name(obj, name);
	}
	return cache->prog;
}

bool bpfprobe_uses_multi(const struct bpf_program *prog)
{
	return prog && bpf_program__fd(prog) >= 0 &&
	       bpf_program__expected_attach_type(prog) == ATTACH_UPROBE_MULTI;
}

int bpfprobe_choose_attach(struct bpf_object *obj,
			   const struct bpfprobe_meta *meta,
			   enum bpfprobe_attach_mode mode)
{
	struct bpfprobe_prog_cache cache = { 0 };
	const char *why = "";
	bool multi = false, asked = false;

	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		struct bpf_program *prog;
		int err;

		/* Every uprobe and uretprobe program but @entry pairs' (their
		 * entry and return programs attach one after the other, or as
		 * one session program): a lone site too, as a link of one offset,
		 * whose teardown takes one grace period where a perf-event
		 * uprobe's takes several (25 ms against 115 ms here). */
		if ((s->kind != BPFPROBE_UPROBE && s->kind != BPFPROBE_URETPROBE) ||
		    s->entry_program || s->entry_of || s->session_program ||
		    !(prog = bpfprobe_site_program(obj, s, &cache)))
			continue; /* the attach checks report what is missing */
		if (!asked) {
			asked = true;
			multi = mode != BPFPROBE_ATTACH_SINGLE &&
				bpfprobe_has_uprobe_multi(&why);
			if (mode == BPFPROBE_ATTACH_MULTI && !multi) {
				pr_warn("cannot attach through uprobe_multi links: this kernel %s; attach one uprobe per site (bpfprobe-run --attach=single or auto)\n",
					why);
				return -EOPNOTSUPP;
			}
			pr_debug("uprobe programs attach %s\n",
				 multi ? "through uprobe_multi links"
				 : mode == BPFPROBE_ATTACH_SINGLE ? "with one uprobe per site (asked for)"
								  : "with one uprobe per site (the kernel has no uprobe_multi links)");
		}
		if (multi &&
		    (err = bpf_program__set_expected_attach_type(prog, ATTACH_UPROBE_MULTI)))
			return err;
	}
	return 0;
}

static int by_link(const void *a, const void *b)
{
	const struct bpfprobe_multi_site *x = a, *y = b;
	int c;

	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	if ((c = strcmp(x->path, y->path)))
		return c;
	if (x->ret != y->ret)
		return x->ret ? 1 : -1;
	return x->site < y->site ? -1 : x->site > y->site;
}

/* One link for sites[0..cnt). The fd or -errno. */
static int multi_link(const struct bpfprobe_multi_site *sites, size_t cnt,
		      int pid)
{
	__u64 *offs = calloc(cnt, sizeof(*offs));
	__u64 *cookies = calloc(cnt, sizeof(*cookies));
	struct link_create_attr a;
	int fd;

	if (!offs || !cookies) {
		free(offs);
		free(cookies);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cnt; i++) {
		offs[i] = sites[i].offset;
		cookies[i] = sites[i].cookie;
	}
	memset(&a, 0, sizeof(a));
	a.prog_fd = bpf_program__fd(sites[0].prog);
	a.attach_type = ATTACH_UPROBE_MULTI;
	/* The descriptor the checks read, never the path again: a swap
	 * between the check and the link cannot change the inode. */
	a.uprobe_multi.path = (__u64)(unsigned long)sites[0].attach_path;
	a.uprobe_multi.offsets = (__u64)(unsigned long)offs;
	a.uprobe_multi.cookies = (__u64)(unsigned long)cookies;
	a.uprobe_multi.cnt = (__u32)cnt;
	a.uprobe_multi.flags = sites[0].ret ? UPROBE_MULTI_RETURN : 0;
	a.uprobe_multi.pid = pid > 0 ? (__u32)pid : 0;
	fd = syscall(__NR_bpf, CMD_LINK_CREATE, &a, sizeof(a));
	fd = fd < 0 ? -errno : fd;
	free(offs);
	free(cookies);
	return fd;
}

void bpfprobe_multi_attach(struct bpfprobe_multi_site *sites, size_t cnt,
			   int pid, int *fds, size_t *fd_cnt, int *errs)
{
	*fd_cnt = 0;
	if (cnt > 1) /* qsort(NULL, 0) is undefined */
		qsort(sites, cnt, sizeof(*sites), by_link);
	for (size_t i = 0, j; i < cnt; i = j) {
		int fd;

		for (j = i + 1; j < cnt && sites[j].prog == sites[i].prog &&
				!strcmp(sites[j].path, sites[i].path) &&
				sites[j].ret == sites[i].ret;
		     j++)
			;
		fd = multi_link(&sites[i], j - i, pid);
		if (fd >= 0) {
			fds[(*fd_cnt)++] = fd;
			pr_debug("attached '%s' at %zu offset%s of %s through one uprobe_multi link\n",
				 bpf_program__name(sites[i].prog), j - i,
				 j - i == 1 ? "" : "s", sites[i].path);
			continue;
		}
		pr_warn("program '%s': attaching its %zu site%s in %s through a uprobe_multi link failed: %s\n",
			bpf_program__name(sites[i].prog), j - i, j - i == 1 ? "" : "s",
			sites[i].path, strerror(-fd));
		for (size_t k = i; k < j; k++)
			errs[k] = fd;
	}
}

/*
 * Detaching: the kernel waits out an RCU grace period for each link it
 * tears down (uprobe_unregister_sync(): tens of milliseconds), in the
 * close() of the link's descriptor. Closed one after another, a thousand
 * perf-event uprobes took 100 s; closed from several threads at once, the
 * waits overlap and share their grace periods.
 */
#define DETACH_THREADS 32

struct detach_work {
	struct bpf_link **links;
	size_t link_cnt;
	int *fds;
	size_t fd_cnt;
	size_t next; /* taken with __atomic_fetch_add */
};

static void *detach_worker(void *arg)
{
	struct detach_work *w = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) <
	       w->link_cnt + w->fd_cnt) {
		if (i < w->link_cnt)
			bpf_link__destroy(w->links[i]);
		else
			close(w->fds[i - w->link_cnt]);
	}
	return NULL;
}

void bpfprobe_detach_all(struct bpf_link **links, size_t link_cnt, int *fds,
			 size_t fd_cnt)
{
	struct detach_work w = { links, link_cnt, fds, fd_cnt, 0 };
	pthread_t tids[DETACH_THREADS];
	size_t n = link_cnt + fd_cnt, started = 0;

	if (n > DETACH_THREADS)
		n = DETACH_THREADS;
	/* One link: no thread. A thread that cannot start: this one works. */
	for (size_t t = 1; t < n; t++)
		if (!pthread_create(&tids[started], NULL, detach_worker, &w))
			started++;
	detach_worker(&w);
	for (size_t t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
}
