/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * bpfprobe_object__attach(): turns every site of the metadata into a libbpf
 * link, after checking that the site still describes the binary or kernel
 * it will run on. A probe built from stale debug info reads the wrong
 * registers and stack slots without any error, so a site is refused when
 * the build-id recorded at compile time differs from the target's, when the
 * target has none to compare, or when the symbol's address or size moved.
 * `force` attaches such sites anyway and says so for each one, except a
 * site past a function's entry in a binary that changed: only symbol+0 is
 * known to start an instruction there, and a uprobe in the middle of one
 * corrupts the process; `force_address` is needed too for such a site.
 *
 * A binary is opened once, and that descriptor serves the build-id and
 * symbol checks and the attach (through /proc/self/fd/N, which the kernel
 * follows to the opened inode): a rename or symlink swapped in between
 * cannot move the uprobe into another file. Only a regular file is a
 * binary: a FIFO, a device or a directory is refused.
 *
 * Order: check every site (reporting every refusal), then attach all; on
 * the first attach failure everything attached so far is detached. With
 * `partial`, a site that fails its check or its attach is reported and
 * skipped, and the others attach.
 *
 * An entry program (`entry_of`) and the site that reads what it saves
 * (`entry_program`: `@entry(...)` in a return probe, a DW_OP_entry_value
 * taken at the function's entry) are one unit: they are attached one right
 * after the other, and when either cannot be checked or attached both are
 * skipped and reported, so a return probe never runs alone printing
 * `<missed>` for every value, nor an entry program filling its map for
 * nobody. When the pair's session program was loaded instead
 * (Session.c), the pair is that one program's link.
 *
 * Copies of a site that share one program (a `dispatcher` and a `cookie`
 * in the metadata) go, after the loop, into one uprobe_multi link per
 * program and binary where the program was loaded for one (MultiAttach.c);
 * otherwise each attaches as a perf-event uprobe with its cookie.
 */
#include "Internal.h"
#include "Support/BinarySearch.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

struct bpfprobe_attachment {
	struct bpfprobe_meta *own_meta;
	const struct bpfprobe_meta *meta;
	struct bpf_link **links;
	size_t link_cnt;
	int *session_fds;   /* session links (Session.c) */
	size_t session_cnt;
	int *multi_fds;     /* uprobe_multi links (MultiAttach.c) */
	size_t multi_cnt;
	size_t multi_sites; /* the sites they attach */
	int *site_err;      /* per site of meta: 0, or why it was skipped */
	size_t skipped_cnt;
	int *bin_fds;       /* the binaries the uprobes are in, kept open */
	size_t bin_fd_cnt;
};

/* One binary named by one or more uprobe sites, opened once. */
struct binary {
	const char *target;   /* as written in the metadata */
	char path[PATH_MAX];  /* what was opened, absolute: for messages */
	int fd;               /* what was opened, checked and attached to */
	char fd_path[32];     /* /proc/self/fd/<fd>: the uprobe's path */
	const char *type;     /* not a regular file: what it is instead */
	struct bpfprobe_elf *elf;
	int err;              /* -errno of opening it */
	char build_id[129];
	int build_id_err;
};

/* Where one site goes. */
struct plan {
	const struct bpfprobe_site *site;
	struct bpf_program *prog;
	const char *path;       /* uprobes: the binary, for messages */
	const char *attach_path; /* uprobes: the binary's open fd */
	__u64 file_offset;      /* uprobes: offset of symbol+offset in the file */
	char func[256];         /* kprobes: [module:]symbol */
};

struct attach_ctx {
	struct bpf_object *obj;
	const struct bpfprobe_meta *meta;
	bool force;
	bool force_address;
	bool dry_run;
	bool dry_multi;     /* a dry run describes uprobe_multi links */
	pid_t pid;
	struct binary *bins;
	size_t bin_cnt;
	struct plan *plans;
};

static bool is_user(const struct bpfprobe_site *s)
{
	return s->kind == BPFPROBE_UPROBE || s->kind == BPFPROBE_URETPROBE;
}

static bool is_ret(const struct bpfprobe_site *s)
{
	return s->kind == BPFPROBE_KRETPROBE || s->kind == BPFPROBE_URETPROBE;
}

/*
 * Reports a failed check of \p site: what is wrong, then (when refused) how
 * to fix it. A forceable failure under `force` is a loud warning instead and
 * the site goes on.
 */
__attribute__((format(printf, 6, 7)))
static int refuse(struct attach_ctx *c, const struct bpfprobe_site *site,
		  bool forceable, const char *fix, int err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (forceable && c->force) {
		pr_warn("warning: FORCED attach of probe '%s' (%s): %s; its values may come from the wrong registers or memory\n",
			site->program, site->spec, msg);
		return 0;
	}
	pr_warn("probe '%s' (%s): %s%s%s\n", site->program, site->spec, msg,
		fix ? "; " : "", fix ? fix : "");
	return err;
}

#define FIX_BINARY "rebuild the BPF object against the current binary, or force the attach (bpfprobe-run --force, bpfprobe_attach_opts.force) and accept possibly wrong values"
#define FIX_NO_ID "link the binary with -Wl,--build-id and rebuild the BPF object against it, or force the attach (bpfprobe-run --force, bpfprobe_attach_opts.force) and accept possibly wrong values"
#define FIX_ADDRESS "rebuild the BPF object against the current binary, or, having checked that the address starts an instruction (objdump -d), force it too (bpfprobe-run --force --force-address, bpfprobe_attach_opts.force_address)"
#define FIX_KERNEL "rebuild the BPF object against the running kernel's debug info, or force the attach (bpfprobe-run --force, bpfprobe_attach_opts.force) and accept possibly wrong values"

/* ---- architecture ---- */

/* Can the site's prologue read this kernel's pt_regs? "" when it can. */
static const char *arch_mismatch(const struct bpfprobe_site *s,
				 const char *machine, char *buf, size_t sz)
{
	const struct bpfprobe_kernel_arch *here = bpfprobe_kernel_arch_by_uname(machine);

	if (!s->kernel_machine)
		snprintf(buf, sz, "it was built for '%s', an architecture this runtime does not know; use a bpfprobe runtime as new as the plugin that built the object",
			 s->arch);
	else if (!here || here->e_machine != s->kernel_machine)
		snprintf(buf, sz, "it was built for %s%s (kernel ELF machine %u), this machine is %s",
			 s->arch, s->compat ? " tasks under a 64-bit kernel" : "",
			 s->kernel_machine, machine);
	else
		return "";
	return buf;
}

/* ---- binaries ---- */

static bool search_path(const char *dirs, const char *file, char *out)
{
	const char *p = dirs;

	while (p && *p) {
		size_t n = strcspn(p, ":");
		char cand[PATH_MAX];

		if (n && n + strlen(file) + 2 < sizeof(cand)) {
			snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, file);
			if (!access(cand, R_OK)) {
				strcpy(out, cand);
				return true;
			}
		}
		p += n;
		if (*p)
			p++;
	}
	return false;
}

