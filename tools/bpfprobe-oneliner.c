/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * One-line probes for bpfprobe-run (`-e SPEC`, repeatable): writes a record
 * probe per spec (the BPF_PROBE_RECORD of bpfprobe.h, spelled out so the
 * spec sits alone on its own line), compiles it with the plugin installed
 * beside this program and the clang it was built for, and caches the
 * object by the specs and the build-ids of the probed binaries. Compile
 * errors are shown under the user's -e text with their caret; `-L`/`-V`
 * run bpfprobe-resolve --lines/--vars, found beside this program.
 */
#define _GNU_SOURCE
#include "bpfprobe-oneliner.h"

#include <bpfprobe/runtime.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* bpf_tracing.h's name for this machine: the probes' pt_regs. */
#if defined(__x86_64__) || defined(__i386__)
#define TARGET_ARCH "x86"
#elif defined(__aarch64__)
#define TARGET_ARCH "arm64"
#elif defined(__arm__)
#define TARGET_ARCH "arm"
#elif defined(__riscv)
#define TARGET_ARCH "riscv"
#elif defined(__s390x__)
#define TARGET_ARCH "s390"
#elif defined(__powerpc64__)
#define TARGET_ARCH "powerpc"
#elif defined(__mips__)
#define TARGET_ARCH "mips"
#elif defined(__loongarch__)
#define TARGET_ARCH "loongarch"
#else
#define TARGET_ARCH "unknown"
#endif

/* The first line of the generated file that holds a spec; one per line. */
#define FIRST_SPEC_LINE 20

static const char *tool = "bpfprobe-run";

/* The directory of this executable (for the plugin, headers, resolve). */
static int exe_dir(char *buf, size_t sz)
{
	ssize_t n = readlink("/proc/self/exe", buf, sz - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	*slash = 0;
	return 0;
}

/* The first of \p cands (relative to the executable's directory, or
 * absolute) that exists, into \p out. */
static bool find_beside(const char *const *cands, char *out, size_t sz)
{
	char dir[PATH_MAX];

	if (exe_dir(dir, sizeof(dir)))
		return false;
	for (size_t i = 0; cands[i]; i++) {
		if (!*cands[i])
			continue;
		int n;

		if (cands[i][0] == '/')
			n = snprintf(out, sz, "%s", cands[i]);
		else
			n = snprintf(out, sz, "%s/%s", dir, cands[i]);
		/* A truncated path could name another file: not a candidate. */
		if (n < 0 || (size_t)n >= sz)
			continue;
		if (!access(out, R_OK))
			return true;
	}
	return false;
}

static int find_plugin(char *out, size_t sz)
{
	/* Installed (bin/ → lib[/multiarch]/bpfprobe/), then the build tree. */
	const char *const cands[] = { BPFPROBE_REL_PLUGIN, "../lib/bpfprobe/libbpfprobe.so",
				      "../lib/libbpfprobe.so", NULL };
	const char *env = getenv("BPFPROBE_PLUGIN");

	if (env && *env) {
		snprintf(out, sz, "%s", env);
		if (!access(out, R_OK))
			return 0;
		fprintf(stderr, "%s: BPFPROBE_PLUGIN=%s: %s\n", tool, env, strerror(errno));
		return -errno;
	}
	return find_beside(cands, out, sz) ? 0 : -ENOENT;
}

static int find_include(char *out, size_t sz)
{
	const char *const cands[] = { "../include/bpfprobe/bpfprobe.h",
				      BPFPROBE_SOURCE_INCLUDE "/bpfprobe/bpfprobe.h", NULL };

	if (!find_beside(cands, out, sz))
		return -ENOENT;
	*strrchr(out, '/') = 0; /* .../include/bpfprobe */
	*strrchr(out, '/') = 0; /* .../include */
	return 0;
}

static void find_clang(const struct oneliner_opts *o, char *out, size_t sz)
{
	const char *env = getenv("BPFPROBE_CLANG");

	if (o->clang && *o->clang)
		snprintf(out, sz, "%s", o->clang);
	else if (env && *env)
		snprintf(out, sz, "%s", env);
	else
		snprintf(out, sz, "%s", BPFPROBE_CLANG_PATH);
}

/* ---- the cache ---- */

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s, strlen(s) + 1);
}

/* What identifies a file's contents: its build-id, else size and mtime. */
static uint64_t hash_file(uint64_t h, const char *path)
{
	char id[129];
	struct stat st;

	if (bpfprobe_elf_build_id(path, id, sizeof(id)) > 0)
		return fnv_str(h, id);
	if (!stat(path, &st)) {
		h = fnv(h, &st.st_size, sizeof(st.st_size));
		h = fnv(h, &st.st_mtim, sizeof(st.st_mtim));
	}
	return fnv_str(h, path);
}

/* "uprobe/./shop:ship+30(...)" → "./shop"; "" for kernel probes. */
static void spec_binary(const char *spec, char *out, size_t sz)
{
	const char *slash = strchr(spec, '/'), *colon;

	out[0] = 0;
	if (!slash || strncmp(spec, "u", 1))
		return;
	colon = strchr(slash + 1, ':');
	if (!colon || (size_t)(colon - slash - 1) >= sz)
		return;
	snprintf(out, sz, "%.*s", (int)(colon - slash - 1), slash + 1);
}

