//===- ArchLoongArch64.cpp - loongarch64 pt_regs and lp64d ----------------===//
//
/// \file
/// 64-bit LoongArch as seen by a BPF kprobe/uprobe program.
///
/// struct pt_regs: arch/loongarch/include/asm/ptrace.h (regs[32], orig_a0,
/// csr_era, csr_badvaddr, csr_crmd, csr_prmd, csr_euen, csr_ecfg,
/// csr_estat); the uapi struct user_pt_regs (arch/loongarch/include/uapi/
/// asm/ptrace.h) shares regs[32], orig_a0 and csr_era. Names:
/// arch/loongarch/kernel/ptrace.c regoffset_table ("r0".."r31", "orig_a0",
/// "csr_era", ...). DWARF numbers: LoongArch ELF psABI "DWARF Register
/// Numbers": r0-r31 0-31.
/// Convention (kernel and user): LoongArch ELF psABI "Procedure Calling
/// Convention" (lp64d): a0-a7 ($r4-$r11), then the stack from 0($sp) in
/// 8-byte units; aggregates up to 16 bytes in up to two registers, the
/// second half on the stack when only a7 is left; larger ones by reference.
/// Return: a0 ($r4), a1 ($r5).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

namespace bpfprobe {

// clang-format off
static const RegInfo LoongArch64Regs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"r0",           0,       8,    0,     "zero"},
  {"r1",           8,       8,    1,     "ra"},
  {"r2",           16,      8,    2,     "tp"},
  {"r3",           24,      8,    3,     "sp"},
  {"r4",           32,      8,    4,     "a0"},
  {"r5",           40,      8,    5,     "a1"},
  {"r6",           48,      8,    6,     "a2"},
  {"r7",           56,      8,    7,     "a3"},
  {"r8",           64,      8,    8,     "a4"},
  {"r9",           72,      8,    9,     "a5"},
  {"r10",          80,      8,    10,    "a6"},
  {"r11",          88,      8,    11,    "a7"},
  {"r12",          96,      8,    12,    ""},
  {"r13",          104,     8,    13,    ""},
  {"r14",          112,     8,    14,    ""},
  {"r15",          120,     8,    15,    ""},
  {"r16",          128,     8,    16,    ""},
  {"r17",          136,     8,    17,    ""},
  {"r18",          144,     8,    18,    ""},
  {"r19",          152,     8,    19,    ""},
  {"r20",          160,     8,    20,    ""},
  {"r21",          168,     8,    21,    ""},
  {"r22",          176,     8,    22,    "fp,s9"},
  {"r23",          184,     8,    23,    ""},
  {"r24",          192,     8,    24,    ""},
  {"r25",          200,     8,    25,    ""},
  {"r26",          208,     8,    26,    ""},
  {"r27",          216,     8,    27,    ""},
  {"r28",          224,     8,    28,    ""},
  {"r29",          232,     8,    29,    ""},
  {"r30",          240,     8,    30,    ""},
  {"r31",          248,     8,    31,    ""},
  {"orig_a0",      256,     8,    -1,    ""},
  {"csr_era",      264,     8,    -1,    "era,pc"},
  {"csr_badvaddr", 272,     8,    -1,    ""},
  {"csr_crmd",     280,     8,    -1,    ""},
  {"csr_prmd",     288,     8,    -1,    ""},
  {"csr_euen",     296,     8,    -1,    ""},
  {"csr_ecfg",     304,     8,    -1,    ""},
  {"csr_estat",    312,     8,    -1,    ""},
};
// clang-format on

enum : unsigned { R3 = 3, R4, R5, R6, R7, R8, R9, R10, R11, ERA = 33 };

static const unsigned Args[] = {R4, R5, R6, R7, R8, R9, R10, R11};
static const unsigned RetRegs[] = {R4, R5};

// The psABI's parameter passing is the RISC-V one, rule for rule
// (RiscvLP64Rule, ArchRISCV64.cpp).

extern const ArchABI ArchLoongArch64;
const ArchABI ArchLoongArch64 = {
    /*Name=*/"loongarch64",
    /*Aliases=*/"loongarch,loong64",
    /*Reference=*/"arch/loongarch/include/asm/ptrace.h; LoongArch ELF psABI, procedure calling convention",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/LoongArch64Regs,
    /*SPReg=*/R3,
    /*IPReg=*/ERA,
    /*KernelCC=*/{"lp64d", Args, 0, 8, RetRegs, &RiscvLP64,
                  "LoongArch ELF psABI, parameter passing"},
    /*UserCC=*/{"lp64d", Args, 0, 8, RetRegs, &RiscvLP64,
                "LoongArch ELF psABI, parameter passing"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/true,
};

} // namespace bpfprobe