/*
 * libbpf's rule: a name without '/' is searched for like the loader would.
 * Opens what it finds: the fd, or -errno.
 */
static int open_binary(const char *target, struct stat *st)
{
	char found[PATH_MAX];
	const char *path = target;

	if (!strchr(target, '/')) {
		bool lib = strstr(target, ".so") != NULL;
		const char *env = getenv(lib ? "LD_LIBRARY_PATH" : "PATH");

		if (search_path(env, target, found) ||
		    (lib && search_path(BPFPROBE_LIBRARY_DIRS, target, found)))
			path = found;
		else
			return -ENOENT;
	}
	return bpfprobe_open_file(path, st);
}

/* The absolute path of what fd \p b->fd is: the file the user knows. */
static void name_binary(struct binary *b)
{
	ssize_t n = readlink(b->fd_path, b->path, sizeof(b->path) - 1);

	if (n > 0) {
		b->path[n] = 0;
		return;
	}
	/* No /proc (the attach will say so): the name as written. */
	if (!realpath(b->target, b->path))
		snprintf(b->path, sizeof(b->path), "%s", b->target);
}

static struct binary *get_binary(struct attach_ctx *c, const char *target)
{
	struct binary *b;
	struct stat st;

	for (size_t i = 0; i < c->bin_cnt; i++)
		if (!strcmp(c->bins[i].target, target))
			return &c->bins[i];
	b = &c->bins[c->bin_cnt++];
	b->target = target;
	b->fd = open_binary(target, &st);
	if (b->fd < 0) {
		b->err = b->fd;
		return b;
	}
	snprintf(b->fd_path, sizeof(b->fd_path), "/proc/self/fd/%d", b->fd);
	name_binary(b);
	b->type = bpfprobe_file_type(st.st_mode);
	if (b->type) {
		b->err = -ENOENT;
		return b;
	}
	b->elf = bpfprobe_elf_open_fd(b->fd);
	if (!b->elf) {
		b->err = -errno;
		return b;
	}
	b->build_id_err = bpfprobe_elf_get_build_id(b->elf, b->build_id,
						    sizeof(b->build_id));
	return b;
}