static int cache_dir(char *out, size_t sz)
{
	const char *env = getenv("BPFPROBE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char tmp[PATH_MAX];

	if (env && *env)
		snprintf(out, sz, "%s", env);
	else if (xdg && *xdg)
		snprintf(out, sz, "%s/bpfprobe", xdg);
	else if (home && *home)
		snprintf(out, sz, "%s/.cache/bpfprobe", home);
	else
		snprintf(out, sz, "/var/cache/bpfprobe");
	/* mkdir -p */
	snprintf(tmp, sizeof(tmp), "%s", out);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(tmp, 0755);
			*p = '/';
		}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* ---- the generated program ---- */

/* The spec as a C string literal on a line of its own. */
static void put_literal(FILE *f, const char *spec)
{
	fputc('"', f);
	for (const char *p = spec; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputs("\"\n", f);
}

/*
 * Each literal sits directly inside its attribute (through a macro the
 * caret would point into the macro), alone on its line from column 1, so a
 * diagnostic's column maps back to the user's -e text.
 */
static int write_source_inline(const char *path, char **specs, size_t n,
			       bool hist)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fputs("/* generated by bpfprobe-run -e */\n"
	      "#include <linux/bpf.h>\n"
	      "#include <linux/ptrace.h>\n"
	      "#include <bpf/bpf_helpers.h>\n"
	      "#include <bpfprobe/bpfprobe.h>\n"
	      "char LICENSE[] SEC(\"license\") = \"GPL\";\n"
	      "struct __bpfprobe_records_map bpfprobe_records SEC(\".maps\");\n"
	      "struct __bpfprobe_lost_map bpfprobe_lost SEC(\".maps\");\n"
	      "struct __bpfprobe_sites_map bpfprobe_sites SEC(\".maps\");\n", f);
	/* Only for --hist: the histogram path costs code and stack. */
	fputs(hist ? "BPF_PROBE_HIST_MAP;\n" : "\n", f);
	for (int line = 11; line < FIRST_SPEC_LINE; line++)
		fputc('\n', f);
	/* Spec k alone on line FIRST_SPEC_LINE + 3k + 1, from column 1. */
	for (size_t i = 0; i < n; i++) {
		fputs("__attribute__((bpfprobe_record(\n", f);
		put_literal(f, specs[i]);
		fprintf(f, "), used)) int e%zu(void *ctx) { return 0; }\n", i + 1);
	}
	fclose(f);
	return 0;
}

/* Column (1-based) in the literal line → byte offset in the spec, or -1. */
static long spec_offset(const char *spec, long col)
{
	long c = 2; /* column of the spec's first byte, after '"' */

	for (long i = 0; spec[i]; i++) {
		if (spec[i] == '"' || spec[i] == '\\')
			c++;
		if (c >= col)
			return i;
		c++;
	}
	return (long)strlen(spec);
}

/*
 * One line of clang's output: "FILE:LINE:COL: error: MSG" about a spec
 * becomes "-e 'SPEC': error: MSG" with the spec and a caret under it.
 */
static void show_diag(const char *line, const char *src, char **specs, size_t n)
{
	size_t len = strlen(src);
	long ln, col;
	char *end;

	if (strncmp(line, src, len) || line[len] != ':') {
		/* Notes about the generated file's macros are noise. */
		if (!strstr(line, "expanded from macro"))
			fprintf(stderr, "%s\n", line);
		return;
	}
	ln = strtol(line + len + 1, &end, 10);
	col = *end == ':' ? strtol(end + 1, &end, 10) : 0;
	if (ln > FIRST_SPEC_LINE && (ln - FIRST_SPEC_LINE - 1) % 3 == 0 &&
	    (size_t)((ln - FIRST_SPEC_LINE - 1) / 3) < n && *end == ':') {
		const char *spec = specs[(ln - FIRST_SPEC_LINE - 1) / 3];
		long off = spec_offset(spec, col);

		fprintf(stderr, "%s: -e '%s':%s\n  %s\n  %*s^\n", tool, spec, end + 1,
			spec, (int)off, "");
		return;
	}
	fprintf(stderr, "%s: in the generated program:%s\n", tool, end);
}

static int compile(const char *clang, const char *plugin, const char *inc,
		   const char *src, const char *out, char **specs, size_t n,
		   bool verbose)
{
	char plug_arg[PATH_MAX + 16], inc_arg[PATH_MAX + 4];
	char *argv[32];
	int argc = 0, pipefd[2], status;
	pid_t pid;
	FILE *err;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	snprintf(plug_arg, sizeof(plug_arg), "-fplugin=%s", plugin);
	snprintf(inc_arg, sizeof(inc_arg), "-I%s", inc);
	argv[argc++] = (char *)clang;
	argv[argc++] = "-g";
	argv[argc++] = "-O2";
	argv[argc++] = "-target";
	argv[argc++] = "bpf";
	argv[argc++] = "-D__TARGET_ARCH_" TARGET_ARCH;
	argv[argc++] = inc_arg;
	argv[argc++] = "-I" BPFPROBE_MULTIARCH_INCLUDE;
	argv[argc++] = plug_arg;
	argv[argc++] = "-fno-caret-diagnostics";
	argv[argc++] = "-fno-color-diagnostics";
	argv[argc++] = "-c";
	argv[argc++] = (char *)src;
	argv[argc++] = "-o";
	argv[argc++] = (char *)out;
	argv[argc] = NULL;
	if (verbose) {
		fprintf(stderr, "%s: compiling:", tool);
		for (int i = 0; i < argc; i++)
			fprintf(stderr, " %s", argv[i]);
		fputc('\n', stderr);
	}
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		dup2(pipefd[1], 2);
		execv(clang, argv);
		fprintf(stderr, "cannot run %s: %s\n", clang, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	err = fdopen(pipefd[0], "r");
	while (err && (len = getline(&line, &cap, err)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = 0;
		show_diag(line, src, specs, n);
	}
	free(line);
	if (err)
		fclose(err);
	else
		close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EINVAL;
}

int oneliner_build(char **specs, size_t n, const struct oneliner_opts *o,
		   char *obj, size_t obj_sz)
{
	char plugin[PATH_MAX], inc[PATH_MAX], clang[PATH_MAX], dir[PATH_MAX];
	char src[PATH_MAX + 64], tmp[PATH_MAX + 64], bin[PATH_MAX];
	uint64_t h = 1469598103934665603ull;
	struct stat st;
	int err;

	if (find_plugin(plugin, sizeof(plugin))) {
		fprintf(stderr, "%s: cannot find the bpfprobe plugin (libbpfprobe.so) beside %s; set BPFPROBE_PLUGIN\n",
			tool, "bpfprobe-run");
		return ONELINER_SETUP;
	}
	if (find_include(inc, sizeof(inc))) {
		fprintf(stderr, "%s: cannot find the bpfprobe headers (include/bpfprobe/bpfprobe.h) beside bpfprobe-run\n",
			tool);
		return ONELINER_SETUP;
	}
	find_clang(o, clang, sizeof(clang));
	if (access(clang, X_OK)) {
		fprintf(stderr, "%s: cannot run clang '%s' (the one bpfprobe was built for): %s; use --clang PATH or BPFPROBE_CLANG\n",
			tool, clang, strerror(errno));
		return ONELINER_SETUP;
	}
	if ((err = cache_dir(dir, sizeof(dir)))) {
		fprintf(stderr, "%s: cannot create the cache directory %s: %s\n", tool,
			dir, strerror(-err));
		return ONELINER_SETUP;
	}

	/* Key: the tool's version, compiler, plugin, specs and binaries. */
	h = fnv_str(h, BPFPROBE_VERSION_STRING);
	h = fnv_str(h, o->hist ? "hist" : "");
	h = fnv_str(h, clang);
	h = hash_file(h, plugin);
	h = hash_file(h, clang);
	if (!stat(inc, &st))
		h = fnv(h, &st.st_mtim, sizeof(st.st_mtim));
	for (size_t i = 0; i < n; i++) {
		h = fnv_str(h, specs[i]);
		spec_binary(specs[i], bin, sizeof(bin));
		if (*bin)
			h = hash_file(h, bin);
	}
	snprintf(obj, obj_sz, "%s/%016llx.bpf.o", dir, (unsigned long long)h);
	if (!o->no_cache && !access(obj, R_OK)) {
		if (o->verbose)
			fprintf(stderr, "%s: using the cached object %s\n", tool, obj);
		return 0;
	}
	snprintf(src, sizeof(src), "%s/%016llx.bpf.c", dir, (unsigned long long)h);
	snprintf(tmp, sizeof(tmp), "%s/%016llx.%d.tmp.o", dir, (unsigned long long)h,
		 (int)getpid());
	if ((err = write_source_inline(src, specs, n, o->hist))) {
		fprintf(stderr, "%s: cannot write %s: %s\n", tool, src, strerror(-err));
		return ONELINER_SETUP;
	}
	err = compile(clang, plugin, inc, src, tmp, specs, n, o->verbose);
	if (err == -ENOENT)
		return ONELINER_SETUP;
	if (err) {
		unlink(tmp);
		return ONELINER_COMPILE;
	}
	if (rename(tmp, obj)) {
		fprintf(stderr, "%s: cannot store %s: %s\n", tool, obj, strerror(errno));
		unlink(tmp);
		return ONELINER_SETUP;
	}
	return 0;
}

int oneliner_list(const char *spec, bool vars)
{
	const char *const cands[] = { "bpfprobe-resolve", NULL };
	char resolve[PATH_MAX];
	char *argv[] = { resolve, vars ? "--vars" : "--lines", (char *)spec, NULL };

	if (!find_beside(cands, resolve, sizeof(resolve)))
		snprintf(resolve, sizeof(resolve), "bpfprobe-resolve");
	execvp(resolve, argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", tool, resolve, strerror(errno));
	return ONELINER_SETUP;
}
