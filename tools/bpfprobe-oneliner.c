/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * One-line probes for bpfprobe-run (`-e SPEC`, repeatable): writes a record
 * probe per spec (the BPF_PROBE_RECORD of bpfprobe.h, spelled out so the
 * spec sits alone on its own line), compiles it with the plugin installed
 * beside this program (or --plugin) and the clang it was built for (or
 * --clang), run with a clean environment, and caches the object. Compile
 * errors are shown under the user's -e text with their caret; `-L`/`-V`
 * run bpfprobe-resolve --lines/--vars, found beside this program.
 *
 * The tool runs as root, so nothing another user can write is trusted
 * (docs/security.md): the cache directory is used only when every
 * component of its path is a real directory that no one but root and the
 * effective user can write, and it is the effective user's with mode 0700;
 * files are written under a fresh name (O_EXCL|O_NOFOLLOW) and renamed into
 * place; a cached object is loaded only when its digest, the manifest the
 * generated program embeds (tool, specs, build-ids, plugin, clang) and its
 * sites and programs are exactly what these specs produce now.
 */
#define _GNU_SOURCE
#include "bpfprobe-oneliner.h"

#include "bpfprobe-sha256.h"

#include <bpf/libbpf.h>
#include <bpfprobe/runtime.h>

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
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

/* The plugin: --plugin, else installed (bin/ → lib[/multiarch]/bpfprobe/),
 * else the build tree. Never from the environment. */
