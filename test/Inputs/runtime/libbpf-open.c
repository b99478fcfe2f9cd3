/* A user's own loader: plain libbpf, its INFO and WARN messages on stdout
 * (libbpf's default print function shows them too). Opens argv[1]. */
#include <bpf/libbpf.h>
#include <stdio.h>
static int print(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	if (l == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stdout, fmt, ap);
}
int main(int argc, char **argv)
{
	struct bpf_object *o;
	libbpf_set_print(print);
	o = bpf_object__open_file(argv[1], NULL);
	printf("opened: %s\n", o ? "yes" : "no");
	bpf_object__close(o);
	return !o;
}
