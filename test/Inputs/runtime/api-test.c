/* Exercises the runtime's C API without the kernel: options validation,
 * where the metadata comes from, dry-run attach, and record decoding of
 * every value type, malformed records and snprintf-style truncation.
 * usage: api-test META_OBJECT   (an object whose .bpfprobe is api.meta) */
#include <bpfprobe/runtime.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int fails;

#define EXPECT(cond)                                                           \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("FAIL line %d: %s\n", __LINE__, #cond);         \
			fails++;                                               \
		}                                                              \
	} while (0)

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	*size = fread(buf, 1, n, f);
	fclose(f);
	return buf;
}

/* Builds a record for site "rec" of api.meta: a:s32 b:u8 c:x16 d:string e:b3@2/8 f:char */
static size_t make_record(unsigned char *buf, __u32 id, __u32 nargs)
{
	struct bpfprobe_record_hdr h = { .record_id = id, .pid = 42, .tid = 43,
					 .nargs = nargs };
	__s64 a = -5;
	__u64 b = 0x1ff, c = 0xabcd1234, e = 5, f = 'Q';
	char d[BPFPROBE_RECORD_STR_LEN] = "tab\there \"q\"\n";
	size_t off = 0;

	memcpy(buf + off, &h, sizeof(h)), off += sizeof(h);
	memcpy(buf + off, &a, 8), off += 8;
	memcpy(buf + off, &b, 8), off += 8;
	memcpy(buf + off, &c, 8), off += 8;
	memcpy(buf + off, d, sizeof(d)), off += sizeof(d);
	memcpy(buf + off, &e, 8), off += 8;
	memcpy(buf + off, &f, 8), off += 8;
	return off;
}

