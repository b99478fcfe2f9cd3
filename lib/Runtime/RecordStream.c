/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Reads the `bpfprobe_records` ring buffer of a loaded object with libbpf's
 * ring_buffer API, decodes each record against the metadata and hands it to
 * a callback or prints it (RecordFormat.c). Counts what it could not decode
 * and, when the object has the optional `bpfprobe_lost` map, what the BPF
 * side dropped: lost events are reported, never hidden. Records of the
 * reading process itself are dropped, and one call handles a bounded batch:
 * a probe on the path that prints a record must not feed itself.
 *
 * Every hit the BPF side counts ends in exactly one counter of its site:
 * delivered (records), not written for want of ring space (lost), or read
 * and not delivered (dropped: of another process, of the reader, past the
 * limit, malformed, or left unread when bpfprobe_records__drain() ran out
 * of time). The drain reads the ring's producer and consumer positions to
 * know when it is empty.
 */
#include "Internal.h"

#include <bpf/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct bpfprobe_records {
	const struct bpfprobe_meta *meta;
	struct ring_buffer *rb;
	int lost_fd;
	bool lost_percpu;
	bpfprobe_record_fn fn;
	void *ctx;
	FILE *out;
	unsigned int flags;
	struct bpfprobe_format_opts format;
	pid_t pid;
	pid_t self;
	unsigned int batch; /* records handled in this consume/poll call */
	bool batch_full;
	bool discard; /* count records as unread instead of delivering them */
	bool count_only; /* BPFPROBE_SITE_COUNT: hits make no records */
	/* The ring's consumer and producer pages (read-only maps), or NULL. */
	const unsigned long *cons_pos;
	const unsigned long *prod_pos;
	struct bpfprobe_records_stats stats;
	char *line;
	size_t line_sz;
	int sites_fd; /* BPFPROBE_SITES_MAP, or -1 */
	int hist_fd;  /* BPFPROBE_HIST_MAP, or -1 */
	int *hist_arg; /* per site of meta: the argument histogrammed, or -1 */
	__u64 limit;
	__u64 *site_records; /* per site of meta: records delivered */
	__u64 *site_dropped; /* per site of meta: read, not delivered */
	__u64 *site_unread;  /* per site of meta: the part left unread */
};

/* Index of \p site in the metadata, or -1. */
static long site_index(const struct bpfprobe_meta *meta,
		       const struct bpfprobe_site *site)
{
	size_t n = bpfprobe_meta__site_cnt(meta);
	const struct bpfprobe_site *first;

	if (!site || !n)
		return -1;
	/* The sites are one array. */
	first = bpfprobe_meta__site(meta, 0);
	if (site < first || site >= first + n)
		return -1;
	return (long)(site - first);
}

static size_t record_site_cnt(const struct bpfprobe_meta *meta)
{
	size_t n = 0;

	for (size_t i = 0; i < bpfprobe_meta__site_cnt(meta); i++)
		n += bpfprobe_meta__site(meta, i)->has_record_id;
	return n;
}

size_t bpfprobe_records__default_size(const struct bpfprobe_meta *meta)
{
	size_t want = record_site_cnt(meta) * (512u << 10), size = 1u << 20;

	while (size < want && size < (64u << 20))
		size <<= 1;
	return size;
}

int bpfprobe_records__prepare(struct bpf_object *obj,
			      const struct bpfprobe_meta *meta, size_t ring_size)
{
	struct bpf_map *map;
	long page = sysconf(_SC_PAGESIZE);
	size_t sites;
	int err;

	if (!obj || !meta)
		return -EINVAL;
	if (!ring_size)
		ring_size = bpfprobe_records__default_size(meta);
	if ((ring_size & (ring_size - 1)) || ring_size < (size_t)page ||
	    ring_size > BPFPROBE_RECORDS_MAX_SIZE)
		return -EINVAL;
	map = bpf_object__find_map_by_name(obj, BPFPROBE_RECORDS_MAP);
	if (map && (err = bpf_map__set_max_entries(map, (__u32)ring_size)))
		return err;
	map = bpf_object__find_map_by_name(obj, BPFPROBE_SITES_MAP);
	sites = record_site_cnt(meta);
	if (map && (err = bpf_map__set_max_entries(map, sites ? (__u32)sites : 1)))
		return err;
	map = bpf_object__find_map_by_name(obj, BPFPROBE_HIST_MAP);
	if (map && (err = bpf_map__set_max_entries(
			    map, (sites ? (__u32)sites : 1) * BPFPROBE_HIST_BUCKETS)))
		return err;
	return 0;
}

