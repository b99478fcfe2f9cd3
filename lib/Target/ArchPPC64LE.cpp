//===- ArchPPC64LE.cpp - powerpc64le pt_regs and ELFv2 --------------------===//
//
/// \file
/// 64-bit little-endian PowerPC (ELFv2) as seen by a BPF kprobe/uprobe
/// program.
///
/// struct pt_regs: arch/powerpc/include/uapi/asm/ptrace.h (gpr[32], nip,
/// msr, orig_gpr3, ctr, link, xer, ccr, softe, trap, dar, dsisr, result), the
/// layout of struct user_pt_regs, which starts the kernel's struct pt_regs
/// (arch/powerpc/include/asm/ptrace.h). Names: arch/powerpc/kernel/ptrace/
/// ptrace.c regoffset_table ("gpr0".."gpr31", "nip", ...). DWARF numbers:
/// 64-bit ELF V2 ABI "DWARF Register Number Mapping": r0-r31 0-31, lr 65,
/// ctr 66.
/// Convention (kernel and user): ELF V2 ABI 2.2.3 "Parameter Passing
/// Register Selection Algorithm": r3-r10, mapped onto the parameter save
/// area, which starts at 32(r1) at entry (after the 32-byte stack frame
/// header); argument doubleword N (counting those in registers) lives at
/// 32 + 8*N. Aggregates are passed by value in consecutive doublewords
/// (registers first, the rest in memory); quadword-aligned ones start at an
/// even doubleword. Return: r3 (r4).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo PPC64LERegs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"gpr0",         0,       8,    0,     "r0"},
  {"gpr1",         8,       8,    1,     "r1,sp"},
  {"gpr2",         16,      8,    2,     "r2"},
  {"gpr3",         24,      8,    3,     "r3"},
  {"gpr4",         32,      8,    4,     "r4"},
  {"gpr5",         40,      8,    5,     "r5"},
  {"gpr6",         48,      8,    6,     "r6"},
  {"gpr7",         56,      8,    7,     "r7"},
  {"gpr8",         64,      8,    8,     "r8"},
  {"gpr9",         72,      8,    9,     "r9"},
  {"gpr10",        80,      8,    10,    "r10"},
  {"gpr11",        88,      8,    11,    "r11"},
  {"gpr12",        96,      8,    12,    "r12"},
  {"gpr13",        104,     8,    13,    "r13"},
  {"gpr14",        112,     8,    14,    "r14"},
  {"gpr15",        120,     8,    15,    "r15"},
  {"gpr16",        128,     8,    16,    "r16"},
  {"gpr17",        136,     8,    17,    "r17"},
  {"gpr18",        144,     8,    18,    "r18"},
  {"gpr19",        152,     8,    19,    "r19"},
  {"gpr20",        160,     8,    20,    "r20"},
  {"gpr21",        168,     8,    21,    "r21"},
  {"gpr22",        176,     8,    22,    "r22"},
  {"gpr23",        184,     8,    23,    "r23"},
  {"gpr24",        192,     8,    24,    "r24"},
  {"gpr25",        200,     8,    25,    "r25"},
  {"gpr26",        208,     8,    26,    "r26"},
  {"gpr27",        216,     8,    27,    "r27"},
  {"gpr28",        224,     8,    28,    "r28"},
  {"gpr29",        232,     8,    29,    "r29"},
  {"gpr30",        240,     8,    30,    "r30"},
  {"gpr31",        248,     8,    31,    "r31"},
  {"nip",          256,     8,    -1,    "pc"},
  {"msr",          264,     8,    -1,    ""},
  {"orig_gpr3",    272,     8,    -1,    ""},
  {"ctr",          280,     8,    66,    ""},
  {"link",         288,     8,    65,    "lr"},
  {"xer",          296,     8,    -1,    ""},
  {"ccr",          304,     8,    -1,    ""},
  {"softe",        312,     8,    -1,    ""},
  {"trap",         320,     8,    -1,    ""},
  {"dar",          328,     8,    -1,    ""},
  {"dsisr",        336,     8,    -1,    ""},
  {"result",       344,     8,    -1,    ""},
};
// clang-format on

enum : unsigned { R1 = 1, R3 = 3, R4, R5, R6, R7, R8, R9, R10, NIP = 32 };

static const unsigned Args[] = {R3, R4, R5, R6, R7, R8, R9, R10};
static const unsigned RetRegs[] = {R3, R4};

namespace {
/// 64-bit ELF V2 ABI for Power 2.2.3 "Parameter Passing": every argument
/// doubleword has a register (the first eight) and a stack slot at 8*N (the
/// parameter save area shadows the registers).
class PPC64ELFv2Rule final : public ArgRule {
public:
  ArgPlace scalar(ArgCursor &C, unsigned Size, unsigned Align,
                  bool IsFloat) const override {
    // One doubleword: its register, or its stack slot.
    unsigned Wd = C.Words++;
    if (Wd < C.NRegs)
      return ArgPlace::reg(Wd);
    return ArgPlace::stack(8 * Wd, Size, 8);
  }

  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     ArrayRef<LayoutLeaf> Leaves) const override {
    // 2.2.4.1: a homogeneous aggregate of up to eight floats or doubles
    // goes to FP registers (the first one always finds them free); other
    // aggregates occupy doublewords like integers.
    unsigned E = homogeneousFloatSize(Size, Leaves, 8);
    bool Wide = llvm::any_of(Leaves, [](const LayoutLeaf &L) {
      return L.IsFloat && L.Size > 8;
    });
    if (E || Wide)
      return ArgPlace::refuse("it is a homogeneous floating-point aggregate, "
                              "passed in FP registers (64-bit ELF V2 ABI "
                              "2.2.4.1), which struct pt_regs does not hold");
    return C.wordPieces(Size, Align, /*FirstStackWord=*/0);
  }
};
const PPC64ELFv2Rule PPC64ELFv2{};
} // namespace

extern const ArchABI ArchPPC64LE;
const ArchABI ArchPPC64LE = {
    /*Name=*/"powerpc64le",
    /*Aliases=*/"ppc64le,powerpc,ppc64el",
    /*Reference=*/"arch/powerpc/include/uapi/asm/ptrace.h; 64-bit ELF V2 ABI 2.2.3",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/PPC64LERegs,
    /*SPReg=*/R1,
    /*IPReg=*/NIP,
    /*KernelCC=*/{"elfv2", Args, 32, 8, RetRegs, &PPC64ELFv2,
                  "64-bit ELF V2 ABI 2.2.3"},
    /*UserCC=*/{"elfv2", Args, 32, 8, RetRegs, &PPC64ELFv2,
                "64-bit ELF V2 ABI 2.2.3"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/false,
};

} // namespace bpfprobe
