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

/* ---- Records (RecordFormat.c) ---- */

/** Bytes a record slot of kprobe_events type \p type takes. */
BPFPROBE_HIDDEN size_t bpfprobe_slot_size(const char *type);

/* ---- ELF files (ElfFile.c) ---- */

struct bpfprobe_elf;

/** Opens an ELF file or wraps a buffer (not copied); NULL + errno. */
BPFPROBE_HIDDEN struct bpfprobe_elf *bpfprobe_elf_open(const char *path);
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

#endif /* BPFPROBE_RUNTIME_INTERNAL_H */