/* One entry per recording site, before anything is attached. */
static int fill_sites(struct bpfprobe_records *r, struct bpf_object *obj,
		      const struct bpfprobe_records_opts *opts)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, BPFPROBE_SITES_MAP);
	const char *hist = OPTS_GET(opts, hist, NULL);
	struct bpf_map *hmap = bpf_object__find_map_by_name(obj, BPFPROBE_HIST_MAP);
	bool hist_found = false;

	r->sites_fd = -1;
	r->hist_fd = hmap && bpf_map__type(hmap) == BPF_MAP_TYPE_HASH &&
			     bpf_map__key_size(hmap) == 8 && bpf_map__value_size(hmap) == 8
		     ? bpf_map__fd(hmap) : -1;
	for (size_t i = 0; i < bpfprobe_meta__site_cnt(r->meta); i++)
		r->hist_arg[i] = -1;
	if (hist && (!map || r->hist_fd < 0)) {
		pr_warn("--hist needs the '%s' and '%s' maps: declare BPF_PROBE_HIST_MAP; beside the BPF_PROBE_RECORD probes (bpfprobe.h)\n",
			BPFPROBE_SITES_MAP, BPFPROBE_HIST_MAP);
		return -EINVAL;
	}
	if (OPTS_GET(opts, scoped, false)) {
		struct bpf_map *scope = bpf_object__find_map_by_name(obj, BPFPROBE_SCOPE_MAP);

		if (!map || !scope || bpf_map__key_size(scope) != sizeof(__u32)) {
			pr_warn("scoping needs the '%s' and '%s' maps of BPF_PROBE_RECORD (bpfprobe.h); rebuild the object with this bpfprobe\n",
				BPFPROBE_SITES_MAP, BPFPROBE_SCOPE_MAP);
			return -EINVAL;
		}
	}
	if (!map)
		return 0;
	if (bpf_map__type(map) != BPF_MAP_TYPE_HASH ||
	    bpf_map__key_size(map) != sizeof(__u32) ||
	    bpf_map__value_size(map) != sizeof(struct bpfprobe_site_ctl)) {
		pr_warn("map '%s' is not a HASH of __u32 to struct bpfprobe_site_ctl; per-site counts and limits are off\n",
			BPFPROBE_SITES_MAP);
		return 0;
	}
	r->sites_fd = bpf_map__fd(map);
	for (size_t i = 0; i < bpfprobe_meta__site_cnt(r->meta); i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(r->meta, i);
		struct bpfprobe_site_ctl ctl = {
			.limit = OPTS_GET(opts, limit, 0),
			.submit_flags = OPTS_GET(opts, no_wakeup, false) ? BPF_RB_NO_WAKEUP : 0,
			.flags = (OPTS_GET(opts, mode, 0) == BPFPROBE_SITE_COUNT
					  ? BPFPROBE_SITE_COUNT_ONLY : 0) |
				 (OPTS_GET(opts, scoped, false) ? BPFPROBE_SITE_SCOPED : 0),
		};
		__u32 key;

		if (!s->has_record_id)
			continue;
		for (size_t a = 0; hist && a < s->arg_cnt; a++) {
			const char *t = s->args[a].type;

			if (strcmp(hist, s->arg_labels[a]) && strcmp(hist, s->args[a].name) &&
			    strcmp(hist, s->args[a].text))
				continue;
			if (!strcmp(t, "string") || !strcmp(t, "ustring") ||
			    !strcmp(t, BPFPROBE_TYPE_COUNTED_STRING) ||
			    !strcmp(t, BPFPROBE_TYPE_COUNTED_USTRING)) {
				pr_warn("--hist %s: in probe '%s' it is a string; a histogram needs a number\n",
					hist, s->program);
				return -EINVAL;
			}
			if (t[0] == 'f') {
				pr_warn("--hist %s: in probe '%s' it is floating-point; the histogram counts integers\n",
					hist, s->program);
				return -EINVAL;
			}
			ctl.flags |= BPFPROBE_SITE_HIST;
			ctl.hist_arg = a;
			r->hist_arg[i] = (int)a;
			hist_found = true;
			break;
		}
		key = s->record_id;
		if (bpf_map_update_elem(r->sites_fd, &key, &ctl, BPF_ANY)) {
			int err = -errno;

			pr_warn("cannot fill '%s' for site '%s': %s\n",
				BPFPROBE_SITES_MAP, s->program, strerror(-err));
			return err;
		}
	}
	if (hist && !hist_found) {
		pr_warn("--hist %s: no recording probe has such an argument; name one as the records print it (e.g. 'weight', 'arg1') or as written in the spec\n",
			hist);
		return -EINVAL;
	}
	return 0;
}

