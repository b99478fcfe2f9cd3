/* The source of ops-asm.s: clang's -O0 -g -gdwarf-5 -S output for this file
 * with the DW_AT_location of the locals replaced by hand-written DWARF
 * expressions (gen-ops-asm.py says which), for operations no compiler here
 * emits. The locals are never assigned: only their DWARF says what they
 * are. Regenerate with
 *   clang -O0 -g -gdwarf-5 -fdebug-prefix-map=$PWD=. -S ops-asm.c -o base.s
 *   python3 gen-ops-asm.py base.s ops-asm.s */
#include <stdio.h>
#include <stdlib.h>

struct pair16 { long lo, hi; };

__attribute__((noinline)) int target(long a, long b, unsigned long u, long *pa)
{
	long v_implicit, v_mask, v_rot, v_pick, v_skip, v_cmp, v_conv8, v_abs;
	long v_bra, v_bad;
	int t_deref;
	unsigned int t_rsp, bp;
	unsigned long t_reinterp;
	signed char sc;
	unsigned char uc;
	long v_div0, v_loop;
	struct pair16 w16;
	printf("target a=%ld b=%ld u=%lu *pa=%ld\n", a, b, u, *pa);
	return 0;
}

int main(int argc, char **argv)
{
	long a = argc > 1 ? atol(argv[1]) : -1000;
	long b = argc > 2 ? atol(argv[2]) : 77;
	unsigned long u = argc > 3 ? strtoul(argv[3], 0, 0) : 0x12345678abcdef;
	long c = argc > 4 ? atol(argv[4]) : 4242;
	return target(a, b, u, &c);
}
