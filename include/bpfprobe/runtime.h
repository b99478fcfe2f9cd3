/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * The bpfprobe runtime helper: a C API in libbpf's style that reads the
 * `.bpfprobe` metadata of a BPF object built with the plugin, checks that
 * every probe site still matches its binary or kernel (build-id, symbol
 * address and size), attaches every site and prints the records of
 * default-body probes. It needs libbpf and libelf only.
 *
 * Conventions follow libbpf: `object__verb` names, extensible options structs
 * whose first member is `sz` (declare them with BPFPROBE_OPTS() or
 * LIBBPF_OPTS()), functions returning a pointer return NULL and set errno on
 * failure, functions returning int return 0 or a negative errno. Every failure
 * is also explained in one line through the print callback (stderr by
 * default, see bpfprobe_set_print()).
 *
 * A skeleton-based loader needs three calls (see docs/runtime.md):
 *
 *     struct prog_bpf *skel = prog_bpf__open_and_load();
 *     BPFPROBE_OPTS(bpfprobe_attach_opts, opts,
 *                   .obj_buf = skel->skeleton->data,
 *                   .obj_buf_sz = skel->skeleton->data_sz);
 *     struct bpfprobe_attachment *att = bpfprobe_object__attach(skel->obj, &opts);
 *     ...
 *     bpfprobe_attachment__destroy(att);   // detaches every site
 */
#ifndef BPFPROBE_RUNTIME_H
#define BPFPROBE_RUNTIME_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <bpf/libbpf.h>
#include <linux/types.h>

#include <bpfprobe/metadata.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BPFPROBE_API
#define BPFPROBE_API __attribute__((visibility("default")))
#endif

/**
 * Declares and zero-initializes an options struct with its `sz` set, like
 * libbpf's LIBBPF_OPTS: `BPFPROBE_OPTS(bpfprobe_attach_opts, o, .force = true);`
 */
#define BPFPROBE_OPTS(TYPE, NAME, ...)                                        \
	struct TYPE NAME = ({                                                 \
		memset(&NAME, 0, sizeof(struct TYPE));                        \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };      \
	})

/* ---- Messages ------------------------------------------------------- */

/**
 * Receives every message of the library: errors and the loud warnings of a
 * forced attach at LIBBPF_WARN, the attach plan of a dry run at LIBBPF_INFO,
 * progress at LIBBPF_DEBUG. Lines end with '\n'.
 */
typedef int (*bpfprobe_print_fn_t)(enum libbpf_print_level level,
				   const char *fmt, va_list ap);

/**
 * Sets the message callback and returns the previous one. NULL silences the
 * library. The default prints LIBBPF_WARN and LIBBPF_INFO to stderr.
 */
BPFPROBE_API bpfprobe_print_fn_t bpfprobe_set_print(bpfprobe_print_fn_t fn);

/* ---- Metadata (docs/metadata.md) ------------------------------------ */

enum bpfprobe_kind {
	BPFPROBE_KPROBE,
	BPFPROBE_KRETPROBE,
	BPFPROBE_UPROBE,
	BPFPROBE_URETPROBE,
	BPFPROBE_FENTRY, /* BPF trampoline programs (attached by BTF id) */
	BPFPROBE_FEXIT,
};

/** One `arg=` line of a site record, unescaped. */
struct bpfprobe_arg {
	const char *name;  /**< parameter name in the probe body */
	const char *type;  /**< kprobe_events type: s32, u8, x64, string, ... */
	const char *fetch; /**< fetch plan in kprobe_events syntax */
	const char *text;  /**< the argument as written in the annotation */
};

/**
 * One probe site: one BPF program attached at one address. Read-only; owned
 * by its struct bpfprobe_meta. Fields may be appended in later versions.
 */
