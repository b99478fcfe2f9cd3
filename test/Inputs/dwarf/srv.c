/* A small server-like target for the DWARF tests: members, bitfields, an
 * anonymous struct, arrays, a global, a string, and a function inlined
 * twice (score). Line numbers are used by the tests: keep them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hdr { unsigned short len; unsigned char kind; int flags : 5; unsigned prio : 3; };
struct req { int id; struct hdr hdr; const char *path; int items[4]; struct { long a; long b; }; };
struct conn { int fd; struct req *cur; };

int counter = 7;

static inline __attribute__((always_inline)) int score(const struct req *r, int bias)
{
	int s = r->hdr.len * 3 + bias;   /* SCORE_LINE */
	s += r->items[1];
	return s;
}

__attribute__((noinline)) int handle(struct conn *c, struct req *req)
{
	int total = 0;
	for (int i = 0; i < 4; i++)
		total += req->items[i];
	int sc = score(req, total);        /* CALL_LINE */
	printf("handle id=%d len=%u kind=%u flags=%d prio=%u path=%s fd=%d total=%d sc=%d a=%ld counter=%d\n",
	       req->id, req->hdr.len, req->hdr.kind, req->hdr.flags, req->hdr.prio, req->path, c->fd, total, sc, req->a, counter);
	counter++;
	return sc + score(req, 1);
}

int main(int argc, char **argv)
{
	struct req r = { .id = 42, .hdr = { .len = 512, .kind = 3, .flags = -3, .prio = 5 }, .path = "/index.html", .items = {1, 2, 3, 4}, .a = -99, .b = 1 };
	struct conn c = { .fd = 7, .cur = &r };
	int n = argc > 1 ? atoi(argv[1]) : 2;
	/* Touch the path first: a uprobe cannot fault its page in. */
	printf("start path=%s\n", r.path);
	for (int i = 0; i < n; i++) {
		r.id += i;
		handle(&c, &r);
	}
	return 0;
}