static int check_user_site(struct attach_ctx *c, struct plan *p)
{
	const struct bpfprobe_site *s = p->site;
	struct binary *b = get_binary(c, s->target);
	struct bpfprobe_elf_sym syms[8], *sym = NULL;
	char cwd[PATH_MAX];
	bool changed = false; /* a forced check failed: the binary changed */
	int n, err;

	if (b->type)
		return refuse(c, s, false, NULL, -ENOENT,
			      "'%s' (%s) is %s, not an executable file; name the program's binary, a regular ELF file, and rebuild the probe",
			      s->target, b->path, b->type);
	if (b->err == -ENOENT || b->err == -ENOTDIR) {
		if (!getcwd(cwd, sizeof(cwd)))
			strcpy(cwd, "?");
		if (!strchr(s->target, '/'))
			return refuse(c, s, false, NULL, -ENOENT,
				      "binary '%s' not found in %s (a name without '/' is looked for as perf and the shell look for it)%s%s%s",
				      s->target,
				      strstr(s->target, ".so") ? "$LD_LIBRARY_PATH or the loader's directories" : "$PATH",
				      access(s->target, F_OK) ? "" : "; to probe the file here, write './",
				      access(s->target, F_OK) ? "" : s->target,
				      access(s->target, F_OK) ? "" : "' in the spec");
		return refuse(c, s, false, NULL, -ENOENT,
			      "binary '%s' not found (looked relative to %s); run from the directory the probe's path is relative to, or rebuild the probe with the binary's current path",
			      s->target, cwd);
	}
	if (b->err == -ENOEXEC || b->err == -EBADMSG)
		return refuse(c, s, false, NULL, -ENOEXEC, "'%s' (%s) is not an ELF binary",
			      s->target, b->path);
	if (b->err)
		return refuse(c, s, false, NULL, b->err, "cannot open binary '%s': %s",
			      s->target, strerror(-b->err));
	p->path = b->path;
	p->attach_path = b->fd_path;

	/* Build-id: empty in the metadata means no debug info was used. */
	if (*s->build_id) {
		if (b->build_id_err == -ENODATA) {
			err = refuse(c, s, true, FIX_NO_ID, -ESTALE,
				     "binary %s has no build-id to compare with the one the probe was built against (%s)",
				     b->path, s->build_id);
			if (err)
				return err;
			changed = true;
		} else if (b->build_id_err < 0) {
			return refuse(c, s, false, NULL, -EBADMSG,
				      "cannot read the build-id of %s: %s", b->path,
				      strerror(-b->build_id_err));
		} else if (strcmp(b->build_id, s->build_id)) {
			err = refuse(c, s, true, FIX_BINARY, -ESTALE,
				     "build-id mismatch: the probe was built against build-id %s, but %s has build-id %s",
				     s->build_id, b->path, b->build_id);
			if (err)
				return err;
			changed = true;
		}
	}

	n = bpfprobe_elf_find_symbol(b->elf, s->symbol, syms, 8);
	if (n < 0)
		return refuse(c, s, false, NULL, n, "cannot read the symbol table of %s: %s",
			      b->path, strerror(-n));
	if (n == 0) {
		const void *d;
		size_t sz;

		/* A binary with a symbol table that lacks the function:
		 * inlined everywhere is the usual reason, not a strip. */
		if (bpfprobe_elf_section(b->elf, ".symtab", &d, &sz) == 0)
			return refuse(c, s, false, NULL, -ENOENT,
				      "symbol '%s' not found in %s: exists only inlined? (its symbol table has no such function, so there is no symbol to attach to: probe a source line in it, or a caller), or it was renamed or removed since the probe was built",
				      s->symbol, s->target);
		return refuse(c, s, false, NULL, -ENOENT,
			      "symbol '%s' not found in %s: the binary is stripped (no .symtab) and does not export it in .dynsym; probe an unstripped build",
			      s->symbol, s->target);
	}
	if (n == 1) {
		sym = &syms[0];
	} else {
		for (int i = 0; i < n && i < 8 && s->address; i++)
			if (syms[i].value + s->offset == s->address)
				sym = &syms[i];
		if (!sym)
			return refuse(c, s, false, NULL, -ENOTUNIQ,
				      "symbol '%s' has %d definitions in %s and the metadata records no address that picks one",
				      s->symbol, n, b->path);
	}

	if (s->address && sym->value + s->offset != s->address) {
		err = refuse(c, s, true, FIX_BINARY, -ESTALE,
			     "address mismatch: the probe was resolved at 0x%llx (%s+%llu), but %s has %s at 0x%llx, so the site is now 0x%llx",
			     (unsigned long long)s->address, s->symbol,
			     (unsigned long long)s->offset, b->path, s->symbol,
			     (unsigned long long)sym->value,
			     (unsigned long long)(sym->value + s->offset));
		if (err)
			return err;
		changed = true;
	}
	if (s->has_symbol_size && sym->size != s->symbol_size) {
		err = refuse(c, s, true, FIX_BINARY, -ESTALE,
			     "size mismatch: '%s' was %llu bytes when the probe was built, it is %llu bytes in %s",
			     s->symbol, (unsigned long long)s->symbol_size,
			     (unsigned long long)sym->size, b->path);
		if (err)
			return err;
		changed = true;
	}
	if (sym->size && s->offset >= sym->size) {
		err = refuse(c, s, true, FIX_BINARY, -ESTALE,
			     "offset %llu is past the end of '%s' (%llu bytes) in %s",
			     (unsigned long long)s->offset, s->symbol,
			     (unsigned long long)sym->size, b->path);
		if (err)
			return err;
		changed = true;
	}
	/*
	 * No disassembler here: in a changed binary only the function's entry
	 * is known to start an instruction.
	 */
	if (changed && s->offset) {
		if (!c->force_address)
			return refuse(c, s, false, FIX_ADDRESS, -ESTALE,
				      "%s+%llu may be in the middle of an instruction in the changed binary %s (only %s+0 is known to start one), and a uprobe there would corrupt the process",
				      s->symbol, (unsigned long long)s->offset, b->path,
				      s->symbol);
		pr_warn("warning: FORCED address of probe '%s' (%s): %s+%llu is not known to start an instruction in %s\n",
			s->program, s->spec, s->symbol,
			(unsigned long long)s->offset, b->path);
	}
	p->file_offset = sym->file_offset + s->offset;
	return 0;
}

