//===- DwarfTypes.cpp - The DWARF type graph, as the resolver needs it ---===//
//
/// \file
/// Sizes, members (anonymous structs and unions searched through, DWARF 4
/// DW_AT_bit_offset and DWARF 5 DW_AT_data_bit_offset bitfields), pointer
/// and aggregate tests, printable names, and the fetch type of a scalar.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfInternal.h"
#include "Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "Resolve/LLVMCompat.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace bpfprobe {

/// How deep the type walks below go. DWARF is input: a type may refer to
/// itself (an anonymous member whose type is its own struct, an array of
/// itself, an enum based on itself), and C types are never this deep.
constexpr unsigned MaxTypeDepth = 32;

DWARFDie stripTypedefs(DWARFDie T) {
  for (unsigned Guard = 0; T && Guard < 64; ++Guard) {
    switch (T.getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      T = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
      continue;
    default:
      return T;
    }
  }
  return T;
}

DWARFDie typeOf(DWARFDie D) {
  for (unsigned Guard = 0; D && Guard < 8; ++Guard) {
    if (DWARFDie T = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_type))
      return T;
    DWARFDie Next = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
    if (!Next)
      Next = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
    D = Next;
  }
  return DWARFDie();
}

static std::optional<uint64_t> typeSizeAt(DWARFDie T, unsigned PointerSize,
                                          unsigned Depth) {
  T = stripTypedefs(T);
  if (!T || Depth > MaxTypeDepth)
    return std::nullopt; // void, or a cyclic type
  if (auto S = dwarf::toUnsigned(T.find(dwarf::DW_AT_byte_size)))
    return *S;
  switch (T.getTag()) {
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
  case dwarf::DW_TAG_ptr_to_member_type:
    // clang omits DW_AT_byte_size on pointers.
    return PointerSize;
  case dwarf::DW_TAG_enumeration_type:
    return typeSizeAt(T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type),
                      PointerSize, Depth + 1);
  case dwarf::DW_TAG_array_type: {
    auto Elem = typeSizeAt(
        T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type), PointerSize,
        Depth + 1);
    if (!Elem)
      return std::nullopt;
    uint64_t N = 1;
    for (DWARFDie C : T.children()) {
      if (C.getTag() != dwarf::DW_TAG_subrange_type)
        continue;
      std::optional<uint64_t> Count =
          dwarf::toUnsigned(C.find(dwarf::DW_AT_count));
      if (!Count)
        if (auto UB = dwarf::toUnsigned(C.find(dwarf::DW_AT_upper_bound));
            UB && *UB != UINT64_MAX)
          Count = *UB + 1;
      if (!Count)
        return std::nullopt; // flexible array
      if (*Count && N > UINT64_MAX / *Count)
        return std::nullopt; // no object is this large
      N *= *Count;
    }
    if (*Elem && N > UINT64_MAX / *Elem)
      return std::nullopt;
    return N * *Elem;
  }
  default:
    return std::nullopt;
  }
}

std::optional<uint64_t> typeSize(DWARFDie T, unsigned PointerSize) {
  return typeSizeAt(T, PointerSize, 0);
}

/// Whether LLVM's DWARFTypePrinter can print T: it follows DW_AT_type
/// through pointers, qualifiers, arrays and function types (their
/// parameters too) without a limit, so a cycle there (a pointer to itself)
/// or an absurd depth would exhaust the stack. Named structs, unions and
/// enums end the walk: the printer prints their names only.
static bool printable(DWARFDie T, SmallVectorImpl<DWARFDie> &Path) {
  if (!T)
    return true;
  if (Path.size() > MaxTypeDepth || llvm::is_contained(Path, T))
    return false;
  switch (T.getTag()) {
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_union_type:
  case dwarf::DW_TAG_class_type:
  case dwarf::DW_TAG_enumeration_type:
  case dwarf::DW_TAG_base_type:
    return true;
  default:
    break;
  }
  Path.push_back(T);
  bool OK =
      printable(T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type), Path);
  if (OK && T.getTag() == dwarf::DW_TAG_subroutine_type)
    for (DWARFDie C : T.children())
      if (!(OK = printable(
                C.getAttributeValueAsReferencedDie(dwarf::DW_AT_type), Path)))
        break;
  Path.pop_back();
  return OK;
}

