//===- ValueType.h - A value's type on one architecture ---*- C++ -*-===//
//
/// \file
/// The one vocabulary for the type of a value bpfprobe fetches. A C type's
/// structure (CTypeDesc, TypeLayout.h) is laid out for the probed
/// architecture into a ValueType; a calling convention classifies by it
/// (Kind, Size, Align, Leaves); a fetch plan records it as how the fetched
/// bits read (Kind, Size, Signed); the user's `:u32` / `:string` suffix
/// stands for one too. The kinds Int to Float are fetched; Int128 and Void
/// exist to be classified and refused with a reason.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_TARGET_VALUETYPE_H
#define BPFPROBE_TARGET_VALUETYPE_H

#include <string>
#include <vector>

namespace bpfprobe {

/// One scalar piece of a laid-out type at its byte offset.
struct LayoutLeaf {
  unsigned Offset = 0;
  unsigned Size = 0;
  bool IsFloat = false;
  /// A member of a union, at some level (the RISC-V and LoongArch
  /// floating-point conventions do not flatten unions).
  bool InUnion = false;
  /// A scalar member of the outermost structure itself, not inside a
  /// nested structure, union or array (MIPS n64 looks only at those).
  bool Direct = false;
};

/// A value's type on the probed architecture.
struct ValueType {
  /// The order is the fetch plan's serialised form (FetchPlan.cpp): the
  /// fetchable kinds first, in the order plans number them.
  enum KindTy {
    Int,       ///< integer or enum; Signed says how to extend
    Bool,      ///< _Bool: non-zero is true
    Pointer,   ///< an address (printed as hex)
    String,    ///< NUL-terminated string at the fetched address (bounded copy)
    Aggregate, ///< struct, union or array: Size bytes copied whole
    /// float, double, long double. In a plan: IEEE binary32 or binary64
    /// (Size 4 or 8), its bits fetched like an integer of that size, given
    /// zero-extended to the body and printed as a floating-point number by
    /// the runtime (type "f32", "f64").
    Float,
    Int128,    ///< __int128
    Void,
  };
  KindTy Kind = Int;
  unsigned Size = 0; ///< bytes (for String: the most bytes copied)
  /// Alignment in bytes on the probed architecture (0: same as Size).
  unsigned Align = 0;
  bool Signed = false;
  /// Its scalar pieces by offset, laid out for the probed architecture
  /// (calling conventions classify aggregates by them). layoutType gives a
  /// scalar its one leaf; other sources may leave a scalar's empty.
  std::vector<LayoutLeaf> Leaves;
  /// The C text where known ("unsigned long", "char *", "u32").
  std::string Text;
};

} // namespace bpfprobe

#endif