struct bpfprobe_site {
	const char *program;   /**< BPF program name in the object */
	const char *section;   /**< its ELF section, libbpf form */
	enum bpfprobe_kind kind;
	const char *target;    /**< binary path as written; kernel: module or "" */
	const char *symbol;
	__u64 offset;          /**< byte offset from symbol */
	__u64 address;         /**< resolved address in the target ELF; 0 = not resolved against it */
	__u64 symbol_size;     /**< valid when has_symbol_size */
	bool has_symbol_size;
	bool has_record_id;    /**< a default-body probe: writes records */
	__u32 record_id;
	const char *arch;
	const char *build_id;  /**< lower-case hex; "" when no debug info was used */
	const char *source;    /**< cc, dwarf, btf */
	const char *spec;      /**< the annotation as written */
	/**
	 * The place part of the spec, used to label output: "add3",
	 * "handle:12", "server.c:142", "vfs_write+16".
	 */
	const char *label;
	size_t arg_cnt;
	const struct bpfprobe_arg *args;
	/**
	 * The name to print for each argument: its text as written, or the
	 * parameter name when the annotation gave only types (source cc).
	 */
	const char *const *arg_labels;
	/**
	 * ELF e_machine of the kernel the site runs under (metadata key
	 * kernel_machine, or `arch` looked up in BPFPROBE_KERNEL_ARCHES for
	 * older objects); 0 when neither says.
	 */
	unsigned short kernel_machine;
	/** The probed tasks run a 32-bit compat ABI under that kernel. */
	bool compat;
	/**
	 * A return probe with `@entry(...)` values: the program (another site
	 * of the object) that saves them at entry; NULL otherwise. Its records
	 * end with a missed-entry word (bpfprobe/metadata.h).
	 */
	const char *entry_program;
	/** On that entry program: the return program it serves; else NULL. */
	const char *entry_of;
	/**
	 * On a kretprobe or uretprobe with entry values: the session program
	 * doing the work of both (metadata key session_program), which
	 * bpfprobe_object__load() loads instead of the pair when the kernel has
	 * session programs and opts.meta is given; else NULL.
	 */
	const char *session_program;
	/**
	 * One of several copies sharing a BPF program (metadata keys
	 * dispatcher, cookie): the program that is attached, and the BPF cookie
	 * that selects this site's code in it; \c program then names the site
	 * (a static subprogram, and what record_id hashes). NULL and 0: the site
	 * is its own program.
	 */
	const char *dispatcher;
	__u64 cookie;
	/**
	 * Bytes of struct bpfprobe_record_ctx (time, CPU, comm) between the
	 * header and the slots of this site's records (metadata key
	 * record_context); 0: its records carry none (older objects).
	 */
	size_t context_size;
};

/**
 * How the copies of a site that share one program (bpfprobe_site.dispatcher)
 * attach: one uprobe_multi link per program and binary (Linux 6.6+), or one
 * perf-event uprobe per site with its cookie; auto takes the link where the
 * kernel has it.
 */
enum bpfprobe_attach_mode {
	BPFPROBE_ATTACH_AUTO = 0,
	BPFPROBE_ATTACH_MULTI,
	BPFPROBE_ATTACH_SINGLE,
};

/** Parsed `.bpfprobe` section: a list of sites. */
struct bpfprobe_meta;

/**
 * Parses the raw bytes of a `.bpfprobe` section. Strict: a truncated or
 * corrupt record, an unknown version, a missing required key or a bad value
 * fails with -EBADMSG and a message that names the record, line and byte
 * offset. An empty section (no record) fails with -ENODATA.
 */
BPFPROBE_API struct bpfprobe_meta *bpfprobe_meta__parse(const void *data,
							 size_t size);
/**
 * Reads the `.bpfprobe` section of the BPF ELF object at \p path (the file a
 * bpf_object was opened from with bpf_object__open_file()). No section:
 * NULL with errno ENODATA.
 */
BPFPROBE_API struct bpfprobe_meta *bpfprobe_meta__open_file(const char *path);
/**
 * Reads the `.bpfprobe` section of an in-memory BPF ELF object: the buffer
 * given to bpf_object__open_mem(), e.g. a skeleton's `skeleton->data`.
 */
BPFPROBE_API struct bpfprobe_meta *
bpfprobe_meta__open_mem(const void *obj_buf, size_t obj_buf_sz);
BPFPROBE_API void bpfprobe_meta__free(struct bpfprobe_meta *meta);

BPFPROBE_API size_t bpfprobe_meta__site_cnt(const struct bpfprobe_meta *meta);
BPFPROBE_API const struct bpfprobe_site *
bpfprobe_meta__site(const struct bpfprobe_meta *meta, size_t idx);
/** The default-body site whose records carry \p record_id, or NULL. */
BPFPROBE_API const struct bpfprobe_site *
bpfprobe_meta__find_record(const struct bpfprobe_meta *meta, __u32 record_id);

BPFPROBE_API const char *bpfprobe_kind__str(enum bpfprobe_kind kind);

/* ---- Checking and attaching ----------------------------------------- */

