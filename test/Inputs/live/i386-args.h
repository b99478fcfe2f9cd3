/* Shared by the 32-bit x86 live-test target (i386-args.c) and the probes
 * that trace it (i386-args.bpf.c): one format per target function, so the
 * target's stdout and the probes' ring-buffer records are compared with
 * diff. Only conversions both printf(3) and bpf_snprintf() accept; long is
 * 32-bit in the target and 64-bit in BPF, and prints the same with %ld. */
#ifndef BPFPROBE_TEST_LIVE_I386_ARGS_H
#define BPFPROBE_TEST_LIVE_I386_ARGS_H

/* Structures whose layout is the same for i386 and BPF (no long, pointer or
 * long long members), so the BPF body reads the prologue's copy as is. */
struct s3 { char c; short s; };
struct s6 { short a, b, c; };
struct s8 { int a, b; };
struct s12 { int a; unsigned char b; int c; };

#define I1_FMT  "i1 %d %d %d %d %d %u %ld %lu"
#define I2_FMT  "i2 %lld %d %llu %s 0x%lx"
#define I3_FMT  "i3 %d %d %d %d %d %lld %d %d %d"
#define I4_FMT  "i4 0x%llx 0x%x %d %lld"
#define I5_FMT  "i5 %d %lld %d %d %d %s %lld %d %d %d %d %lu"
#define I6_FMT  "i6 %d %d %d"
#define R6_FMT  "r6 %lld"
#define R7_FMT  "r7 %d"

#endif
