/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Whether a path another user could have influenced may be used by this
 * (often root) process: the rule perf applies to its config and build-id
 * cache files, extended to every directory above the file. A path is
 * trusted when, after resolving it once, every component is owned by root,
 * by the effective user or by one more owner the caller names (a binary's
 * owner for its own debug files), and none is writable by group or others,
 * except a sticky directory such as /tmp, whose entries only their owners
 * can replace. The caller then uses the resolved path, never the original,
 * so a symlink the check did not see cannot be retargeted afterwards.
 * docs/security.md states the model.
 */
#define _GNU_SOURCE
#include "Internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

__attribute__((format(printf, 3, 4)))
static int why_not(char *why, size_t why_sz, const char *fmt, ...)
{
	va_list ap;

	if (why && why_sz) {
		va_start(ap, fmt);
		vsnprintf(why, why_sz, fmt, ap);
		va_end(ap);
	}
	return -EPERM;
}

int bpfprobe_trusted_stat(const struct stat *st, const char *name, bool last,
			  uid_t also, char *why, size_t why_sz)
{
	switch (bpfprobe_trust_rule(st->st_uid, st->st_mode, last, geteuid(), also)) {
	case BPFPROBE_FOREIGN_OWNER:
		return why_not(why, why_sz, "'%s' is owned by uid %u, not by root or uid %u",
			       name, (unsigned)st->st_uid, (unsigned)geteuid());
	case BPFPROBE_FOREIGN_WRITE:
		return why_not(why, why_sz, "'%s' is writable by its group or others (mode %04o)",
			       name, (unsigned)(st->st_mode & 07777));
	default:
		return 0;
	}
}

/* One component: a real directory or file, a trusted owner, no foreign write. */
static int check_component(const char *part, bool last, uid_t also, char *why,
			   size_t why_sz)
{
	struct stat st;

	if (lstat(part, &st))
		return -errno;
	if (S_ISLNK(st.st_mode)) /* replaced since realpath() resolved it */
		return why_not(why, why_sz, "'%s' changed while it was checked", part);
	return bpfprobe_trusted_stat(&st, part, last, also, why, why_sz);
}

int bpfprobe_trusted_path(const char *path, uid_t also, char *resolved,
			  char *why, size_t why_sz)
{
	char real[PATH_MAX], part[PATH_MAX];
	size_t len;
	int err;

	if (!path || !*path)
		return why_not(why, why_sz, "empty path");
	if (!realpath(path, real))
		return -errno;
	len = strlen(real);
	if ((err = check_component("/", len == 1, also, why, why_sz)))
		return err;
	for (size_t i = 1; i <= len && len > 1; i++) {
		if (i < len && real[i] != '/')
			continue;
		memcpy(part, real, i);
		part[i] = 0;
		if ((err = check_component(part, i == len, also, why, why_sz)))
			return err;
	}
	if (resolved)
		strcpy(resolved, real);
	return 0;
}