struct bpfprobe_attach_opts {
	size_t sz; /* size of this struct, for forward/backward compatibility */
	/*
	 * Where to read the metadata from; the first one set is used:
	 * an already parsed \c meta, the bytes of the object (\c obj_buf,
	 * \c obj_buf_sz: a skeleton's embedded ELF), or its file (\c obj_path).
	 * libbpf 1.1 gives no access to arbitrary sections of an opened
	 * bpf_object, so one of them is required.
	 */
	const struct bpfprobe_meta *meta;
	const void *obj_buf;
	size_t obj_buf_sz;
	const char *obj_path;
	/** > 0: user probes fire only in this process; 0: in every process. */
	pid_t pid;
	/**
	 * Attach sites that fail the build-id, address or symbol-size check
	 * anyway. Each forced site is reported at LIBBPF_WARN: its values may
	 * be read from the wrong registers or offsets.
	 */
	bool force;
	/**
	 * Check everything and report each site's attach point at LIBBPF_INFO,
	 * but attach nothing (the result has no links). No bpf_object needed.
	 */
	bool dry_run;
	/**
	 * With force: also attach a user site past its function's entry
	 * (symbol+offset, offset > 0) in a binary that failed a check. Without
	 * a disassembler the runtime cannot tell that such an address still
	 * starts an instruction, and a uprobe in the middle of one corrupts the
	 * process, so force alone refuses it.
	 */
	bool force_address;
	/**
	 * Attach every site that passes its checks and attaches; report each
	 * one that does not (with its reason) and skip it. NULL with errno only
	 * when no site attached. Which sites were skipped, and why:
	 * bpfprobe_attachment__site_err(). Off: all or nothing.
	 */
	bool partial;
	/**
	 * Dry runs only: the attach mode to describe (a real attach uses the
	 * one bpfprobe_object__load() chose for each program).
	 */
	enum bpfprobe_attach_mode attach_mode;
	size_t :0;
};
#define bpfprobe_attach_opts__last_field attach_mode

/** The links of every attached site. */
struct bpfprobe_attachment;

/**
 * Checks every site of \p obj (which must be loaded, unless dry_run) and
 * attaches each one: uprobes at the binary's file offset of symbol+offset
 * (resolved from its ELF symbol table), kprobes at symbol+offset or
 * module:symbol+offset. All or nothing unless opts.partial: every site is
 * checked and every refusal reported before the first error is returned;
 * on failure nothing stays attached.
 *
 * Errors (NULL, errno): EINVAL bad options or no metadata source; ENODATA
 * object without `.bpfprobe`; EBADMSG corrupt metadata; ENOENT program,
 * binary or symbol not found; ESTALE build-id, address or symbol-size
 * mismatch, or a target without a build-id (refused unless force); ENOEXEC
 * site built for another architecture; EOPNOTSUPP kernel without kprobe or
 * uprobe support; ESRCH the pid does not exist; EPERM/EACCES not allowed;
 * other errors from libbpf's attach calls.
 */
BPFPROBE_API struct bpfprobe_attachment *
bpfprobe_object__attach(struct bpf_object *obj,
			const struct bpfprobe_attach_opts *opts);

/** Detaches every site and frees. NULL is a no-op. */
BPFPROBE_API void bpfprobe_attachment__destroy(struct bpfprobe_attachment *att);
/** The metadata the attachment was made from (owned by it). */
BPFPROBE_API const struct bpfprobe_meta *
bpfprobe_attachment__meta(const struct bpfprobe_attachment *att);
/**
 * 0 when site \p idx of the metadata is attached (or would be, in a dry
 * run); the -errno it was skipped for under opts.partial. -EINVAL: no
 * such site.
 */
BPFPROBE_API int bpfprobe_attachment__site_err(const struct bpfprobe_attachment *att,
					       size_t idx);
/** Number of sites skipped under opts.partial. */
BPFPROBE_API size_t
bpfprobe_attachment__skipped_cnt(const struct bpfprobe_attachment *att);
/**
 * Session links: each attaches an `@entry(...)` pair's two sites as one
 * session program, and is no bpf_link of bpfprobe_attachment__link().
 */
BPFPROBE_API size_t
bpfprobe_attachment__session_cnt(const struct bpfprobe_attachment *att);
/**
 * uprobe_multi links, and the sites they attach (shared programs, loaded
 * for such links): no bpf_link of bpfprobe_attachment__link() either.
 */
BPFPROBE_API size_t
bpfprobe_attachment__multi_link_cnt(const struct bpfprobe_attachment *att);
BPFPROBE_API size_t
bpfprobe_attachment__multi_site_cnt(const struct bpfprobe_attachment *att);
/** Number of links: one per site attached as a perf-event probe. */
BPFPROBE_API size_t
bpfprobe_attachment__link_cnt(const struct bpfprobe_attachment *att);
BPFPROBE_API struct bpf_link *
bpfprobe_attachment__link(const struct bpfprobe_attachment *att, size_t idx);

