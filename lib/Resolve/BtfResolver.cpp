//===- BtfResolver.cpp - Kernel entry probes resolved through BTF --------===//
//
/// \file
/// Resolves kernel probes at a function's entry (and return) with BTF,
/// through libbpf's BTF API: the function's FUNC and FUNC_PROTO give its
/// parameters' names and types, the architecture's kernel calling
/// convention (entryArgumentLocations, the table the calling-convention
/// resolver uses) gives where each one is, and member, element and
/// dereference steps walk BTF types. BTF describes no locals and no
/// locations past the entry, so anything else is refused with the reason.
///
/// Every member offset is marked as a CO-RE access (FetchExpr::Core): the
/// containing named structure, the members from it (anonymous ones
/// included) with their offsets and types, and an array element's index;
/// consecutive `.` steps and an index extend one access, as clang's
/// preserve_access_index does. The IR pass turns each into a `.BTF.ext`
/// field relocation (plugin/CoreRelocation.cpp), so the offsets printed
/// here are those of the BTF compiled against and libbpf patches them for
/// the running kernel. Not relocated: a bitfield's bit position within its
/// storage, the size of the value read, accesses rooted at an anonymous
/// structure.
//===----------------------------------------------------------------------===//

#include "Resolve/BtfResolver.h"
#include "Resolve/Resolver.h"
#include "Support/Error.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <bpf/btf.h>
#include <cerrno>
#include <cstring>

using namespace llvm;

namespace bpfprobe {

Expected<std::unique_ptr<BtfTypes>> BtfTypes::open(StringRef Path,
                                                   StringRef BasePath) {
  struct btf *Base = nullptr;
  if (!BasePath.empty()) {
    Base = btf__parse(BasePath.str().c_str(), nullptr);
    if (!Base)
      return fail("cannot read BTF from '" + BasePath +
                  "': " + std::strerror(errno));
  }
  struct btf *T = Base ? btf__parse_split(Path.str().c_str(), Base)
                       : btf__parse(Path.str().c_str(), nullptr);
  if (!T) {
    int Err = errno;
    btf__free(Base);
    return fail("cannot read BTF from '" + Path + "': " + std::strerror(Err) +
                (Err == ENOENT ? "" : " (neither raw BTF nor an ELF file with a "
                                      ".BTF section)"));
  }
  return std::unique_ptr<BtfTypes>(new BtfTypes(T, Base, Path.str()));
}

BtfTypes::~BtfTypes() {
  btf__free(Types);
  btf__free(Base);
}

namespace {

/// The closest of Names to Name, when close enough to be a misspelling.
std::string closest(StringRef Name, ArrayRef<std::string> Names) {
  std::string Best;
  unsigned BestD = ~0u;
  for (const std::string &N : Names) {
    unsigned D = Name.edit_distance(N, true, 3);
    if (D < BestD) {
      BestD = D;
      Best = N;
    }
  }
  unsigned Limit = Name.size() <= 3 ? 1 : Name.size() <= 6 ? 2 : 3;
  return BestD <= Limit ? Best : "";
}

std::string didYouMean(StringRef Name, ArrayRef<std::string> Names) {
  std::string C = closest(Name, Names);
  return C.empty() ? "" : "; did you mean '" + C + "'?";
}

/// A value during the walk: in memory at Addr (an lvalue), or computed
/// (Value). Type is a BTF type id (0 = void).
struct Val {
  std::unique_ptr<FetchExpr> Addr;
  std::unique_ptr<FetchExpr> Value;
  uint32_t Type = 0;
  /// A bitfield member in memory: its bits from Addr.
  unsigned BitOffset = 0, BitSize = 0;
  /// The bitfield's CO-RE access (FetchExpr::Core), when it has one.
  std::string BitCore;
};

class BtfWalk {
public:
  BtfWalk(const ProbeSpec &Spec, const BtfTypes &B, const ArchABI &ABI)
      : Spec(Spec), B(B), T(B.get()), ABI(ABI) {}

  Expected<SitePlan> run();

private:
  const ProbeSpec &Spec;
  const BtfTypes &B;
  struct btf *T;
  const ArchABI &ABI;
  const struct btf_type *Proto = nullptr;
  std::vector<std::unique_ptr<FetchExpr>> ParamLocs;
  /// fexit: the context slot of the return value.
  unsigned RetSlot = 0;
  std::vector<std::string> ParamNames;
  std::vector<uint32_t> ParamTypes;

  std::string text(TextRange R) const {
    return Spec.Text.substr(R.Begin, R.End - R.Begin);
  }
  const struct btf_type *type(uint32_t Id) const {
    return Id ? btf__type_by_id(T, Id) : nullptr;
  }
  StringRef name(uint32_t Off) const { return btf__name_by_offset(T, Off); }

