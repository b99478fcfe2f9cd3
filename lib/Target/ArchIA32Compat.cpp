//===- ArchIA32Compat.cpp - 32-bit x86 tasks on x86_64 --------------------===//
//
/// \file
/// 32-bit x86 user tasks (i386 binaries, -m32) running under an x86_64
/// kernel, as seen by a BPF uprobe program.
///
/// The context is the x86_64 kernel's struct pt_regs
/// (arch/x86/include/asm/ptrace.h, 64-bit branch): eight-byte slots whose low
/// half holds the task's 32-bit register. Only the registers an IA32 task has
/// are listed, under their x86_64 slot offsets and kprobe_events names; DWARF
/// numbers are the i386 psABI's, which is what an -m32 binary's debug info
/// uses.
/// Convention: System V i386 psABI 2.2 (cdecl), every argument on the stack
/// from 4(%esp) in 4-byte units; return in eax, edx:eax for 64-bit values.
/// Kernel probes on such a machine are x86_64 probes: use 'x86_64'.
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

namespace bpfprobe {

// clang-format off
static const RegInfo IA32CompatRegs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"bp",           32,      8,    5,     "ebp"},
  {"bx",           40,      8,    3,     "ebx"},
  {"ax",           80,      8,    0,     "eax"},
  {"cx",           88,      8,    1,     "ecx"},
  {"dx",           96,      8,    2,     "edx"},
  {"si",           104,     8,    6,     "esi"},
  {"di",           112,     8,    7,     "edi"},
  {"orig_ax",      120,     8,    -1,    "orig_eax"},
  {"ip",           128,     8,    8,     "eip"},
  {"cs",           136,     8,    41,    ""},
  {"flags",        144,     8,    9,     "eflags"},
  {"sp",           152,     8,    4,     "esp"},
  {"ss",           160,     8,    42,    ""},
};
// clang-format on

enum : unsigned { BP, BX, AX, CX, DX, SI, DI, ORIG_AX, IP, CS, FLAGS, SP, SS };

static const unsigned RetRegs[] = {AX, DX};

extern const ArchABI ArchIA32Compat;
const ArchABI ArchIA32Compat = {
    /*Name=*/"ia32-compat",
    /*Aliases=*/"i386-compat,x86_64-ia32",
    /*Reference=*/"arch/x86/include/asm/ptrace.h (x86_64 slots); System V i386 psABI 2.2",
    /*PointerSize=*/4,
    /*LongSize=*/4,
    /*LongLongAlign=*/4,
    /*LittleEndian=*/true,
    /*Regs=*/IA32CompatRegs,
    /*SPReg=*/SP,
    /*IPReg=*/IP,
    /*KernelCC=*/{"cdecl", {}, 4, 4, RetRegs, &I386Cdecl,
                  "System V i386 psABI 2.2: all arguments on the stack"},
    /*UserCC=*/{"cdecl", {}, 4, 4, RetRegs, &I386Cdecl,
                "System V i386 psABI 2.2: all arguments on the stack"},
    /*DoubleAlign=*/4,
    /*LongDoubleSize=*/12,
    /*LongDoubleAlign=*/4,
    /*CharSigned=*/true,
    /*CompatOf=*/"x86_64",
    /*ReturnAddressBytes=*/4,
};

} // namespace bpfprobe
