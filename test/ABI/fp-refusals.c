// Floating point by architecture: refused exactly where the psABI puts the
// value in an FP/SIMD register (which struct pt_regs does not hold), planned
// where it travels like an integer. Each refusal names its rule; the DWARF
// oracle (dwarf-oracle-*.test) checks both directions against the compilers.
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=arm64 -fplugin-arg-bpfprobe-arch=aarch64 -DARM64 %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=armhf -fplugin-arg-bpfprobe-arch=arm -DARMHF %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=armel -fplugin-arg-bpfprobe-arch=arm -fplugin-arg-bpfprobe-cc=aapcs -DARMEL %s
// RUN: %clang_bpf -target bpfeb -fsyntax-only -Xclang -verify=s390 -fplugin-arg-bpfprobe-arch=s390x -DS390 %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=ppc -fplugin-arg-bpfprobe-arch=powerpc64le -DPPC %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=mips -fplugin-arg-bpfprobe-arch=mips64 -DMIPS %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=rv -fplugin-arg-bpfprobe-arch=riscv64 -DRV %s
// RUN: %clang_bpf -fsyntax-only -Xclang -verify=x86 -fplugin-arg-bpfprobe-arch=i386 -DX86 %s
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-arch=aarch64 -fplugin-arg-bpfprobe-print-plan -DPLAN_ARM64 %s | FileCheck %s --check-prefix=PLAN-ARM64
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-arch=mips64 -fplugin-arg-bpfprobe-print-plan -DPLAN_MIPS %s | FileCheck %s --check-prefix=PLAN-MIPS
// RUN: %clang_bpf -fsyntax-only -fplugin-arg-bpfprobe-arch=i386 -fplugin-arg-bpfprobe-print-plan -DPLAN_X86 %s | FileCheck %s --check-prefix=PLAN-X86

#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct sf { float f; int i; };   // mixed: integer-like nearly everywhere
struct sd { double d; };         // one double
struct hfa3 { float a, b, c; };  // homogeneous float aggregate
struct sld { long double x; };

#ifdef ARM64
// arm64-error@+1 {{cannot fetch 'struct sd': it is a homogeneous floating-point aggregate, passed in SIMD registers (AAPCS64 5.9.5, 6.8.2 C.2), which struct pt_regs does not hold}}
SEC("uprobe/./x:f(int, struct sd)")
int a1(struct pt_regs *ctx, int a, const struct sd *p) { return 0; }
// arm64-error@+1 {{cannot fetch 'struct hfa3': it is a homogeneous floating-point aggregate}}
SEC("uprobe/./x:f(struct hfa3)")
int a2(struct pt_regs *ctx, const struct hfa3 *p) { return 0; }
#endif

#ifdef ARMHF
// The uprobe default is the VFP variant: floating point is in VFP registers.
// armhf-error@+1 {{cannot fetch 'double': with the VFP variant of the procedure call standard (armhf) it is passed in a VFP register (AAPCS 6.1.2, 6.5 C.1), which struct pt_regs does not hold; if the program is built for the base standard (armel, soft or softfp float ABI), pass -fplugin-arg-bpfprobe-cc=aapcs}}
SEC("uprobe/./x:f(int, double)")
int h1(struct pt_regs *ctx, int a, unsigned long long b) { return 0; }
// armhf-error@+1 {{cannot fetch 'struct hfa3': with the VFP variant of the procedure call standard (armhf), a homogeneous floating-point aggregate is passed in VFP registers (AAPCS 6.1.2.1, 6.5 C.2)}}
SEC("uprobe/./x:f(struct hfa3)")
int h2(struct pt_regs *ctx, const struct hfa3 *p) { return 0; }
// Not a VFP candidate: core registers, as in the base standard.
SEC("uprobe/./x:f(struct sf, int)")
int h3(struct pt_regs *ctx, const struct sf *p, int a) { return 0; }
#endif

#ifdef ARMEL
// The base standard (and the kernel): the bits of a double in r2:r3.
// armel-no-diagnostics
SEC("uprobe/./x:f(int, double)")
int e1(struct pt_regs *ctx, int a, unsigned long long b) { return 0; }
SEC("kprobe/f(struct hfa3)")
int e2(struct pt_regs *ctx, const struct hfa3 *p) { return 0; }
#endif

#ifdef S390
// s390-error@+1 {{cannot fetch 'struct sd': a structure with a single floating-point member is passed in an FP register (s390x ELF ABI, Parameter Passing), which struct pt_regs does not hold}}
SEC("uprobe/./x:f(struct sd)")
int s1(struct pt_regs *ctx, const struct sd *p) { return 0; }
SEC("uprobe/./x:f(struct sf)")
int s2(struct pt_regs *ctx, const struct sf *p) { return 0; }
#endif