/**
 * Build-id of an ELF file (its NT_GNU_BUILD_ID note) as lower-case hex into
 * \p buf. Returns the length, -ENODATA when it has none, -errno otherwise.
 */
BPFPROBE_API int bpfprobe_elf_build_id(const char *path, char *buf,
				       size_t buf_sz);
/**
 * Build-id of the running kernel (\p module NULL or "": /sys/kernel/notes)
 * or of a loaded module (/sys/module/<module>/notes).
 */
BPFPROBE_API int bpfprobe_kernel_build_id(const char *module, char *buf,
					  size_t buf_sz);

/* ---- Records of default-body probes --------------------------------- */

enum bpfprobe_format_flags {
	BPFPROBE_FMT_JSON = 1 << 0, /**< one JSON object instead of text */
	/** Values named as kprobe_events names them ("arg1", "customer",
	 * perf probe -D's names, which the plans print) and the place without
	 * "%return" or " [in copy]", for tools that pair records with the
	 * kernel's own events; by default values are named as written. */
	BPFPROBE_FMT_PERF_NAMES = 1 << 1,
};

/** The context a text record shows before its label (JSON has them all). */
enum bpfprobe_record_field {
	BPFPROBE_FIELD_TIME = 1 << 0, /**< seconds.microseconds */
	BPFPROBE_FIELD_COMM = 1 << 1, /**< the thread's name */
	BPFPROBE_FIELD_PID = 1 << 2,
	BPFPROBE_FIELD_TID = 1 << 3,
	BPFPROBE_FIELD_CPU = 1 << 4,  /**< [001] */
	BPFPROBE_FIELDS_ALL = (1 << 5) - 1,
};
struct bpfprobe_format_opts {
	size_t sz;
	/** enum bpfprobe_format_flags */
	unsigned int flags;
	/** enum bpfprobe_record_field: what text shows; 0 is all of them.
	 *  Records without a context (older objects) have pid and tid only. */
	unsigned int fields;
	/** Text times are relative to this CLOCK_MONOTONIC time (ns). */
	__u64 time_base_ns;
	/** Text times are wall-clock HH:MM:SS.uuuuuu instead: the monotonic
	 *  stamp plus realtime_offset_ns (CLOCK_REALTIME - CLOCK_MONOTONIC,
	 *  measured once), in local time. */
	bool time_abs;
	long long realtime_offset_ns;
	size_t :0;
};
#define bpfprobe_format_opts__last_field realtime_offset_ns
/**
 * Formats one ring-buffer record (struct bpfprobe_record_hdr, its
 * struct bpfprobe_record_ctx when the site has one, and its slots) as
 * `   0.001234 shop 22268/22268 [001] label name=value ...` or a JSON
 * object with "time_ns" (monotonic), "comm", "pid", "tid" and "cpu",
 * without a newline, the way snprintf does: returns the length it needed,
 * or -EBADMSG when the record is malformed (too short, unknown record_id,
 * nargs not matching the site); -EINVAL for bad options.
 */
BPFPROBE_API int bpfprobe_record__format(const struct bpfprobe_meta *meta,
					 const void *data, size_t size,
					 char *buf, size_t buf_sz,
					 const struct bpfprobe_format_opts *opts);
/** bpfprobe_record__format() with only \p flags: every field, times
 *  relative to 0 (the monotonic clock's seconds, as perf script shows). */
BPFPROBE_API int bpfprobe_record__snprintf(const struct bpfprobe_meta *meta,
					   const void *data, size_t size,
					   char *buf, size_t buf_sz,
					   unsigned int flags);
/**
 * The context of a record of \p site into \p ctx (comm NUL-terminated):
 * 0, -ENODATA when the site's records carry none (an older object),
 * -EBADMSG when the record is too short for it.
 */
BPFPROBE_API int bpfprobe_record__context(const struct bpfprobe_site *site,
					  const void *data, size_t size,
					  struct bpfprobe_record_ctx *ctx);

typedef int (*bpfprobe_record_fn)(void *ctx, const struct bpfprobe_site *site,
				  const struct bpfprobe_record_hdr *hdr,
				  const void *data, size_t size);