  /// Id with typedefs and modifiers (const, volatile, restrict, type tags)
  /// skipped.
  uint32_t strip(uint32_t Id) const {
    for (unsigned Guard = 0; Id && Guard < 64; ++Guard) {
      const struct btf_type *Ty = type(Id);
      if (!Ty || !(btf_is_mod(Ty) || btf_is_typedef(Ty)))
        return Id;
      Id = Ty->type;
    }
    return Id;
  }
  std::string typeName(uint32_t Id) const;
  Expected<ValueType> scalarOf(uint32_t Id, TextRange R) const;
  Expected<Val> eval(const SpecExpr &E);
  Expected<Val> evalParam(const SpecExpr &E);
  Expected<Val> evalArgN(const SpecExpr &E);
  Expected<Val> evalRetVal(const SpecExpr &E);
  Expected<Val> evalReg(const SpecExpr &E);
  Expected<Val> evalMember(const SpecExpr &E);
  Expected<Val> evalElement(const SpecExpr &E);
  Expected<std::unique_ptr<FetchExpr>> load(Val V, const SpecExpr &E);
  /// One member on the way from a structure to a named member: the
  /// anonymous members passed through, then the member itself.
  struct MemberStep {
    std::string Name;
    uint32_t BitOffset; ///< from the start of its own container
    uint32_t Type;
  };
  bool findMember(uint32_t StructId, StringRef Name, uint32_t &Offset,
                  uint32_t &MemberType, unsigned &BitSize,
                  std::vector<MemberStep> *Path = nullptr) const;
  std::string coreType(uint32_t Id, unsigned Depth = 0) const;
  std::unique_ptr<FetchExpr> memberAddress(std::unique_ptr<FetchExpr> Base,
                                           uint32_t StructId, uint32_t Off,
                                           ArrayRef<MemberStep> Path);
  void memberNames(uint32_t StructId, std::vector<std::string> &Out) const;
  Expected<ArgPlan> arg(const ProbeArg &Arg);
  Error findFunction();
};

std::string BtfWalk::typeName(uint32_t Id) const {
  std::string Suffix;
  for (unsigned Guard = 0; Guard < 64; ++Guard) {
    const struct btf_type *Ty = type(Id);
    if (!Ty)
      return "void" + Suffix;
    switch (btf_kind(Ty)) {
    case BTF_KIND_PTR:
      Suffix = " *" + Suffix;
      Id = Ty->type;
      continue;
    case BTF_KIND_CONST:
      Suffix = " const" + Suffix;
      Id = Ty->type;
      continue;
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
      Id = Ty->type;
      continue;
    case BTF_KIND_ARRAY:
      Suffix += "[" + std::to_string(btf_array(Ty)->nelems) + "]";
      Id = btf_array(Ty)->type;
      continue;
    case BTF_KIND_STRUCT:
      return "struct " + name(Ty->name_off).str() + Suffix;
    case BTF_KIND_UNION:
      return "union " + name(Ty->name_off).str() + Suffix;
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64:
      return "enum " + name(Ty->name_off).str() + Suffix;
    case BTF_KIND_FWD:
      return (btf_kflag(Ty) ? "union " : "struct ") +
             name(Ty->name_off).str() + Suffix;
    case BTF_KIND_FUNC_PROTO:
      return "function" + Suffix;
    default: {
      StringRef N = name(Ty->name_off);
      return (N.empty() ? "?" : N.str()) + Suffix;
    }
    }
  }
  return "?";
}

/// The calling convention's view of a BTF type.
Expected<ValueType> BtfWalk::scalarOf(uint32_t Id, TextRange R) const {
  ValueType S;
  S.Text = typeName(Id);
  const struct btf_type *Ty = type(strip(Id));
  if (!Ty) {
    S.Kind = ValueType::Void;
    return S;
  }
  switch (btf_kind(Ty)) {
  case BTF_KIND_INT: {
    uint32_t Enc = btf_int_encoding(Ty);
    S.Kind = (Enc & BTF_INT_BOOL) ? ValueType::Bool
             : Ty->size > 8       ? ValueType::Int128
                                  : ValueType::Int;
    S.Size = Ty->size;
    S.Signed = Enc & BTF_INT_SIGNED;
    return S;
  }
  case BTF_KIND_PTR:
    S.Kind = ValueType::Pointer;
    S.Size = ABI.PointerSize;
    return S;
  case BTF_KIND_ENUM:
  case BTF_KIND_ENUM64:
    S.Kind = ValueType::Int;
    S.Size = Ty->size;
    S.Signed = btf_kflag(Ty);
    return S;
  case BTF_KIND_FLOAT:
    S.Kind = ValueType::Float;
    S.Size = Ty->size;
    return S;
  default:
    return errorAt(R, "'" + S.Text + "' is passed by value; BTF does not "
                      "say how the calling convention splits it: probe with "
                      "DWARF");
  }
}

/// Member Name of the struct or union StructId, looking into anonymous
/// members; Offset in bits from the start of StructId.
bool BtfWalk::findMember(uint32_t StructId, StringRef Name, uint32_t &Offset,
                         uint32_t &MemberType, unsigned &BitSize,
                         std::vector<MemberStep> *Path) const {
  const struct btf_type *Ty = type(StructId);
  const struct btf_member *M = btf_members(Ty);
  for (unsigned I = 0, N = btf_vlen(Ty); I < N; ++I, ++M) {
    StringRef MN = name(M->name_off);
    uint32_t Off = btf_member_bit_offset(Ty, I);
    if (MN.empty()) {
      uint32_t Inner = strip(M->type);
      const struct btf_type *IT = type(Inner);
      size_t Mark = Path ? Path->size() : 0;
      if (Path)
        Path->push_back({"", Off, M->type});
      if (IT && (btf_is_struct(IT) || btf_is_union(IT)) &&
          findMember(Inner, Name, Offset, MemberType, BitSize, Path)) {
        Offset += Off;
        return true;
      }
      if (Path)
        Path->resize(Mark);
      continue;
    }
    if (MN == Name) {
      Offset = Off;
      MemberType = M->type;
      BitSize = btf_member_bitfield_size(Ty, I);
      if (Path)
        Path->push_back({MN.str(), Off, M->type});
      return true;
    }
  }
  return false;
}

/// A type in the form of FetchExpr::Core, or "" for one CO-RE cannot
/// describe here (functions, forward declarations).
std::string BtfWalk::coreType(uint32_t Id, unsigned Depth) const {
  const struct btf_type *Ty = type(strip(Id));
  if (!Ty || Depth > 8)
    return "";
  std::string Size = std::to_string(Ty->size);
  switch (btf_kind(Ty)) {
  case BTF_KIND_STRUCT:
  case BTF_KIND_UNION:
    return (btf_is_struct(Ty) ? "s" : "u") + name(Ty->name_off).str() + "#" +
           Size;
  case BTF_KIND_INT:
    if (btf_int_encoding(Ty) & BTF_INT_BOOL)
      return "b";
    return ((btf_int_encoding(Ty) & BTF_INT_SIGNED) ? "i" : "n") + Size;
  case BTF_KIND_PTR:
    return "p";
  case BTF_KIND_ENUM:
  case BTF_KIND_ENUM64:
    return "e" + name(Ty->name_off).str() + "#" + Size;
  case BTF_KIND_FLOAT:
    return "f" + Size;
  case BTF_KIND_ARRAY: {
    std::string Elem = coreType(btf_array(Ty)->type, Depth + 1);
    if (Elem.empty())
      return "";
    return "a" + std::to_string(btf_array(Ty)->nelems) + "," + Elem;
  }
  default:
    return "";
  }
}

/// Base + the byte offset Off of a member of StructId reached by Path: a
/// CO-RE field relocation (FetchExpr::Core) when the access can be
/// described, extending the access Base already is when Base is a member
/// access that ends at StructId (`file->f_path.dentry` is one access from
/// `struct file`, as clang makes it).
std::unique_ptr<FetchExpr>
BtfWalk::memberAddress(std::unique_ptr<FetchExpr> Base, uint32_t StructId,
                       uint32_t Off, ArrayRef<MemberStep> Path) {
  std::string Container = coreType(StructId);
  std::string Steps;
  for (const MemberStep &M : Path) {
    std::string T = coreType(M.Type);
    if (T.empty())
      return FetchExpr::add(std::move(Base), Off / 8);
    Steps += "/" + M.Name + "@" + std::to_string(M.BitOffset) + ":" + T;
  }
  if (Base->Kind == FetchExpr::Add && !Base->Core.empty() &&
      StringRef(Base->Core).ends_with(":" + Container)) {
    Base->Core += Steps;
    Base->Value += Off / 8;
    return Base;
  }
  // libbpf finds a relocation's candidates by the root's name.
  if (Container.size() < 2 || Container[1] == '#')
    return FetchExpr::add(std::move(Base), Off / 8);
  auto E = std::make_unique<FetchExpr>();
  E->Kind = FetchExpr::Add;
  E->Value = Off / 8;
  E->Core = Container + Steps;
  E->Operand = std::move(Base);
  return E;
}

void BtfWalk::memberNames(uint32_t StructId,
                          std::vector<std::string> &Out) const {
  const struct btf_type *Ty = type(StructId);
  const struct btf_member *M = btf_members(Ty);
  for (unsigned I = 0, N = btf_vlen(Ty); I < N; ++I, ++M) {
    StringRef MN = name(M->name_off);
    if (!MN.empty()) {
      Out.push_back(MN.str());
      continue;
    }
    uint32_t Inner = strip(M->type);
    const struct btf_type *IT = type(Inner);
    if (IT && (btf_is_struct(IT) || btf_is_union(IT)))
      memberNames(Inner, Out);
  }
}

/// The value of V: a register value as it is, memory read (a bitfield's
/// bits extracted).
Expected<std::unique_ptr<FetchExpr>> BtfWalk::load(Val V, const SpecExpr &E) {
  if (V.Value)
    return std::move(V.Value);
  uint32_t S = strip(V.Type);
  const struct btf_type *Ty = type(S);
  if (!Ty)
    return errorAt(E.Range, "'" + text(E.Range) + "' has type void");
  if (V.BitSize) {
    if (!ABI.LittleEndian)
      return errorAt(E.Range, "bitfields are read on little-endian "
                              "architectures only");
    unsigned First = V.BitOffset / 8, Shift = V.BitOffset % 8;
    unsigned Size = 1;
    if (!V.BitCore.empty()) {
      // The storage unit libbpf computes for a CO-RE bitfield read: the
      // member type's size, doubled until it holds the field.
      Size = std::max<int64_t>(1, btf__resolve_size(T, V.Type));
      First = V.BitOffset / 8 / Size * Size;
      while (Size < 8 && V.BitOffset + V.BitSize > (First + Size) * 8) {
        Size *= 2;
        First = V.BitOffset / 8 / Size * Size;
      }
      Shift = V.BitOffset - First * 8;
    } else {
      while (Size < 8 && Size * 8 < Shift + V.BitSize)
        Size *= 2;
    }
    if (Size * 8 < Shift + V.BitSize)
      return errorAt(E.Range, "bitfield '" + text(E.Range) +
                                  "' straddles eight bytes");
    auto Word = FetchExpr::deref(FetchExpr::add(std::move(V.Addr), First),
                                 Size);
    auto Sc = scalarOf(V.Type, E.Range);
    bool Signed = Sc && Sc->Signed;
    if (!Sc)
      consumeError(Sc.takeError());
    auto Field = FetchExpr::bitfield(std::move(Word), Size, Shift, V.BitSize,
                                     Signed);
    Field->Core = V.BitCore;
    return std::move(Field);
  }
  if (!(btf_is_int(Ty) || btf_is_ptr(Ty) || btf_is_any_enum(Ty)))
    return errorAt(E.Range, "'" + text(E.Range) + "' is a '" +
                                typeName(V.Type) + "', not a pointer or "
                                "integer");
  int64_t Size = btf__resolve_size(T, S);
  if (Size <= 0 || Size > 8)
    return errorAt(E.Range, "cannot read '" + text(E.Range) + "' of type '" +
                                typeName(V.Type) + "' as a scalar");
  return FetchExpr::deref(std::move(V.Addr), unsigned(Size));
}

/// A parameter by its name (BTF's FUNC_PROTO names them).
Expected<Val> BtfWalk::evalParam(const SpecExpr &E) {
  for (size_t I = 0; I < ParamNames.size(); ++I)
    if (ParamNames[I] == E.Name) {
      if (isReturnProbe(Spec.Kind))
        return errorAt(E.NameRange,
                       "parameter '" + E.Name + "' is not known at "
                       "return (its register is clobbered); use "
                       "'$retval'");
      if (!ParamLocs[I])
        return errorAt(E.NameRange,
                       "parameter '" + E.Name + "' is a '" +
                           typeName(ParamTypes[I]) +
                           "' passed by value; the trampoline gives it as "
                           "raw slots: probe with kprobe and DWARF");
      Val V;
      V.Value = ParamLocs[I]->clone();
      V.Type = ParamTypes[I];
      return std::move(V);
    }
  std::string Known = join(ParamNames, ", ");
  return errorAt(E.NameRange,
                 "'" + Spec.Place.Symbol + "' has no parameter '" + E.Name +
                     "' in BTF" + didYouMean(E.Name, ParamNames) +
                     (Known.empty() ? " (it has none)"
                                    : " (parameters: " + Known + ")"));
}

/// `$argN`: the Nth parameter.
Expected<Val> BtfWalk::evalArgN(const SpecExpr &E) {
  if (Error Err = checkArgPlace(Spec, E))
    return std::move(Err);
  if (E.Number < 1 || size_t(E.Number) > ParamLocs.size() ||
      !ParamLocs[E.Number - 1])
    return errorAt(E.Range, "'" + Spec.Place.Symbol + "' has " +
                                Twine(ParamLocs.size()) +
                                " parameters in BTF, no '$arg" +
                                Twine(E.Number) + "'");
  Val V;
  V.Value = ParamLocs[E.Number - 1]->clone();
  V.Type = ParamTypes[E.Number - 1];
  return std::move(V);
}

/// `$retval`: in fexit's slot, or where the calling convention returns it.
Expected<Val> BtfWalk::evalRetVal(const SpecExpr &E) {
  if (Error Err = checkRetvalPlace(Spec, E))
    return std::move(Err);
  auto S = scalarOf(Proto->type, E.Range);
  if (!S)
    return S.takeError();
  if (S->Kind == ValueType::Void)
    return errorAt(E.Range, "'" + Spec.Place.Symbol + "' returns void");
  if (isTrampolineProbe(Spec.Kind)) {
    if (S->Size > 8)
      return errorAt(E.Range, "fexit gives a return value of more than 8 "
                              "bytes as raw slots");
    Val V;
    V.Type = Proto->type;
    V.Value = FetchExpr::ctxSlot(RetSlot, /*Ret=*/true);
    return std::move(V);
  }
  auto L = returnValueLocation(*S, ABI, ABI.conv(false), E.Range);
  if (!L)
    return L.takeError();
  Val V;
  V.Type = Proto->type;
  if (L->Kind == ReturnLocation::InMemory)
    V.Addr = std::move(L->Expr);
  else
    V.Value = std::move(L->Expr);
  return std::move(V);
}

/// A register by its name (`%rdi`).
Expected<Val> BtfWalk::evalReg(const SpecExpr &E) {
  if (isTrampolineProbe(Spec.Kind))
    return errorAt(E.Range, "a trampoline program has no registers; name "
                            "the arguments");
  auto R = registerOf(E, ABI);
  if (!R)
    return R.takeError();
  Val V;
  V.Value = FetchExpr::reg(*R);
  return std::move(V);
}

/// `a->b` and `a.b`: a member of a struct or union (a bitfield with its
/// CO-RE access).
Expected<Val> BtfWalk::evalMember(const SpecExpr &E) {
  auto Base = eval(*E.Base);
  if (!Base)
    return Base.takeError();
  bool Arrow = E.Kind == SpecExpr::Arrow;
  uint32_t BT = strip(Base->Type);
  const struct btf_type *Ty = type(BT);
  std::unique_ptr<FetchExpr> StructAddr;
  uint32_t StructId = 0;
  if (Arrow) {
    if (!Ty || !btf_is_ptr(Ty))
      return errorAt(E.Range, "'" + text(E.Base->Range) + "' is a '" +
                                  typeName(Base->Type) +
                                  "', not a pointer: use '.'");
    StructId = strip(Ty->type);
    auto P = load(std::move(*Base), *E.Base);
    if (!P)
      return P.takeError();
    StructAddr = std::move(*P);
  } else {
    if (Ty && btf_is_ptr(Ty))
      return errorAt(E.Range, "'" + text(E.Base->Range) + "' is a "
                              "pointer: use '->'");
    if (!Base->Addr)
      return errorAt(E.Range, "'" + text(E.Base->Range) + "' is not in "
                              "memory here");
    StructId = BT;
    StructAddr = std::move(Base->Addr);
  }
  const struct btf_type *ST = type(StructId);
  if (ST && btf_is_fwd(ST))
    return errorAt(E.NameRange,
                   "BTF has no definition of '" + typeName(StructId) +
                       "' (only a declaration): probe with DWARF");
  if (!ST || !(btf_is_struct(ST) || btf_is_union(ST)))
    return errorAt(E.Range, "'" + text(E.Base->Range) + "' is a '" +
                                typeName(Base->Type) + "', not " +
                                (Arrow ? "a pointer to " : "") +
                                "a struct or union");
  uint32_t Off = 0, MT = 0;
  unsigned Bits = 0;
  std::vector<MemberStep> Path;
  if (!findMember(StructId, E.Name, Off, MT, Bits, &Path)) {
    std::vector<std::string> Names;
    memberNames(StructId, Names);
    return errorAt(E.NameRange, "'" + typeName(StructId) +
                                    "' has no member '" + E.Name + "'" +
                                    didYouMean(E.Name, Names));
  }
  Val V;
  V.Type = MT;
  if (Bits) {
    V.Addr = std::move(StructAddr);
    V.BitOffset = Off;
    V.BitSize = Bits;
    // Its own access from the containing named structure: libbpf
    // relocates a bitfield's storage offset, size and shifts.
    std::string Container = coreType(StructId), Steps;
    for (const MemberStep &M : Path) {
      std::string T = coreType(M.Type);
      if (T.empty()) {
        Container.clear();
        break;
      }
      Steps += "/" + M.Name + "@" + std::to_string(M.BitOffset) + ":" + T;
    }
    if (Container.size() > 1 && Container[1] != '#')
      V.BitCore = Container + Steps + "!" + std::to_string(Bits);
  } else {
    V.Addr = memberAddress(std::move(StructAddr), StructId, Off, Path);
  }
  return std::move(V);
}

/// `a[i]` and `*a`: an element of an array or what a pointer points to.
Expected<Val> BtfWalk::evalElement(const SpecExpr &E) {
  auto Base = eval(*E.Base);
  if (!Base)
    return Base.takeError();
  uint32_t BT = strip(Base->Type);
  const struct btf_type *Ty = type(BT);
  std::unique_ptr<FetchExpr> Start;
  uint32_t Elem = 0;
  if (Ty && btf_is_array(Ty) && Base->Addr) {
    Elem = btf_array(Ty)->type;
    uint32_t N = btf_array(Ty)->nelems;
    if (E.Kind == SpecExpr::Index && N && (E.Number < 0 || E.Number >= N))
      return errorAt(E.NameRange, "index " + Twine(E.Number) +
                                      " is outside '" + typeName(BT) + "'");
    Start = std::move(Base->Addr);
  } else if (Ty && btf_is_ptr(Ty)) {
    Elem = Ty->type;
    auto P = load(std::move(*Base), *E.Base);
    if (!P)
      return P.takeError();
    Start = std::move(*P);
  } else {
    return errorAt(E.Range, "'" + text(E.Base->Range) + "' is a '" +
                                typeName(Base->Type) +
                                "', not a pointer or array");
  }
  int64_t ESize = 0;
  if (E.Kind == SpecExpr::Index) {
    ESize = btf__resolve_size(T, Elem);
    if (ESize <= 0)
      return errorAt(E.Range, "the elements of '" + text(E.Base->Range) +
                                  "' have no size in BTF");
  }
  Val V;
  V.Type = Elem;
  if (E.Kind == SpecExpr::Index && Start->Kind == FetchExpr::Add &&
      !Start->Core.empty() && StringRef(Start->Core).ends_with(
                                  ":" + coreType(BT))) {
    // An element of an array member: the index is a step of the
    // member's access (libbpf scales it by the kernel's element size).
    Start->Core += "/[" + std::to_string(E.Number);
    Start->Value += E.Number * ESize;
    V.Addr = std::move(Start);
    return std::move(V);
  }
  V.Addr = E.Kind == SpecExpr::Index
               ? FetchExpr::add(std::move(Start), E.Number * ESize)
               : std::move(Start);
  return std::move(V);
}

Expected<Val> BtfWalk::eval(const SpecExpr &E) {
  switch (E.Kind) {
  case SpecExpr::Ident:
    return evalParam(E);
  case SpecExpr::ArgN:
    return evalArgN(E);
  case SpecExpr::RetVal:
    return evalRetVal(E);
  case SpecExpr::Reg:
    return evalReg(E);
  case SpecExpr::Global:
    return errorAt(E.Range, "globals ('@" + E.Name + "') have no address in "
                            "BTF; probe with DWARF");
  case SpecExpr::Arrow:
  case SpecExpr::Dot:
    return evalMember(E);
  case SpecExpr::Index:
  case SpecExpr::Deref:
    return evalElement(E);
  case SpecExpr::Method:
    return errorAt(E.NameRange, "'" + E.Name + "()' reads a C++ or Rust "
                                "library layout, which only DWARF describes; "
                                "probe with DWARF");
  }
  return errorAt(E.Range, "unsupported expression");
}

Expected<ArgPlan> BtfWalk::arg(const ProbeArg &Arg) {
  ArgPlan P;
  P.Text = Arg.Text;
  P.Name = Arg.Text;
  if (Arg.Form == ProbeArg::CType || !Arg.Expr)
    return errorAt(Arg.Range, "a type list is resolved by the calling "
                              "convention, not BTF");
  const SpecExpr &E = *Arg.Expr;
  auto V = eval(E);
  if (!V)
    return V.takeError();
  const std::optional<ValueType> &FT = Arg.FetchType;
  uint32_t S = strip(V->Type);
  const struct btf_type *Ty = type(S);
  P.CType = typeName(V->Type);

  if (FT && FT->Kind == ValueType::String) {
    std::unique_ptr<FetchExpr> Addr;
    auto IsByte = [&](uint32_t Id) {
      const struct btf_type *ET = type(strip(Id));
      return !ET || (btf_is_int(ET) && ET->size == 1);
    };
    if (Ty && btf_is_array(Ty) && V->Addr && IsByte(btf_array(Ty)->type)) {
      Addr = std::move(V->Addr);
    } else if (!Ty || (btf_is_ptr(Ty) && IsByte(Ty->type))) {
      auto L = load(std::move(*V), E);
      if (!L)
        return L.takeError();
      Addr = std::move(*L);
    } else {
      return errorAt(Arg.FetchTypeRange,
                     "':" + FT->Text + "' needs a pointer to char or a "
                     "char array; '" + text(E.Range) + "' is a '" +
                         P.CType + "'");
    }
    P.Expr = std::move(Addr);
    P.Type.Kind = ValueType::String;
    P.Type.Size = StringFetchSize;
    P.UserString = Arg.FetchUserString;
    return std::move(P);
  }

  bool Aggregate = Ty && (btf_is_struct(Ty) || btf_is_union(Ty) ||
                          btf_is_array(Ty));
  if (Aggregate) {
    if (FT)
      return errorAt(Arg.FetchTypeRange,
                     "'" + text(E.Range) + "' is a '" + P.CType +
                         "', not a scalar: fetch one of its members or "
                         "elements, or leave out ':" + FT->Text +
                         "' to copy it whole");
    if (!V->Addr)
      return errorAt(E.Range, "'" + text(E.Range) + "' is not in memory");
    int64_t Size = btf__resolve_size(T, S);
    if (Size <= 0 || Size > PrologueStackBudget)
      return errorAt(E.Range, "'" + text(E.Range) + "' ('" + P.CType +
                                  "', " + Twine(Size) + " bytes) is too "
                                  "large to copy to the BPF stack");
    P.Expr = FetchExpr::deref(std::move(V->Addr), unsigned(Size));
    P.Type.Kind = ValueType::Aggregate;
    P.Type.Size = unsigned(Size);
    return std::move(P);
  }
  if (Ty && btf_is_fwd(Ty))
    return errorAt(E.Range, "BTF has no definition of '" + P.CType + "'");

  ValueType VT;
  if (FT) {
    VT.Kind = FT->Kind; // Int, or Pointer for hex
    VT.Size = FT->Size;
    VT.Signed = FT->Signed;
    P.CType = FT->Text;
  } else if (!Ty) {
    if (E.Kind != SpecExpr::Reg)
      return errorAt(E.Range, "'" + text(E.Range) + "' has no type (void); "
                              "give one, e.g. ':u64'");
    VT.Kind = ValueType::Int;
    VT.Size = ABI.reg(ABI.findReg(E.Name)).Size;
  } else {
    auto Sc = scalarOf(V->Type, E.Range);
    if (!Sc)
      return Sc.takeError();
    auto X = fetchedType(*Sc, ABI, E.Range);
    if (!X)
      return X.takeError();
    VT = *X;
  }
  if (FT && V->Addr && !V->BitSize) {
    // An explicit type says how many bytes to read, as kprobe_events does.
    P.Expr = FetchExpr::deref(std::move(V->Addr), VT.Size);
    P.Type = VT;
    return std::move(P);
  }
  auto L = load(std::move(*V), E);
  if (!L)
    return L.takeError();
  P.Expr = std::move(*L);
  P.Type = VT;
  return std::move(P);
}

Error BtfWalk::findFunction() {
  StringRef Fn = Spec.Place.Symbol;
  int Id = btf__find_by_name_kind(T, Fn.str().c_str(), BTF_KIND_FUNC);
  if (Id <= 0) {
    std::vector<std::string> Funcs;
    for (uint32_t I = 1, N = btf__type_cnt(T); I < N; ++I) {
      const struct btf_type *Ty = btf__type_by_id(T, I);
      if (btf_is_func(Ty)) {
        StringRef Nm = name(Ty->name_off);
        // Cheap filter before the edit distance over ~60000 names.
        if (Nm.size() + 3 >= Fn.size() && Nm.size() <= Fn.size() + 3)
          Funcs.push_back(Nm.str());
      }
    }
    std::string Guess = closest(Fn, Funcs);
    return errorAt(Spec.Place.SymbolRange,
                   "function '" + Fn + "' is not in the BTF of " + B.path() +
                       (Guess.empty() ? "" : "; did you mean '" + Guess +
                                                 "'? If not, it") +
                       (Guess.empty() ? " (" : " may be ") +
                       "static or inlined, which BTF leaves out" +
                       (Guess.empty() ? ")" : "") + ": use DWARF: ",
                   Hint{Hint::DebugInfoPath, "", ""});
  }
  Proto = type(type(Id)->type);
  if (!Proto || !btf_is_func_proto(Proto))
    return errorAt(Spec.Place.SymbolRange,
                   "BTF describes '" + Fn + "' without a prototype");
  std::vector<ValueType> Types;
  const struct btf_param *Par = btf_params(Proto);
  unsigned N = btf_vlen(Proto);
  bool NeedLocations = false;
  for (const ProbeArg &A : Spec.Args)
    NeedLocations |= A.Expr && !isReturnProbe(Spec.Kind);
  for (unsigned I = 0; I < N; ++I, ++Par) {
    if (!Par->type && I + 1 == N)
      break; // variadic
    ParamNames.push_back(name(Par->name_off).str());
    ParamTypes.push_back(Par->type);
  }
  if (!NeedLocations && !isTrampolineProbe(Spec.Kind))
    return Error::success();
  if (isTrampolineProbe(Spec.Kind)) {
    // The trampoline's context: each argument in 64-bit slots (a structure
    // of up to 16 bytes by value takes two, as the kernel's
    // btf_distill_func_proto counts), then fexit's return value.
    unsigned Slot = 0;
    for (uint32_t T : ParamTypes) {
      int64_t Size = btf__resolve_size(this->T, T);
      const struct btf_type *PT = type(strip(T));
      bool Scalar = PT && (btf_is_int(PT) || btf_is_ptr(PT) ||
                           btf_is_any_enum(PT)) && Size > 0 && Size <= 8;
      ParamLocs.push_back(Scalar ? FetchExpr::ctxSlot(Slot) : nullptr);
      Slot += Size > 8 ? 2 : 1;
    }
    RetSlot = Slot;
    return Error::success();
  }
  // Parameters after one that cannot be placed (a structure by value)
  // are not placed either; asking for them says why.
  std::vector<TextRange> Ranges(ParamTypes.size(), Spec.Place.SymbolRange);
  for (size_t I = 0; I < ParamTypes.size(); ++I) {
    auto S = scalarOf(ParamTypes[I], Spec.Place.SymbolRange);
    if (!S) {
      Error Why = S.takeError();
      // Only a problem for the parameters at and after it.
      bool Used = false;
      for (const ProbeArg &A : Spec.Args) {
        const SpecExpr *X = A.Expr.get();
        while (X && X->Base)
          X = X->Base.get();
        if (!X)
          continue;
        for (size_t J = I; J < ParamNames.size(); ++J)
          Used |= (X->Kind == SpecExpr::Ident && X->Name == ParamNames[J]) ||
                  (X->Kind == SpecExpr::ArgN && size_t(X->Number) == J + 1);
      }
      if (Used)
        return Why;
      consumeError(std::move(Why));
      ParamNames.resize(I);
      ParamTypes.resize(I);
      Types.resize(I);
      break;
    }
    Types.push_back(*S);
  }
  Ranges.resize(Types.size());
  auto Locs = entryArgumentLocations(Types, ABI, ABI.conv(false), Ranges);
  if (!Locs)
    return Locs.takeError();
  ParamLocs = std::move(*Locs);
  return Error::success();
}

Expected<SitePlan> BtfWalk::run() {
  SitePlan Site = sitePlanAtSymbol(Spec, ABI, "btf");
  if (isUserProbe(Spec.Kind))
    return errorAt(Spec.KindRange, "BTF describes the kernel; user probes "
                                   "need DWARF");
  if (Spec.Place.Form != ProbePlace::SymbolOffset)
    return errorAt(Spec.Place.SymbolRange,
                   "BTF has no line table: source-line probes need DWARF: ",
                   Hint{Hint::DebugInfoPath, "", ""});
  if (Spec.Place.Offset && !isReturnProbe(Spec.Kind))
    return errorAt(Spec.Place.SymbolRange,
                   "BTF knows parameters at the function's entry only, not "
                   "at " + Spec.Place.Symbol + "+" +
                       Twine(Spec.Place.Offset) + ": use DWARF: ",
                   Hint{Hint::DebugInfoPath, "", ""});
  if (Error E = findFunction())
    return std::move(E);
  for (const ProbeArg &A : Spec.Args) {
    auto P = arg(A);
    if (!P)
      return P.takeError();
    Site.Args.push_back(std::move(*P));
  }
  if (Error E = checkStackBudget(Site, Spec))
    return std::move(E);
  return std::move(Site);
}

} // namespace

Expected<SitePlan> resolveWithBtf(const ProbeSpec &Spec, const BtfTypes &BTF,
                                  const ArchABI &ABI) {
  return BtfWalk(Spec, BTF, ABI).run();
}

} // namespace bpfprobe
