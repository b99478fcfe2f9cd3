/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * `@entry(...)` pairing by session programs. For a kretprobe or uretprobe
 * with entry values the plugin emits three programs (plugin/EntryPairing.cpp):
 * the entry program and the return program, which pair through an LRU map
 * keyed by the frame, and a session program in a `?kprobe`/`?uprobe`
 * section (not loaded by default) that is both in one, passing the frame
 * from its entry run to its return run in the session cookie. The metadata's return site names it (session_program).
 *
 * Before the object is loaded, bpfprobe_choose_pairing() loads either the
 * session program (as kprobe.session or uprobe.session: its expected attach
 * type set) or the pair, never both: the session program when the running
 * kernel has that session kind, the map pairing otherwise or when
 * $BPFPROBE_ENTRY_PAIRING is "map". Support is read once from the kernel's
 * BTF, which the session program needs anyway (its kfuncs): the attach type
 * (BPF_TRACE_KPROBE_SESSION 6.10, BPF_TRACE_UPROBE_SESSION 6.13), the kfunc
 * bpf_session_is_return and the multi link the session rides on
 * (bpf_kprobe_multi_link needs CONFIG_FPROBE, bpf_uprobe_multi_link
 * CONFIG_UPROBES) must all be there.
 *
 * Limit: the session kfuncs are weak externs of the object, so libbpf needs
 * the kernel's BTF to load it even when the pair is loaded.
 *
 * At attach time a pair whose session program is loaded is one link, made
 * with a raw BPF_LINK_CREATE (libbpf 1.1 knows neither session attach type
 * nor the uprobe_multi attributes; their layout is written out here).
 */
#include "Internal.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* include/uapi/linux/bpf.h */
#define ATTACH_KPROBE_SESSION 56 /* BPF_TRACE_KPROBE_SESSION */
#define ATTACH_UPROBE_SESSION 57 /* BPF_TRACE_UPROBE_SESSION */
/* 0: not read yet; 1: has it; -1: has not. */
static int has_session[2];

static bool btf_has_enumerator(const struct btf *btf, const char *enum_name,
			       const char *name)
{
	__s32 id = btf__find_by_name_kind(btf, enum_name, BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;

	if (id < 0 || !(t = btf__type_by_id(btf, id)))
		return false;
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++) {
		const char *n = btf__name_by_offset(btf, e->name_off);

		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

/* Whether the running kernel has kprobe.session (\p user false) or
 * uprobe.session; \p why says what it lacks. */
static bool kernel_has_session(bool user, const char **why)
{
	int *known = &has_session[user];
	struct btf *btf;

	*why = "its BTF lacks what a session program needs";
	if (*known)
		return *known > 0;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		*why = "the kernel's BTF cannot be read";
		*known = -1;
		return false;
	}
	*known = btf_has_enumerator(btf, "bpf_attach_type",
				    user ? "BPF_TRACE_UPROBE_SESSION"
					 : "BPF_TRACE_KPROBE_SESSION") &&
			 btf__find_by_name_kind(btf, "bpf_session_is_return",
						BTF_KIND_FUNC) > 0 &&
			 btf__find_by_name_kind(btf, user ? "bpf_uprobe_multi_link"
							  : "bpf_kprobe_multi_link",
						BTF_KIND_STRUCT) > 0
		 ? 1
		 : -1;
	btf__free(btf);
	return *known > 0;
}

bool bpfprobe_pairs_by_session(const struct bpfprobe_site *s, const char **why)
{
	const char *env = getenv("BPFPROBE_ENTRY_PAIRING");

	*why = "the probe has no session program";
	if (!s->session_program || !s->entry_program ||
	    (s->kind != BPFPROBE_URETPROBE && s->kind != BPFPROBE_KRETPROBE))
		return false;
	if (env && !strcmp(env, "map")) {
		*why = "BPFPROBE_ENTRY_PAIRING=map";
		return false;
	}
	return kernel_has_session(s->kind == BPFPROBE_URETPROBE, why);
}

int bpfprobe_choose_pairing(struct bpf_object *obj,
			    const struct bpfprobe_meta *meta)
{
	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		struct bpf_program *sess, *entry, *ret;
		bool user = s->kind == BPFPROBE_URETPROBE;
		const char *why;
		int err;

		if (!s->session_program || !s->entry_program)
			continue;
		sess = bpf_object__find_program_by_name(obj, s->session_program);
		entry = bpf_object__find_program_by_name(obj, s->entry_program);
		ret = bpf_object__find_program_by_name(obj, s->program);
		if (!sess || !entry || !ret ||
		    (s->kind != BPFPROBE_URETPROBE && s->kind != BPFPROBE_KRETPROBE))
			continue; /* the attach checks report what is missing */
		if (!bpfprobe_pairs_by_session(s, &why)) {
			bpf_program__set_autoload(sess, false);
			pr_debug("probe '%s': @entry values paired through a map with '%s' (no %s session: %s)\n",
				 s->program, s->entry_program,
				 user ? "uprobe" : "kprobe", why);
			continue;
		}
		err = bpf_program__set_expected_attach_type(
			sess, user ? ATTACH_UPROBE_SESSION : ATTACH_KPROBE_SESSION);
		if (!err)
			err = bpf_program__set_autoload(sess, true);
		if (err)
			return err;
		bpf_program__set_autoload(entry, false);
		bpf_program__set_autoload(ret, false);
		pr_debug("probe '%s': @entry values paired by the %s session program '%s'\n",
			 s->program, user ? "uprobe" : "kprobe", s->session_program);
	}
	return 0;
}

struct bpf_program *bpfprobe_session_program(struct bpf_object *obj,
					     const struct bpfprobe_site *s)
{
	struct bpf_program *p;

	if (!obj || !s->session_program ||
	    !(p = bpf_object__find_program_by_name(obj, s->session_program)))
		return NULL;
	return bpf_program__fd(p) >= 0 ? p : NULL;
}

int bpfprobe_session_link(struct bpf_program *prog, bool user,
			  const char *where, __u64 offset, int pid)
{
	struct link_create_attr a;
	__u64 off = offset;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_fd = bpf_program__fd(prog);
	if (user) {
		a.attach_type = ATTACH_UPROBE_SESSION;
		a.uprobe_multi.path = (__u64)(unsigned long)where;
		a.uprobe_multi.offsets = (__u64)(unsigned long)&off;
		a.uprobe_multi.cnt = 1;
		a.uprobe_multi.pid = pid > 0 ? (__u32)pid : 0;
	} else {
		a.attach_type = ATTACH_KPROBE_SESSION;
		a.kprobe_multi.syms = (__u64)(unsigned long)&where;
		a.kprobe_multi.cnt = 1;
	}
	fd = syscall(__NR_bpf, CMD_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}