/* ---- kernel ---- */

/* Is \p sym (in \p module, or vmlinux) in /proc/kallsyms? */
static int kallsyms_has(const char *sym, const char *module)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char name[256], mod[128] = "";
		unsigned long long addr;
		char type;
		int n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, mod);

		if (n < 3 || strcmp(name, sym))
			continue;
		if (strcmp(mod, module ? module : ""))
			continue;
		found = 1;
		break;
	}
	free(line);
	fclose(f);
	return found;
}

static int check_kernel_site(struct attach_ctx *c, struct plan *p)
{
	const struct bpfprobe_site *s = p->site;
	const char *mod = s->target;
	char id[129], path[PATH_MAX];
	int ret, err;

	if (*mod) {
		snprintf(path, sizeof(path), "%s/module/%s", bpfprobe_sysfs_root(), mod);
		if (access(path, F_OK))
			return refuse(c, s, false, NULL, -ENOENT,
				      "kernel module '%s' is not loaded (no %s); load it first (modprobe %s)",
				      mod, path, mod);
	}
	if (*s->build_id) {
		ret = bpfprobe_kernel_build_id(mod, id, sizeof(id));
		if (ret == -ENODATA || ret == -ENOENT) {
			err = refuse(c, s, true, FIX_KERNEL, -ESTALE,
				     "the running %s%s has no build-id to compare with the one the probe was built against (%s)",
				     *mod ? "module " : "kernel", mod, s->build_id);
			if (err)
				return err;
		} else if (ret < 0) {
			return refuse(c, s, false, NULL, ret,
				      "cannot read the build-id of the running %s%s: %s",
				      *mod ? "module " : "kernel", mod, strerror(-ret));
		} else if (strcmp(id, s->build_id)) {
			err = refuse(c, s, true, FIX_KERNEL, -ESTALE,
				     "build-id mismatch: the probe was built against %s%s with build-id %s, but the running one has build-id %s",
				     *mod ? "module " : "the kernel", mod, s->build_id, id);
			if (err)
				return err;
		}
	}
	ret = kallsyms_has(s->symbol, *mod ? mod : NULL);
	if (ret == 0)
		return refuse(c, s, false, NULL, -ENOENT,
			      "symbol '%s' is not in the running %s%s (/proc/kallsyms)",
			      s->symbol, *mod ? "module " : "kernel", mod);
	if (ret < 0)
		pr_debug("cannot read /proc/kallsyms (%s); not checking '%s'\n",
			 strerror(-ret), s->symbol);
	if (*mod)
		snprintf(p->func, sizeof(p->func), "%s:%s", mod, s->symbol);
	else
		snprintf(p->func, sizeof(p->func), "%s", s->symbol);
	return 0;
}

/* ---- @entry pairs ---- */

/* The other half of site \p i's pair (its entry program, or the site the
 * entry program serves); -1 when it has none, -2 when it names a program
 * that is no site of the metadata. */
