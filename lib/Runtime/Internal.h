/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Declarations shared by the files of the runtime library and not part of
 * its API: message helpers, options-struct validation in libbpf's manner,
 * and the ELF helpers that the metadata reader and the attach checks share.
 */
#ifndef BPFPROBE_RUNTIME_INTERNAL_H
#define BPFPROBE_RUNTIME_INTERNAL_H

#include <bpfprobe/runtime.h>

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "Support/FileRules.h"

#define BPFPROBE_HIDDEN __attribute__((visibility("hidden")))

/* ---- Messages (Print.c) ---- */

BPFPROBE_HIDDEN void bpfprobe_pr(enum libbpf_print_level level,
				 const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_warn(fmt, ...) bpfprobe_pr(LIBBPF_WARN, "bpfprobe: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) bpfprobe_pr(LIBBPF_INFO, "bpfprobe: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) bpfprobe_pr(LIBBPF_DEBUG, "bpfprobe: " fmt, ##__VA_ARGS__)

/* ---- Options structs, as libbpf validates them ---- */

BPFPROBE_HIDDEN bool bpfprobe_validate_opts(const char *opts, size_t opts_sz,
					    size_t user_sz,
					    const char *type_name);

#define OPTS_VALID(opts, type)                                                 \
	(!(opts) ||                                                            \
	 bpfprobe_validate_opts((const char *)(opts),                          \
				offsetofend(struct type, type##__last_field),  \
				(opts)->sz, #type))
#define OPTS_HAS(opts, field)                                                  \
	((opts) && (opts)->sz >= offsetofend(typeof(*(opts)), field))
#define OPTS_GET(opts, field, fallback_value)                                  \
	(OPTS_HAS(opts, field) ? (opts)->field : fallback_value)

#ifndef offsetofend
#define offsetofend(TYPE, FIELD) (offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))
#endif

/* ---- Kernel (BuildId.c) ---- */

/** "/sys", or $BPFPROBE_SYSFS_ROOT when the tests set it. */
BPFPROBE_HIDDEN const char *bpfprobe_sysfs_root(void);

/** The tracefs directory (mounted at /sys/kernel/tracing if it was not);
 *  NULL when there is none (Printk.c). */
BPFPROBE_HIDDEN const char *bpfprobe_find_tracefs(void);

/* ---- Session programs for @entry pairs (Session.c) ---- */

/** Whether the @entry pair of return site \p s is loaded as one session
 * program (the kernel has it and BPFPROBE_ENTRY_PAIRING does not say
 * "map"); \p why says why not. bpfprobe_choose_pairing() and dry runs. */
BPFPROBE_HIDDEN bool bpfprobe_pairs_by_session(const struct bpfprobe_site *s,
					       const char **why);
/**
 * Before loading: for each return site with a session program, loads
 * either it (when the kernel has that session kind, and
 * $BPFPROBE_ENTRY_PAIRING is not "map") or the entry/return pair.
 */
BPFPROBE_HIDDEN int bpfprobe_choose_pairing(struct bpf_object *obj,
					    const struct bpfprobe_meta *meta);
/** Site \p s's session program when it was loaded; else NULL. */
BPFPROBE_HIDDEN struct bpf_program *
bpfprobe_session_program(struct bpf_object *obj, const struct bpfprobe_site *s);
/**
 * Attaches a session program: to the binary \p where at file \p offset
 * (\p user; only in process \p pid when > 0), or to kernel function
 * \p where. The link's fd, or -errno.
 */
BPFPROBE_HIDDEN int bpfprobe_session_link(struct bpf_program *prog, bool user,
					  const char *where, __u64 offset,
					  int pid);

/* ---- Raw links: BPF_LINK_CREATE (Session.c, MultiAttach.c) ---- */

/* libbpf 1.1 knows neither session attach types nor the uprobe_multi
 * attributes: their layout, from include/uapi/linux/bpf.h. */
#define CMD_LINK_CREATE 28       /* BPF_LINK_CREATE */
#define ATTACH_UPROBE_MULTI 48   /* BPF_TRACE_UPROBE_MULTI */
#define UPROBE_MULTI_RETURN 1u   /* BPF_F_UPROBE_MULTI_RETURN */

/* union bpf_attr's link_create with its kprobe_multi and uprobe_multi
 * members (6.6's layout; older headers lack uprobe_multi). */
struct link_create_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	union {
		struct {
			__u32 flags;
			__u32 cnt;
			__u64 syms;
			__u64 addrs;
			__u64 cookies;
		} kprobe_multi;
		struct {
			__u64 path;
			__u64 offsets;
			__u64 ref_ctr_offsets;
			__u64 cookies;
			__u32 cnt;
			__u32 flags;
			__u32 pid;
		} uprobe_multi;
	};
};

/* ---- Shared programs: uprobe_multi links (MultiAttach.c) ---- */

/**
 * Before loading: every uprobe or uretprobe program (a dispatcher of
 * shared copies, or a site's own; not an @entry pair's) is loaded as a
 * uprobe_multi program when \p mode says multi, or auto and the kernel
 * has uprobe_multi links; as a plain uprobe program otherwise. The
 * choice stays with the program (its expected attach type). -EOPNOTSUPP:
 * multi asked for on a kernel without it.
 */
BPFPROBE_HIDDEN int bpfprobe_choose_attach(struct bpf_object *obj,
					   const struct bpfprobe_meta *meta,
					   enum bpfprobe_attach_mode mode);
/** The last program looked up by name (libbpf's look-up walks every
 * program and subprogram: with 10,000 copies, once per site was 10^8
 * steps); consecutive sites mostly share a dispatcher. */
struct bpfprobe_prog_cache {
	const char *name;
	struct bpf_program *prog;
};
/** The program site \p s attaches (its dispatcher, or its own). */
BPFPROBE_HIDDEN struct bpf_program *
bpfprobe_site_program(struct bpf_object *obj, const struct bpfprobe_site *s,
		      struct bpfprobe_prog_cache *cache);
/** Whether the kernel has uprobe_multi links (probed once); \p why says
 * what failed when not. */
BPFPROBE_HIDDEN bool bpfprobe_has_uprobe_multi(const char **why);
/** Whether \p prog was loaded for a uprobe_multi link. */
BPFPROBE_HIDDEN bool bpfprobe_uses_multi(const struct bpf_program *prog);

/** One site that goes into a uprobe_multi link. */
struct bpfprobe_multi_site {
	size_t site;               /* index in the metadata */
	struct bpf_program *prog;  /* the dispatcher */
	const char *path;          /* the binary, for messages */
	const char *attach_path;   /* /proc/self/fd/N of the binary opened
				    * once and checked (Attach.c) */
	__u64 offset;              /* file offset */
	__u64 cookie;
	bool ret;                  /* a uretprobe */
};
/**
 * Attaches \p sites as one uprobe_multi link per program, binary and kind
 * (only in process \p pid when > 0). The links' fds go to \p fds (room for
 * \p cnt), their count to \p fd_cnt; a site of a link that failed gets its
 * -errno in \p errs (parallel to \p sites), reported once per link.
 */
/**
 * Destroys \p links and closes the link descriptors \p fds, from several
 * threads: each detach waits for an RCU grace period, and waits that run
 * at once share one.
 */
BPFPROBE_HIDDEN void bpfprobe_detach_all(struct bpf_link **links,
					 size_t link_cnt, int *fds,
					 size_t fd_cnt);
BPFPROBE_HIDDEN void bpfprobe_multi_attach(struct bpfprobe_multi_site *sites,
					   size_t cnt, int pid, int *fds,
					   size_t *fd_cnt, int *errs);

/* ---- Records (RecordFormat.c) ---- */

/** Bytes a record slot of kprobe_events type \p type takes. */
BPFPROBE_HIDDEN size_t bpfprobe_slot_size(const char *type);

/* ---- ELF files (ElfFile.c) ---- */

struct bpfprobe_elf;

/**
 * Opens \p path read-only, close-on-exec and without blocking (opening a
 * FIFO does not wait for a writer), and fstat()s what was opened into
 * \p st: the checks and the reads that follow see this one inode. The fd,
 * or -errno.
 */
BPFPROBE_HIDDEN int bpfprobe_open_file(const char *path, struct stat *st);
/* bpfprobe_file_type(): Support/FileRules.h. */

/** Opens an ELF file (a regular one: anything else is ENOEXEC) or wraps a
 *  buffer (not copied); NULL + errno. */
BPFPROBE_HIDDEN struct bpfprobe_elf *bpfprobe_elf_open(const char *path);
/** Reads the ELF file open as \p fd, which stays the caller's: it is
 *  not closed with the bpfprobe_elf. NULL + errno. */
BPFPROBE_HIDDEN struct bpfprobe_elf *bpfprobe_elf_open_fd(int fd);
BPFPROBE_HIDDEN struct bpfprobe_elf *bpfprobe_elf_open_mem(const void *buf,
							     size_t size);
BPFPROBE_HIDDEN void bpfprobe_elf_close(struct bpfprobe_elf *elf);

/**
 * Points \p data at the contents of section \p name. -ENODATA when there
 * is no such section (or it has no bytes in the file), -EBADMSG on a
 * malformed ELF.
 */
BPFPROBE_HIDDEN int bpfprobe_elf_section(struct bpfprobe_elf *elf,
					 const char *name, const void **data,
					 size_t *size);

/** NT_GNU_BUILD_ID as hex; same returns as bpfprobe_elf_build_id(). */
BPFPROBE_HIDDEN int bpfprobe_elf_get_build_id(struct bpfprobe_elf *elf,
					      char *buf, size_t buf_sz);

/** The kernel architecture (BPFPROBE_KERNEL_ARCHES) of an ABI table name,
 *  or of a uname(2) machine (longest prefix); NULL if none. */
BPFPROBE_HIDDEN const struct bpfprobe_kernel_arch *
bpfprobe_kernel_arch_by_name(const char *name);
BPFPROBE_HIDDEN const struct bpfprobe_kernel_arch *
bpfprobe_kernel_arch_by_uname(const char *machine);

/** Finds the build-id note in a raw note sequence (/sys/kernel/notes). */
BPFPROBE_HIDDEN int bpfprobe_notes_build_id(const void *notes, size_t size,
					    char *buf, size_t buf_sz);

struct bpfprobe_elf_sym {
	__u64 value;       /* st_value: the symbol's address */
	__u64 size;        /* st_size */
	__u64 file_offset; /* where value lives in the file */
	int type;          /* STT_* */
};

/**
 * Looks up function-like symbol \p name in .symtab, then .dynsym. Fills up
 * to \p max entries with the distinct definitions found and returns how
 * many exist (may exceed max), 0 when none, -errno on a malformed file.
 */
BPFPROBE_HIDDEN int bpfprobe_elf_find_symbol(struct bpfprobe_elf *elf,
					     const char *name,
					     struct bpfprobe_elf_sym *syms,
					     int max);

/** e_machine of the file. */
BPFPROBE_HIDDEN int bpfprobe_elf_machine(struct bpfprobe_elf *elf);

/* ---- trace ring-buffer pages (TracePage.c) ---- */

/** Layouts read from tracefs: events/header_page and the printk event. */
struct bpfprobe_trace_format {
	unsigned ts_off, ts_size, commit_off, commit_size, data_off;
	unsigned event_id; /**< the format file's ID: events of other types are skipped */
	unsigned type_off, pid_off; /**< common_type (2 bytes), common_pid (4) */
	unsigned str_off, str_size; /**< bpf_string */
	bool str_loc; /**< a __data_loc word (offset | length << 16), not the bytes */
};

/** One bpf_trace_printk event of a page; str is not NUL-terminated. */
struct bpfprobe_trace_event {
	__u64 ts;  /**< the trace clock's nanoseconds */
	__s32 pid; /**< common_pid: the thread */
	const char *str;
	size_t len;
};

typedef void (*bpfprobe_trace_event_fn)(void *ctx,
					const struct bpfprobe_trace_event *ev);

/** Parses events/header_page; -EINVAL if a field is missing or absurd. */
BPFPROBE_HIDDEN int bpfprobe_trace_format__header_page(struct bpfprobe_trace_format *f,
						       const char *text);
/** Parses events/bpf_trace/bpf_trace_printk/format; -EINVAL likewise. */
BPFPROBE_HIDDEN int bpfprobe_trace_format__event(struct bpfprobe_trace_format *f,
						 const char *text);
/**
 * Hands each printk event of one trace_pipe_raw page (\p len bytes) to
 * \p on_event and returns how many there were; -EINVAL, with nothing
 * handed on, when any length or offset of the page points outside it.
 */
BPFPROBE_HIDDEN int bpfprobe_trace_page__parse(const struct bpfprobe_trace_format *f,
					       const void *page, size_t len,
					       bpfprobe_trace_event_fn on_event,
					       void *ctx);

#endif /* BPFPROBE_RUNTIME_INTERNAL_H */
