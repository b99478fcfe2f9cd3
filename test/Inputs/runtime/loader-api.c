/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * A loader of one's own through the runtime's C API only, as a user would
 * write it (examples/loader is the shorter one): bpfprobe_object__load()
 * (a rejected program reported by the end of its verifier log), the probe
 * sites, the programs the metadata does not describe, and the bpf_printk
 * lines through a callback.
 *
 *   loader-api OBJ [COMMAND [ARGS...]]
 *
 * Prints "load: <result>", each printk line as "printk <comm>-<pid>:
 * <msg>", and the counts at the end. Exit status: 0 ok, 1 error, 8 the
 * verifier rejected a program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpfprobe/runtime.h>

/* libbpf's warnings only (it says at INFO that it skips .bpfprobe). */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static void on_line(void *ctx, const struct bpfprobe_printk_line *l)
{
	(*(int *)ctx)++;
	printf("printk %s-%ld: %s\n", l->comm, l->pid, l->msg);
}

int main(int argc, char **argv)
{
	struct bpfprobe_meta *meta;
	struct bpf_object *obj;
	struct bpfprobe_attachment *att = NULL;
	struct bpfprobe_plain_links *plain = NULL;
	struct bpfprobe_printk *pk = NULL;
	struct bpfprobe_printk_stats st = { 0 };
	int lines = 0, err, ret = 1;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: %s OBJ [COMMAND [ARGS...]]\n", argv[0]);
		return 1;
	}
	libbpf_set_print(libbpf_print);
	meta = bpfprobe_meta__open_file(argv[1]);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!meta || !obj)
		return 1;

	BPFPROBE_OPTS(bpfprobe_load_opts, lo, .log_lines = 5);
	err = bpfprobe_object__load(obj, &lo);
	printf("load: %s\n", err == -LIBBPF_ERRNO__VERIFY ? "rejected by the verifier"
			     : err ? strerror(-err) : "ok");
	if (err) {
		ret = err == -LIBBPF_ERRNO__VERIFY ? 8 : 1;
		goto out;
	}

	BPFPROBE_OPTS(bpfprobe_attach_opts, ao, .meta = meta);
	att = bpfprobe_object__attach(obj, &ao);
	BPFPROBE_OPTS(bpfprobe_plain_opts, po);
	plain = bpfprobe_object__attach_plain(obj, meta, &po);
	printf("sites: %zu, plain programs: %zu, printk: %s\n",
	       att ? bpfprobe_attachment__link_cnt(att) : 0,
	       bpfprobe_plain_links__cnt(plain),
	       bpfprobe_object__uses_printk(obj) ? "yes" : "no");
	BPFPROBE_OPTS(bpfprobe_printk_opts, pko, .on_line = on_line, .ctx = &lines);
	pk = bpfprobe_printk__open(&pko);
	if (!att || !plain || !pk)
		goto out;

	fflush(stdout);
	child = fork();
	if (child == 0) {
		execv(argv[2], argv + 2);
		_exit(127);
	}
	bpfprobe_printk__name_task(pk, child, argv[2]);
	waitpid(child, NULL, 0);
	/* Lines may still be on their way to the trace's reader page. */
	for (int i = 0; i < 20 && lines < 2; i++) {
		bpfprobe_printk__read(pk);
		usleep(50 * 1000);
	}
	bpfprobe_printk__stats(pk, &st);
	printf("printk lines: %llu, lost: %llu\n", (unsigned long long)st.lines,
	       (unsigned long long)st.lost);
	ret = 0;
out:
	fflush(stdout);
	bpfprobe_printk__close(pk);
	bpfprobe_plain_links__destroy(plain);
	bpfprobe_attachment__destroy(att);
	bpf_object__close(obj);
	bpfprobe_meta__free(meta);
	return ret;
}
