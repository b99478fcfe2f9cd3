/* Types and values for the diagnostics tests: pointers to arrays, const
   pointers, structures of two sizes by value, a function pointer. */
struct small { int a; int b; };
struct big { long a[6]; };
volatile int sink;
const unsigned char table[3][4] = {{1,2,3,4}};
__attribute__((noinline)) int f(const unsigned char (*pa)[4], const char *const cp, const int *ip, struct small s, struct big b, struct big *bp, int (*fn)(int), const volatile long *cvl, long long n)
{
	sink = (*pa)[1] + cp[0] + *ip + s.a + b.a[1] + bp->a[0] + fn(1) + (int)*cvl;
	for (long long i = 0; i < n; i++)
		sink += i;
	return sink;
}
static int id(int x) { return x; }
int main(int argc, char **argv) { struct small s = {1,2}; struct big b = {{1}}; long v = 3; int i = 4; return f(table, "x", &i, s, b, &b, id, &v, argc); }
