/* A struct local whose leading members are all zero for a while: clang -O2
 * describes them as one constant piece wider than a register
 * (DW_OP_lit0, DW_OP_stack_value, DW_OP_piece 0x18), as it does for
 * cJSON 1.7.15's cJSON_PrintPreallocated (test/Dwarf/wide-const-piece.test). */
#include <stdio.h>
#include <string.h>

typedef struct {
	unsigned char *buffer;
	size_t length;
	size_t offset;
	size_t depth;
	int noalloc;
	int format;
} printbuffer;

__attribute__((noinline)) int print_value(printbuffer *p)
{
	printf("%zu %zu %d\n", p->length, p->offset, p->format);
	return p->noalloc;
}

__attribute__((noinline)) int print_preallocated(char *buf, int len, int fmt)
{
	printbuffer p;
	memset(&p, 0, sizeof(p));
	if (len < 0 || buf == NULL)
		return 0;
	p.buffer = (unsigned char *)buf;
	p.length = (size_t)len;
	p.offset = 0;
	p.noalloc = 1;
	p.format = fmt;
	return print_value(&p);
}

int main(int argc, char **argv)
{
	char buf[16];
	return print_preallocated(buf, sizeof buf, argc);
}