static int find_plugin(const struct oneliner_opts *o, char *out, size_t sz)
{
	const char *const cands[] = { BPFPROBE_REL_PLUGIN, "../lib/bpfprobe/libbpfprobe.so",
				      "../lib/libbpfprobe.so", NULL };

	if (o->plugin) {
		snprintf(out, sz, "%s", o->plugin);
		if (!access(out, R_OK))
			return 0;
		fprintf(stderr, "%s: --plugin %s: %s\n", tool, o->plugin, strerror(errno));
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

/* --clang, else the one this tool was built for. Never from the
 * environment. */
static void find_clang(const struct oneliner_opts *o, char *out, size_t sz)
{
	snprintf(out, sz, "%s", o->clang && *o->clang ? o->clang : BPFPROBE_CLANG_PATH);
}

/* ---- the compiler's environment ---- */

/* The effective user's home from the password database, not $HOME. */
static const char *euid_home(void)
{
	struct passwd *pw = getpwuid(geteuid());

	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : "/";
}

/*
 * clang's whole environment: a fixed PATH, the effective user's home, the
 * C locale, and DEBUGINFOD_URLS (the servers the user names are trusted;
 * their files are checked by build-id). Nothing else reaches it: not
 * CCC_OVERRIDE_OPTIONS, CPATH, C_INCLUDE_PATH, COMPILER_PATH, LD_*,
 * GCC_EXEC_PREFIX, DEBUGINFOD_CACHE_PATH or TMPDIR.
 */
static char **clean_env(void)
{
	static char home[PATH_MAX + 8], urls[4096 + 24];
	static char *env[8];
	const char *u = getenv("DEBUGINFOD_URLS");
	int n = 0;

	env[n++] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	snprintf(home, sizeof(home), "HOME=%s", euid_home());
	env[n++] = home;
	env[n++] = "LANG=C";
	env[n++] = "LC_ALL=C";
	if (u && *u && strlen(u) < 4096) {
		snprintf(urls, sizeof(urls), "DEBUGINFOD_URLS=%s", u);
		env[n++] = urls;
	}
	env[n] = NULL;
	return env;
}

/* Runs \p argv[0] with the clean environment, its stdout into \p out (one
 * line, without the newline). 0 or -errno/-EINVAL. */
static int run_capture_line(char *const argv[], char *out, size_t sz)
{
	int pipefd[2], status;
	ssize_t n = 0, r;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		dup2(pipefd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		execve(argv[0], argv, clean_env());
		_exit(127);
	}
	close(pipefd[1]);
	while ((size_t)n < sz - 1 && (r = read(pipefd[0], out + n, sz - 1 - n)) > 0)
		n += r;
	out[n] = 0;
	close(pipefd[0]);
	out[strcspn(out, "\n")] = 0;
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EINVAL;
}

/* ---- specs ---- */

/* A byte of a spec as the messages show it: itself, or an escape. */
static int show_byte(char *out, unsigned char c)
{
	switch (c) {
	case '\n': return sprintf(out, "\\n");
	case '\r': return sprintf(out, "\\r");
	case '\t': return sprintf(out, "\\t");
	}
	if (c < 0x20 || c == 0x7f)
		return sprintf(out, "\\x%02x", c);
	out[0] = (char)c;
	out[1] = 0;
	return 1;
}

int oneliner_check_spec(const char *flag, const char *spec, size_t len)
{
	size_t bad = len;
	char *shown, *p, what[8];
	int col = 0;

	for (size_t i = 0; i < len; i++)
		if ((unsigned char)spec[i] < 0x20 || spec[i] == 0x7f) {
			bad = i;
			break;
		}
	if (bad == len)
		return 0;
	shown = p = malloc(len * 4 + 1);
	if (!shown)
		return ONELINER_USAGE;
	*p = 0;
	for (size_t i = 0; i < len; i++) {
		if (i == bad)
			col = (int)(p - shown);
		p += show_byte(p, (unsigned char)spec[i]);
	}
	show_byte(what, (unsigned char)spec[bad]);
	fprintf(stderr, "%s: %s '%s': error: a spec is one line of printable text, found %s%s; remove it\n  %s\n  %*s^\n",
		tool, flag, shown,
		spec[bad] == '\n' ? "a newline" : spec[bad] == '\r' ? "a carriage return" :
		spec[bad] == 0 ? "a NUL" : "the control character ",
		spec[bad] == '\n' || spec[bad] == '\r' || !spec[bad] ? "" : what,
		shown, col, "");
	free(shown);
	return ONELINER_USAGE;
}

/* ---- the cache directory ---- */

/*
 * Opens \p path (absolute) one component at a time from "/", never
 * following a symbolic link, and checks each: a directory owned by root or
 * the effective user, not writable by group or others unless sticky (like
 * /tmp, whose entries are then themselves checked). With \p create,
 * missing components are made (0700, as the effective user). The last must
 * be the effective user's with mode 0700. Returns an O_PATH descriptor of
 * it, or -1 with the reason in \p why.
 */
static int open_safe_dir(const char *path, bool create, char *why, size_t whysz)
{
	uid_t euid = geteuid();
	char comp[NAME_MAX + 1], sofar[PATH_MAX];
	const char *p = path;
	struct stat st;
	int fd, nfd;

	if (path[0] != '/') {
		snprintf(why, whysz, "it is not an absolute path");
		return -1;
	}
	if (strlen(path) >= sizeof(sofar)) {
		snprintf(why, whysz, "the path is too long");
		return -1;
	}
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	strcpy(sofar, "/");
	for (;;) {
		size_t len;

		if (fd < 0 || fstat(fd, &st)) {
			snprintf(why, whysz, "cannot open '%s': %s", sofar, strerror(errno));
			break;
		}
		/* The rule of the runtime's other trusted paths (TrustedPath.c);
		 * the last component has its stricter check below. */
		if (bpfprobe_trusted_stat(&st, sofar, false, (uid_t)-1, why, whysz))
			break;
		while (*p == '/')
			p++;
		if (!*p) {
			if (st.st_uid != euid) {
				snprintf(why, whysz, "it is owned by uid %u, not by uid %u",
					 (unsigned)st.st_uid, (unsigned)euid);
				break;
			}
			if ((st.st_mode & 07777) != 0700) {
				snprintf(why, whysz, "it has mode %04o, not 0700 (chmod 700 '%s' to use it)",
					 (unsigned)(st.st_mode & 07777), path);
				break;
			}
			return fd;
		}
		len = strcspn(p, "/");
		if (len > NAME_MAX) {
			snprintf(why, whysz, "a component is too long");
			break;
		}
		memcpy(comp, p, len);
		comp[len] = 0;
		p += len;
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			snprintf(why, whysz, "it has a '%s' component", comp);
			break;
		}
		if (strcmp(sofar, "/"))
			strcat(sofar, "/");
		strcat(sofar, comp);
		nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && create) {
			mode_t old = umask(077);

			if (mkdirat(fd, comp, 0700) && errno != EEXIST) {
				umask(old);
				snprintf(why, whysz, "cannot create '%s': %s", sofar, strerror(errno));
				break;
			}
			umask(old);
			nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		}
		if (nfd < 0) {
			int e = errno;

			if (!fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
				snprintf(why, whysz, "'%s' is a symbolic link", sofar);
			else if (e == ENOTDIR)
				snprintf(why, whysz, "'%s' is not a directory", sofar);
			else
				snprintf(why, whysz, "cannot open '%s': %s", sofar, strerror(e));
			break;
		}
		close(fd);
		fd = nfd;
	}
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Where the cache may be, most specific first; the last is not from the
 * environment. */
struct cache_cand {
	char path[PATH_MAX];
	const char *from; /* "$XDG_CACHE_HOME", ...; NULL: the password database */
};

static size_t cache_cands(struct cache_cand *c)
{
	const char *env = getenv("BPFPROBE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	size_t n = 0;

	if (env && *env) {
		snprintf(c[n].path, sizeof(c[n].path), "%s", env);
		c[n++].from = "$BPFPROBE_CACHE_DIR";
	}
	if (xdg && *xdg) {
		snprintf(c[n].path, sizeof(c[n].path), "%s/bpfprobe", xdg);
		c[n++].from = "$XDG_CACHE_HOME";
	}
	if (home && *home) {
		snprintf(c[n].path, sizeof(c[n].path), "%s/.cache/bpfprobe", home);
		c[n++].from = "$HOME";
	}
	snprintf(c[n].path, sizeof(c[n].path), "%s%s.cache/bpfprobe", euid_home(),
		 strcmp(euid_home(), "/") ? "/" : "");
	c[n++].from = NULL;
	return n;
}

/* The private directory of a run without a cache, removed at exit. */
static struct {
	char dir[64];
	char names[3][128];
} scratch;

static void remove_scratch(void)
{
	for (int i = 0; i < 3; i++)
		if (scratch.names[i][0]) {
			char path[256];

			snprintf(path, sizeof(path), "%s/%s", scratch.dir, scratch.names[i]);
			unlink(path);
		}
	rmdir(scratch.dir);
}

/*
 * The cache directory (its path into \p out and an O_PATH descriptor), or,
 * when no candidate is safe, a private directory under /tmp removed at
 * exit (*\p cached false). One line says which environment-given directory
 * was refused and why; -v says more.
 */
static int cache_dir(char *out, size_t sz, bool *cached, bool verbose)
{
	struct cache_cand c[4];
	size_t n = cache_cands(c);
	char why[PATH_MAX + 128], first_why[PATH_MAX + 128];
	const struct cache_cand *refused = NULL;
	int fd = -1;

	for (size_t i = 0; i < n && fd < 0; i++) {
		bool dup = false;

		for (size_t j = 0; j < i; j++)
			dup |= !strcmp(c[i].path, c[j].path);
		if (dup)
			continue;
		fd = open_safe_dir(c[i].path, true, why, sizeof(why));
		if (fd >= 0) {
			memcpy(out, c[i].path, sz < sizeof(c[i].path) ? sz : sizeof(c[i].path));
			out[sz - 1] = 0;
			break;
		}
		if (verbose)
			fprintf(stderr, "%s: not using the cache directory %s%s%s: %s\n", tool,
				c[i].path, c[i].from ? " from " : "", c[i].from ? c[i].from : "", why);
		if (!refused && c[i].from) {
			refused = &c[i];
			snprintf(first_why, sizeof(first_why), "%s", why);
		}
	}
	*cached = fd >= 0;
	if (fd < 0) {
		char tmpl[] = "/tmp/bpfprobe-run.XXXXXX";

		if (!mkdtemp(tmpl))
			return -errno;
		fd = open_safe_dir(tmpl, false, why, sizeof(why));
		if (fd < 0) {
			fprintf(stderr, "%s: cannot use the private directory %s: %s\n", tool, tmpl, why);
			rmdir(tmpl);
			return -EPERM;
		}
		snprintf(scratch.dir, sizeof(scratch.dir), "%s", tmpl);
		snprintf(out, sz, "%s", tmpl);
		atexit(remove_scratch);
		if (verbose)
			fprintf(stderr, "%s: no safe cache directory: compiling in %s, removed at exit\n",
				tool, tmpl);
	} else if (verbose) {
		fprintf(stderr, "%s: cache directory %s\n", tool, out);
	}
	if (refused && !verbose)
		fprintf(stderr, "%s: not using the cache directory %s from %s: %s; %s%s%s\n", tool,
			refused->path, refused->from, first_why,
			*cached ? "using " : "compiling without a cache",
			*cached ? out : "", *cached ? " instead" : "");
	return fd;
}

/* A name part no other run picks (pid and random bits). */
static unsigned long unique_bits(void)
{
	unsigned long r;
	struct timespec ts;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20);
}

/* Writes \p len bytes to \p name in \p dirfd: a fresh file (O_EXCL,
 * O_NOFOLLOW, 0600) renamed into place, so no existing file or link at
 * that name is ever opened. */
static int write_file_at(int dirfd, const char *name, const void *data, size_t len)
{
	char tmp[NAME_MAX + 1];
	const char *p = data;
	int fd, err = 0;

	snprintf(tmp, sizeof(tmp), ".%.100s.%d.%lx.tmp", name, (int)getpid(),
		 unique_bits());
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		p += w, len -= (size_t)w;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	return err;
}

/* The whole of \p name in \p dirfd, if it is a regular file of the
 * effective user that no one else can write, at most \p max bytes. */
static void *read_own_file(int dirfd, const char *name, size_t max, size_t *len,
			   char *why, size_t whysz)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	size_t n = 0;

	if (fd < 0) {
		snprintf(why, whysz, "cannot open %s: %s", name,
			 errno == ELOOP ? "it is a symbolic link" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, whysz, "%s is not a regular file", name);
		goto out;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(why, whysz, "%s is owned by uid %u with mode %04o, want uid %u and no group or other write",
			 name, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
			 (unsigned)geteuid());
		goto out;
	}
	if ((unsigned long long)st.st_size > max) {
		snprintf(why, whysz, "%s has %lld bytes, more than %zu", name,
			 (long long)st.st_size, max);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && n < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);

		if (r <= 0) {
			snprintf(why, whysz, "cannot read %s: %s", name,
				 r ? strerror(errno) : "it got shorter");
			free(buf);
			buf = NULL;
			break;
		}
		n += (size_t)r;
	}
	if (buf) {
		buf[n] = 0;
		*len = n;
	}
out:
	close(fd);
	return buf;
}

