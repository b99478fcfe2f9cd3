/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * Build-ids of the running kernel and its modules, read from the raw ELF
 * notes the kernel exports: /sys/kernel/notes for vmlinux and
 * /sys/module/<name>/notes/.note.gnu.build-id for a module. Binaries' ids
 * come from their ELF file (ElfFile.c).
 */
#define _GNU_SOURCE /* secure_getenv */
#include "Internal.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_notes_file(const char *path, char *buf, size_t buf_sz)
{
	unsigned char notes[4096];
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (len < sizeof(notes)) {
		ssize_t n = read(fd, notes + len, sizeof(notes) - len);

		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	return bpfprobe_notes_build_id(notes, len, buf, buf_sz);
}

int bpfprobe_kernel_build_id(const char *module, char *buf, size_t buf_sz)
{
	char path[512];

	if (!buf || !buf_sz)
		return -EINVAL;
	if (!module || !*module)
		snprintf(path, sizeof(path), "%s/kernel/notes", bpfprobe_sysfs_root());
	else if (strchr(module, '/'))
		return -EINVAL;
	else
		snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id",
			 bpfprobe_sysfs_root(), module);
	return read_notes_file(path, buf, buf_sz);
}

/*
 * "/sys", or $BPFPROBE_SYSFS_ROOT: a test hook that lets the lit suite fake
 * a kernel's notes, modules and PMUs (docs/runtime.md). Read with
 * secure_getenv, so a set-user-ID or capability-raised program ignores it;
 * and since root may run with another user's environment (sudo -E), the
 * directory is used only when no one but root or the effective user can
 * have written it (TrustedPath.c). Otherwise the real /sys, said once.
 */
const char *bpfprobe_sysfs_root(void)
{
	static char root[PATH_MAX];
	static bool decided;
	const char *env;
	char why[PATH_MAX + 64];
	int err;

	if (decided)
		return *root ? root : "/sys";
	decided = true;
	env = secure_getenv("BPFPROBE_SYSFS_ROOT");
	if (!env || !*env)
		return "/sys";
	err = bpfprobe_trusted_path(env, (uid_t)-1, root, why, sizeof(why));
	if (err) {
		root[0] = 0;
		pr_warn("ignoring BPFPROBE_SYSFS_ROOT=%s: %s; reading /sys\n", env,
			err == -EPERM ? why : strerror(-err));
		return "/sys";
	}
	return root;
}
