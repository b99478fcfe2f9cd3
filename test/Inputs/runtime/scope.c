/* The processes of a run: hit(who, n) three times in each process, which
 * says on stderr who it is (its pid and tid, from getpid() and gettid()).
 *   scope main     itself (who=1), a plain fork() (who=2), and a fork that
 *                  execs ./scope-kid, a link to this file (who=3); first it
 *                  waits for the file 'ready' (an outsider is hitting), last
 *                  it creates 'stop'
 *   scope wait     the same once the file 'go' exists (for --pid)
 *   scope parent   a fork that does what 'wait' does, and waits for it
 *   scope other    an outsider: who=9 every 5 ms until 'stop' exists,
 *                  'ready' created after its first hits
 *   scope kid      the exec'd child (who=3)
 * Used by test/Runtime/scope-*.test and record-context.test. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int hit(int who, int n)
{
	__asm__ volatile("" ::: "memory");
	return who + n;
}

static void hits(const char *what, int who)
{
	fprintf(stderr, "%s pid=%d tid=%d\n", what, (int)getpid(),
		(int)syscall(SYS_gettid));
	for (int i = 0; i < 3; i++)
		hit(who, i);
}

static void wait_file(const char *name)
{
	for (int i = 0; i < 6000 && access(name, F_OK); i++)
		usleep(10 * 1000);
}

static void family(void)
{
	pid_t p;

	hits("main", 1);
	p = fork();
	if (p == 0) {
		hits("fork", 2);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	p = fork();
	if (p == 0) {
		execl("./scope-kid", "scope-kid", "kid", (char *)NULL);
		_exit(127);
	}
	waitpid(p, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";

	if (!strcmp(mode, "kid")) {
		hits("exec", 3);
	} else if (!strcmp(mode, "other")) {
		for (int i = 0; i < 12000 && access("stop", F_OK); i++) {
			hit(9, i);
			if (i == 3)
				fclose(fopen("ready", "w"));
			usleep(5 * 1000);
		}
	} else if (!strcmp(mode, "wait")) {
		wait_file("go");
		family();
	} else if (!strcmp(mode, "parent")) {
		/* A child that exists before the run: "wait" in a fork. */
		pid_t p = fork();

		if (p == 0) {
			wait_file("go");
			family();
			_exit(0);
		}
		waitpid(p, NULL, 0);
	} else {
		wait_file("ready");
		family();
		usleep(200 * 1000);
		fclose(fopen("stop", "w"));
	}
	return 0;
}
