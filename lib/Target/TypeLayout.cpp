//===- TypeLayout.cpp - C type layout for the probed architecture -------===//
//
/// \file
/// Lays out CTypeDesc trees by an architecture's data model: scalar sizes
/// and alignments from the ArchABI table (long, pointers, long long and
/// double alignment, long double), structs in declaration order with
/// natural alignment and tail padding (the rule every supported psABI
/// shares), unions as the largest member.
//===----------------------------------------------------------------------===//

#include "Target/TypeLayout.h"
#include "Support/Error.h"
#include "Target/ArchABI.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace bpfprobe {

static bool scalarLayout(const CTypeDesc &T, const ArchABI &ABI,
                         ValueType &L) {
  auto Set = [&](unsigned Size, unsigned Align, bool Signed, bool Float) {
    L.Size = Size;
    L.Align = Align;
    L.Signed = Signed;
    L.Leaves = {{0, Size, Float}};
    return true;
  };
  switch (T.Kind) {
  case CTypeDesc::Char:
    return Set(1, 1, ABI.CharSigned, false);
  case CTypeDesc::SChar:
    return Set(1, 1, true, false);
  case CTypeDesc::UChar:
  case CTypeDesc::Bool:
    return Set(1, 1, false, false);
  case CTypeDesc::Short:
    return Set(2, 2, T.Signed, false);
  case CTypeDesc::Int:
    return Set(4, 4, T.Signed, false);
  case CTypeDesc::Long:
    return Set(ABI.LongSize, ABI.LongSize, T.Signed, false);
  case CTypeDesc::LongLong:
    return Set(8, ABI.LongLongAlign, T.Signed, false);
  case CTypeDesc::Int128:
    return Set(16, 16, T.Signed, false);
  case CTypeDesc::Pointer:
    return Set(ABI.PointerSize, ABI.PointerSize, false, false);
  case CTypeDesc::Float:
    return Set(4, 4, true, true);
  case CTypeDesc::Double:
    return Set(8, ABI.DoubleAlign, true, true);
  case CTypeDesc::LongDouble:
    return Set(ABI.LongDoubleSize, ABI.LongDoubleAlign, true, true);
  case CTypeDesc::FixedInt: {
    unsigned A = T.FixedSize == 8 ? ABI.LongLongAlign : T.FixedSize;
    return Set(T.FixedSize, A, T.Signed, false);
  }
  default:
    return false;
  }
}

static Error layoutInto(const CTypeDesc &T, const ArchABI &ABI,
                        ValueType &L, unsigned Depth) {
  if (Depth > 32)
    return fail("type nested too deeply");
  if (scalarLayout(T, ABI, L))
    return Error::success();
  switch (T.Kind) {
  case CTypeDesc::Void:
    return fail("'void' has no size");
  case CTypeDesc::Unsupported:
    return fail(T.Why);
  case CTypeDesc::Array: {
    if (T.Members.size() != 1)
      return fail("array without an element type");
    ValueType E;
    if (Error Err = layoutInto(T.Members[0], ABI, E, Depth + 1))
      return Err;
    L.Align = E.Align;
    L.Size = E.Size * T.Count;
    for (uint64_t I = 0; I < T.Count && L.Leaves.size() < 4096; ++I)
      for (const LayoutLeaf &Leaf : E.Leaves)
        L.Leaves.push_back({unsigned(Leaf.Offset + I * E.Size), Leaf.Size,
                            Leaf.IsFloat, Leaf.InUnion, false});
    return Error::success();
  }
  case CTypeDesc::Record:
  case CTypeDesc::Union: {
    unsigned Off = 0, Align = 1, Size = 0;
    for (const CTypeDesc &M : T.Members) {
      ValueType F;
      if (Error Err = layoutInto(M, ABI, F, Depth + 1))
        return Err;
      bool IsUnion = T.Kind == CTypeDesc::Union;
      unsigned At = IsUnion ? 0 : alignTo(Off, F.Align);
      // Direct: a scalar member of this structure (its caller, if any,
      // clears it again for nested aggregates).
      bool Scalar = M.Kind != CTypeDesc::Record && M.Kind != CTypeDesc::Union &&
                    M.Kind != CTypeDesc::Array;
      for (const LayoutLeaf &Leaf : F.Leaves)
        L.Leaves.push_back({At + Leaf.Offset, Leaf.Size, Leaf.IsFloat,
                            Leaf.InUnion || IsUnion, Scalar && !IsUnion});
      Off = At + F.Size;
      Size = std::max(Size, Off);
      Align = std::max(Align, F.Align);
    }
    L.Align = Align;
    L.Size = alignTo(Size, Align);
    std::stable_sort(L.Leaves.begin(), L.Leaves.end(),
                     [](const LayoutLeaf &A, const LayoutLeaf &B) {
                       return A.Offset < B.Offset;
                     });
    return Error::success();
  }
  default:
    return fail("unknown type");
  }
}

/// The kind a laid-out T has as a whole.
static ValueType::KindTy kindOf(const CTypeDesc &T) {
  switch (T.Kind) {
  case CTypeDesc::Record:
  case CTypeDesc::Union:
  case CTypeDesc::Array:
    return ValueType::Aggregate;
  case CTypeDesc::Bool:
    return ValueType::Bool;
  case CTypeDesc::Pointer:
    return ValueType::Pointer;
  case CTypeDesc::Float:
  case CTypeDesc::Double:
  case CTypeDesc::LongDouble:
    return ValueType::Float;
  case CTypeDesc::Int128:
    return ValueType::Int128;
  case CTypeDesc::Void:
    return ValueType::Void;
  default:
    return ValueType::Int;
  }
}

Expected<ValueType> layoutType(const CTypeDesc &T, const ArchABI &ABI) {
  ValueType L;
  if (Error Err = layoutInto(T, ABI, L, 0))
    return std::move(Err);
  if ((T.Kind == CTypeDesc::Record || T.Kind == CTypeDesc::Union) &&
      L.Size == 0)
    return fail("empty aggregates are passed differently by C and C++ and "
                "not at all by some ABIs");
  L.Kind = kindOf(T);
  return L;
}

} // namespace bpfprobe
