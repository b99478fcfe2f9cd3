/* Functions under Rust symbol names, legacy (`_ZN...17h<hash>E`) and v0
 * (`_R...`), so that Rust paths can be tested where rustc is not
 * installed: the names are what rustc emits for `krate::module::func` and
 * `krate::other::func`. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int legacy(int x) __asm__("_ZN5krate6module4func17h0123456789abcdefE");
__attribute__((noinline)) int v0(int y) __asm__("_RNvNtCs1234_5krate5other4func");

int legacy(int x) { printf("legacy x=%d\n", x); return x + 1; }
int v0(int y) { printf("v0 y=%d\n", y); return y * 2; }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	return legacy(n) + v0(n) == 0;
}