static int handle_record(struct bpfprobe_records *r, void *data, size_t size);

/*
 * libbpf advances the consumer position before calling us, and stops at the
 * first negative return: a full batch ends the call (the record was handled).
 */
static int on_record(void *ctx, void *data, size_t size)
{
	struct bpfprobe_records *r = ctx;
	int err = handle_record(r, data, size);

	if (err < 0)
		return err;
	if (++r->batch >= BPFPROBE_RECORDS_BATCH) {
		r->batch_full = true;
		return -ECANCELED;
	}
	return 0;
}

/*
 * The site a record names in its header, by index in the metadata, or -1:
 * too short to have a header, or a record_id the metadata does not have.
 */
static long record_site(const struct bpfprobe_records *r, const void *data,
			size_t size)
{
	const struct bpfprobe_record_hdr *hdr = data;

	if (size < sizeof(*hdr) || !r->site_records)
		return -1;
	return site_index(r->meta, bpfprobe_meta__find_record(r->meta, hdr->record_id));
}

/* A record read and not delivered: counted once, on its site if it has one. */
static void drop_record(struct bpfprobe_records *r, long i)
{
	r->stats.dropped++;
	if (i >= 0)
		r->site_dropped[i]++;
}

static int handle_record(struct bpfprobe_records *r, void *data, size_t size)
{
	const struct bpfprobe_record_hdr *hdr = data;
	const struct bpfprobe_site *site;
	long i = record_site(r, data, size);
	int n;

	if (r->discard) {
		/* The drain ran out of time: counted, not decoded. */
		if (i >= 0)
			r->site_unread[i]++;
		r->stats.unread++;
		drop_record(r, i);
		return 0;
	}
	n = bpfprobe_record__format(r->meta, data, size, r->line, r->line_sz,
				    &r->format);
	if (n == -EBADMSG) {
		if (r->stats.malformed++ == 0)
			pr_warn("malformed record in %s (%zu bytes, record_id %u); it does not match the .bpfprobe metadata of this object\n",
				BPFPROBE_RECORDS_MAP, size,
				size >= sizeof(*hdr) ? hdr->record_id : 0);
		/* A malformed record of a known site was one of its hits. */
		if (i >= 0)
			r->site_dropped[i]++;
		return 0;
	}
	if (n < 0)
		return n;
	if ((r->pid > 0 && hdr->pid != (__u32)r->pid) || hdr->pid == (__u32)r->self) {
		drop_record(r, i);
		return 0;
	}
	site = i >= 0 ? bpfprobe_meta__site(r->meta, i)
		      : bpfprobe_meta__find_record(r->meta, hdr->record_id);
	/* The BPF side may let a few more through racing CPUs. */
	if (i >= 0 && r->limit && r->site_records[i] >= r->limit) {
		drop_record(r, i);
		return 0;
	}
	if (i >= 0)
		r->site_records[i]++;
	r->stats.records++;
	if (r->fn)
		return r->fn(r->ctx, site, hdr, data, size);
	if ((size_t)n >= r->line_sz) {
		char *bigger = realloc(r->line, n + 1);

		if (!bigger)
			return -ENOMEM;
		r->line = bigger;
		r->line_sz = n + 1;
		bpfprobe_record__format(r->meta, data, size, r->line, r->line_sz,
					&r->format);
	}
	/* Buffered: the caller flushes once per batch, not per record. */
	fprintf(r->out, "%s\n", r->line);
	return 0;
}

