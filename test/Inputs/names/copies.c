/* A line of an inlined function (new_item's memset, NEW_ITEM_LINE 25)
 * whose copies are in two functions: in create_number the line's address is
 * in new_item's inlined block, in create_bool gcc -O2 interleaves the
 * memset with the caller's store and the address is outside it, in
 * create_bool's own scope (as cJSON's cJSON_New_Item in cJSON_CreateBool).
 * Line numbers are used by the tests: keep them. */
#include <stdlib.h>
#include <string.h>

struct item {
	struct item *next, *prev, *child;
	int type;
	char *valuestring;
	int valueint;
	double valuedouble;
	char *string;
};
struct hooks { void *(*allocate)(size_t); };
static struct hooks global_hooks = { malloc };

static struct item *new_item(const struct hooks *const hooks)
{
	struct item *fresh = hooks->allocate(sizeof(struct item));
	if (fresh)
		memset(fresh, 0, sizeof(struct item));   /* NEW_ITEM_LINE 25 */
	return fresh;
}

__attribute__((noinline)) struct item *create_bool(int boolean)
{
	struct item *item = new_item(&global_hooks);
	if (item)
		item->type = boolean ? 2 : 1;
	return item;
}

__attribute__((noinline)) struct item *create_number(double num)
{
	struct item *item = new_item(&global_hooks);
	if (item) {
		item->type = 8;
		item->valuedouble = num;
	}
	return item;
}

void set_hooks(void *(*allocate)(size_t))
{
	global_hooks.allocate = allocate ? allocate : malloc;
}

int main(int argc, char **argv)
{
	set_hooks(0);
	struct item *a = create_number(argc + 0.5);
	struct item *b = create_bool(argc > 1);
	return (a->type + b->type) & 1;
}