struct bpfprobe_records_opts {
	size_t sz;
	/** Called for every well-formed record; none: print to \c out. */
	bpfprobe_record_fn fn;
	void *ctx;
	/** Where to print, one record per line (default stdout). */
	FILE *out;
	/** enum bpfprobe_format_flags */
	unsigned int flags;
	/** > 0: drop records of other processes. */
	pid_t pid;
	/**
	 * > 0: only the first \c limit hits of each recording site are
	 * recorded. Enforced in BPF (BPFPROBE_SITES_MAP) so a busy site's
	 * later hits cost no ring space, and exactly here.
	 */
	__u64 limit;
	/** enum bpfprobe_site_mode: what the BPF side does per hit. */
	unsigned int mode;
	/**
	 * Submit records without waking the reader (BPF_RB_NO_WAKEUP): the
	 * caller then consumes on a timer (a few ms) instead of polling
	 * bpfprobe_records__fd(). One wake-up per record costs more than the
	 * probe itself under load.
	 */
	bool no_wakeup;
	/**
	 * With mode BPFPROBE_SITE_COUNT: also keep a log2 histogram of this
	 * argument (its name as records print it, its parameter name, or its
	 * source text) of every recording site that has it, in
	 * BPFPROBE_HIST_MAP; read with bpfprobe_records__site_hist().
	 */
	const char *hist;
	/** How printed records look (copied); NULL: bpfprobe_record__snprintf()'s
	 *  look with \c flags. */
	const struct bpfprobe_format_opts *format;
	/**
	 * Record only the hits of the processes in BPFPROBE_SCOPE_MAP (set
	 * BPFPROBE_SITE_SCOPED on every site; fill the map with
	 * bpfprobe_scope__new()). The others count as filtered. Objects
	 * without that map: -ENOENT from bpfprobe_records__new().
	 */
	bool scoped;
	size_t :0;
};
#define bpfprobe_records_opts__last_field scoped

enum bpfprobe_site_mode {
	BPFPROBE_SITE_RECORD = 0,     /**< one ring-buffer record per hit */
	BPFPROBE_SITE_COUNT = 1,      /**< count hits in BPF; no records */
};

/**
 * Counters of one recording site. Once the probes are detached and
 * bpfprobe_records__drain() returned 0, every hit is in exactly one of
 * them: hits == records + lost + dropped + filtered.
 */
struct bpfprobe_site_stats {
	__u64 hits;    /**< hits counted in BPF (up to the limit) */
	__u64 records; /**< records delivered to the reader */
	__u64 lost;    /**< records the ring buffer had no room for */
	/** hits and lost are valid: the object has BPFPROBE_SITES_MAP. */
	bool counted;
	/**
	 * Records read and not delivered: of another process (opts.pid) or
	 * of the reader itself, past the limit (racing CPUs), malformed, or
	 * left unread by bpfprobe_records__drain().
	 */
	__u64 dropped;
	/** The part of dropped that the drain had no time to decode. */
	__u64 unread;
	/**
	 * Hits rejected in BPF before any record was made: of a process out
	 * of scope (opts.scoped). Counted in hits.
	 */
	__u64 filtered;
};

/**
 * The largest records ring buffer: a ring of B bytes is B bytes of locked
 * kernel memory and, mapped twice for wrap-around, 2B of the reader's
 * resident memory (1 GiB: 2.1 GB RSS and 1.6 s to set up, measured).
 */
#define BPFPROBE_RECORDS_MAX_SIZE (1ull << 30)

/**
 * Before bpf_object__load(): sizes the records ring buffer to \p ring_size
 * bytes (0: 512 KiB per recording site, at least 1 MiB, at most 64 MiB; a
 * power of two from a page to BPFPROBE_RECORDS_MAX_SIZE) and
 * BPFPROBE_SITES_MAP to the number of recording sites. 0 or -errno
 * (-EINVAL: not a power of two, or out of that range).
 */
BPFPROBE_API int bpfprobe_records__prepare(struct bpf_object *obj,
					   const struct bpfprobe_meta *meta,
					   size_t ring_size);
/** The size bpfprobe_records__prepare() gives the ring for \p meta. */
BPFPROBE_API size_t bpfprobe_records__default_size(const struct bpfprobe_meta *meta);

/** Every record read is counted once: in records, malformed or dropped. */
struct bpfprobe_records_stats {
	__u64 records;   /**< well-formed records delivered */
	__u64 malformed; /**< records that could not be decoded */
	/**
	 * Records read and not delivered: of other processes (opts.pid), always
	 * of the reading process itself (printing a record of a probe on a write
	 * path would make a new one, forever), past opts.limit, and those
	 * bpfprobe_records__drain() had no time to decode (unread).
	 */
	__u64 dropped;
	/** The part of dropped left undecoded by bpfprobe_records__drain(). */
	__u64 unread;
	/** Hits rejected in BPF (out of scope), over all sites. */
	__u64 filtered;
	/**
	 * Records the BPF side could not write because the ring buffer was
	 * full, summed from the optional map BPFPROBE_LOST_MAP; valid only
	 * when lost_counted (the object has that map).
	 */
	__u64 lost;
	bool lost_counted;
};

