/* The probe on args.c's fdirty through the bpfprobe plugin. dirty_call()
 * passes every argument with bits 32..63 set to 0x5a5a5a5a, which the
 * psABI leaves undefined: the wrapper must use only the bits of each type
 * (and only bit 0 of a _Bool's byte), in registers and in stack slots.
 *
 *   clang -target bpf -fplugin=libbpfprobe.so -g -O2 \
 *         -DTARGET='"/path/to/args"' -c dirty.bpf.c */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

#include "args.h"
#include "emit.h"

#ifndef TARGET
#error "define TARGET as the quoted path of the args binary"
#endif

SEC("uprobe/" TARGET ":fdirty(int, unsigned, short, char, unsigned char, "
    "_Bool, int, unsigned)")
int on_fdirty(struct pt_regs *ctx, int a, unsigned b, short c, char d,
              unsigned char e, _Bool f, int g, unsigned h) {
  EMIT(FDIRTY_FMT, a, b, c, d, e, f, g, h);
  return 0;
}