static long pair_of(const struct bpfprobe_meta *meta, size_t i)
{
	const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
	const char *other = s->entry_program ? s->entry_program : s->entry_of;
	size_t n = bpfprobe_meta__site_cnt(meta);

	if (!other)
		return -1;
	for (size_t j = 0; j < n; j++) {
		const struct bpfprobe_site *o = bpfprobe_meta__site(meta, j);

		if (j != i && !strcmp(o->program, other) &&
		    (s->entry_program ? o->entry_of && !strcmp(o->entry_of, s->program)
				      : o->entry_program && !strcmp(o->entry_program, s->program)))
			return (long)j;
	}
	return -2;
}

/* Site \p j is skipped because its pair \p i is. */
static void skip_pair(struct bpfprobe_attachment *att, size_t i, size_t j,
		      int err)
{
	const struct bpfprobe_site *s = bpfprobe_meta__site(att->meta, j);
	const struct bpfprobe_site *o = bpfprobe_meta__site(att->meta, i);

	pr_warn("probe '%s' (%s): not attached without '%s', %s\n", s->program,
		s->spec, o->program,
		s->entry_of ? "the probe its saved values are for"
			    : "the entry program that saves its entry values");
	att->site_err[j] = err;
	att->skipped_cnt++;
}

/* Sites i and j of a pair, both skipped: i failed with err, j goes with it. */
static void skip_both(struct bpfprobe_attachment *att, size_t i, size_t j,
		      int err)
{
	att->site_err[i] = err;
	att->skipped_cnt++;
	skip_pair(att, i, j, err);
}

/* The return site of \p i's pair when the pair was loaded as a session
 * program (in a dry run: would be, by the choice loading makes); -1
 * otherwise. */
static long session_site(const struct attach_ctx *c, size_t i, long j)
{
	const struct bpfprobe_site *s = bpfprobe_meta__site(c->meta, i);
	long r = s->entry_program ? (long)i : j;
	const char *why;

	if (j < 0 || r < 0)
		return -1;
	if (c->dry_run)
		return bpfprobe_pairs_by_session(bpfprobe_meta__site(c->meta, r),
						 &why) ? r : -1;
	if (!bpfprobe_session_program(c->obj, bpfprobe_meta__site(c->meta, r)))
		return -1;
	return r;
}

/* ---- attach ---- */

static int check_pmu(const char *kind)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type",
		 bpfprobe_sysfs_root(), kind);
	if (!access(path, F_OK))
		return 0;
	pr_warn("this kernel has no %s support (no %s); it needs CONFIG_%s_EVENTS\n",
		kind, path, !strcmp(kind, "kprobe") ? "KPROBE" : "UPROBE");
	return -EOPNOTSUPP;
}

static int attach_site(struct attach_ctx *c, struct plan *p,
		       struct bpf_link **link)
{
	const struct bpfprobe_site *s = p->site;
	int err;

	if (s->kind == BPFPROBE_FENTRY || s->kind == BPFPROBE_FEXIT) {
		/* libbpf found the function's BTF id when it loaded the program
		 * (from its section name); no perf event, no trap. */
		*link = bpf_program__attach_trace(p->prog);
	} else if (is_user(s)) {
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = is_ret(s),
			    .bpf_cookie = s->cookie);

		if ((err = check_pmu("uprobe")))
			return err;
		*link = bpf_program__attach_uprobe_opts(p->prog,
							c->pid > 0 ? c->pid : -1,
							p->attach_path, p->file_offset, &uo);
	} else {
		LIBBPF_OPTS(bpf_kprobe_opts, ko, .retprobe = is_ret(s),
			    .offset = s->offset);

		if ((err = check_pmu("kprobe")))
			return err;
		*link = bpf_program__attach_kprobe_opts(p->prog, p->func, &ko);
	}
	if (!*link) {
		err = -errno;
		pr_warn("probe '%s' (%s): attaching to %s failed: %s\n", s->program,
			s->spec, is_user(s) ? p->path : p->func, strerror(-err));
		return err;
	}
	return 0;
}

static void describe(const struct plan *p, char *buf, size_t sz)
{
	const struct bpfprobe_site *s = p->site;

	if (is_user(s))
		snprintf(buf, sz, "%s %s:0x%llx (%s+%llu)", bpfprobe_kind__str(s->kind),
			 p->path, (unsigned long long)p->file_offset, s->symbol,
			 (unsigned long long)s->offset);
	else
		snprintf(buf, sz, "%s %s+%llu", bpfprobe_kind__str(s->kind), p->func,
			 (unsigned long long)s->offset);
}

