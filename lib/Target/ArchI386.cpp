//===- ArchI386.cpp - i386 pt_regs and calling conventions ----------------===//
//
/// \file
/// i386 with a 32-bit kernel, as seen by a BPF kprobe/uprobe program.
///
/// struct pt_regs: arch/x86/include/asm/ptrace.h (CONFIG_X86_32 branch) and
/// arch/x86/include/uapi/asm/ptrace.h (`#ifdef __i386__`: ebx, ecx, edx, esi,
/// edi, ebp, eax, xds, xes, xfs, xgs, orig_eax, eip, xcs, eflags, esp, xss),
/// 17 four-byte slots. Register names: arch/x86/kernel/ptrace.c
/// regoffset_table. The table assumes a kernel whose x86_32 entry code saves
/// pt_regs->sp for kernel-mode traps (stack arguments are read through it).
/// DWARF register numbers: System V i386 psABI, "DWARF Register Number
/// Mapping" (eax 0, ecx 1, edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7, eip 8,
/// eflags 9, es 40, cs 41, ss 42, ds 43, fs 44, gs 45).
/// Kernel (kprobe): the kernel is built with -mregparm=3 (arch/x86/Makefile):
/// eax, edx, ecx, then 4-byte stack slots above the return address; a
/// 64-bit value takes two consecutive registers (low half first) or goes to
/// the stack. libbpf's bpf_tracing.h models only this convention.
/// User (uprobe): System V i386 psABI 2.2 (cdecl): every argument on the
/// stack from 4(%esp), each rounded up to 4 bytes, 64-bit values 4-aligned.
/// Return values: eax, and edx for the high half of a 64-bit value.
/// 32-bit user tasks under an x86_64 kernel see the x86_64 pt_regs: use
/// 'ia32-compat' (ArchIA32Compat.cpp) for them.
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"

namespace bpfprobe {

// clang-format off
static const RegInfo I386Regs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"bx",           0,       4,    3,     "ebx"},
  {"cx",           4,       4,    1,     "ecx"},
  {"dx",           8,       4,    2,     "edx"},
  {"si",           12,      4,    6,     "esi"},
  {"di",           16,      4,    7,     "edi"},
  {"bp",           20,      4,    5,     "ebp"},
  {"ax",           24,      4,    0,     "eax"},
  {"ds",           28,      4,    43,    "xds"},
  {"es",           32,      4,    40,    "xes"},
  {"fs",           36,      4,    44,    "xfs"},
  {"gs",           40,      4,    45,    "xgs"},
  {"orig_ax",      44,      4,    -1,    "orig_eax"},
  {"ip",           48,      4,    8,     "eip"},
  {"cs",           52,      4,    41,    "xcs"},
  {"flags",        56,      4,    9,     "eflags"},
  {"sp",           60,      4,    4,     "esp"},
  {"ss",           64,      4,    42,    "xss"},
};
// clang-format on

enum : unsigned {
  BX, CX, DX, SI, DI, BP, AX, DS, ES, FS, GS, ORIG_AX, IP, CS, FLAGS, SP, SS
};

static const unsigned Regparm3Args[] = {AX, DX, CX};
static const unsigned RetRegs[] = {AX, DX};

extern const ArchABI ArchI386;
const ArchABI ArchI386 = {
    /*Name=*/"i386",
    /*Aliases=*/"i686,i586,i486,x86_32,ia32",
    /*Reference=*/"arch/x86/include/asm/ptrace.h (x86_32); System V i386 psABI 2.2; gcc -mregparm=3",
    /*PointerSize=*/4,
    /*LongSize=*/4,
    /*LongLongAlign=*/4,
    /*LittleEndian=*/true,
    /*Regs=*/I386Regs,
    /*SPReg=*/SP,
    /*IPReg=*/IP,
    /*KernelCC=*/{"regparm3", Regparm3Args, 4, 4, RetRegs, ArgRule::I386Regparm,
                  "i386 kernel, -mregparm=3: eax, edx, ecx, then the stack"},
    /*UserCC=*/{"cdecl", {}, 4, 4, RetRegs, ArgRule::I386Stack,
                "System V i386 psABI 2.2: all arguments on the stack"},
    /*DoubleAlign=*/4,
    /*LongDoubleSize=*/12,
    /*LongDoubleAlign=*/4,
    /*CharSigned=*/true,
    /*CompatOf=*/nullptr,
    /*ReturnAddressBytes=*/4,
};

} // namespace bpfprobe
