//===- ArchARM.cpp - 32-bit arm (EABI) pt_regs and AAPCS ------------------===//
//
/// \file
/// 32-bit arm, EABI, with a 32-bit kernel, as seen by a BPF kprobe/uprobe
/// program.
///
/// struct pt_regs: arch/arm/include/uapi/asm/ptrace.h, `long uregs[18]`
/// (ARM_r0..ARM_r10 = uregs[0..10], ARM_fp 11, ARM_ip 12, ARM_sp 13,
/// ARM_lr 14, ARM_pc 15, ARM_cpsr 16, ARM_ORIG_r0 17), four-byte slots; the
/// kernel's arch/arm/include/asm/ptrace.h uses the same struct. Names:
/// arch/arm/kernel/ptrace.c regoffset_table. DWARF numbers: DWARF for the
/// Arm Architecture (AADWARF32): r0-r15 0-15.
/// Convention: AAPCS 6.5. Core registers r0-r3 (NCRN), then
/// the stack from 0(sp) in 4-byte units. A double-word-aligned argument
/// (long long, a struct containing one) starts at an even register (C.3) or
/// an 8-aligned stack address (C.6); one that does not fit in the remaining
/// registers goes to the stack and NCRN becomes 4 (C.4). A composite may be
/// split between the last registers and the stack (C.5). Return: r0, r1:r0
/// for 64-bit values. Floating point differs between the two variants:
/// - "aapcs", the base standard (the kernel, -mfloat-abi=soft, and armel
///   user code, soft or softfp): float and double travel in core registers
///   and on the stack like integers of their size; their bits are fetched.
///   The kprobe default.
/// - "aapcs-vfp", the VFP variant (6.1.2; armhf user code, hard-float):
///   float, double and homogeneous aggregates of up to four of them (VFP
///   co-processor register candidates) go to s0-s15/d0-d7 and take no core
///   register; they are refused. The uprobe default: a binary's float ABI
///   is not known here, and for code without such arguments the two agree.
/// 32-bit arm tasks under an arm64 kernel: 'arm-compat' (ArchARMCompat.cpp).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo ARMRegs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"r0",           0,       4,    0,     ""},
  {"r1",           4,       4,    1,     ""},
  {"r2",           8,       4,    2,     ""},
  {"r3",           12,      4,    3,     ""},
  {"r4",           16,      4,    4,     ""},
  {"r5",           20,      4,    5,     ""},
  {"r6",           24,      4,    6,     ""},
  {"r7",           28,      4,    7,     ""},
  {"r8",           32,      4,    8,     ""},
  {"r9",           36,      4,    9,     ""},
  {"r10",          40,      4,    10,    ""},
  {"fp",           44,      4,    11,    "r11"},
  {"ip",           48,      4,    12,    "r12"},
  {"sp",           52,      4,    13,    "r13"},
  {"lr",           56,      4,    14,    "r14"},
  {"pc",           60,      4,    15,    "r15"},
  {"cpsr",         64,      4,    -1,    ""},
  {"ORIG_r0",      68,      4,    -1,    "orig_r0"},
};
// clang-format on

enum : unsigned { R0, R1, R2, R3, SP = 13, PC = 15 };

static const unsigned Args[] = {R0, R1, R2, R3};
static const unsigned RetRegs[] = {R0, R1};

ArgPlace AAPCS32Rule::scalar(ArgCursor &C, unsigned Size, unsigned Align,
                             bool IsFloat) const {
  if (Size > C.W) {
    // C.3: a double-word-aligned value starts at an even register;
    // C.4: if it does not fit, NCRN = 4 and it goes to the stack,
    // C.6: 8-aligned there.
    C.NextReg = alignTo(C.NextReg, 2);
    if (C.NextReg + 2 <= C.NRegs) {
      C.NextReg += 2;
      return C.regPieces(C.NextReg - 2, 2, Size);
    }
    C.NextReg = C.NRegs;
    return ArgPlace::stack(C.takeStack(Size, 8), Size, 8);
  }
  return C.regOrSlot(Size, Align);
}

ArgPlace AAPCS32Rule::aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                                ArrayRef<LayoutLeaf> Leaves) const {
  // VFP variant: a homogeneous aggregate of up to four floats or doubles
  // is a VFP co-processor register candidate (6.1.2.1), passed in
  // s0-s15/d0-d7. Base standard: floats in aggregates are in core
  // registers too, and so are other aggregates in both.
  if (VFP) {
    unsigned E = homogeneousFloatSize(Size, Leaves, 4);
    if (E == 4 || E == 8)
      return ArgPlace::refuse(
          "with the VFP variant of the procedure call standard (armhf), a "
          "homogeneous floating-point aggregate is passed in VFP registers "
          "(AAPCS 6.1.2.1, 6.5 C.2), which struct pt_regs does not hold; if "
          "the program is built for the base standard (armel, soft or softfp "
          "float ABI), ",
          "aapcs");
  }
  unsigned N = divideCeil(Size, 4);
  if (Align >= 8) // C.3
    C.NextReg = alignTo(C.NextReg, 2);
  if (N <= C.freeRegs()) {
    C.NextReg += N;
    return C.regPieces(C.NextReg - N, N, Size);
  }
  if (C.freeRegs() && C.StackOff == 0) {
    // C.5: split between the remaining core registers and the stack.
    unsigned InRegs = C.freeRegs() * 4;
    ArgPlace Regs = C.regPieces(C.NextReg, C.freeRegs(), InRegs);
    if (!Regs.Pieces)
      Regs.Parts[0].Size = InRegs;
    ArgPlace P;
    P.append(std::move(Regs));
    P.append(ArgPlace::stack(C.takeStack(Size - InRegs, 4), Size - InRegs));
    C.NextReg = C.NRegs;
    return P;
  }
  C.NextReg = C.NRegs; // C.4
  return ArgPlace::stack(C.takeStack(Size, Align >= 8 ? 8 : 4), Size);
}

ArgPlace AAPCS32Rule::floatInFPRegister(const CallingConv &CC) const {
  if (!VFP)
    return ArgRule::floatInFPRegister(CC);
  return ArgPlace::refuse(
      "with the VFP variant of the procedure call standard (armhf) it is "
      "passed in a VFP register (AAPCS 6.1.2, 6.5 C.1), which struct pt_regs "
      "does not hold; if the program is built for the base standard (armel, "
      "soft or softfp float ABI), ",
      "aapcs");
}

const AAPCS32Rule AAPCS32Base(/*VFP=*/false), AAPCS32VFP(/*VFP=*/true);

extern const ArchABI ArchARM;
const ArchABI ArchARM = {
    /*Name=*/"arm",
    /*Aliases=*/"armel,armv7,armv7l,armv6,armv5te",
    /*Reference=*/"arch/arm/include/uapi/asm/ptrace.h (uregs[18]); AAPCS 6.5 base standard",
    /*PointerSize=*/4,
    /*LongSize=*/4,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/ARMRegs,
    /*SPReg=*/SP,
    /*IPReg=*/PC,
    /*KernelCC=*/{"aapcs", Args, 0, 4, RetRegs, &AAPCS32Base, "AAPCS 6.5"},
    /*UserCC=*/{"aapcs-vfp", Args, 0, 4, RetRegs, &AAPCS32VFP,
                "AAPCS 6.5, VFP variant (6.1.2)"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/8,
    /*LongDoubleAlign=*/8,
    /*CharSigned=*/false,
};

} // namespace bpfprobe
