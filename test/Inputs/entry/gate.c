/* DW_OP_entry_value with no call site to give it (gate() is called only
 * through a pointer), for the entry program fallback
 * (test/Live/entry-value-fallback.test): gcc -O2 describes v at the line
 * of sink(0) by DW_OP_entry_value(rdi).
 *   gate block FIFO  gate(7) blocks reading FIFO (a probe attaches while the
 *                    call is in flight), then gate(8) runs; FIFO.done
 *   gate deep N      gate(100) recurses N levels through the pointer:
 *                    gate(101) ... gate(100 + N) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fifo;
static int blocking;

__attribute__((noinline)) void sink(long v) { __asm__ volatile("" : : "r"(v)); }

__attribute__((noinline)) void hold(void)
{
	char buf[16];
	int fd;

	if (!blocking)
		return;
	blocking = 0;
	printf("blocked\n");
	fflush(stdout);
	fd = open(fifo, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
		exit(1);
	close(fd);
}

extern long (*volatile gate_ptr)(long);
static long remaining, next_v;

/* v is dead after its last use, before the recursive call: at the line of
 * sink(0) only its entry value describes it. */
__attribute__((noinline)) long gate(long v)
{
	long r = 0;

	printf("gate v=%ld\n", v);
	if (remaining > 0) {
		remaining--;
		r = gate_ptr(next_v++);
	}
	hold();
	sink(0);
	return r + 1;
}

long (*volatile gate_ptr)(long) = gate;

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "block")) {
		char done[4096];

		fifo = argv[2];
		blocking = 1;
		gate_ptr(7);
		gate_ptr(8);
		fflush(stdout);
		snprintf(done, sizeof(done), "%s.done", fifo);
		fclose(fopen(done, "w"));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "deep")) {
		remaining = atol(argv[2]);
		next_v = 101;
		printf("gate=%ld\n", gate_ptr(100));
		return 0;
	}
	return 2;
}
