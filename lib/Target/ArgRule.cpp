//===- ArgRule.cpp - psABI parameter-passing rules: shared parts ----------===//
//
/// \file
/// The allocation steps every rule is made of; the rules themselves live
/// beside their architecture tables (Arch<Name>.cpp).
//===----------------------------------------------------------------------===//

#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

ArgPlace ArgPlace::reg(unsigned Pos) {
  ArgPlace P;
  P.Parts.push_back({ArgPart::Reg, Pos, 0, 0});
  return P;
}

ArgPlace ArgPlace::stack(unsigned Off, unsigned Size, unsigned Slot) {
  ArgPlace P;
  P.Parts.push_back({ArgPart::Stack, Off, Size, Slot});
  return P;
}

ArgPlace ArgPlace::refuse(const Twine &Why, const char *TryConv) {
  ArgPlace P;
  P.Refusal = Why.str();
  P.TryConv = TryConv;
  return P;
}

void ArgPlace::append(ArgPlace P) {
  Pieces = true;
  Parts.insert(Parts.end(), P.Parts.begin(), P.Parts.end());
}

unsigned ArgCursor::takeStack(unsigned Size, unsigned Align) {
  StackOff = alignTo(StackOff, std::max(Align, 1u));
  unsigned Off = StackOff;
  StackOff += alignTo(Size, CC.StackSlotSize);
  return Off;
}

ArgPlace ArgCursor::regPieces(unsigned First, unsigned N, unsigned Size) const {
  if (N == 1 && Size == W)
    return ArgPlace::reg(First);
  ArgPlace P;
  P.Pieces = true;
  for (unsigned I = 0; I < N; ++I)
    P.Parts.push_back({ArgPart::Reg, First + I, std::min(W, Size - I * W), 0});
  return P;
}

ArgPlace ArgCursor::regOrSlot(unsigned Size, unsigned Align) {
  if (freeRegs())
    return ArgPlace::reg(NextReg++);
  unsigned Slot =
      std::max(CC.StackSlotSize, unsigned(alignTo(Size, CC.StackSlotSize)));
  return ArgPlace::stack(takeStack(Slot, std::max(CC.StackSlotSize, Align)),
                         Size, Slot);
}

ArgPlace ArgCursor::wordPieces(unsigned Size, unsigned Align,
                               unsigned FirstStackWord) {
  if (Align >= 16)
    Words = alignTo(Words, 2);
  unsigned N = divideCeil(Size, 8);
  ArgPlace P;
  for (unsigned I = 0; I < N; ++I) {
    unsigned Wd = Words + I, Sz = std::min(8u, Size - 8 * I);
    if (Wd < NRegs) {
      P.Parts.push_back({ArgPart::Reg, Wd, Sz, 0});
      continue;
    }
    // The rest is contiguous memory: one read.
    unsigned Rest = Size - 8 * I;
    P.Parts.push_back(
        {ArgPart::Stack, 8 * (Wd - FirstStackWord), Rest, N == 1 ? 8 : Rest});
    break;
  }
  Words += N;
  P.Pieces = !(P.Parts.size() == 1 && (P.Parts[0].Kind != ArgPart::Reg ||
                                       P.Parts[0].Size == 8));
  return P;
}

ArgRule::~ArgRule() = default;

ArgPlace ArgRule::scalar(ArgCursor &C, unsigned Size, unsigned Align,
                         bool IsFloat) const {
  if (Size > C.W)
    return ArgPlace::refuse("values wider than a register are not handled by " +
                            Twine(C.CC.RuleRef));
  return C.regOrSlot(Size, Align);
}

ArgPlace ArgRule::floatInFPRegister(const CallingConv &CC) const {
  return ArgPlace::refuse(Twine("floating-point arguments are passed in FP "
                                "registers (") +
                          CC.RuleRef + "), which struct pt_regs does not hold");
}

ArgPlace ArgRule::byReference(ArgCursor &C, unsigned Size) const {
  ArgPlace P = scalar(C, C.W, C.W, /*IsFloat=*/false);
  if (!P.refused())
    P.ByReference = Size;
  return P;
}

unsigned homogeneousFloatSize(unsigned Size, ArrayRef<LayoutLeaf> Leaves,
                              unsigned MaxMembers) {
  if (Leaves.empty())
    return 0;
  unsigned E = Leaves.front().Size;
  if (E == 0 || Size % E)
    return 0;
  for (const LayoutLeaf &L : Leaves)
    if (!L.IsFloat || L.Size != E || L.Offset % E)
      return 0;
  unsigned N = Size / E;
  if (N > MaxMembers)
    return 0;
  // Every element position holds a leaf.
  for (unsigned I = 0; I < N; ++I)
    if (llvm::none_of(Leaves,
                      [&](const LayoutLeaf &L) { return L.Offset == I * E; }))
      return 0;
  return E;
}

bool isSingleFloat(unsigned Size, ArrayRef<LayoutLeaf> Leaves) {
  return Leaves.size() == 1 && Leaves[0].IsFloat && Leaves[0].Offset == 0 &&
         Leaves[0].Size == Size;
}

} // namespace bpfprobe