/**
 * Optional map of default-body objects: an ARRAY or PERCPU_ARRAY with one
 * __u64 at key 0 that the BPF side increments when bpf_ringbuf_reserve()
 * fails. Without it, lost records cannot be counted (and the stats say so).
 */
#define BPFPROBE_LOST_MAP "bpfprobe_lost"

/** Reader of the BPFPROBE_RECORDS_MAP ring buffer of a loaded object. */
struct bpfprobe_records;

/**
 * Opens the ring buffer of \p obj and, when the object has
 * BPFPROBE_SITES_MAP, fills one entry per recording site with the options'
 * limit, mode and wake-up flag: call it after loading and before attaching
 * so every hit is counted. NULL with errno ENOENT when the object has no
 * BPFPROBE_RECORDS_MAP map (it has no default-body probe).
 */
BPFPROBE_API struct bpfprobe_records *
bpfprobe_records__new(struct bpf_object *obj, const struct bpfprobe_meta *meta,
		      const struct bpfprobe_records_opts *opts);
/**
 * Waits up to \p timeout_ms; returns the number of records or -errno. This
 * and consume handle at most BPFPROBE_RECORDS_BATCH records per call, so a
 * caller's loop gets control back under any event rate.
 */
#define BPFPROBE_RECORDS_BATCH 1024
BPFPROBE_API int bpfprobe_records__poll(struct bpfprobe_records *recs,
					int timeout_ms);
/** Handles what is already in the buffer (at most a batch) without waiting. */
BPFPROBE_API int bpfprobe_records__consume(struct bpfprobe_records *recs);
/**
 * Bytes written to the ring buffer and not yet consumed (0: empty), from
 * the ring's producer and consumer positions; -EOPNOTSUPP when they could
 * not be mapped.
 */
BPFPROBE_API long long bpfprobe_records__pending(const struct bpfprobe_records *recs);
/**
 * At the end of a run, after the probes are detached: handles every record
 * left in the ring, and waits for hits counted in BPF whose records are
 * still being written, for up to \p timeout_ms; then counts what is left,
 * without decoding it, as dropped (unread), for up to \p timeout_ms more.
 * 0 when every counted hit is accounted for (see struct
 * bpfprobe_site_stats); -EINPROGRESS when records are still in flight (a
 * probe still attached, or a program still running), so the counts do not
 * add up; other -errno from reading the ring.
 */
BPFPROBE_API int bpfprobe_records__drain(struct bpfprobe_records *recs,
					 int timeout_ms);
/** An fd that polls readable when records arrive (for your own loop). */
BPFPROBE_API int bpfprobe_records__fd(const struct bpfprobe_records *recs);
BPFPROBE_API int bpfprobe_records__stats(const struct bpfprobe_records *recs,
					 struct bpfprobe_records_stats *stats);
/**
 * Counters of recording site \p site (a site of the metadata). Read the
 * BPF side's counts after the probes are detached or the traced process
 * is gone for final figures.
 */
BPFPROBE_API int bpfprobe_records__site_stats(const struct bpfprobe_records *recs,
					      const struct bpfprobe_site *site,
					      struct bpfprobe_site_stats *stats);
/**
 * The log2 histogram of site \p site (opts.hist) into \p buckets
 * (BPFPROBE_HIST_BUCKETS counts: bucket 0 negative values, 1 zero, k >= 2
 * the values in [2^(k-2), 2^(k-1))). Returns the index of the argument
 * histogrammed, -ENOENT when the site keeps no histogram.
 */
BPFPROBE_API int bpfprobe_records__site_hist(const struct bpfprobe_records *recs,
					     const struct bpfprobe_site *site,
					     __u64 *buckets);
BPFPROBE_API void bpfprobe_records__free(struct bpfprobe_records *recs);

/* ---- Scope: the processes a run records ----------------------------- */

/**
 * The BPFPROBE_SCOPE_MAP of a loaded object (declared by BPF_PROBE_RECORD),
 * which sites scoped through bpfprobe_records_opts.scoped consult on every
 * hit. NULL with errno ENOENT when the object has no such map (an older
 * object): scope its uprobes with bpfprobe_attach_opts.pid instead.
 */
