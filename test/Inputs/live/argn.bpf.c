/* Probes on args.c through the bpfprobe plugin by argument number with an
 * explicit fetch type ($argN:type) instead of C types: f12's twelve
 * arguments (7..12 from the stack, the string with :string, so the body
 * gets a pointer to the wrapper's stack copy) and f11's two strings, the
 * second of them empty, named out of order.
 *
 *   clang -target bpf -fplugin=libbpfprobe.so -g -O2 \
 *         -DTARGET='"/path/to/args"' -c argn.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

#include "args.h"
#include "emit.h"

#ifndef TARGET
#error "define TARGET as the quoted path of the args binary"
#endif

SEC("uprobe/" TARGET ":f11($arg9:string, $arg3:string, $arg11:s64)")
int on_f11(struct pt_regs *ctx, const char *t, const char *s, long i) {
  EMIT("f11 [%s] [%s] %ld", t, s, i);
  return 0;
}

SEC("uprobe/" TARGET ":f12($arg1:s64, $arg2:u64, $arg3:s32, $arg4:x64, "
    "$arg5:u8, $arg6:u32, $arg7:s8, $arg8:u16, $arg9:u8, $arg10:s16, "
    "$arg11:string, $arg12:s64)")
int on_f12(struct pt_regs *ctx, long long a, unsigned long b, int c,
           unsigned long p, unsigned char d, unsigned e, char f,
           unsigned short g, unsigned char h, short i, const char *s, long j) {
  EMIT(F12_FMT, a, b, c, p, d, e, f, g, h, i, s, j);
  return 0;
}