/// The C declaration of type T around the declarator Inner ("", "*p",
/// "(*)[4]"), with the qualifiers Quals that apply to T: specifiers first,
/// then the declarator, as C (and gdb) print it. gcc puts `const` on an
/// array or on a typedef of one, C on the elements: qualifiers are carried
/// down to the element type and printed once.
static std::string declare(DWARFDie T, std::string Inner,
                           std::set<std::string> Quals, unsigned Depth) {
  auto Specs = [&](StringRef Name) {
    std::string S;
    for (const char *Q : {"const", "volatile", "restrict", "_Atomic"})
      if (Quals.count(Q))
        S += std::string(Q) + " ";
    S += Name.str();
    if (Inner.empty())
      return S;
    return S + (Inner.front() == '[' ? "" : " ") + Inner;
  };
  if (!T || Depth > 32)
    return Specs(T ? "..." : "void");
  switch (T.getTag()) {
  case dwarf::DW_TAG_const_type:
  case dwarf::DW_TAG_volatile_type:
  case dwarf::DW_TAG_restrict_type:
  case dwarf::DW_TAG_atomic_type:
    Quals.insert(T.getTag() == dwarf::DW_TAG_const_type      ? "const"
                 : T.getTag() == dwarf::DW_TAG_volatile_type ? "volatile"
                 : T.getTag() == dwarf::DW_TAG_restrict_type ? "restrict"
                                                             : "_Atomic");
    return declare(T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type),
                   std::move(Inner), std::move(Quals), Depth + 1);
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type: {
    std::string D = T.getTag() == dwarf::DW_TAG_pointer_type     ? "*"
                    : T.getTag() == dwarf::DW_TAG_reference_type ? "&"
                                                                 : "&&";
    for (const char *Q : {"const", "volatile", "restrict", "_Atomic"})
      if (Quals.count(Q))
        D += Q;
    if (!Inner.empty())
      D += (D.back() == '*' || D.back() == '&' ? "" : " ") + Inner;
    DWARFDie Pointee = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    // Strip only qualifiers to see whether the pointee binds tighter.
    DWARFDie Q = Pointee;
    for (unsigned I = 0; Q && I < 8; ++I) {
      dwarf::Tag G = Q.getTag();
      if (G != dwarf::DW_TAG_const_type && G != dwarf::DW_TAG_volatile_type &&
          G != dwarf::DW_TAG_restrict_type && G != dwarf::DW_TAG_atomic_type)
        break;
      Q = Q.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    }
    if (Q && (Q.getTag() == dwarf::DW_TAG_array_type ||
              Q.getTag() == dwarf::DW_TAG_subroutine_type))
      D = "(" + D + ")";
    return declare(Pointee, D, {}, Depth + 1);
  }
  case dwarf::DW_TAG_array_type: {
    std::string Dims;
    for (DWARFDie C : T.children()) {
      if (C.getTag() != dwarf::DW_TAG_subrange_type)
        continue;
      if (auto Count = dwarf::toUnsigned(C.find(dwarf::DW_AT_count)))
        Dims += "[" + std::to_string(*Count) + "]";
      else if (auto UB = dwarf::toUnsigned(C.find(dwarf::DW_AT_upper_bound)))
        Dims += "[" + std::to_string(*UB + 1) + "]";
      else
        Dims += "[]";
    }
    return declare(T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type),
                   Inner + Dims, std::move(Quals), Depth + 1);
  }
  case dwarf::DW_TAG_subroutine_type: {
    std::string Params;
    bool Variadic = false;
    for (DWARFDie C : T.children()) {
      if (C.getTag() == dwarf::DW_TAG_unspecified_parameters) {
        Variadic = true;
        continue;
      }
      if (C.getTag() != dwarf::DW_TAG_formal_parameter)
        continue;
      if (!Params.empty())
        Params += ", ";
      Params += declare(C.getAttributeValueAsReferencedDie(dwarf::DW_AT_type),
                        "", {}, Depth + 1);
    }
    if (Variadic)
      Params += Params.empty() ? "..." : ", ...";
    if (Params.empty() && T.find(dwarf::DW_AT_prototyped))
      Params = "void";
    return declare(T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type),
                   Inner + "(" + Params + ")", {}, Depth + 1);
  }
  default:
    break;
  }
  StringRef Keyword;
  switch (T.getTag()) {
  case dwarf::DW_TAG_structure_type:
    Keyword = "struct ";
    break;
  case dwarf::DW_TAG_union_type:
    Keyword = "union ";
    break;
  case dwarf::DW_TAG_enumeration_type:
    Keyword = "enum ";
    break;
  case dwarf::DW_TAG_class_type:
    Keyword = "class ";
    break;
  default:
    break;
  }
  const char *Name = T.getShortName();
  if (!Name && T.getTag() == dwarf::DW_TAG_unspecified_type)
    Name = "void";
  std::string N = Name ? Name : (Keyword.empty() ? "?" : "<anonymous>");
  return Specs((Keyword + N).str());
}