struct bpfprobe_scope;
BPFPROBE_API struct bpfprobe_scope *bpfprobe_scope__new(struct bpf_object *obj);
/** Adds process \p pid (a tgid) to the scope: 0 or -errno. */
BPFPROBE_API int bpfprobe_scope__add(struct bpfprobe_scope *s, pid_t pid);
/**
 * Follows the descendants of the processes in the scope from now on: loads
 * the runtime's own programs on the tracepoints sched/sched_process_fork
 * (a child of a process in scope is added before it first runs) and
 * sched/sched_process_exit (a process leaves the scope when its leader
 * exits). 0 or -errno (no tracefs, or the kernel refused the programs).
 */
BPFPROBE_API int bpfprobe_scope__follow(struct bpfprobe_scope *s);
/** Detaches the fork and exit programs and frees; NULL is a no-op. */
BPFPROBE_API void bpfprobe_scope__free(struct bpfprobe_scope *s);

/* ---- Loading; programs the metadata does not describe --------------- */

struct bpfprobe_load_opts {
	size_t sz;
	/** Lines of a rejected program's verifier log to show (0: 20). */
	size_t log_lines;
	/**
	 * Pass libbpf's warnings on as they come, the whole verifier log
	 * included; a rejection is then reported by the program's name only.
	 */
	bool whole_log;
	/** How to see the whole log, said where lines were left out. */
	const char *whole_log_hint;
	/**
	 * The object's metadata: with it, `@entry(...)` pairs are loaded as
	 * session programs (kprobe.session, uprobe.session) where the running
	 * kernel has them ($BPFPROBE_ENTRY_PAIRING=map: never), and as an
	 * entry and a return program paired through a map otherwise. Without
	 * it, always the latter.
	 */
	const struct bpfprobe_meta *meta;
	/**
	 * With meta: how uprobe and uretprobe programs (those shared by the
	 * copies of a site, and a lone site's own; not `@entry(...)` pairs')
	 * will attach (enum bpfprobe_attach_mode); decided here, because a
	 * uprobe_multi program is loaded as one and cannot then attach as a
	 * plain uprobe: attach such an object with bpfprobe_object__attach(),
	 * or load it with BPFPROBE_ATTACH_SINGLE to attach with libbpf.
	 */
	enum bpfprobe_attach_mode attach_mode;
	size_t :0;
};
#define bpfprobe_load_opts__last_field attach_mode

/**
 * bpf_object__load() with libbpf's warnings kept while it runs: when the
 * verifier rejects a program, the message callback gets the program's
 * name and the last opts.log_lines lines of its log (where the reason is),
 * and the result is -LIBBPF_ERRNO__VERIFY; other warnings go on to the
 * libbpf print callback set before the call, after the load. Otherwise 0,
 * or libbpf's -errno (-EPERM: no CAP_BPF). Not for concurrent loads
 * (libbpf's print callback is global).
 */
BPFPROBE_API int bpfprobe_object__load(struct bpf_object *obj,
				       const struct bpfprobe_load_opts *opts);

struct bpfprobe_plain_opts {
	size_t sz;
	/**
	 * The process the probe sites are limited to: a plain program fires
	 * in every process, which is then said once per program.
	 */
	pid_t pid;
	size_t :0;
};
#define bpfprobe_plain_opts__last_field pid

/** The links of the programs bpfprobe_object__attach_plain() attached. */
struct bpfprobe_plain_links;

/**
 * Attaches every program of loaded \p obj that \p meta does not describe
 * (plain libbpf sections beside the probe sites) by its section name, as
 * bpf_program__attach() does; a program libbpf cannot attach that way is
 * reported and skipped. NULL with errno only for EINVAL or ENOMEM.
 */
BPFPROBE_API struct bpfprobe_plain_links *
bpfprobe_object__attach_plain(struct bpf_object *obj,
			      const struct bpfprobe_meta *meta,
			      const struct bpfprobe_plain_opts *opts);
BPFPROBE_API size_t
bpfprobe_plain_links__cnt(const struct bpfprobe_plain_links *links);
/** Detaches them. */
BPFPROBE_API void bpfprobe_plain_links__destroy(struct bpfprobe_plain_links *links);

/* ---- bpf_printk lines ----------------------------------------------- */

/** Does \p prog call bpf_trace_printk or bpf_trace_vprintk? */
BPFPROBE_API bool bpfprobe_program__uses_printk(const struct bpf_program *prog);
/** Does a program of \p obj? */
BPFPROBE_API bool bpfprobe_object__uses_printk(const struct bpf_object *obj);

