/* The unit that defines what names.c only declares. */
#include <stdlib.h>

struct opaque { int id; long weight; const char *tag; };
int shared_total = 11;

struct rq_flags { long flags; int cookie; };
extern volatile int sink;

void publish(struct rq_flags *p)
{
	sink = (int)p->flags;
}

struct opaque *make_opaque(int id)
{
	struct opaque *o = malloc(sizeof *o);
	o->id = id;
	o->weight = id * 1000L;
	o->tag = "opaque";
	shared_total += id;
	return o;
}