/* ---- what an object must be ---- */

/* What identifies a file's contents: its build-id, else size and mtime. */
static void put_identity(FILE *m, const char *what, const char *path)
{
	char id[129];
	struct stat st;

	if (bpfprobe_elf_build_id(path, id, sizeof(id)) > 0)
		fprintf(m, "%s %s build-id %s\n", what, path, id);
	else if (!stat(path, &st))
		fprintf(m, "%s %s size %lld mtime %lld.%09ld\n", what, path,
			(long long)st.st_size, (long long)st.st_mtim.tv_sec,
			st.st_mtim.tv_nsec);
	else
		fprintf(m, "%s %s missing\n", what, path);
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

/*
 * The manifest: everything the object is made from. The generated program
 * embeds it (section MANIFEST_SECTION), and its digest names the object.
 */
#define MANIFEST_SECTION ".bpfprobe.oneliner"

static char *make_manifest(char **specs, size_t n, const struct oneliner_opts *o,
			   const char *clang, const char *clang_version,
			   const char *plugin, const char *inc)
{
	char *text = NULL, bin[PATH_MAX], hdr[PATH_MAX + 32];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct stat st;

	if (!m)
		return NULL;
	fprintf(m, "bpfprobe-run -e %s\n", BPFPROBE_VERSION_STRING);
	fprintf(m, "hist %d\n", o->hist);
	if (o->debuginfo)
		put_identity(m, "debuginfo", o->debuginfo);
	fprintf(m, "clang-version %s\n", clang_version);
	put_identity(m, "clang", clang);
	put_identity(m, "plugin", plugin);
	/* libbpfprobe.so is a loader; the plugin proper is the front end
	 * beside it (plugin/Loader.cpp): a new front end, a new object. */
	snprintf(hdr, sizeof(hdr), "%.*s/libbpfprobe-frontend.so",
		 (int)(strrchr(plugin, '/') ? strrchr(plugin, '/') - plugin : 1),
		 strrchr(plugin, '/') ? plugin : ".");
	put_identity(m, "frontend", hdr);
	snprintf(hdr, sizeof(hdr), "%s/bpfprobe/bpfprobe.h", inc);
	if (!stat(hdr, &st))
		fprintf(m, "include %s mtime %lld.%09ld\n", inc, (long long)st.st_mtim.tv_sec,
			st.st_mtim.tv_nsec);
	for (size_t i = 0; i < n; i++) {
		fprintf(m, "spec %zu %s\n", i + 1, specs[i]);
		spec_binary(specs[i], bin, sizeof(bin));
		if (*bin)
			put_identity(m, "binary", bin);
	}
	if (fclose(m)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * The contents of section \p name of the ELF image \p buf, or NULL. *keep
 * is the libelf handle to end, NULL when \p buf is no whole ELF object
 * (the reason in \p why).
 */
static const void *elf_section(const void *buf, size_t len, const char *name,
			       size_t *out_len, Elf **keep, char *why, size_t whysz)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;

	*keep = NULL;
	snprintf(why, whysz, "it is not an ELF object");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	e = elf_memory((char *)buf, len);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		if (e)
			elf_end(e);
		return NULL;
	}
	/* libelf takes a truncated image for one with fewer sections. */
	if (eh.e_shoff > len || (len - eh.e_shoff) / (eh.e_shentsize ? eh.e_shentsize : 1) <
				       eh.e_shnum || elf_getshdrstrndx(e, &shstrndx)) {
		snprintf(why, whysz, "it is truncated: its %zu bytes end before its section headers",
			 len);
		elf_end(e);
		return NULL;
	}
	*keep = e;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *sname;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(sname = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(sname, name) || sh.sh_type != SHT_PROGBITS)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return NULL;
		*out_len = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/* k for the program name "e<k>" (1 ≤ k ≤ n), else 0. */
static size_t record_program(const char *name, size_t n)
{
	char *end;
	unsigned long k;

	if (!name || name[0] != 'e' || name[1] < '1' || name[1] > '9')
		return 0;
	k = strtoul(name + 1, &end, 10);
	return *end || k > n ? 0 : (size_t)k;
}

static bool in_list(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] && !strcmp(list[i], name))
			return true;
	return false;
}