std::string typeName(DWARFDie T) {
  SmallVector<DWARFDie, 16> Path;
  if (!printable(T, Path))
    return "<cyclic or too deeply nested type at DIE " +
           utohexstr(T.getOffset(), /*LowerCase=*/true) + ">";
  return declare(T, "", {}, 0);
}

bool isPointer(DWARFDie T) {
  T = stripTypedefs(T);
  return T && T.getTag() == dwarf::DW_TAG_pointer_type;
}

bool isAggregate(DWARFDie T) {
  T = stripTypedefs(T);
  if (!T)
    return false;
  switch (T.getTag()) {
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_union_type:
  case dwarf::DW_TAG_class_type:
  case dwarf::DW_TAG_array_type:
    return true;
  default:
    return false;
  }
}

static bool isRecord(DWARFDie T) {
  return T && (T.getTag() == dwarf::DW_TAG_structure_type ||
               T.getTag() == dwarf::DW_TAG_union_type ||
               T.getTag() == dwarf::DW_TAG_class_type);
}

static std::optional<MemberInfo> memberInfo(DWARFDie M) {
  MemberInfo I;
  I.Die = M;
  if (auto Off = M.find(dwarf::DW_AT_data_member_location)) {
    auto C = dwarf::toUnsigned(*Off);
    if (!C)
      return std::nullopt; // a location expression: DWARF 2 style
    I.ByteOffset = *C;
  }
  auto BitSize = dwarf::toUnsigned(M.find(dwarf::DW_AT_bit_size));
  if (!BitSize)
    return I;
  // A field of 1..64 bits: 0 or more than a register is not a bitfield we
  // can read (and 0 would make the span below wrap around).
  if (*BitSize == 0 || *BitSize > 64)
    return std::nullopt;
  I.IsBitfield = true;
  I.BitSize = *BitSize;
  if (auto DBO = dwarf::toUnsigned(M.find(dwarf::DW_AT_data_bit_offset))) {
    // DWARF 4/5, clang: bits from the start of the struct. Read the
    // smallest naturally sized unit that holds the field.
    if (*DBO > UINT64_MAX - 64)
      return std::nullopt;
    uint64_t First = *DBO / 8, Last = (*DBO + *BitSize - 1) / 8;
    unsigned Bytes = 1;
    while (Bytes < Last - First + 1 && Bytes <= 8)
      Bytes *= 2;
    I.ByteOffset = First;
    I.StorageSize = Bytes;
    I.BitOffset = *DBO - First * 8;
  } else {
    // DWARF 2/3 (gcc -gdwarf-4 too): DW_AT_bit_offset counts from the most
    // significant bit of the DW_AT_byte_size storage unit at
    // DW_AT_data_member_location. Little-endian only.
    auto BO = dwarf::toUnsigned(M.find(dwarf::DW_AT_bit_offset));
    auto BS = dwarf::toUnsigned(M.find(dwarf::DW_AT_byte_size));
    if (!BO || !BS || *BS > 8 || *BO + *BitSize > *BS * 8)
      return std::nullopt;
    I.StorageSize = *BS;
    I.BitOffset = *BS * 8 - *BO - *BitSize;
  }
  if (I.StorageSize > 8 || I.BitOffset + I.BitSize > I.StorageSize * 8)
    return std::nullopt;
  return I;
}

