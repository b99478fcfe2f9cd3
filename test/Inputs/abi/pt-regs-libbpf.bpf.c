/* Reads libbpf's PT_REGS_* accessors into a global, one store per accessor,
 * so that llvm-objdump shows the context offset each one loads. Compiled
 * with -D__TARGET_ARCH_<arch> and the arch's uapi headers. Under
 * -target bpf `long` is 8 bytes, so a 32-bit arch's `long uregs[18]` has
 * 8-byte slots here: the oracle compares slot indexes there. */
#include <linux/types.h>
#include <asm/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

volatile unsigned long out[16];

SEC("kprobe/x")
int regs(struct pt_regs *ctx)
{
	out[1] = PT_REGS_PARM1(ctx);
	out[2] = PT_REGS_PARM2(ctx);
	out[3] = PT_REGS_PARM3(ctx);
#ifndef NO_PARM45
	out[4] = PT_REGS_PARM4(ctx);
	out[5] = PT_REGS_PARM5(ctx);
#endif
	out[6] = PT_REGS_RC(ctx);
#ifndef NO_SP
	out[7] = PT_REGS_SP(ctx);
#endif
#ifndef NO_IP
	out[8] = PT_REGS_IP(ctx);
#endif
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