/*
 * Whether the object \p buf is exactly what \p specs make: the manifest it
 * embeds is \p manifest; its .bpfprobe sites are one record site e<k> per
 * spec k with that spec (and the entry and session programs those name,
 * with the same spec); and libbpf finds no other program in it. Loads
 * nothing. 0, or -1 with the reason in \p why.
 */
static int check_object(const void *buf, size_t len, const char *manifest, char **specs,
			size_t n, char *why, size_t whysz)
{
	const char **allowed = NULL;
	size_t allowed_cnt = 0, mlen = 0, sites;
	struct bpfprobe_meta *meta = NULL;
	struct bpf_object *obj = NULL;
	struct bpf_program *prog;
	libbpf_print_fn_t old_print;
	bool *seen = NULL;
	const void *m;
	Elf *e;
	int ret = -1;

	m = elf_section(buf, len, MANIFEST_SECTION, &mlen, &e, why, whysz);
	if (!e)
		return -1;
	if (!m) {
		snprintf(why, whysz, "it has no %s manifest", MANIFEST_SECTION);
		goto out;
	}
	if (mlen != strlen(manifest) + 1 || memcmp(m, manifest, mlen)) {
		snprintf(why, whysz, "its manifest is not the one these specs, binaries, plugin and clang make");
		goto out;
	}
	meta = bpfprobe_meta__open_mem(buf, len);
	if (!meta) {
		snprintf(why, whysz, "its .bpfprobe metadata cannot be read: %s", strerror(errno));
		goto out;
	}
	sites = bpfprobe_meta__site_cnt(meta);
	allowed = calloc(n + 2 * sites + 1, sizeof(*allowed));
	seen = calloc(n + 1, sizeof(*seen));
	if (!allowed || !seen) {
		snprintf(why, whysz, "out of memory");
		goto out;
	}
	/* The record sites first: they name their entry and session programs. */
	for (size_t i = 0; i < sites; i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		size_t k = record_program(s->program, n);

		if (!k)
			continue;
		if (seen[k] || !s->spec || strcmp(s->spec, specs[k - 1])) {
			snprintf(why, whysz, "its site '%s' is not the spec '%s'", s->program,
				 specs[k - 1]);
			goto out;
		}
		seen[k] = true;
		if (s->entry_program)
			allowed[allowed_cnt++] = s->entry_program;
		if (s->session_program)
			allowed[allowed_cnt++] = s->session_program;
	}
	for (size_t k = 1; k <= n; k++)
		if (!seen[k]) {
			snprintf(why, whysz, "it has no site e%zu for the spec '%s'", k, specs[k - 1]);
			goto out;
		}
	for (size_t i = 0; i < sites; i++) {
		const struct bpfprobe_site *s = bpfprobe_meta__site(meta, i);
		size_t k;

		if (record_program(s->program, n))
			continue;
		k = record_program(s->entry_of, n);
		if (!k || !in_list(allowed, allowed_cnt, s->program) || !s->spec ||
		    strcmp(s->spec, specs[k - 1])) {
			snprintf(why, whysz, "it has a site '%s' (%s) that the specs do not make",
				 s->program ? s->program : "?", s->spec ? s->spec : "?");
			goto out;
		}
	}
	/* Opened only to list its programs: libbpf's log of that is noise. */
	old_print = libbpf_set_print(NULL);
	obj = bpf_object__open_mem(buf, len, NULL);
	libbpf_set_print(old_print);
	if (!obj) {
		snprintf(why, whysz, "libbpf cannot open it: %s", strerror(errno));
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog);

		if (!record_program(name, n) && !in_list(allowed, allowed_cnt, name)) {
			snprintf(why, whysz, "it has a program '%s' (section %s) that the specs do not make",
				 name, bpf_program__section_name(prog));
			goto out;
		}
	}
	ret = 0;