/* Attaches one site (or, in a dry run, says where it would go). */
static int attach_one(struct attach_ctx *c, struct bpfprobe_attachment *att,
		      struct plan *p)
{
	char where[PATH_MAX + 128];
	int err;

	describe(p, where, sizeof(where));
	if (c->dry_run) {
		char shared[256] = "";

		if (p->site->dispatcher)
			snprintf(shared, sizeof(shared), ", cookie %llu of '%s' %s",
				 (unsigned long long)p->site->cookie, p->site->dispatcher,
				 c->dry_multi ? "in its uprobe_multi link" : "as its own uprobe");
		pr_info("would attach '%s' as %s%s%s\n", p->site->program, where,
			c->pid > 0 && is_user(p->site) ? " in one process" : "", shared);
		return 0;
	}
	err = attach_site(c, p, &att->links[att->link_cnt]);
	if (err)
		return err;
	att->link_cnt++;
	pr_debug("attached '%s' as %s\n", p->site->program, where);
	return 0;
}

/* Attaches the session program of the pair whose return site \p p is. */
static int attach_session(struct attach_ctx *c, struct bpfprobe_attachment *att,
			  struct plan *p)
{
	const struct bpfprobe_site *s = p->site;
	struct bpf_program *prog = bpfprobe_session_program(c->obj, s);
	char where[PATH_MAX + 128];
	int fd;

	describe(p, where, sizeof(where));
	if (c->dry_run) {
		pr_info("would attach '%s' as %s, a session program\n",
			s->session_program, where);
		return 0;
	}
	fd = bpfprobe_session_link(prog, is_user(s),
				   is_user(s) ? p->attach_path : s->symbol,
				   p->file_offset, c->pid);
	if (fd < 0) {
		pr_warn("probe '%s' (%s): attaching its session program '%s' to %s failed: %s\n",
			s->program, s->spec, s->session_program,
			is_user(s) ? p->path : p->func, strerror(-fd));
		return fd;
	}
	att->session_fds[att->session_cnt++] = fd;
	pr_debug("attached '%s' as %s, a session program (for '%s' and '%s')\n",
		 s->session_program, where, s->entry_program, s->program);
	return 0;
}

void bpfprobe_attachment__destroy(struct bpfprobe_attachment *att)
{
	if (!att)
		return;
	for (size_t i = 0; i < att->session_cnt; i++)
		close(att->session_fds[i]);
	free(att->session_fds);
	/* All at once: each waits for a grace period (MultiAttach.c). */
	bpfprobe_detach_all(att->links, att->link_cnt, att->multi_fds,
			    att->multi_cnt);
	free(att->multi_fds);
	free(att->links);
	for (size_t i = 0; i < att->bin_fd_cnt; i++)
		close(att->bin_fds[i]);
	free(att->bin_fds);
	free(att->site_err);
	bpfprobe_meta__free(att->own_meta);
	free(att);
}

static struct bpfprobe_attachment *fail(struct bpfprobe_attachment *att, int err)
{
	bpfprobe_attachment__destroy(att);
	errno = err < 0 ? -err : err;
	return NULL;
}

