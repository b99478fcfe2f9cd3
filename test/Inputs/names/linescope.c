/* Line scopes as gdb's: reset:14 (RESET_INIT_LINE 29) is a line of init_state,
 * defined after reset and inlined into it ('st' is not reset's name); add:2
 * (ADD_CALL_LINE 46) calls the inlined link, whose code starts there (gcc)
 * and whose 'last' only link has (gdb stops in link); add:N counts from
 * add's line 44, though link's code is at add's first instruction. Line
 * numbers are used by the tests: keep them. */
#include <stdlib.h>

struct state { int w_size; long window_size; int level; };
struct stream { struct state *state; int avail; };
struct node { struct node *next; int id; };

static void init_state(struct state *s);

__attribute__((noinline)) int reset(struct stream *strm)
{
	struct state *s = strm->state;
	if (!s)
		return -2;
	strm->avail = 0;
	init_state(s);
	return s->level;
}

volatile int sink;

static void init_state(struct state *st)
{
	st->window_size = 2L * st->w_size;      /* RESET_INIT_LINE 29 */
	st->level = st->w_size / 1024 + sink;
}

static int link(struct node *list, struct node *item)
{
	struct node *last = list;
	if (!list || list == item)
		return 0;
	while (last->next)
		last = last->next;
	last->next = item;
	return 1;
}

__attribute__((noinline)) int add(struct node *list, struct node *item)
{
	return link(list, item) ? sink : -1;     /* ADD_CALL_LINE 46 */
}

int main(int argc, char **argv)
{
	struct state st = { .w_size = 32768 * argc, .level = 7 };
	struct stream strm = { &st, 5 };
	struct node a = { 0, 1 }, b = { 0, 2 };
	int r = reset(&strm);
	return (r + add(&a, &b) + add(&a, &a)) & 1;
}
