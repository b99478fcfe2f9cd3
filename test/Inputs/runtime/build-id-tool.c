/* Prints the build-id the runtime reads from an ELF file (or, with -k, from
 * the running kernel's notes under $BPFPROBE_SYSFS_ROOT), or the error. */
#include <bpfprobe/runtime.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char id[128];
	int ret;

	if (argc == 2 && !strcmp(argv[1], "-k"))
		ret = bpfprobe_kernel_build_id(NULL, id, sizeof(id));
	else if (argc == 2)
		ret = bpfprobe_elf_build_id(argv[1], id, sizeof(id));
	else
		return 2;
	if (ret < 0) {
		printf("error %d (%s)\n", ret, strerror(-ret));
		return 1;
	}
	printf("build-id %s\n", id);
	return 0;
}
