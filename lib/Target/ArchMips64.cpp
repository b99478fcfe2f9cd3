//===- ArchMips64.cpp - mips64el pt_regs and the n64 ABI ------------------===//
//
/// \file
/// 64-bit little-endian MIPS, n64 ABI, as seen by a BPF kprobe/uprobe
/// program.
///
/// struct pt_regs: the kernel's arch/mips/include/asm/ptrace.h (regs[32],
/// cp0_status, hi, lo, cp0_badvaddr, cp0_cause, cp0_epc; no leading args[]
/// on CONFIG_64BIT; CONFIG_CPU_HAS_SMARTMIPS, which would insert acx, is
/// 32-bit only). NOTE: the uapi header arch/mips/include/uapi/asm/ptrace.h
/// orders the fields after regs[32] differently (lo, hi, cp0_epc, ...);
/// programs that read the context through it get cp0_epc wrong, the
/// registers right. Names: arch/mips/kernel/ptrace.c regoffset_table
/// ("r0".."r31", "c0_status", "hi", "lo", ...). DWARF numbers: $0-$31 0-31,
/// hi 64, lo 65.
/// Convention (kernel and user): MIPSpro N32/N64 ABI handbook, chapter 3:
/// a0-a7 ($4-$11), then the stack from 0($sp) in 8-byte slots (n64 has no
/// home area for register arguments); aggregates in consecutive doublewords,
/// registers first and the rest in memory. 32-bit ints are sign-extended
/// in registers. Return: v0 ($2), v1 ($3).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo Mips64Regs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"r0",           0,       8,    0,     "zero"},
  {"r1",           8,       8,    1,     "at"},
  {"r2",           16,      8,    2,     "v0"},
  {"r3",           24,      8,    3,     "v1"},
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
  {"r22",          176,     8,    22,    ""},
  {"r23",          184,     8,    23,    ""},
  {"r24",          192,     8,    24,    ""},
  {"r25",          200,     8,    25,    ""},
  {"r26",          208,     8,    26,    ""},
  {"r27",          216,     8,    27,    ""},
  {"r28",          224,     8,    28,    "gp"},
  {"r29",          232,     8,    29,    "sp"},
  {"r30",          240,     8,    30,    "fp,s8"},
  {"r31",          248,     8,    31,    "ra"},
  {"cp0_status",   256,     8,    -1,    "c0_status"},
  {"hi",           264,     8,    64,    ""},
  {"lo",           272,     8,    65,    ""},
  {"cp0_badvaddr", 280,     8,    -1,    "c0_badvaddr"},
  {"cp0_cause",    288,     8,    -1,    "c0_cause"},
  {"cp0_epc",      296,     8,    -1,    "c0_epc,pc"},
};
// clang-format on

enum : unsigned { R2 = 2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R29 = 29, EPC = 37 };

static const unsigned Args[] = {R4, R5, R6, R7, R8, R9, R10, R11};
static const unsigned RetRegs[] = {R2, R3};

namespace {
/// MIPSpro N32/N64 ABI handbook, "Calling Convention": every argument
/// doubleword has a register (the first eight) or a stack slot at
/// 8*(N-8) (no home area); floating-point values take the FP register of
/// their position.
class MipsN64Rule final : public ArgRule {
public:
  ArgPlace scalar(ArgCursor &C, unsigned Size, unsigned Align,
                  bool IsFloat) const override {
    // One doubleword: its register, or its stack slot.
    unsigned Wd = C.Words++;
    if (Wd < C.NRegs)
      return ArgPlace::reg(Wd);
    return ArgPlace::stack(8 * (Wd - C.NRegs), Size, 8);
  }

  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     ArrayRef<LayoutLeaf> Leaves) const override {
    // A doubleword of a structure that is one of its own double members
    // goes to the FP register of its argument position while one is left
    // (the first eight doublewords); the rest, float and long double
    // members, doubles in nested structures or arrays, and unions,
    // occupies doublewords like integers (GCC mips_function_arg: direct
    // FIELD_DECLs of a RECORD_TYPE; Clang MipsABIInfo::HandleAggregates).
    unsigned Start = Align >= 16 ? unsigned(alignTo(C.Words, 2)) : C.Words;
    for (const LayoutLeaf &L : Leaves)
      if (L.IsFloat && L.Direct && L.Size == 8 && L.Offset % 8 == 0 &&
          Start + L.Offset / 8 < C.NRegs)
        return ArgPlace::refuse("a doubleword of it that is a double is "
                                "passed in an FP register (MIPS n64 ABI, "
                                "chapter 3), which struct pt_regs does not "
                                "hold");
    return C.wordPieces(Size, Align, /*FirstStackWord=*/C.NRegs);
  }

  /// In the stack slots (the ninth argument position on); before that
  /// n64 assigns FP registers by position.
  bool floatTravelsAsInteger(const ArgCursor &C, unsigned Size) const override {
    return C.Words >= C.NRegs;
  }
};
const MipsN64Rule MipsN64{};
} // namespace

extern const ArchABI ArchMips64;
const ArchABI ArchMips64 = {
    /*Name=*/"mips64",
    /*Aliases=*/"mips64el,mips",
    /*Reference=*/"arch/mips/include/asm/ptrace.h (kernel struct pt_regs); MIPSpro N32/N64 ABI handbook ch. 3",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/Mips64Regs,
    /*SPReg=*/R29,
    /*IPReg=*/EPC,
    /*KernelCC=*/{"n64", Args, 0, 8, RetRegs, &MipsN64, "MIPS n64 ABI, chapter 3"},
    /*UserCC=*/{"n64", Args, 0, 8, RetRegs, &MipsN64, "MIPS n64 ABI, chapter 3"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/true,
};

} // namespace bpfprobe
