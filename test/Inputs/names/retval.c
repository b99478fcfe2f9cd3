/* Return values of the types whose place the psABI decides: a 64-bit
   integer (a register pair on i386), a structure of one double (SSE on
   x86_64), a structure of integers (two registers on x86_64). */
struct D { double d; };
struct L { long a; int b; };
int counter;
__attribute__((noinline)) long long ll(int x) { counter++; return (long long)x << 33 | 5; }
__attribute__((noinline)) struct D sd(double x) { struct D r = { x * 2 }; counter++; return r; }
__attribute__((noinline)) struct L sl(long x) { struct L r = { x, 3 }; counter++; return r; }
int main(int argc, char **argv) { struct D d = sd(argc); struct L l = sl(argc); return (int)ll(argc) + (int)d.d + l.b; }
