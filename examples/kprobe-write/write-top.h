/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Shared by write-top.bpf.c and write-top.c: the per-process totals. */
#ifndef WRITE_TOP_H
#define WRITE_TOP_H

#define WRITE_TOP_COMM_LEN 16

struct write_stats {
	unsigned long long calls;
	unsigned long long bytes;       /* bytes asked for (count argument) */
	unsigned long long last_pos;    /* *pos of the last call, 0 if none */
	char comm[WRITE_TOP_COMM_LEN];
};

#endif