static std::optional<MemberInfo> findMemberAt(DWARFDie Record, StringRef Name,
                                              unsigned Depth) {
  Record = stripTypedefs(Record);
  if (!isRecord(Record) || Depth > MaxTypeDepth)
    return std::nullopt;
  SmallVector<DWARFDie, 4> Bases;
  for (DWARFDie C : Record.children()) {
    if (C.getTag() == dwarf::DW_TAG_inheritance) {
      Bases.push_back(C);
      continue;
    }
    // A static data member: DW_TAG_variable in the class (DWARF 5), or a
    // DW_TAG_member declaration (DWARF 4). Its value is a global.
    bool Static = C.getTag() == dwarf::DW_TAG_variable ||
                  (C.getTag() == dwarf::DW_TAG_member &&
                   (C.find(dwarf::DW_AT_external) ||
                    C.find(dwarf::DW_AT_declaration)));
    if (Static) {
      const char *N = C.getShortName();
      if (N && Name == N) {
        MemberInfo I;
        I.Die = C;
        I.IsStatic = true;
        return I;
      }
      continue;
    }
    if (C.getTag() != dwarf::DW_TAG_member)
      continue;
    const char *N = C.getShortName();
    if (N && Name == N)
      return memberInfo(C);
    if (!N) {
      // An anonymous struct or union: its members are ours.
      auto Outer = memberInfo(C);
      if (!Outer)
        continue;
      if (auto Inner = findMemberAt(typeOf(C), Name, Depth + 1)) {
        Inner->ByteOffset += Outer->ByteOffset;
        return Inner;
      }
    }
  }
  // C++ base classes, in declaration order: a non-virtual base is at a
  // constant offset; a virtual one's offset is in the vtable.
  for (DWARFDie B : Bases) {
    auto Inner = findMemberAt(typeOf(B), Name, Depth + 1);
    if (!Inner)
      continue;
    if (Inner->IsStatic || !Inner->VirtualBase.empty())
      return Inner;
    auto V = dwarf::toUnsigned(B.find(dwarf::DW_AT_virtuality));
    auto Off = B.find(dwarf::DW_AT_data_member_location);
    std::optional<uint64_t> C = Off ? dwarf::toUnsigned(*Off) : 0;
    if ((V && *V != dwarf::DW_VIRTUALITY_none) || !C) {
      Inner->VirtualBase = typeName(typeOf(B));
      return Inner;
    }
    Inner->ByteOffset += *C;
    return Inner;
  }
  return std::nullopt;
}

std::optional<MemberInfo> findMember(DWARFDie Record, StringRef Name) {
  return findMemberAt(Record, Name, 0);
}

namespace {
/// What findLibraryPointerAt looks for.
enum class LibraryMember { Pointer, Integer, Record };
} // namespace

