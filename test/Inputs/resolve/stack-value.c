/* A variable whose DWARF location is a computed value, not a place in
 * memory: at the entry of show, gcc -O2 describes 'body' as
 * DW_OP_breg5 (rdi) +4, DW_OP_stack_value -- the value is %di+4. */
#include <stdio.h>

struct msg { int len; char body[32]; };

__attribute__((noinline)) int show(struct msg *m, int extra)
{
	const char *body = m->body;
	int total = m->len + extra;
	printf("%s %d\n", body, total);
	return total;
}

int main(void)
{
	struct msg m = { 5, "hello" };
	return show(&m, 2) == 7 ? 0 : 1;
}
