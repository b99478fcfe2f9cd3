/* A line (STEP) inlined into five callers; only() has a local the others lack,
   and the unit has thirty globals. test/Dwarf/left-out-summary.test */
int g00;
int g01;
int g02;
int g03;
int g04;
int g05;
int g06;
int g07;
int g08;
int g09;
int g10;
int g11;
int g12;
int g13;
int g14;
int g15;
int g16;
int g17;
int g18;
int g19;
int g20;
int g21;
int g22;
int g23;
int g24;
int g25;
int g26;
int g27;
int g28;
int g29;

static inline __attribute__((always_inline)) int step(int v)
{
	int w = v * 3 + g00;   /* line STEP */
	return w ^ g01;
}

__attribute__((noinline)) int only(int v)
{
	int extra = v + g02;
	g03 = extra;
	return step(v) + extra;
}
__attribute__((noinline)) int c0(int v) { return step(v + 0); }
__attribute__((noinline)) int c1(int v) { return step(v + 1); }
__attribute__((noinline)) int c2(int v) { return step(v + 2); }
__attribute__((noinline)) int c3(int v) { return step(v + 3); }
int main(int argc, char **argv) { return only(argc) + c0(argc) + c1(argc) + c2(argc) + c3(argc); }