struct bpfprobe_attachment *
bpfprobe_object__attach(struct bpf_object *obj,
			const struct bpfprobe_attach_opts *opts)
{
	struct attach_ctx c = { .obj = obj };
	struct bpfprobe_attachment *att;
	struct utsname un;
	char why[512];
	size_t n;
	int first_err = 0, err, *multi_errs = NULL;
	struct bpfprobe_multi_site *multi = NULL;
	struct bpfprobe_prog_cache prog_cache = { 0 };
	size_t multi_n = 0;
	bool partial, *done = NULL;

	if (!OPTS_VALID(opts, bpfprobe_attach_opts))
		return fail(NULL, -EINVAL);
	c.force = OPTS_GET(opts, force, false);
	c.force_address = OPTS_GET(opts, force_address, false);
	c.dry_run = OPTS_GET(opts, dry_run, false);
	c.pid = OPTS_GET(opts, pid, 0);
	partial = OPTS_GET(opts, partial, false);
	if (c.dry_run) {
		enum bpfprobe_attach_mode mode = OPTS_GET(opts, attach_mode, BPFPROBE_ATTACH_AUTO);
		const char *why;

		c.dry_multi = mode == BPFPROBE_ATTACH_MULTI ||
			      (mode == BPFPROBE_ATTACH_AUTO && bpfprobe_has_uprobe_multi(&why));
	}
	if (!obj && !c.dry_run) {
		pr_warn("bpfprobe_object__attach: no bpf_object (only a dry run works without one)\n");
		return fail(NULL, -EINVAL);
	}

	att = calloc(1, sizeof(*att));
	if (!att)
		return fail(NULL, -ENOMEM);
	if (OPTS_GET(opts, meta, NULL)) {
		att->meta = opts->meta;
	} else if (OPTS_GET(opts, obj_buf, NULL)) {
		att->own_meta = bpfprobe_meta__open_mem(opts->obj_buf,
							OPTS_GET(opts, obj_buf_sz, 0));
		if (!att->own_meta)
			return fail(att, -errno);
		att->meta = att->own_meta;
	} else if (OPTS_GET(opts, obj_path, NULL)) {
		att->own_meta = bpfprobe_meta__open_file(opts->obj_path);
		if (!att->own_meta)
			return fail(att, -errno);
		att->meta = att->own_meta;
	} else {
		pr_warn("bpfprobe_object__attach: say where the .bpfprobe metadata is: opts.obj_path (the object file), opts.obj_buf/obj_buf_sz (a skeleton's skeleton->data/data_sz) or opts.meta\n");
		return fail(att, -EINVAL);
	}
	c.meta = att->meta;
	n = bpfprobe_meta__site_cnt(c.meta);

	if (c.pid > 0 && kill(c.pid, 0) && errno == ESRCH) {
		pr_warn("process %d does not exist (pid gone?)\n", (int)c.pid);
		return fail(att, -ESRCH);
	}

	c.bins = calloc(n, sizeof(*c.bins));
	c.plans = calloc(n, sizeof(*c.plans));
	att->links = calloc(n, sizeof(*att->links));
	att->session_fds = calloc(n, sizeof(*att->session_fds));
	att->multi_fds = calloc(n, sizeof(*att->multi_fds));
	att->site_err = calloc(n + 1, sizeof(*att->site_err));
	multi = calloc(n, sizeof(*multi));
	multi_errs = calloc(n, sizeof(*multi_errs));
	if (!c.bins || !c.plans || !att->links || !att->session_fds ||
	    !att->multi_fds || !att->site_err || !multi || !multi_errs) {
		first_err = -ENOMEM;
		goto out;
	}
	if (uname(&un))
		strcpy(un.machine, "unknown");

	/* Check every site and report every refusal before giving up. */
	for (size_t i = 0; i < n; i++) {
		struct plan *p = &c.plans[i];
		const struct bpfprobe_site *s = bpfprobe_meta__site(c.meta, i);

		p->site = s;
		err = 0;
		if (*arch_mismatch(s, un.machine, why, sizeof(why))) {
			err = refuse(&c, s, false, NULL, -ENOEXEC, "%s", why);
		} else if (obj && !(p->prog = bpfprobe_site_program(obj, s, &prog_cache))) {
			err = refuse(&c, s, false, NULL, -ENOENT,
				     "program '%s' named by the .bpfprobe metadata is not in the BPF object '%s'",
				     s->dispatcher ? s->dispatcher : s->program,
				     bpf_object__name(obj));
		} else if (pair_of(c.meta, i) == -2) {
			err = refuse(&c, s, false, NULL, -ENOENT,
				     "%s '%s' is no site of the .bpfprobe metadata (or does not name this one back)",
				     s->entry_program ? "its entry program" : "the probe it saves entry values for",
				     s->entry_program ? s->entry_program : s->entry_of);
		} else if (is_user(s)) {
			err = check_user_site(&c, p);
		} else {
			err = check_kernel_site(&c, p);
			if (!err && c.pid > 0)
				pr_warn("warning: probe '%s' is a kernel probe: it fires in every process, not only in %d\n",
					s->program, (int)c.pid);
		}
		if (err && !first_err)
			first_err = err;
		if (err && partial) {
			att->site_err[i] = err;
			att->skipped_cnt++;
		}
	}
	/* A pair is skipped together (pairs are disjoint: one pass). */
	for (size_t i = 0; partial && i < n; i++) {
		long j = pair_of(c.meta, i);

		if (att->site_err[i] && j >= 0 && !att->site_err[j])
			skip_pair(att, i, (size_t)j, att->site_err[i]);
	}
	if (first_err && (!partial || att->skipped_cnt == n))
		goto out;
	first_err = 0;

	done = calloc(n, sizeof(*done));
	if (!done) {
		first_err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		long j = pair_of(c.meta, i), r = session_site(&c, i, j);

		if (att->site_err[i] || done[i])
			continue;
		if (r >= 0) {
			/* One session link for both halves. */
			done[i] = done[j] = true;
			err = attach_session(&c, att, &c.plans[r]);
			if (err && partial) {
				skip_both(att, i, (size_t)j, err);
				first_err = first_err ? first_err : err;
				continue;
			}
			if (err) {
				first_err = err;
				goto out;
			}
			continue;
		}
		/* A program loaded for uprobe_multi: into its link, below. */
		if (!c.dry_run && bpfprobe_uses_multi(c.plans[i].prog)) {
			done[i] = true;
			multi[multi_n++] = (struct bpfprobe_multi_site){
				.site = i, .prog = c.plans[i].prog,
				.path = c.plans[i].path,
				.attach_path = c.plans[i].attach_path,
				.offset = c.plans[i].file_offset,
				.cookie = c.plans[i].site->cookie,
				.ret = is_ret(c.plans[i].site),
			};
			continue;
		}
		/* The pair's second half right after the first. */
		done[i] = true;
		err = attach_one(&c, att, &c.plans[i]);
		if (!err && j >= 0 && !done[j]) {
			done[j] = true;
			err = attach_one(&c, att, &c.plans[j]);
			if (err && !c.dry_run)
				bpf_link__destroy(att->links[--att->link_cnt]);
			if (err && partial) {
				skip_both(att, (size_t)j, i, err);
				first_err = first_err ? first_err : err;
				continue;
			}
		} else if (err && partial) {
			att->site_err[i] = err;
			att->skipped_cnt++;
			if (j >= 0 && !done[j]) {
				done[j] = true;
				skip_pair(att, i, (size_t)j, err);
			}
			first_err = first_err ? first_err : err;
			continue;
		}
		if (err) {
			first_err = err;
			goto out;
		}
	}
	if (multi_n) {
		bpfprobe_multi_attach(multi, multi_n, c.pid, att->multi_fds,
				      &att->multi_cnt, multi_errs);
		for (size_t k = 0; k < multi_n; k++) {
			if (!multi_errs[k]) {
				att->multi_sites++;
				continue;
			}
			first_err = first_err ? first_err : multi_errs[k];
			if (partial) {
				att->site_err[multi[k].site] = multi_errs[k];
				att->skipped_cnt++;
			}
		}
		if (first_err && !partial)
			goto out;
	}
	/* Partial: an error only when nothing attached. */
	if (partial && att->skipped_cnt < n)
		first_err = 0;
	for (size_t i = 0; partial && !first_err && i < n; i++)
		if (att->site_err[i])
			pr_warn("probe '%s' skipped; the other probes %s\n",
				bpfprobe_meta__site(c.meta, i)->program,
				c.dry_run ? "would attach" : "are attached");
out:
	free(done);
	free(multi);
	free(multi_errs);
	/* The binaries stay open as long as the uprobes in them. */
	if (!first_err && !c.dry_run && c.bin_cnt)
		att->bin_fds = calloc(c.bin_cnt, sizeof(*att->bin_fds));
	for (size_t i = 0; c.bins && i < c.bin_cnt; i++) {
		bpfprobe_elf_close(c.bins[i].elf);
		if (c.bins[i].fd < 0)
			continue;
		if (att->bin_fds)
			att->bin_fds[att->bin_fd_cnt++] = c.bins[i].fd;
		else
			close(c.bins[i].fd);
	}
	free(c.bins);
	free(c.plans);
	if (first_err)
		return fail(att, first_err);
	return att;
}

