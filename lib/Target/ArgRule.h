//===- ArgRule.h - psABI parameter-passing rules --------------------------===//
//
/// \file
/// A psABI's rule for where arguments go: values wider than a register,
/// aggregates passed by value, arguments past the registers, floating-point
/// values that ride in integer registers or stack slots, and return values
/// in memory. Each rule is a class beside the architecture table that uses
/// it (ArchX86_64.cpp, ...), referenced from that table's CallingConv; this
/// header holds the base class and the allocation state every rule moves
/// through one argument list. A rule answers in terms of argument-register
/// positions and stack-area offsets (ArgPlace); lib/Resolve turns that into
/// fetch expressions.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_TARGET_ARGRULE_H
#define BPFPROBE_TARGET_ARGRULE_H

#include "Target/ArchABI.h"
#include "Target/TypeLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace bpfprobe {

/// One part of an argument's location.
struct ArgPart {
  enum KindTy { Reg, Stack };
  KindTy Kind = Reg;
  /// Reg: position in CallingConv::ArgRegs. Stack: byte offset in the
  /// stack argument area (from CallingConv::StackArgOffset).
  unsigned Index = 0;
  /// Bytes of the value this part holds.
  unsigned Size = 0;
  /// Stack: bytes of the slot; on big-endian ABIs a smaller value is
  /// right-justified in it. 0: the value starts at the offset.
  unsigned Slot = 0;
};

/// Where a rule places one argument, or why it cannot be read from struct
/// pt_regs.
struct ArgPlace {
  std::vector<ArgPart> Parts;
  /// The parts are pieces of one value (even when there is only one);
  /// otherwise there is exactly one part and it is the value.
  bool Pieces = false;
  /// Nonzero: the parts hold a pointer to the caller's copy of the value,
  /// of this many bytes.
  unsigned ByReference = 0;
  /// Nonempty: the value is not readable, and why (completes "cannot fetch
  /// 'T': ").
  std::string Refusal;
  /// With a Refusal: the calling convention under which it would be
  /// readable, suggested to the user; or null.
  const char *TryConv = nullptr;

  bool refused() const { return !Refusal.empty(); }

  static ArgPlace reg(unsigned Pos);
  static ArgPlace stack(unsigned Off, unsigned Size, unsigned Slot = 0);
  static ArgPlace refuse(const llvm::Twine &Why, const char *TryConv = nullptr);
  /// Appends P's parts as pieces of this value.
  void append(ArgPlace P);
};

/// The allocation state of one argument list under one calling convention:
/// the next free argument register, the stack argument area used so far,
/// and what some rules count besides.
class ArgCursor {
public:
  ArgCursor(const ArchABI &ABI, const CallingConv &CC)
      : CC(CC), W(ABI.PointerSize), NRegs(CC.ArgRegs.size()) {}

  const CallingConv &CC;
  const unsigned W;      ///< bytes in an argument register
  const unsigned NRegs;  ///< argument registers
  unsigned NextReg = 0;  ///< next free argument register
  unsigned StackOff = 0; ///< bytes of stack arguments so far
  unsigned Words = 0;    ///< ELFv2, n64: doublewords so far, registers included
  /// i386 regparm: after a structure of one long double that did not fit,
  /// Clang has no registers left and GCC still has this many (0: the
  /// compilers agree).
  unsigned GccFreeRegs = 0;

  unsigned freeRegs() const { return NextReg < NRegs ? NRegs - NextReg : 0; }
  /// Reserves Size bytes of the stack argument area aligned to Align.
  unsigned takeStack(unsigned Size, unsigned Align);
  /// Size bytes in N registers from First, W bytes each (the last partial).
  ArgPlace regPieces(unsigned First, unsigned N, unsigned Size) const;
  /// The next free register if there is one, else a stack slot of at least
  /// CallingConv::StackSlotSize bytes.
  ArgPlace regOrSlot(unsigned Size, unsigned Align);
  /// ELFv2 2.2.3, n64: an argument of Size bytes in consecutive argument
  /// doublewords, each in its register (the first eight) or its stack slot
  /// at 8 * (doubleword - FirstStackWord).
  ArgPlace wordPieces(unsigned Size, unsigned Align, unsigned FirstStackWord);
};

/// How an aggregate is returned.
struct AggregateReturn {
  enum KindTy {
    InMemory,   ///< in the caller's buffer, its address in the first return register
    InRegs,     ///< in the return registers
    Refused,    ///< not readable: Why
    Unsupported ///< the rule does not describe it
  };
  KindTy Kind = Unsupported;
  std::string Why;
};