int main(int argc, char **argv)
{
	unsigned char rec[512];
	char out[512], small[8];
	const struct bpfprobe_site *s;
	struct bpfprobe_meta *meta;
	struct bpfprobe_attachment *att;
	size_t obj_sz, len;
	void *obj;
	int n;

	if (argc != 2)
		return 2;
	obj = read_file(argv[1], &obj_sz);
	EXPECT(obj);

	/* The same metadata from the file and from the bytes. */
	meta = bpfprobe_meta__open_file(argv[1]);
	EXPECT(meta && bpfprobe_meta__site_cnt(meta) == 3);
	bpfprobe_meta__free(meta);
	meta = bpfprobe_meta__open_mem(obj, obj_sz);
	EXPECT(meta && bpfprobe_meta__site_cnt(meta) == 3);
	EXPECT(!bpfprobe_meta__site(meta, 3) && errno == ENOENT);
	s = bpfprobe_meta__find_record(meta, 7);
	EXPECT(s && !strcmp(s->program, "rec") && !strcmp(s->label, "vfs_write:3"));
	EXPECT(!bpfprobe_meta__find_record(meta, 8) && errno == ENOENT);
	EXPECT(!bpfprobe_meta__open_mem(NULL, 0) && errno == EINVAL);
	EXPECT(!bpfprobe_meta__open_mem("not elf", 7) && errno == ENOEXEC);

	/* Options: a struct from a newer header with unknown non-zero fields,
	 * one too small to hold sz, and no metadata source. */
	{
		struct {
			struct bpfprobe_attach_opts o;
			long newer_field;
		} big;
		struct bpfprobe_attach_opts tiny = { .sz = 2 };

		/* Padding zeroed too (after attach_mode): only newer_field is
		 * non-zero past the fields the library knows. */
		memset(&big, 0, sizeof(big));
		big.o.sz = sizeof(big);
		big.o.meta = meta;
		big.newer_field = 1;

		EXPECT(!bpfprobe_object__attach(NULL, &big.o) && errno == EINVAL);
		big.newer_field = 0;
		big.o.dry_run = true;
		att = bpfprobe_object__attach(NULL, &big.o);
		EXPECT(att && bpfprobe_attachment__link_cnt(att) == 0);
		EXPECT(bpfprobe_attachment__meta(att) == meta);
		bpfprobe_attachment__destroy(att);
		EXPECT(!bpfprobe_object__attach(NULL, &tiny) && errno == EINVAL);
	}
	{
		BPFPROBE_OPTS(bpfprobe_attach_opts, o, .dry_run = true);

		EXPECT(!bpfprobe_object__attach(NULL, &o) && errno == EINVAL);
		o.obj_path = argv[1];
		att = bpfprobe_object__attach(NULL, &o);
		EXPECT(att);
		bpfprobe_attachment__destroy(att);
		o.obj_path = NULL;
		o.obj_buf = obj;
		o.obj_buf_sz = obj_sz;
		att = bpfprobe_object__attach(NULL, &o);
		EXPECT(att);
		bpfprobe_attachment__destroy(att);
		/* A real attach needs the object. */
		o.dry_run = false;
		EXPECT(!bpfprobe_object__attach(NULL, &o) && errno == EINVAL);
	}

	/* Records: every type, text and JSON. */
	len = make_record(rec, 7, 6);
	n = bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), 0);
	printf("text: %s\n", out);
	EXPECT(n == (int)strlen(out));
	n = bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), BPFPROBE_FMT_JSON);
	printf("json: %s\n", out);
	/* snprintf semantics: the length needed, the output cut and terminated. */
	n = bpfprobe_record__snprintf(meta, rec, len, small, sizeof(small), 0);
	EXPECT(n > (int)sizeof(small) && strlen(small) == sizeof(small) - 1);
	EXPECT(bpfprobe_record__snprintf(meta, rec, len, NULL, 0, 0) == n);
	/* A faulted read: its bit in the header's fault mask. */
	((struct bpfprobe_record_hdr *)rec)->faults = 1ull << 3;
	bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), 0);
	printf("fault: %s\n", out);
	bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), BPFPROBE_FMT_JSON);
	printf("fault json: %s\n", out);
	((struct bpfprobe_record_hdr *)rec)->faults = 0;

	/* Malformed: short, truncated slots, unknown id, wrong nargs, bad flags. */
	EXPECT(bpfprobe_record__snprintf(meta, rec, 8, out, sizeof(out), 0) == -EBADMSG);
	EXPECT(bpfprobe_record__snprintf(meta, rec, len - 1, out, sizeof(out), 0) == -EBADMSG);
	make_record(rec, 99, 6);
	EXPECT(bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), 0) == -EBADMSG);
	make_record(rec, 7, 5);
	EXPECT(bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), 0) == -EBADMSG);
	make_record(rec, 7, 6);
	EXPECT(bpfprobe_record__snprintf(meta, rec, len, out, sizeof(out), 1u << 9) == -EINVAL);

	/* A record with its context (site "ctx", record_context=32): time
	 * relative to a base or as the wall clock, comm escaped, pid/tid, CPU,
	 * chosen by fields; JSON has them all. */
	{
		struct bpfprobe_record_hdr h = { .record_id = 9, .pid = 42, .tid = 43,
						 .nargs = 1 | BPFPROBE_RECORD_NARGS_CTX };
		struct bpfprobe_record_ctx c = { .time_ns = 5001234567ull, .cpu = 1 };
		struct bpfprobe_record_ctx got;
		__s64 a = 7;
		BPFPROBE_OPTS(bpfprobe_format_opts, fo, .time_base_ns = 5000000000ull);

		memcpy(c.comm, "shop", 5);
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + sizeof(h), &c, sizeof(c));
		memcpy(rec + sizeof(h) + sizeof(c), &a, sizeof(a));
		len = sizeof(h) + sizeof(c) + sizeof(a);
		n = bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo);
		printf("ctx: %s\n", out);
		EXPECT(n == (int)strlen(out));
		fo.fields = BPFPROBE_FIELD_PID | BPFPROBE_FIELD_CPU;
		bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo);
		printf("ctx fields: %s\n", out);
		fo.fields = BPFPROBE_FIELD_TID;
		bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo);
		printf("ctx tid: %s\n", out);
		fo.fields = 0;
		fo.time_abs = true;
		fo.realtime_offset_ns = 3600000000000ll; /* 01:00:05 UTC */
		bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo);
		printf("ctx abs: %s\n", out);
		fo.flags = BPFPROBE_FMT_JSON;
		bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo);
		printf("ctx json: %s\n", out);
		fo.flags = 0;
		fo.time_abs = false;
		fo.time_base_ns = 6000000000ull; /* a record before the base */
		memcpy(rec + sizeof(h) + offsetof(struct bpfprobe_record_ctx, comm), "a b\\", 5);
		bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo);
		printf("ctx odd: %s\n", out);
		EXPECT(!bpfprobe_record__context(bpfprobe_meta__find_record(meta, 9), rec, len, &got) &&
		       got.time_ns == c.time_ns && got.cpu == 1 && !strcmp(got.comm, "a b\\"));
		EXPECT(bpfprobe_record__context(bpfprobe_meta__find_record(meta, 7), rec, len, &got) ==
		       -ENODATA);
		EXPECT(bpfprobe_record__context(bpfprobe_meta__find_record(meta, 9), rec, 40, &got) ==
		       -EBADMSG);
		EXPECT(bpfprobe_record__format(meta, rec, len - 1, out, sizeof(out), &fo) == -EBADMSG);
		fo.fields = 1u << 7;
		EXPECT(bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo) == -EINVAL);
		/* A context record without the nargs bit, and the bit on a site
		 * without a context: what a reader of the other layout would make. */
		fo.fields = 0;
		((struct bpfprobe_record_hdr *)rec)->nargs = 1;
		EXPECT(bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo) == -EBADMSG);
		len = make_record(rec, 7, 6 | BPFPROBE_RECORD_NARGS_CTX);
		EXPECT(bpfprobe_record__format(meta, rec, len, out, sizeof(out), &fo) == -EBADMSG);
	}

	/* Build-ids of files. */
	EXPECT(bpfprobe_elf_build_id(argv[1], out, sizeof(out)) == -ENODATA);
	EXPECT(bpfprobe_elf_build_id("/nonexistent", out, sizeof(out)) == -ENOENT);

	bpfprobe_meta__free(meta);
	free(obj);
	printf("%d failed\n", fails);
	return fails != 0;
}
