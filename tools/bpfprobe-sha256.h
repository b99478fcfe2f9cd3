/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/**
 * \file
 * SHA-256 (FIPS 180-4) for bpfprobe-run's one-liner cache: the name of a
 * cached object (a digest of what it was made from) and the digest stored
 * beside it (of its bytes), both checked before the object is used.
 */
#ifndef BPFPROBE_SHA256_H
#define BPFPROBE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;      /* bytes hashed so far */
	unsigned char buf[64];
	size_t fill;       /* bytes in buf */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* The digest as 64 lower-case hex digits and a NUL, into \p hex. */
void sha256_final_hex(struct sha256 *s, char hex[65]);
/* sha256_init + sha256_update + sha256_final_hex. */
void sha256_hex(const void *data, size_t n, char hex[65]);

#endif
