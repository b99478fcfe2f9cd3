//===- ArchARMCompat.cpp - 32-bit arm tasks on arm64 ----------------------===//
//
/// \file
/// 32-bit arm (AArch32, EABI) user tasks running under an arm64 kernel, as
/// seen by a BPF uprobe program.
///
/// The context is the arm64 kernel's struct pt_regs, whose start is struct
/// user_pt_regs (arch/arm64/include/uapi/asm/ptrace.h); arch/arm64/include/
/// asm/ptrace.h maps the AArch32 registers onto it: compat_usr(x) = regs[x],
/// compat_fp = regs[11], compat_sp = regs[13], compat_lr = regs[14], and the
/// AArch32 pc is pt_regs->pc. Eight-byte slots holding 32-bit values. DWARF
/// numbers: AADWARF32 (r0-r15 0-15), what the task's debug info uses.
/// Convention: AAPCS 6.5, as in ArchARM.cpp: uprobes default to the VFP
/// variant ("aapcs-vfp", armhf), "aapcs" selects the base standard. Kernel
/// probes on such a machine are arm64 probes: use 'aarch64'.
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

namespace bpfprobe {

// clang-format off
static const RegInfo ARMCompatRegs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"r0",           0,       8,    0,     ""},
  {"r1",           8,       8,    1,     ""},
  {"r2",           16,      8,    2,     ""},
  {"r3",           24,      8,    3,     ""},
  {"r4",           32,      8,    4,     ""},
  {"r5",           40,      8,    5,     ""},
  {"r6",           48,      8,    6,     ""},
  {"r7",           56,      8,    7,     ""},
  {"r8",           64,      8,    8,     ""},
  {"r9",           72,      8,    9,     ""},
  {"r10",          80,      8,    10,    ""},
  {"fp",           88,      8,    11,    "r11"},
  {"ip",           96,      8,    12,    "r12"},
  {"sp",           104,     8,    13,    "r13"},
  {"lr",           112,     8,    14,    "r14"},
  {"pc",           256,     8,    15,    "r15"},
  {"cpsr",         264,     8,    -1,    "pstate"},
};
// clang-format on

enum : unsigned { R0, R1, R2, R3, SP = 13, PC = 15 };

static const unsigned Args[] = {R0, R1, R2, R3};
static const unsigned RetRegs[] = {R0, R1};

extern const ArchABI ArchARMCompat;
const ArchABI ArchARMCompat = {
    /*Name=*/"arm-compat",
    /*Aliases=*/"aarch32,arm-on-arm64",
    /*Reference=*/"arch/arm64/include/asm/ptrace.h (compat_usr); AAPCS 6.5",
    /*PointerSize=*/4,
    /*LongSize=*/4,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/ARMCompatRegs,
    /*SPReg=*/SP,
    /*IPReg=*/PC,
    /*KernelCC=*/{"aapcs", Args, 0, 4, RetRegs, &AAPCS32Base, "AAPCS 6.5"},
    /*UserCC=*/{"aapcs-vfp", Args, 0, 4, RetRegs, &AAPCS32VFP,
                "AAPCS 6.5, VFP variant (6.1.2)"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/8,
    /*LongDoubleAlign=*/8,
    /*CharSigned=*/false,
    /*CompatOf=*/"aarch64",
};

} // namespace bpfprobe
