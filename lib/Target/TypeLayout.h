//===- TypeLayout.h - C type layout for the probed architecture -*- C++ -*-===//
//
/// \file
/// The front end compiles probes for the BPF target, whose `long` and
/// pointers are 8 bytes and whose struct layout is x86_64's; the function
/// being probed was compiled for another architecture. The front end
/// therefore describes a C type in target-independent terms (CTypeDesc:
/// "long", "a struct of int and char *") and this file lays it out by the
/// probed architecture's data model (ArchABI sizes and alignments) into a
/// ValueType (ValueType.h): kind, size, alignment, and the scalar leaves a
/// calling convention classifies.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_TARGET_TYPELAYOUT_H
#define BPFPROBE_TARGET_TYPELAYOUT_H

#include "Target/ValueType.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bpfprobe {

struct ArchABI;

/// A C type named by its C keywords and structure, not by its size.
struct CTypeDesc {
  enum KindTy {
    Char,       ///< plain char: signedness is the ABI's
    SChar,
    UChar,
    Short,
    Int,
    Long,
    LongLong,
    Int128,
    Bool,
    Pointer,
    Float,
    Double,
    LongDouble,
    FixedInt,   ///< an integer of FixedSize bytes whatever the arch (__u32, int64_t)
    Record,     ///< struct: Members in order
    Union,      ///< union: Members overlap
    Array,      ///< Count elements of Members[0]
    Void,
    Unsupported ///< Why says what
  };
  KindTy Kind = Int;
  bool Signed = true;       ///< for integer kinds other than Char
  unsigned FixedSize = 0;   ///< FixedInt: bytes
  uint64_t Count = 0;       ///< Array: element count
  std::vector<CTypeDesc> Members;
  std::string Why;          ///< Unsupported: why ("bit-field 'x'")
};

/// Lays T out by ABI's data model: its ValueType (Kind, Size, Align,
/// Signed, Leaves; Text is left empty). An error
/// (plain text, no location) for Unsupported parts and incomplete or
/// zero-sized aggregates.
llvm::Expected<ValueType> layoutType(const CTypeDesc &T, const ArchABI &ABI);

} // namespace bpfprobe

#endif
