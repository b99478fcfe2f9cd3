/* Shared by the live-test target (args.c) and the probes that trace it
 * (args.bpf.c, args-plain.bpf.c): one format per target function, so the
 * target's stdout and the probes' ring-buffer records are compared with
 * diff. Only conversions both printf(3) and bpf_snprintf() accept. */
#ifndef BPFPROBE_TEST_LIVE_ARGS_H
#define BPFPROBE_TEST_LIVE_ARGS_H

/* Pointers that are not strings print as "0x%lx" of (unsigned long)p. */
#define F1_FMT  "f1 %d"
#define F2_FMT  "f2 %d %d"
#define F3_FMT  "f3 %d %d %d"
#define F4_FMT  "f4 %d %u %ld %lu"
#define F5_FMT  "f5 %lld %llu %s %d %d"
#define F6_FMT  "f6 %d %d %d %ld %lld %s"
#define F7_FMT  "f7 %d %d %u %ld %s %lld %d"
#define F8_FMT  "f8 %d %d %d %d %d %d %d %d"
#define F9_FMT  "f9 0x%lx %s %ld %d %d %d %lld %u %d"
#define F10_FMT "f10 %d %d %d %d %d %d %d %d %ld %s"
#define F11_FMT "f11 %lu %d %s %d %u %d %lld %d %s %d %ld"
#define F12_FMT "f12 %lld %lu %d 0x%lx %d %u %d %d %d %d %s %ld"
/* Called by dirty_call() with bits 32..63 of every argument register and
 * stack slot set to 0x5a5a5a5a (the psABI leaves them undefined). */
#define FDIRTY_FMT "fdirty %d %u %d %d %d %d %d %u"

#endif
