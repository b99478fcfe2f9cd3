/* Two readings gdb makes that a fetch must make too (gcc -O2):
 * - main's locals are constants, DW_AT_const_value in DW_FORM_data1/data2
 *   (untyped: 40000 is 0x9c40, 200 is 0xc8, read with the variable's type,
 *   not sign-extended) and DW_FORM_sdata (-3);
 * - compile_flags() is folded to one instruction; its local's location list
 *   starts with empty ranges at the entry (location views), and gdb takes
 *   the first one as the value at the function's entry (0).
 * test/Dwarf/const-value-forms.test, test/Dwarf/loclist-entry-view.test,
 * test/Live/const-entry.test. */
#include <stdio.h>

__attribute__((noinline)) void use(unsigned long n, unsigned s, int neg)
{
	printf("use %lu %u %d\n", n, s, neg);
}

__attribute__((noinline)) unsigned long compile_flags(void)
{
	unsigned long flags = 0;
	flags += 1;
	flags += 1 << 3;
	flags += 1 << 5;
	flags += 1 << 7;
	return flags;
}

int main(void)
{
	unsigned long len = 40000;
	unsigned char small = 200;
	int neg = -3;
	use(len, small, neg);
	use(compile_flags(), small, neg);
	return 0;
}