/** One bpf_printk line; the strings live until the callback returns. */
struct bpfprobe_printk_line {
	/**
	 * The task's name: the one given to bpfprobe_printk__name_task() for
	 * its process, else /proc's while the task lives, else the trace's
	 * saved_cmdlines, else "<...>".
	 */
	const char *comm;
	long tid;         /**< the event's common_pid (binary, not parsed text) */
	long pid;         /**< the thread's process (tgid); -1 when unknown */
	int cpu;
	const char *time; /**< seconds, as the trace prints them; NULL if unreadable */
	const char *msg;  /**< the message, its trailing newlines removed */
};

typedef void (*bpfprobe_printk_fn)(void *ctx,
				   const struct bpfprobe_printk_line *line);

struct bpfprobe_printk_opts {
	size_t sz;
	/** Only lines of this process (0: of every process). */
	pid_t pid;
	/** BPFPROBE_FMT_JSON: how the default printer prints a line. */
	unsigned int flags;
	/** Receives each line; NULL prints it to stdout. */
	bpfprobe_printk_fn on_line;
	void *ctx;
	size_t :0;
};
#define bpfprobe_printk_opts__last_field ctx

struct bpfprobe_printk_stats {
	__u64 lines;    /**< lines delivered */
	/** Lines of other processes (opts.pid) and of the reading process. */
	__u64 filtered;
	/** Lines the trace lost: the instance's overruns and dropped events. */
	__u64 lost;
};

/** The bpf_printk lines of the system, read from a tracefs instance. */
struct bpfprobe_printk;

/**
 * Starts collecting bpf_printk lines in a private tracefs instance
 * (instances/bpfprobe-<pid>-<random>): its own buffer, so other readers
 * of trace_pipe neither take these lines nor get them. Its per-CPU
 * trace_pipe_raw files stay open until bpfprobe_printk__close() removes
 * it; an instance left by a killed process (no file of it open) is removed
 * by the next open, and one that is open is never touched. Without an
 * instance, the global buffer, with a warning. Lines are attributed from
 * the events' binary fields (docs/security.md). NULL with errno when
 * tracefs cannot be read (ENOENT: not mounted and not mountable).
 */
BPFPROBE_API struct bpfprobe_printk *
bpfprobe_printk__open(const struct bpfprobe_printk_opts *opts);
/**
 * Names the lines of process \p pid \p name (its base name, as the kernel
 * names a task after exec), or its name now when \p name is NULL: the
 * trace's saved-cmdlines cache may have lost it. Up to 8 processes.
 */
BPFPROBE_API int bpfprobe_printk__name_task(struct bpfprobe_printk *printk,
					    pid_t pid, const char *name);
/** An fd that polls readable when lines arrive (an epoll fd). */
BPFPROBE_API int bpfprobe_printk__fd(const struct bpfprobe_printk *printk);
/**
 * Reads what has arrived (a bounded batch) and hands each line on; the
 * number of lines delivered, or -errno.
 */
BPFPROBE_API int bpfprobe_printk__read(struct bpfprobe_printk *printk);
BPFPROBE_API int bpfprobe_printk__stats(const struct bpfprobe_printk *printk,
					struct bpfprobe_printk_stats *stats);
BPFPROBE_API void bpfprobe_printk__close(struct bpfprobe_printk *printk);
/**
 * Prints \p line to stdout as bpfprobe-run does: "comm-pid: msg", or a
 * JSON object with BPFPROBE_FMT_JSON.
 */
BPFPROBE_API void bpfprobe_printk_line__print(const struct bpfprobe_printk_line *line,
					      unsigned int flags);

/* ---- Paths another user may have influenced (docs/security.md) ---- */

struct stat;

/**
 * 0 when \p path resolves to a file or directory that only root, the
 * effective user or \p also (-1: nobody else) can have written or replaced:
 * every component of the resolved path owned by one of them and not
 * writable by group or others (sticky directories above the end excepted).
 * The resolved path goes to \p resolved (PATH_MAX bytes, may be NULL): use
 * it, not \p path. Else -errno, and for -EPERM the reason in \p why.
 */
LIBBPF_API int bpfprobe_trusted_path(const char *path, uid_t also,
					  char *resolved, char *why,
					  size_t why_sz);

/**
 * The rule of bpfprobe_trusted_path() for one component \p name already
 * opened or stat'ed (\p st): owned by root, the effective user or \p also,
 * and not writable by group or others unless it is a sticky directory and
 * not the \p last component. 0, or -EPERM with the reason in \p why.
 */
LIBBPF_API int bpfprobe_trusted_stat(const struct stat *st,
					  const char *name, bool last,
					  uid_t also, char *why,
					  size_t why_sz);

#ifdef __cplusplus
}
#endif

#endif /* BPFPROBE_RUNTIME_H */