#ifdef PPC
// ppc-error@+1 {{cannot fetch 'struct hfa3': it is a homogeneous floating-point aggregate, passed in FP registers (64-bit ELF V2 ABI 2.2.4.1), which struct pt_regs does not hold}}
SEC("uprobe/./x:f(struct hfa3)")
int p1(struct pt_regs *ctx, const struct hfa3 *p) { return 0; }
SEC("uprobe/./x:f(struct sf)")
int p2(struct pt_regs *ctx, const struct sf *p) { return 0; }
#endif

#ifdef MIPS
// mips-error@+1 {{cannot fetch 'struct sd': a doubleword of it that is a double is passed in an FP register (MIPS n64 ABI, chapter 3), which struct pt_regs does not hold}}
SEC("uprobe/./x:f(struct sd)")
int m1(struct pt_regs *ctx, const struct sd *p) { return 0; }
// mips-error@+1 {{cannot fetch 'double': floating-point arguments are passed in FP registers (MIPS n64 ABI, chapter 3)}}
SEC("uprobe/./x:f(int, double)")
int m2(struct pt_regs *ctx, int a, unsigned long long b) { return 0; }
#endif

#ifdef RV
// rv-error@+1 {{cannot fetch 'struct sf': it is passed in FP registers by the hardware floating-point convention}}
SEC("uprobe/./x:f(struct sf)")
int r1(struct pt_regs *ctx, const struct sf *p) { return 0; }
// rv-error@+1 {{cannot fetch 'struct sd': it is passed in FP registers by the hardware floating-point convention}}
SEC("uprobe/./x:f(struct sd)")
int r2(struct pt_regs *ctx, const struct sd *p) { return 0; }
#endif

#ifdef X86
// x86-error@+1 {{cannot fetch 'long double': only 32- and 64-bit floating-point values are fetched (as their bits)}}
SEC("uprobe/./x:f(long double)")
int x1(struct pt_regs *ctx, long a) { return 0; }
// regparm(3): a structure of one long double is on the stack for GCC and in
// eax, edx, ecx for Clang when they are free; when they are not, Clang keeps
// no register for later arguments and GCC keeps them.
// x86-error@+1 {{cannot fetch 'struct sld': with -mregparm=3, GCC passes a structure of one long double on the stack and Clang in registers; the table cannot know which compiler built the code}}
SEC("kprobe/f(struct sld)")
int x2(struct pt_regs *ctx, const struct sld *p) { return 0; }
// x86-error@+1 {{cannot fetch 'int': with -mregparm=3 after a structure of one long double that did not fit in the registers, GCC passes it in a register and Clang on the stack}}
SEC("kprobe/f(int, int, struct sld, int)")
int x3(struct pt_regs *ctx, int a, int b, const struct sld *p, int d) { return 0; }
#endif

#ifdef PLAN_ARM64
// Not homogeneous: in x0, like an integer.
// PLAN-ARM64: p:pa ./x:f a=%x0:s32 p=%x1:x8[8]
SEC("uprobe/./x:f(int, struct sf)")
int pa(struct pt_regs *ctx, int a, const struct sf *p) { return 0; }
#endif

#ifdef PLAN_MIPS
// n64 gives FP registers by argument position: past the eighth, a double
// and a structure's double are in stack slots, and their bits are fetched.
// PLAN-MIPS: p:pm ./x:f a=%r4:s64 {{.*}} h=%r11:s64 i=+0(%r29):x64 j=+8(%r29):x8[8]
SEC("uprobe/./x:f(long, long, long, long, long, long, long, long, double, struct sd)")
int pm(struct pt_regs *ctx, long a, long b, long c, long d, long e, long f, long g,
       long h, unsigned long long i, const struct sd *j) { return 0; }
#endif

#ifdef PLAN_X86
// i386 regparm(3) (the kernel): a one-double structure goes to the stack and
// takes no register; a long long that does not fit leaves none for later.
// PLAN-X86: p:pr f a=%ax:s32 b=+4(%sp):x8[8] c={%dx,%cx}:s64 d=+12(%sp):s32
SEC("kprobe/f(int, struct sd, long long, int)")
int pr(struct pt_regs *ctx, int a, const struct sd *b, long long c, int d) { return 0; }
// PLAN-X86: p:pr2 f a=%ax:s32 b=%dx:s32 c=+4(%sp):s64 d=+12(%sp):s32
SEC("kprobe/f(int, int, long long, int)")
int pr2(struct pt_regs *ctx, int a, int b, long long c, int d) { return 0; }
// After a long double structure that did not fit, a long long that fits in
// neither compiler's registers puts both back on the stack, in agreement.
// PLAN-X86: p:pr3 f a=%ax:s32 b=%dx:s32 c=+4(%sp):x8[12] d=+16(%sp):s64 e=+24(%sp):s32
SEC("kprobe/f(int, int, struct sld, long long, int)")
int pr3(struct pt_regs *ctx, int a, int b, const void *c /* i386 layout */, long long d, int e) { return 0; }
#endif

char LICENSE[] SEC("license") = "GPL";
