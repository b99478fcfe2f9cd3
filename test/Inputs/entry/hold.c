/* Targets for `@entry(...)` in a uretprobe of work() and deep()
 * (test/Live/entry-*.test):
 *   hold block FIFO  work(7) blocks reading FIFO (a probe attaches while the
 *                    call is in flight), then work(8) and work(9) run, and
 *                    FIFO.done is created;
 *   hold leak N      N threads each exit inside work(1000 + i), leaving
 *                    entries that never return; then work(1) and work(2);
 *   hold deep N      deep(N) recurses N levels; each level returns its n. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fifo;

__attribute__((noinline)) long work(long token, int mode)
{
	char buf[16];

	if (mode == 1)
		pthread_exit(NULL);
	if (mode == 2) {
		int fd;

		printf("blocked in work(%ld)\n", token);
		fflush(stdout);
		fd = open(fifo, O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			exit(1);
		close(fd);
	}
	__asm__ volatile("" : : "r"(token) : "memory");
	return token * 2;
}

__attribute__((noinline)) long deep(long n)
{
	long r = n ? deep(n - 1) : 0;

	__asm__ volatile("" : "+r"(r) : : "memory");
	return r + n - r;
}

static void *leaver(void *arg)
{
	work((long)arg, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "block")) {
		fifo = argv[2];
		char done[4096];

		work(7, 2);
		work(8, 0);
		work(9, 0);
		printf("done\n");
		fflush(stdout);
		snprintf(done, sizeof(done), "%s.done", fifo);
		fclose(fopen(done, "w"));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "leak")) {
		long n = atol(argv[2]);

		for (long i = 0; i < n; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL, leaver, (void *)(1000 + i)) ||
			    pthread_join(t, NULL))
				return 1;
		}
		printf("work(1)=%ld work(2)=%ld\n", work(1, 0), work(2, 0));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "deep")) {
		printf("deep=%ld\n", deep(atol(argv[2])));
		return 0;
	}
	return 2;
}
