/* A second compilation unit linked with dwarf/srv.c: resolving a probe in
 * one unit must not read the other. */
struct point { int x, y; };

__attribute__((noinline, used)) int area(const struct point *a,
                                         const struct point *b)
{
	return (b->x - a->x) * (b->y - a->y);
}
