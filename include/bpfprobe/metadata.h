/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The `.bpfprobe` metadata format and the record layout of default-body
 * probes, defined once for the writer (the plugin, C++) and the reader (the
 * runtime helper, C). See docs/metadata.md for the full description.
 */
#ifndef BPFPROBE_METADATA_H
#define BPFPROBE_METADATA_H

#ifdef __cplusplus
extern "C" {
#endif

/** Name of the ELF section that holds the site records. */
#define BPFPROBE_METADATA_SECTION ".bpfprobe"
/** First line of every record, followed by a space and the version. */
#define BPFPROBE_METADATA_MAGIC "bpfprobe-site"
/** The version this header describes. */
#define BPFPROBE_METADATA_VERSION 1
/** Last line of every record. */
#define BPFPROBE_METADATA_END "end"

/* Keys of a site record (see docs/metadata.md). */
#define BPFPROBE_KEY_PROGRAM "program"
#define BPFPROBE_KEY_SECTION "section"
#define BPFPROBE_KEY_KIND "kind"
#define BPFPROBE_KEY_TARGET "target"
#define BPFPROBE_KEY_SYMBOL "symbol"
#define BPFPROBE_KEY_OFFSET "offset"
#define BPFPROBE_KEY_ADDRESS "address"
#define BPFPROBE_KEY_SYMBOL_SIZE "symbol_size"
#define BPFPROBE_KEY_ARCH "arch"
#define BPFPROBE_KEY_BUILD_ID "build_id"
#define BPFPROBE_KEY_SOURCE "source"
#define BPFPROBE_KEY_SPEC "spec"
#define BPFPROBE_KEY_ARG "arg"
/**
 * On a return probe with `@entry(...)` arguments: the program, also a site
 * of the object, that saves them at the function's entry. A recording
 * return probe's records then carry one more 64-bit word after the argument
 * slots: bit i set means argument i is an entry value whose entry was not
 * seen (the probe attached while the call was in flight): no value.
 */
#define BPFPROBE_KEY_ENTRY_PROGRAM "entry_program"
/** On that entry program: the return program it saves values for. */
#define BPFPROBE_KEY_ENTRY_OF "entry_of"
/**
 * On a kretprobe or uretprobe with an entry program: a program of the
 * object, in a `?kprobe`/`?uprobe` section (not loaded by default), that
 * does the work of both as one kprobe.session/uprobe.session program; no
 * site of its own. The runtime loads it instead of the pair when the kernel
 * has session programs; its records are the return site's.
 */
#define BPFPROBE_KEY_SESSION_PROGRAM "session_program"
/** Present on default-body probes: the id in their ring-buffer records. */
#define BPFPROBE_KEY_RECORD_ID "record_id"
/**
 * ELF e_machine (decimal) of the kernel the site runs under: the kernel whose
 * struct pt_regs the prologue reads. What the runtime matches the running
 * kernel against (BPFPROBE_KERNEL_ARCHES). Added within version 1: a reader
 * that finds no such key falls back to looking `arch` up in the same table.
 */
#define BPFPROBE_KEY_KERNEL_MACHINE "kernel_machine"
/** "1": the probed tasks run a 32-bit compat ABI under that 64-bit kernel
 *  (arch ia32-compat, arm-compat); "0" otherwise. */
#define BPFPROBE_KEY_COMPAT "compat"
/**
 * On a recording site: the size in bytes of the struct bpfprobe_record_ctx
 * that its records carry right after struct bpfprobe_record_hdr (added
 * within version 1). A site without the key (older objects, hand-written
 * recorders) has none: its argument slots follow the header.
 */
#define BPFPROBE_KEY_RECORD_CONTEXT "record_context"
/**
 * One of several sites that share one BPF program (every inlined copy of a
 * line, one uprobe or uretprobe each): `program` then names the site (a
 * static subprogram of the object, which the record_id is the hash of),
 * `dispatcher` the BPF program that is attached, and `cookie` (decimal) the
 * BPF cookie that program dispatches on to this site's code. The runtime
 * attaches all sites of one dispatcher through one uprobe_multi link where
 * the kernel has them, else once per site with the cookie; a site without
 * these keys is its own program, attached as before. Added within version 1.
 */
#define BPFPROBE_KEY_DISPATCHER "dispatcher"
#define BPFPROBE_KEY_COOKIE "cookie"

/** A kernel architecture, as writer and reader of the metadata name it. */
struct bpfprobe_kernel_arch {
	/** The ABI table's name for it (-fplugin-arg-bpfprobe-arch=, and
	 *  the CompatOf of a compat table). */
	const char *name;
	/** ELF e_machine of its vmlinux (EM_*, include/uapi/linux/elf-em.h). */
	unsigned short e_machine;
	/** The uname(2) machine names of such a kernel: space-separated
	 *  prefixes ("arm" covers armv7l); the longest matching one wins. */
	const char *uname_prefixes;
};

/** Initializer of a struct bpfprobe_kernel_arch array: every kernel the
 *  plugin's ABI tables describe, defined once for writer and reader. */
#define BPFPROBE_KERNEL_ARCHES                                                 \
	{ "x86_64", 62, "x86_64 amd64" },                                      \
	{ "i386", 3, "i386 i486 i586 i686" },                                  \
	{ "aarch64", 183, "aarch64 arm64" },                                   \
	{ "arm", 40, "arm" },                                                  \
	{ "riscv64", 243, "riscv64" },                                         \
	{ "s390x", 22, "s390x" },                                              \
	{ "powerpc64le", 21, "ppc64le" },                                      \
	{ "mips64", 8, "mips64" },                                             \
	{ "loongarch64", 258, "loongarch64" }

/*
 * Default-body probes (BPF_PROBE_RECORD) send one record per hit to the
 * ring buffer map named BPFPROBE_RECORDS_MAP: a header, then one slot per
 * argument in order. Integer, bool and pointer arguments take 8 bytes (the
 * value sign- or zero-extended to 64 bits per its type), floating-point
 * ones ("f32", "f64") 8 bytes holding their IEEE bits zero-extended; string arguments
 * take BPFPROBE_RECORD_STR_LEN bytes, NUL-terminated.
 */
#define BPFPROBE_RECORDS_MAP "bpfprobe_records"
#define BPFPROBE_RECORD_STR_LEN 64

/*
 * A string read as a pointer and a length (std::string, std::string_view,
 * Rust &str and String) has one of these types in the metadata (added
 * within version 1) and takes BPFPROBE_RECORD_STR_LEN bytes, the first
 * min(length, BPFPROBE_RECORD_STR_LEN - 1) of the string and NULs after
 * them, then 8 bytes: its whole length (a u64). A length above
 * BPFPROBE_RECORD_STR_LEN - 1 means the bytes are truncated.
 */
#define BPFPROBE_TYPE_COUNTED_STRING "string_len"
#define BPFPROBE_TYPE_COUNTED_USTRING "ustring_len"
#define BPFPROBE_RECORD_COUNTED_STR_LEN (BPFPROBE_RECORD_STR_LEN + 8)

struct bpfprobe_record_hdr {
	unsigned int record_id; /* record_id of the site in the metadata */
	unsigned int pid;       /* tgid of the task that hit the probe */
	unsigned int tid;
	unsigned int nargs;
	/* Bit i set: a memory read for argument i faulted (a uprobe touching
	 * a page the process has not faulted in yet, a bad pointer); its slot
	 * holds 0 or a truncated string and must not be shown as a value. */
	unsigned long long faults;
};

/*
 * The context of a hit, recorded in BPF by the records of sites whose
 * metadata has BPFPROBE_KEY_RECORD_CONTEXT (its value: the size of this
 * struct when written; a reader uses the fields it knows and skips the
 * rest). It follows struct bpfprobe_record_hdr; the slots follow it.
 */
struct bpfprobe_record_ctx {
	unsigned long long time_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	unsigned int cpu;           /* bpf_get_smp_processor_id() */
	unsigned int reserved;      /* 0 */
	char comm[16];              /* bpf_get_current_comm(): the thread's name */
};
#define BPFPROBE_RECORD_CTX_SIZE 32
/* Set in the header's nargs of records that carry a context: a reader that
 * predates the context counts them malformed instead of misreading their
 * slots; a reader that knows it expects arg count | this bit. */
#define BPFPROBE_RECORD_NARGS_CTX 0x80000000u

/* Recording probes take at most this many arguments (bits of faults). */
#define BPFPROBE_RECORD_MAX_ARGS 64

/*
 * Optional per-site control of recording probes: a BPF_MAP_TYPE_HASH named
 * BPFPROBE_SITES_MAP, key the site's record_id (__u32), value this struct.
 * The loader fills one entry per recording site before attaching; a site
 * without an entry records every hit and counts losses in bpfprobe_lost.
 * Per hit the BPF side: counts a hit out of scope (BPFPROBE_SITE_SCOPED
 * below) in hits and filtered and stops; skips the hit when limit != 0 and
 * hits - filtered >= limit (the hit is not counted); else adds 1 to hits; returns when the
 * BPFPROBE_SITE_COUNT_ONLY flag is set; else reserves a record (adding 1
 * to lost when the ring buffer is full) and submits it with submit_flags
 * (BPF_RB_NO_WAKEUP = 1: the reader polls on a timer).
 */
#define BPFPROBE_SITES_MAP "bpfprobe_sites"
#define BPFPROBE_SITE_COUNT_ONLY 1ull
/* With COUNT_ONLY: also add 1 to the log2 bucket of argument hist_arg in
 * BPFPROBE_HIST_MAP (a HASH of __u64 key record_id << 32 | bucket to a
 * __u64 count). Buckets as bpftrace's hist(): 0 for a negative value, 1 for
 * 0, 2 + floor(log2(v)) otherwise. */
#define BPFPROBE_SITE_HIST 2ull
#define BPFPROBE_HIST_MAP "bpfprobe_hist"
#define BPFPROBE_HIST_BUCKETS 66
/*
 * With SCOPED, before the limit: a hit whose process (the tgid,
 * bpf_get_current_pid_tgid() >> 32) is not a key of BPFPROBE_SCOPE_MAP adds 1
 * to hits and to filtered and makes no record. The limit then compares
 * hits - filtered: hits out of scope do not use up --count.
 */
#define BPFPROBE_SITE_SCOPED 4ull
/*
 * The processes a scoped site records: a BPF_MAP_TYPE_HASH of __u32 tgid to
 * __u8 (1), filled by the runtime (bpfprobe_scope__new(): the command, the
 * --pid processes, and with children their descendants, followed by its
 * programs on sched_process_fork and sched_process_exit).
 */
#define BPFPROBE_SCOPE_MAP "bpfprobe_scope"

struct bpfprobe_site_ctl {
	unsigned long long hits;         /* hits counted (not over limit) */
	unsigned long long limit;        /* 0: no limit */
	unsigned long long lost;         /* records the ring had no room for */
	unsigned long long submit_flags; /* flags of bpf_ringbuf_submit */
	unsigned long long flags;        /* BPFPROBE_SITE_* */
	unsigned long long hist_arg;     /* BPFPROBE_SITE_HIST: argument index */
	unsigned long long filtered;     /* hits out of scope (SCOPED), in hits */
};

#ifdef __cplusplus
}
#endif

#endif /* BPFPROBE_METADATA_H */