out:
	bpf_object__close(obj);
	bpfprobe_meta__free(meta);
	free(allowed);
	free(seen);
	elf_end(e);
	return ret;
}

/* The largest object or source the cache holds. */
#define CACHE_MAX_FILE (64u << 20)

/*
 * The cached object \p name checked against its digest file \p sum_name
 * and check_object(). 0, or -1 with the reason in \p why.
 */
static int check_cached(int dirfd, const char *name, const char *sum_name,
			const char *manifest, char **specs, size_t n, char *why, size_t whysz)
{
	size_t len, sum_len;
	char hex[65];
	char *buf, *sum;
	int ret = -1;

	buf = read_own_file(dirfd, name, CACHE_MAX_FILE, &len, why, whysz);
	if (!buf)
		return -1;
	sum = read_own_file(dirfd, sum_name, 128, &sum_len, why, whysz);
	if (sum) {
		sha256_hex(buf, len, hex);
		if (sum_len != 65 || memcmp(sum, hex, 64) || sum[64] != '\n')
			snprintf(why, whysz, "its SHA-256 is %s, not the one %s records", hex, sum_name);
		else
			ret = check_object(buf, len, manifest, specs, n, why, whysz);
	}
	free(sum);
	free(buf);
	return ret;
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

/* The manifest as one C string literal (newlines and any other control
 * byte escaped). */
static void put_manifest(FILE *f, const char *text)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/*
 * Each literal sits directly inside its attribute (through a macro the
 * caret would point into the macro), alone on its line from column 1, so a
 * diagnostic's column maps back to the user's -e text. The manifest comes
 * after the specs: it cannot move their lines.
 */
static char *make_source(char **specs, size_t n, bool hist, const char *manifest,
			 size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	fputs("/* generated by bpfprobe-run -e */\n"
	      "#include <linux/bpf.h>\n"
	      "#include <linux/ptrace.h>\n"
	      "#include <bpf/bpf_helpers.h>\n"
	      "#include <bpfprobe/bpfprobe.h>\n"
	      "char LICENSE[] SEC(\"license\") = \"GPL\";\n"
	      "struct __bpfprobe_records_map bpfprobe_records SEC(\".maps\");\n"
	      "struct __bpfprobe_lost_map bpfprobe_lost SEC(\".maps\");\n"
	      "struct __bpfprobe_sites_map bpfprobe_sites SEC(\".maps\");\n"
	      "struct __bpfprobe_scope_map bpfprobe_scope SEC(\".maps\");\n", f);
	/* Only for --hist: the histogram path costs code and stack. */
	fputs(hist ? "BPF_PROBE_HIST_MAP;\n" : "\n", f);
	for (int line = 12; line < FIRST_SPEC_LINE; line++)
		fputc('\n', f);
	/* Spec k alone on line FIRST_SPEC_LINE + 3k + 1, from column 1. */
	for (size_t i = 0; i < n; i++) {
		fputs("__attribute__((bpfprobe_record(\n", f);
		put_literal(f, specs[i]);
		fprintf(f, "), used)) int e%zu(void *ctx) { return 0; }\n", i + 1);
	}
	/* What the object is made from, checked before a cached copy is used. */
	fputs("__attribute__((used)) char __bpfprobe_oneliner[] SEC(\"" MANIFEST_SECTION "\") =\n", f);
	put_manifest(f, manifest);
	fputs(";\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
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
		   const char *debuginfo, const char *src, const char *out,
		   char **specs, size_t n, bool verbose)
{
	char plug_arg[PATH_MAX + 16], inc_arg[PATH_MAX + 4], di_arg[PATH_MAX + 40];
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
	if (debuginfo) {
		snprintf(di_arg, sizeof(di_arg), "-fplugin-arg-bpfprobe-debuginfo=%s", debuginfo);
		argv[argc++] = di_arg;
	}
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
		execve(clang, argv, clean_env());
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
	char src[PATH_MAX + 128], tmp_path[PATH_MAX + 128], version[512], why[PATH_MAX + 256];
	char key[65], obj_name[48], src_name[48], sum_name[48], tmp_name[96], hex[65];
	char *manifest = NULL, *source = NULL, *buf = NULL;
	char *ver_argv[] = { clang, "--version", NULL };
	size_t src_len, len;
	bool cached;
	int dirfd = -1, err, ret = ONELINER_SETUP;

	for (size_t i = 0; i < n; i++)
		if (oneliner_check_spec("-e", specs[i], strlen(specs[i])))
			return ONELINER_USAGE;
	if (find_plugin(o, plugin, sizeof(plugin))) {
		fprintf(stderr, "%s: cannot find the bpfprobe plugin (libbpfprobe.so) beside %s; give --plugin PATH\n",
			tool, "bpfprobe-run");
		return ONELINER_SETUP;
	}
	if (find_include(inc, sizeof(inc))) {
		fprintf(stderr, "%s: cannot find the bpfprobe headers (include/bpfprobe/bpfprobe.h) beside bpfprobe-run\n",
			tool);
		return ONELINER_SETUP;
	}
	find_clang(o, clang, sizeof(clang));
	if (access(clang, X_OK) || run_capture_line(ver_argv, version, sizeof(version))) {
		fprintf(stderr, "%s: cannot run clang '%s' (the one bpfprobe was built for): %s; use --clang PATH\n",
			tool, clang, errno ? strerror(errno) : "clang --version failed");
		return ONELINER_SETUP;
	}
	manifest = make_manifest(specs, n, o, clang, version, plugin, inc);
	if (!manifest)
		return ONELINER_SETUP;
	/* The name: a digest of the manifest (the cache directory is the
	 * user's own, so a name anyone can compute plants nothing). */
	sha256_hex(manifest, strlen(manifest), key);
	key[32] = 0;
	snprintf(obj_name, sizeof(obj_name), "%.32s.bpf.o", key);
	snprintf(src_name, sizeof(src_name), "%.32s.bpf.c", key);
	snprintf(sum_name, sizeof(sum_name), "%.32s.sum", key);
	snprintf(tmp_name, sizeof(tmp_name), ".%.32s.%d.%lx.tmp.o", key, (int)getpid(),
		 unique_bits());

	dirfd = cache_dir(dir, sizeof(dir), &cached, o->verbose);
	if (dirfd < 0) {
		fprintf(stderr, "%s: cannot create a private directory to compile in: %s\n", tool,
			strerror(-dirfd));
		goto out;
	}
	snprintf(obj, obj_sz, "%s/%s", dir, obj_name);
	if (cached && !o->no_cache) {
		if (!check_cached(dirfd, obj_name, sum_name, manifest, specs, n, why, sizeof(why))) {
			if (o->verbose)
				fprintf(stderr, "%s: using the cached object %s\n", tool, obj);
			ret = 0;
			goto out;
		}
		/* Absent is the usual miss; anything else is said. */
		if (faccessat(dirfd, obj_name, F_OK, AT_SYMLINK_NOFOLLOW) == 0 ||
		    errno != ENOENT)
			fprintf(stderr, "%s: not using the cached object %s: %s; compiling it again\n",
				tool, obj, why);
	}
	if (!cached) {
		snprintf(scratch.names[0], sizeof(scratch.names[0]), "%s", src_name);
		snprintf(scratch.names[1], sizeof(scratch.names[1]), "%s", obj_name);
		snprintf(scratch.names[2], sizeof(scratch.names[2]), "%s", tmp_name);
	}
	source = make_source(specs, n, o->hist, manifest, &src_len);
	if (!source || (err = write_file_at(dirfd, src_name, source, src_len))) {
		fprintf(stderr, "%s: cannot write %s/%s: %s\n", tool, dir, src_name,
			strerror(source ? -err : ENOMEM));
		goto out;
	}
	snprintf(src, sizeof(src), "%s/%s", dir, src_name);
	snprintf(tmp_path, sizeof(tmp_path), "%s/%s", dir, tmp_name);
	err = compile(clang, plugin, inc, o->debuginfo, src, tmp_path, specs, n, o->verbose);
	if (err) {
		unlinkat(dirfd, tmp_name, 0);
		ret = err == -ENOENT ? ONELINER_SETUP : ONELINER_COMPILE;
		goto out;
	}
	/* clang made it by the umask: the cache wants no group or other write. */
	fchmodat(dirfd, tmp_name, 0600, 0);
	/* What was just compiled passes the same checks a cached copy must. */
	buf = read_own_file(dirfd, tmp_name, CACHE_MAX_FILE, &len, why, sizeof(why));
	if (!buf || check_object(buf, len, manifest, specs, n, why, sizeof(why))) {
		fprintf(stderr, "%s: the compiled object is not what the specs should make: %s\n",
			tool, why);
		unlinkat(dirfd, tmp_name, 0);
		goto out;
	}
	sha256_hex(buf, len, hex);
	hex[64] = '\n';
	if ((cached && (err = write_file_at(dirfd, sum_name, hex, 65))) ||
	    (err = renameat(dirfd, tmp_name, dirfd, obj_name) ? -errno : 0)) {
		fprintf(stderr, "%s: cannot store %s: %s\n", tool, obj, strerror(-err));
		unlinkat(dirfd, tmp_name, 0);
		goto out;
	}
	ret = 0;
out:
	if (dirfd >= 0)
		close(dirfd);
	free(buf);
	free(source);
	free(manifest);
	return ret;
}

int oneliner_list(const char *spec, bool vars)
{
	const char *const cands[] = { "bpfprobe-resolve", NULL };
	char resolve[PATH_MAX];
	char *argv[] = { resolve, vars ? "--vars" : "--lines", (char *)spec, NULL };
	int err;

	if ((err = oneliner_check_spec(vars ? "-V" : "-L", spec, strlen(spec))))
		return err;
	/* Beside this program only: not wherever $PATH says. */
	if (!find_beside(cands, resolve, sizeof(resolve))) {
		fprintf(stderr, "%s: cannot find bpfprobe-resolve beside bpfprobe-run\n", tool);
		return ONELINER_SETUP;
	}
	execv(resolve, argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", tool, resolve, strerror(errno));
	return ONELINER_SETUP;
}
