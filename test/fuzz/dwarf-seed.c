/* The program the DWARF fuzzer's seed corpus (test/fuzz/corpus-dwarf) is
 * built from, small and freestanding so each seed is a few KB:
 *
 *   cd test/fuzz
 *   gcc   -O2 -g -fdebug-prefix-map=$PWD=. -nostdlib -static -no-pie \
 *         -Wl,--build-id -Wl,-e,handle -o corpus-dwarf/gcc-O2 dwarf-seed.c
 *   clang -O2 -g -fdebug-prefix-map=$PWD=. -nostdlib -static \
 *         -Wl,--build-id -Wl,-e,handle -o corpus-dwarf/clang-O2 dwarf-seed.c
 *
 * It has what the resolver walks: a struct chain with a bit-field, a
 * pointer parameter, locals live at a line, an inlined call and a function
 * taking a struct by value. test/fuzz/dwarf-fuzzer.cpp probes these names. */
struct hdr {
	unsigned short len;
	unsigned flags : 3;
	unsigned kind : 5;
};
struct req {
	struct hdr hdr;
	const char *name;
	struct req *next;
};
struct pair {
	long a, b;
};

volatile long sink;

static inline __attribute__((always_inline)) long weigh(const struct req *r,
							  int fd)
{
	long w = r->hdr.len * fd;
	sink = w;
	return w + r->hdr.kind;
}

__attribute__((noinline)) long add_pair(struct pair p, int c)
{
	return p.a + p.b + c;
}

__attribute__((noinline)) long handle(struct req *req, int fd)
{
	long total = 0;
	for (struct req *r = req; r; r = r->next) {
		total += weigh(r, fd);
		sink = r->hdr.flags;
	}
	return total + add_pair((struct pair){ total, fd }, fd);
}