static std::optional<MemberInfo>
findLibraryPointerAt(DWARFDie Record, ArrayRef<StringRef> Names,
                     unsigned Depth,
                     LibraryMember Want = LibraryMember::Pointer) {
  Record = stripTypedefs(Record);
  if (!isRecord(Record) || Depth > 8)
    return std::nullopt;
  for (DWARFDie C : Record.children()) {
    bool Base = C.getTag() == dwarf::DW_TAG_inheritance;
    if (C.getTag() != dwarf::DW_TAG_member && !Base)
      continue;
    if (C.find(dwarf::DW_AT_external) || C.find(dwarf::DW_AT_declaration))
      continue; // static
    if (auto V = dwarf::toUnsigned(C.find(dwarf::DW_AT_virtuality));
        V && *V != dwarf::DW_VIRTUALITY_none)
      continue;
    auto Here = memberInfo(C);
    if (!Here || Here->IsBitfield)
      continue;
    const char *N = C.getShortName();
    DWARFDie MT = stripTypedefs(typeOf(C));
    bool Fits = Want == LibraryMember::Pointer   ? isPointer(MT)
                : Want == LibraryMember::Integer ? MT && MT.getTag() ==
                                                            dwarf::DW_TAG_base_type
                                                 : isRecord(MT);
    if (!Base && N && is_contained(Names, StringRef(N)) && Fits)
      return Here;
    if (auto Inner = findLibraryPointerAt(typeOf(C), Names, Depth + 1, Want)) {
      Inner->ByteOffset += Here->ByteOffset;
      return Inner;
    }
  }
  return std::nullopt;
}

std::optional<MemberInfo> findLibraryPointer(DWARFDie Record,
                                             ArrayRef<StringRef> Names) {
  return findLibraryPointerAt(Record, Names, 0);
}

std::optional<MemberInfo> findLibraryLength(DWARFDie Record,
                                            ArrayRef<StringRef> Names) {
  return findLibraryPointerAt(Record, Names, 0, LibraryMember::Integer);
}

std::optional<MemberInfo> findLibraryRecord(DWARFDie Record,
                                            ArrayRef<StringRef> Names) {
  return findLibraryPointerAt(Record, Names, 0, LibraryMember::Record);
}

std::string stdClassName(DWARFDie Record) {
  Record = stripTypedefs(Record);
  if (!isRecord(Record) || !Record.getShortName())
    return "";
  DWARFDie P = Record.getParent();
  // libc++'s std::__1, libstdc++'s std::__cxx11: inline namespaces.
  if (P && P.getTag() == dwarf::DW_TAG_namespace && P.getShortName() &&
      StringRef(P.getShortName()).starts_with("__"))
    P = P.getParent();
  if (!P || P.getTag() != dwarf::DW_TAG_namespace || !P.getShortName() ||
      StringRef(P.getShortName()) != "std")
    return "";
  return StringRef(Record.getShortName())
      .take_until([](char C) { return C == '<'; })
      .str();
}

static std::vector<std::string> memberNamesAt(DWARFDie Record,
                                              unsigned Depth) {
  std::vector<std::string> Names;
  Record = stripTypedefs(Record);
  if (!isRecord(Record) || Depth > MaxTypeDepth)
    return Names;
  for (DWARFDie C : Record.children()) {
    if (C.getTag() == dwarf::DW_TAG_inheritance) {
      for (std::string &Inner : memberNamesAt(typeOf(C), Depth + 1))
        Names.push_back(std::move(Inner));
      continue;
    }
    if (C.getTag() != dwarf::DW_TAG_member)
      continue;
    if (const char *N = C.getShortName())
      Names.push_back(N);
    else
      for (std::string &Inner : memberNamesAt(typeOf(C), Depth + 1))
        Names.push_back(std::move(Inner));
  }
  return Names;
}

std::vector<std::string> memberNames(DWARFDie Record) {
  return memberNamesAt(Record, 0);
}

