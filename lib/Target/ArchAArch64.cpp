//===- ArchAArch64.cpp - arm64 pt_regs and AAPCS64 ------------------------===//
//
/// \file
/// aarch64 (arm64) as seen by a BPF kprobe/uprobe program.
///
/// The context starts with struct user_pt_regs (arch/arm64/include/uapi/asm/
/// ptrace.h: regs[31], sp, pc, pstate), the first member of the kernel's
/// struct pt_regs (arch/arm64/include/asm/ptrace.h); libbpf's bpf_tracing.h
/// casts the context to it for the same reason. Register names:
/// arch/arm64/kernel/ptrace.c regoffset_table ("x0".."x30", "sp", "pc",
/// "pstate"). DWARF numbers: DWARF for the Arm 64-bit Architecture
/// (AADWARF64): x0-x30 0-30, sp 31, pc 32.
/// Convention (kernel and user): AAPCS64 6.8.2: x0-x7 (NGRN), then the stack
/// from 0(sp) at entry in 8-byte units (C.16), composites up to 16 bytes in
/// one or two registers (a 16-byte-aligned one starts at an even register,
/// C.10), larger ones by reference (B.4); a composite that does not fit the
/// remaining registers goes wholly to the stack and NGRN becomes 8 (C.13).
/// Return: x0 (x1).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo AArch64Regs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"x0",           0,       8,    0,     "r0"},
  {"x1",           8,       8,    1,     "r1"},
  {"x2",           16,      8,    2,     "r2"},
  {"x3",           24,      8,    3,     "r3"},
  {"x4",           32,      8,    4,     "r4"},
  {"x5",           40,      8,    5,     "r5"},
  {"x6",           48,      8,    6,     "r6"},
  {"x7",           56,      8,    7,     "r7"},
  {"x8",           64,      8,    8,     "r8"},
  {"x9",           72,      8,    9,     "r9"},
  {"x10",          80,      8,    10,    "r10"},
  {"x11",          88,      8,    11,    "r11"},
  {"x12",          96,      8,    12,    "r12"},
  {"x13",          104,     8,    13,    "r13"},
  {"x14",          112,     8,    14,    "r14"},
  {"x15",          120,     8,    15,    "r15"},
  {"x16",          128,     8,    16,    "r16"},
  {"x17",          136,     8,    17,    "r17"},
  {"x18",          144,     8,    18,    "r18"},
  {"x19",          152,     8,    19,    "r19"},
  {"x20",          160,     8,    20,    "r20"},
  {"x21",          168,     8,    21,    "r21"},
  {"x22",          176,     8,    22,    "r22"},
  {"x23",          184,     8,    23,    "r23"},
  {"x24",          192,     8,    24,    "r24"},
  {"x25",          200,     8,    25,    "r25"},
  {"x26",          208,     8,    26,    "r26"},
  {"x27",          216,     8,    27,    "r27"},
  {"x28",          224,     8,    28,    "r28"},
  {"x29",          232,     8,    29,    "fp,r29"},
  {"x30",          240,     8,    30,    "lr,r30"},
  {"sp",           248,     8,    31,    ""},
  {"pc",           256,     8,    32,    ""},
  {"pstate",       264,     8,    -1,    ""},
};
// clang-format on

enum : unsigned { X0 = 0, X1 = 1, X2, X3, X4, X5, X6, X7, SP = 31, PC = 32 };

static const unsigned Args[] = {X0, X1, X2, X3, X4, X5, X6, X7};
static const unsigned RetRegs[] = {X0, X1};

namespace {
/// Procedure Call Standard for the Arm 64-bit Architecture 6.8.
class AAPCS64Rule final : public ArgRule {
public:
  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     ArrayRef<LayoutLeaf> Leaves) const override {
    // C.2: a homogeneous floating-point aggregate goes to SIMD registers
    // (the first one always does: an earlier floating-point argument
    // would have been refused). Other aggregates with floating-point
    // members are passed like integers (C.9-C.13).
    if (homogeneousFloatSize(Size, Leaves, 4))
      return ArgPlace::refuse("it is a homogeneous floating-point aggregate, "
                              "passed in SIMD registers (AAPCS64 5.9.5, "
                              "6.8.2 C.2), which struct pt_regs does not hold");
    if (Size > 16) // B.4: copied to memory, passed by reference
      return byReference(C, Size);
    unsigned N = divideCeil(Size, 8);
    if (Align >= 16) // C.10
      C.NextReg = alignTo(C.NextReg, 2);
    if (N <= C.freeRegs()) { // C.12
      C.NextReg += N;
      return C.regPieces(C.NextReg - N, N, Size);
    }
    C.NextReg = C.NRegs; // C.13
    return ArgPlace::stack(C.takeStack(Size, std::max(8u, Align)), Size);
  }
};
const AAPCS64Rule AAPCS64{};
} // namespace

extern const ArchABI ArchAArch64;
const ArchABI ArchAArch64 = {
    /*Name=*/"aarch64",
    /*Aliases=*/"arm64",
    /*Reference=*/"arch/arm64/include/uapi/asm/ptrace.h (struct user_pt_regs); AAPCS64 6.8",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/AArch64Regs,
    /*SPReg=*/SP,
    /*IPReg=*/PC,
    /*KernelCC=*/{"aapcs64", Args, 0, 8, RetRegs, &AAPCS64, "AAPCS64 6.8.2"},
    /*UserCC=*/{"aapcs64", Args, 0, 8, RetRegs, &AAPCS64, "AAPCS64 6.8.2"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/false,
};

} // namespace bpfprobe