/// One psABI's parameter-passing rule. The defaults describe the simplest
/// convention: each scalar of at most a register in the next register,
/// then in stack slots; wider ones refused.
class ArgRule {
public:
  virtual ~ArgRule();

  /// Places an integer, pointer or floating-point scalar of Size bytes.
  virtual ArgPlace scalar(ArgCursor &C, unsigned Size, unsigned Align,
                          bool IsFloat) const;
  /// Places a structure, union or array passed by value.
  virtual ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                             llvm::ArrayRef<LayoutLeaf> Leaves) const = 0;
  /// Whether a floating-point scalar of Size bytes (4 or 8), placed next,
  /// travels like an integer of its size, so its bits can be fetched,
  /// rather than in an FP register.
  virtual bool floatTravelsAsInteger(const ArgCursor &C, unsigned Size) const {
    return false;
  }
  /// Why a floating-point argument in an FP register cannot be fetched.
  virtual ArgPlace floatInFPRegister(const CallingConv &CC) const;
  /// Whether floating-point values of 4 and 8 bytes are returned in the
  /// core return registers.
  virtual bool returnsFloatInCoreRegs() const { return false; }
  /// How a structure or union of Size bytes is returned.
  virtual AggregateReturn aggregateReturn(unsigned Size,
                                          llvm::ArrayRef<LayoutLeaf> Leaves) const {
    return {};
  }

protected:
  /// A pointer to the caller's copy of an aggregate of Size bytes, passed
  /// like a pointer-sized integer.
  ArgPlace byReference(ArgCursor &C, unsigned Size) const;
};

/// The element size of a homogeneous floating-point aggregate of at most
/// MaxMembers members (AAPCS64 5.9.5.1, AAPCS 4.3.5, ELFv2 2.2.4.1): every
/// leaf floating-point, all of one size, packed from offset 0 with no
/// padding (the leaves of a union's members share offsets). 0 if it is not
/// one.
unsigned homogeneousFloatSize(unsigned Size, llvm::ArrayRef<LayoutLeaf> Leaves,
                              unsigned MaxMembers);
/// A structure or union whose only scalar is one floating-point value that
/// fills it ("struct { double d; }").
bool isSingleFloat(unsigned Size, llvm::ArrayRef<LayoutLeaf> Leaves);

// Rules that two tables share: a 32-bit ABI under its own kernel and under
// a 64-bit one, a psABI that adopts another's rule. Each is defined in the
// file of the first table.

/// System V i386 psABI 2.2 (cdecl): every argument on the stack
/// (ArchI386.cpp; also ia32-compat).
class I386CdeclRule final : public ArgRule {
public:
  ArgPlace scalar(ArgCursor &C, unsigned Size, unsigned Align,
                  bool IsFloat) const override;
  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     llvm::ArrayRef<LayoutLeaf> Leaves) const override;
  bool floatTravelsAsInteger(const ArgCursor &C, unsigned Size) const override {
    return true;
  }
  AggregateReturn aggregateReturn(unsigned Size,
                                  llvm::ArrayRef<LayoutLeaf> Leaves) const override;
};
extern const I386CdeclRule I386Cdecl;

/// Procedure Call Standard for the Arm Architecture 6.5, the base standard
/// (soft-float) or the VFP variant (6.1.2, hard-float: armhf), where
/// floating-point values go to VFP registers (ArchARM.cpp; also
/// arm-compat).
class AAPCS32Rule final : public ArgRule {
public:
  constexpr explicit AAPCS32Rule(bool VFP) : VFP(VFP) {}
  ArgPlace scalar(ArgCursor &C, unsigned Size, unsigned Align,
                  bool IsFloat) const override;
  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     llvm::ArrayRef<LayoutLeaf> Leaves) const override;
  bool floatTravelsAsInteger(const ArgCursor &C, unsigned Size) const override {
    return !VFP;
  }
  ArgPlace floatInFPRegister(const CallingConv &CC) const override;
  bool returnsFloatInCoreRegs() const override { return !VFP; }

private:
  bool VFP;
};
extern const AAPCS32Rule AAPCS32Base, AAPCS32VFP;

/// The RISC-V psABI integer calling convention with the hardware
/// floating-point one (lp64, lp64d) (ArchRISCV64.cpp); the LoongArch psABI
/// (lp64d) passes parameters by the same rule.
class RiscvLP64Rule final : public ArgRule {
public:
  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     llvm::ArrayRef<LayoutLeaf> Leaves) const override;
};
extern const RiscvLP64Rule RiscvLP64;

} // namespace bpfprobe

#endif