static Expected<ValueType> valueTypeAt(DWARFDie T, unsigned PointerSize,
                                       unsigned Depth) {
  DWARFDie S = stripTypedefs(T);
  auto Fail = [&](const Twine &Why) {
    return fail("'" + typeName(T) + "' " + Why);
  };
  if (!S)
    return Fail("has no value");
  if (Depth > MaxTypeDepth)
    return Fail("refers to itself or is nested too deeply");
  ValueType V;
  auto Size = typeSize(S, PointerSize);
  switch (S.getTag()) {
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
    V.Kind = ValueType::Pointer;
    V.Size = PointerSize;
    return V;
  case dwarf::DW_TAG_enumeration_type: {
    V.Kind = ValueType::Int;
    V.Size = Size.value_or(4);
    if (DWARFDie U = S.getAttributeValueAsReferencedDie(dwarf::DW_AT_type)) {
      auto UV = valueTypeAt(U, PointerSize, Depth + 1);
      if (UV)
        V.Signed = UV->Signed;
      else
        consumeError(UV.takeError());
    } else {
      for (DWARFDie E : S.children())
        if (auto C = E.find(dwarf::DW_AT_const_value))
          if (auto SV = constantValue(*C); SV && *SV < 0)
            V.Signed = true;
    }
    break;
  }
  case dwarf::DW_TAG_base_type: {
    auto Enc = dwarf::toUnsigned(S.find(dwarf::DW_AT_encoding));
    switch (Enc.value_or(0)) {
    case dwarf::DW_ATE_signed:
    case dwarf::DW_ATE_signed_char:
      V.Kind = ValueType::Int;
      V.Signed = true;
      break;
    case dwarf::DW_ATE_unsigned:
    case dwarf::DW_ATE_unsigned_char:
    case dwarf::DW_ATE_UTF:
      V.Kind = ValueType::Int;
      break;
    case dwarf::DW_ATE_boolean:
      V.Kind = ValueType::Bool;
      break;
    case dwarf::DW_ATE_float:
      // IEEE binary32 and binary64: fetched as their bits, printed as a
      // number by the runtime. Wider formats (x87's 80-bit long double,
      // binary128) have no such printing.
      if (Size == 4u || Size == 8u) {
        V.Kind = ValueType::Float;
        break;
      }
      [[fallthrough]];
    case dwarf::DW_ATE_complex_float:
      return Fail("is a floating-point type bpfprobe does not print (only "
                  "4-byte float and 8-byte double); fetch its bits with an "
                  "explicit type such as ':x64'");
    default:
      return Fail("has an unsupported encoding");
    }
    V.Size = Size.value_or(0);
    break;
  }
  default:
    if (isAggregate(S) && Size) {
      V.Kind = ValueType::Aggregate;
      V.Size = *Size;
      return V;
    }
    return Fail("cannot be fetched as a value");
  }
  if (V.Size == 0 || V.Size > 8 || (V.Size & (V.Size - 1)))
    return Fail("is " + Twine(V.Size) + " bytes, not a 1, 2, 4 or 8-byte "
                "scalar");
  return V;
}

Expected<ValueType> valueTypeOf(DWARFDie T, unsigned PointerSize) {
  return valueTypeAt(T, PointerSize, 0);
}

std::optional<int64_t> constantValue(const DWARFFormValue &V) {
  switch (V.getForm()) {
  case dwarf::DW_FORM_sdata:
  case dwarf::DW_FORM_implicit_const:
    return V.getAsSignedConstant();
  case dwarf::DW_FORM_data1:
  case dwarf::DW_FORM_data2:
  case dwarf::DW_FORM_data4:
  case dwarf::DW_FORM_data8:
  case dwarf::DW_FORM_udata:
    // Untyped data (gdb's dwarf2_const_value_data masks it to its size)
    // and unsigned LEB128: zero-extended.
    if (auto U = V.getAsUnsignedConstant())
      return int64_t(*U);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace bpfprobe