const struct bpfprobe_meta *
bpfprobe_attachment__meta(const struct bpfprobe_attachment *att)
{
	return att ? att->meta : NULL;
}

size_t bpfprobe_attachment__link_cnt(const struct bpfprobe_attachment *att)
{
	return att ? att->link_cnt : 0;
}

struct bpf_link *bpfprobe_attachment__link(const struct bpfprobe_attachment *att,
					   size_t idx)
{
	if (!att || idx >= att->link_cnt) {
		errno = ENOENT;
		return NULL;
	}
	return att->links[idx];
}

int bpfprobe_attachment__site_err(const struct bpfprobe_attachment *att,
				  size_t idx)
{
	if (!att || idx >= bpfprobe_meta__site_cnt(att->meta))
		return -EINVAL;
	return att->site_err[idx];
}

size_t bpfprobe_attachment__skipped_cnt(const struct bpfprobe_attachment *att)
{
	return att ? att->skipped_cnt : 0;
}

size_t bpfprobe_attachment__multi_link_cnt(const struct bpfprobe_attachment *att)
{
	return att ? att->multi_cnt : 0;
}

size_t bpfprobe_attachment__multi_site_cnt(const struct bpfprobe_attachment *att)
{
	return att ? att->multi_sites : 0;
}

size_t bpfprobe_attachment__session_cnt(const struct bpfprobe_attachment *att)
{
	return att ? att->session_cnt : 0;
}
