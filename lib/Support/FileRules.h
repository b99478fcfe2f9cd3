/*===- FileRules.h - What a file is, and whose it may be ----------*- C -*-===*
 *
 * \file
 * The two rules about files that the compiler (lib/Resolve/FileTrust.cpp:
 * the probed binary and debug files) and the root runtime
 * (lib/Runtime/ElfFile.c, TrustedPath.c: binaries, the tests' fake /sys,
 * the one-liner cache) both apply, written once (docs/security.md):
 *
 *  - only a regular file is read as an ELF file (a FIFO would hang the
 *    open, /dev/zero never ends);
 *  - a file or directory is trusted when root, the effective user or one
 *    more owner the caller names owns it and neither group nor others may
 *    write it; a sticky directory above the end (/tmp) may be writable,
 *    since only an entry's owner can replace that entry.
 *
 * Plain C, header only, so that the runtime needs no C++ to share it.
 *===----------------------------------------------------------------------===*/

#ifndef BPFPROBE_SUPPORT_FILERULES_H
#define BPFPROBE_SUPPORT_FILERULES_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

/* NULL for a regular file, else what it is ("a FIFO", "a directory"). */
static inline const char *bpfprobe_file_type(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

enum bpfprobe_trust {
	BPFPROBE_TRUSTED,
	BPFPROBE_FOREIGN_OWNER, /* owned by someone else */
	BPFPROBE_FOREIGN_WRITE, /* group or others may write it */
};

/*
 * The rule for one file or directory owned by \p uid with \p mode: trusted
 * owners are root, \p euid and \p also ((uid_t)-1: nobody more); \p last is
 * false for a directory above the end of a path, which may be sticky.
 */
static inline enum bpfprobe_trust bpfprobe_trust_rule(uid_t uid, mode_t mode,
						      bool last, uid_t euid,
						      uid_t also)
{
	if (uid != 0 && uid != euid && (also == (uid_t)-1 || uid != also))
		return BPFPROBE_FOREIGN_OWNER;
	if ((mode & (S_IWGRP | S_IWOTH)) &&
	    !(S_ISDIR(mode) && (mode & S_ISVTX) && !last))
		return BPFPROBE_FOREIGN_WRITE;
	return BPFPROBE_TRUSTED;
}

#endif
