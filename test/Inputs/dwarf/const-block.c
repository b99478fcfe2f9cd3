/* A static const char array folded to a constant: gcc -O2 gives it a
 * DW_AT_const_value in a string form (DW_FORM_strp), which gdb reads as
 * the array's bytes (test/Live/const-block.test). */
#include <stdio.h>
__attribute__((noinline)) int check(const char *version)
{
	static const char my_version[] = "1.2.13";
	if (version == 0 || version[0] != my_version[0])
		return -1;
	printf("ok %c\n", version[0]);
	return 0;
}
int main(int argc, char **argv)
{
	return check(argc > 1 ? argv[1] : "1.0") + 1;
}
