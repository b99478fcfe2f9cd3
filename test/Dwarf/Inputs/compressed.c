/* A function with a parameter and a member behind a pointer, for the
 * compressed debug sections test. */
struct s { long pad; int x; };
__attribute__((noinline)) int f(int a, struct s *p) { return a * 3 + p->x; }
int main(int argc, char **argv) { struct s v = { 0, argc }; (void)argv; return f(argc, &v); }