/*
 * The ring's consumer page (offset 0) and producer page (one page in), each
 * starting with its position, mapped read-only as libbpf maps them: the
 * drain compares them to tell an empty ring. Without them (an old kernel),
 * the drain stops at the first empty read.
 */
static void map_positions(struct bpfprobe_records *r, int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	void *cons, *prod;

	cons = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (cons == MAP_FAILED) {
		pr_debug("cannot map the consumer page of '%s': %s\n",
			 BPFPROBE_RECORDS_MAP, strerror(errno));
		return;
	}
	prod = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, page);
	if (prod == MAP_FAILED) {
		pr_debug("cannot map the producer page of '%s': %s\n",
			 BPFPROBE_RECORDS_MAP, strerror(errno));
		munmap(cons, page);
		return;
	}
	r->cons_pos = cons;
	r->prod_pos = prod;
}

struct bpfprobe_records *
bpfprobe_records__new(struct bpf_object *obj, const struct bpfprobe_meta *meta,
		      const struct bpfprobe_records_opts *opts)
{
	struct bpfprobe_records *r;
	struct bpf_map *map;
	int err;

	if (!OPTS_VALID(opts, bpfprobe_records_opts) || !obj || !meta ||
	    (OPTS_GET(opts, format, NULL) &&
	     !OPTS_VALID(opts->format, bpfprobe_format_opts))) {
		errno = EINVAL;
		return NULL;
	}
	map = bpf_object__find_map_by_name(obj, BPFPROBE_RECORDS_MAP);
	if (!map) {
		errno = ENOENT;
		return NULL;
	}
	if (bpf_map__type(map) != BPF_MAP_TYPE_RINGBUF) {
		pr_warn("map '%s' is not a ring buffer (BPF_MAP_TYPE_RINGBUF)\n",
			BPFPROBE_RECORDS_MAP);
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->meta = meta;
	r->fn = OPTS_GET(opts, fn, NULL);
	r->ctx = OPTS_GET(opts, ctx, NULL);
	r->out = OPTS_GET(opts, out, NULL) ?: stdout;
	r->flags = OPTS_GET(opts, flags, 0);
	r->format.sz = sizeof(r->format);
	r->format.flags = r->flags;
	if (OPTS_GET(opts, format, NULL)) {
		const struct bpfprobe_format_opts *f = opts->format;

		memcpy(&r->format, f, f->sz < sizeof(r->format) ? f->sz : sizeof(r->format));
		r->format.sz = sizeof(r->format);
		r->format.flags |= r->flags;
	}
	r->pid = OPTS_GET(opts, pid, 0);
	r->limit = OPTS_GET(opts, limit, 0);
	r->count_only = OPTS_GET(opts, mode, 0) == BPFPROBE_SITE_COUNT;
	r->self = getpid();
	r->site_records = calloc(bpfprobe_meta__site_cnt(meta) + 1,
				 sizeof(*r->site_records));
	r->site_dropped = calloc(bpfprobe_meta__site_cnt(meta) + 1,
				 sizeof(*r->site_dropped));
	r->site_unread = calloc(bpfprobe_meta__site_cnt(meta) + 1,
				sizeof(*r->site_unread));
	r->hist_arg = calloc(bpfprobe_meta__site_cnt(meta) + 1, sizeof(*r->hist_arg));
	r->lost_fd = -1;
	r->line_sz = 512;
	r->line = malloc(r->line_sz);
	if (!r->line || !r->site_records || !r->site_dropped || !r->site_unread ||
	    !r->hist_arg) {
		bpfprobe_records__free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->rb = ring_buffer__new(bpf_map__fd(map), on_record, r, NULL);
	if (!r->rb) {
		err = errno;
		pr_warn("cannot open ring buffer '%s': %s (is the object loaded?)\n",
			BPFPROBE_RECORDS_MAP, strerror(err));
		bpfprobe_records__free(r);
		errno = err;
		return NULL;
	}
	map_positions(r, bpf_map__fd(map));
	map = bpf_object__find_map_by_name(obj, BPFPROBE_LOST_MAP);
	if (map && (bpf_map__type(map) == BPF_MAP_TYPE_ARRAY ||
		    bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY) &&
	    bpf_map__value_size(map) == sizeof(__u64)) {
		r->lost_fd = bpf_map__fd(map);
		r->lost_percpu = bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY;
	} else if (map) {
		pr_warn("map '%s' is not an ARRAY or PERCPU_ARRAY of __u64; lost records cannot be counted\n",
			BPFPROBE_LOST_MAP);
	}
	err = fill_sites(r, obj, opts);
	if (err) {
		bpfprobe_records__free(r);
		errno = -err;
		return NULL;
	}
	return r;
}

/* A full batch is no error: the count handled so far. */
static int batch_result(struct bpfprobe_records *r, int ret)
{
	if (r->batch_full)
		ret = r->batch;
	r->batch = 0;
	r->batch_full = false;
	return ret;
}

long long bpfprobe_records__pending(const struct bpfprobe_records *r)
{
	if (!r)
		return -EINVAL;
	if (!r->cons_pos || !r->prod_pos)
		return -EOPNOTSUPP;
	return (long long)(__atomic_load_n(r->prod_pos, __ATOMIC_ACQUIRE) -
			   __atomic_load_n(r->cons_pos, __ATOMIC_ACQUIRE));
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/*
 * Every hit the BPF side counted has reached a counter of its site: none
 * is between its count and its record (a program still running on another
 * CPU). Sites without BPF counters cannot tell, and do not hold the drain.
 */
static bool sites_settled(const struct bpfprobe_records *r)
{
	if (r->count_only)
		return true;
	for (size_t i = 0; r->sites_fd >= 0 && i < bpfprobe_meta__site_cnt(r->meta); i++) {
		struct bpfprobe_site_stats st;

		if (bpfprobe_records__site_stats(r, bpfprobe_meta__site(r->meta, i), &st) ||
		    !st.counted)
			continue;
		if (st.records + st.lost + st.dropped + st.filtered < st.hits)
			return false;
	}
	return true;
}

/* One step of the drain: consume a batch; true when there may be more. */
static bool drain_step(struct bpfprobe_records *r, int *err)
{
	long long left;
	int n = bpfprobe_records__consume(r);

	if (n < 0) {
		*err = n;
		return false;
	}
	left = bpfprobe_records__pending(r);
	if (left > 0 || (left < 0 && n > 0))
		return true;
	/* Empty: done once no hit is still on its way to the ring. */
	return !sites_settled(r);
}

int bpfprobe_records__drain(struct bpfprobe_records *r, int timeout_ms)
{
	long long until;
	int err = 0;
	bool more = true;

	if (!r || timeout_ms < 0)
		return -EINVAL;
	until = now_ms() + timeout_ms;
	while (more && !err && now_ms() < until) {
		long long before = bpfprobe_records__pending(r);

		more = drain_step(r, &err);
		/* A record being written (or a hit on its way): wait for it. */
		if (more && before == bpfprobe_records__pending(r)) {
			struct timespec ms = { 0, 1000000 };

			nanosleep(&ms, NULL);
		}
	}
	if (err)
		return err;
	/* Out of time: what the ring still holds is counted, not decoded. */
	r->discard = true;
	until = now_ms() + timeout_ms;
	while (more && !err && now_ms() < until && bpfprobe_records__pending(r) != 0) {
		int n = bpfprobe_records__consume(r);

		if (n < 0)
			err = n;
		else if (!n)
			break; /* a record still being written */
	}
	r->discard = false;
	if (err)
		return err;
	if (bpfprobe_records__pending(r) > 0 || !sites_settled(r))
		return -EINPROGRESS;
	return 0;
}

int bpfprobe_records__poll(struct bpfprobe_records *r, int timeout_ms)
{
	return r ? batch_result(r, ring_buffer__poll(r->rb, timeout_ms)) : -EINVAL;
}

int bpfprobe_records__consume(struct bpfprobe_records *r)
{
	return r ? batch_result(r, ring_buffer__consume(r->rb)) : -EINVAL;
}

int bpfprobe_records__fd(const struct bpfprobe_records *r)
{
	return r ? ring_buffer__epoll_fd(r->rb) : -EINVAL;
}

int bpfprobe_records__stats(const struct bpfprobe_records *r,
			    struct bpfprobe_records_stats *stats)
{
	__u32 key = 0;

	if (!r || !stats)
		return -EINVAL;
	*stats = r->stats;
	stats->filtered = 0;
	stats->lost = 0;
	stats->lost_counted = false;
	/* Sites with an entry in BPFPROBE_SITES_MAP count their own losses. */
	for (size_t i = 0; r->sites_fd >= 0 && i < bpfprobe_meta__site_cnt(r->meta); i++) {
		struct bpfprobe_site_stats st;

		if (!bpfprobe_records__site_stats(r, bpfprobe_meta__site(r->meta, i), &st) &&
		    st.counted) {
			stats->lost += st.lost;
			stats->filtered += st.filtered;
			stats->lost_counted = true;
		}
	}
	if (r->lost_fd < 0)
		return 0;
	if (r->lost_percpu) {
		int ncpu = libbpf_num_possible_cpus();
		__u64 *vals;

		if (ncpu <= 0)
			return ncpu;
		vals = calloc(ncpu, sizeof(*vals));
		if (!vals)
			return -ENOMEM;
		if (!bpf_map_lookup_elem(r->lost_fd, &key, vals)) {
			for (int i = 0; i < ncpu; i++)
				stats->lost += vals[i];
			stats->lost_counted = true;
		}
		free(vals);
	} else {
		__u64 v;

		if (!bpf_map_lookup_elem(r->lost_fd, &key, &v)) {
			stats->lost += v;
			stats->lost_counted = true;
		}
	}
	return 0;
}

int bpfprobe_records__site_stats(const struct bpfprobe_records *r,
				 const struct bpfprobe_site *site,
				 struct bpfprobe_site_stats *st)
{
	struct bpfprobe_site_ctl ctl;
	long i;
	__u32 key;

	if (!r || !site || !st)
		return -EINVAL;
	i = site_index(r->meta, site);
	if (i < 0 || !site->has_record_id)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->records = r->site_records[i];
	st->dropped = r->site_dropped[i];
	st->unread = r->site_unread[i];
	key = site->record_id;
	if (r->sites_fd >= 0 && !bpf_map_lookup_elem(r->sites_fd, &key, &ctl)) {
		st->hits = ctl.hits;
		st->lost = ctl.lost;
		/* Hits out of scope (BPFPROBE_SITE_SCOPED), counted in hits. */
		st->filtered = ctl.filtered;
		st->counted = true;
	}
	return 0;
}

int bpfprobe_records__site_hist(const struct bpfprobe_records *r,
				const struct bpfprobe_site *site, __u64 *buckets)
{
	__u64 key, next, val, *prev = NULL;
	long i;

	if (!r || !site || !buckets)
		return -EINVAL;
	i = site_index(r->meta, site);
	if (i < 0 || r->hist_fd < 0 || r->hist_arg[i] < 0)
		return -ENOENT;
	memset(buckets, 0, BPFPROBE_HIST_BUCKETS * sizeof(*buckets));
	while (!bpf_map_get_next_key(r->hist_fd, prev, &next)) {
		key = next;
		prev = &key;
		if ((key >> 32) != site->record_id ||
		    (key & 0xffffffffu) >= BPFPROBE_HIST_BUCKETS)
			continue;
		if (!bpf_map_lookup_elem(r->hist_fd, &key, &val))
			buckets[key & 0xffffffffu] = val;
	}
	return r->hist_arg[i];
}

void bpfprobe_records__free(struct bpfprobe_records *r)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!r)
		return;
	if (r->cons_pos)
		munmap((void *)r->cons_pos, page);
	if (r->prod_pos)
		munmap((void *)r->prod_pos, page);
	free(r->site_records);
	free(r->site_dropped);
	free(r->site_unread);
	free(r->hist_arg);
	ring_buffer__free(r->rb);
	free(r->line);
	free(r);
}
