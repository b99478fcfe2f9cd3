//===- DwarfResolver.cpp - Probes resolved through DWARF ----------------===//
//
/// \file
/// From `uprobe/./srv:handle+0x4a(req->hdr.len, *cursor, items[3].id)` to
/// fetch plans:
///  1. the place becomes addresses: a symbol plus an offset that must be an
///     instruction boundary, or the line table's addresses that begin a
///     line, one site per inlined copy (or out-of-line instance);
///  2. at each address, the scopes: the innermost inlined subroutine (or
///     the subprogram) and the lexical blocks inside it that contain the
///     PC, innermost first, then the compilation unit's globals;
///  3. each name's location at the PC (location lists, DW_AT_const_value)
///     is evaluated symbolically (DwarfLocation.cpp);
///  4. `->`, `.`, `[i]` and `*` walk the type graph (DwarfTypes.cpp);
///  5. the final value is read with its exact size and signedness, or
///     copied if it is a string or an aggregate.
/// Only CUs that contain the probe's address (or, for file:line, whose line
/// tables name the file) are parsed.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfResolver.h"
#include "Resolve/SourceNames.h"
#include "Resolve/DwarfInternal.h"
#include "Resolve/InstructionBoundary.h"
#include "Resolve/Resolver.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/Object/ELFObjectFile.h"

#include <cstring>
#include <map>
#include <set>

using namespace llvm;

namespace bpfprobe {
namespace {

/// A value with no location at one site (its copy of an inlined function
/// dropped it), or a local name that site's scope does not have: other
/// sites of the probe may still have it.
class NotHereError : public ErrorInfo<NotHereError, ResolveError> {
public:
  static char ID;
  using ErrorInfo::ErrorInfo;
};
char NotHereError::ID = 0;

Error notHereAt(TextRange R, const Twine &Msg) {
  return make_error<NotHereError>(R, Msg.str());
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// Closest candidate by edit distance, if close enough to suggest.
std::optional<std::string> didYouMean(StringRef Name,
                                      ArrayRef<std::string> Candidates) {
  std::optional<std::string> Best;
  unsigned BestDist = std::max<unsigned>(1, Name.size() / 3) + 1;
  for (const std::string &C : Candidates) {
    unsigned D = Name.edit_distance(C, true, BestDist);
    if (D < BestDist && D < Name.size()) {
      BestDist = D;
      Best = C;
    }
  }
  return Best;
}

std::string joinNames(ArrayRef<std::string> Names) {
  std::set<std::string> Sorted(Names.begin(), Names.end());
  std::string S;
  for (const std::string &N : Sorted) {
    if (!S.empty())
      S += ", ";
    S += N;
  }
  return S.empty() ? "none" : S;
}

/// DW_AT_decl_file of D (or of its abstract origin or specification) as
/// an absolute path, "" if none. DWARFDie::getDeclFile() returns "" in LLVM
/// 19 when the file is a DW_FORM_implicit_const (gcc's DWARF 5 does that):
/// the form value carries no unit to find the line table by.
std::string declFile(DWARFDie D) {
  constexpr auto Abs = DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath;
  std::string Path = D.getDeclFile(Abs);
  for (unsigned Depth = 0; Path.empty() && D && Depth < 8; ++Depth) {
    if (auto V = D.find(dwarf::DW_AT_decl_file)) {
      DWARFUnit *U = D.getDwarfUnit();
      const DWARFDebugLine::LineTable *LT =
          U ? U->getContext().getLineTableForUnit(U) : nullptr;
      if (auto Idx = V->getAsUnsignedConstant(); Idx && LT)
        LT->getFileNameByIndex(*Idx, U->getCompilationDir(), Abs, Path);
      break;
    }
    DWARFDie Next =
        D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
    D = Next ? Next
             : D.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
  }
  return Path;
}

bool isVariableTag(dwarf::Tag T) {
  return T == dwarf::DW_TAG_variable || T == dwarf::DW_TAG_formal_parameter;
}

/// The scalar leaves of a DWARF type at Base, as TypeLayout lays them out
/// for calling conventions (at most a few hundred; deeper nesting is cut).
void collectLeaves(DWARFDie T, unsigned Base, unsigned PointerSize,
                   bool InUnion, unsigned Depth,
                   std::vector<LayoutLeaf> &Out) {
  T = stripTypedefs(T);
  if (!T || Depth > 16 || Out.size() > 256)
    return;
  switch (T.getTag()) {
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_class_type:
  case dwarf::DW_TAG_union_type: {
    bool Union = T.getTag() == dwarf::DW_TAG_union_type;
    for (DWARFDie M : T.children()) {
      if (M.getTag() != dwarf::DW_TAG_member)
        continue;
      uint64_t Off = dwarf::toUnsigned(
                         M.find(dwarf::DW_AT_data_member_location))
                         .value_or(0);
      collectLeaves(typeOf(M), Base + Off, PointerSize, InUnion || Union,
                    Depth + 1, Out);
    }
    return;
  }
  case dwarf::DW_TAG_array_type: {
    DWARFDie Elem = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    auto ES = typeSize(Elem, PointerSize);
    auto TS = typeSize(T, PointerSize);
    if (!ES || !*ES || !TS)
      return;
    for (uint64_t I = 0; I < *TS / *ES && Out.size() <= 256; ++I)
      collectLeaves(Elem, Base + I * *ES, PointerSize, InUnion, Depth + 1,
                    Out);
    return;
  }
  default: {
    LayoutLeaf L;
    L.Offset = Base;
    L.Size = typeSize(T, PointerSize).value_or(0);
    auto Enc = dwarf::toUnsigned(T.find(dwarf::DW_AT_encoding));
    L.IsFloat = T.getTag() == dwarf::DW_TAG_base_type && Enc &&
                (*Enc == dwarf::DW_ATE_float ||
                 *Enc == dwarf::DW_ATE_complex_float);
    L.InUnion = InUnion;
    L.Direct = Depth == 1;
    Out.push_back(L);
    return;
  }
  }
}

/// A DWARF type as calling conventions see it (Resolver.h's ValueType),
/// so that the DWARF resolver asks the same questions of the one
/// implementation of $retval as the calling-convention resolver.
ValueType scalarTypeOfDie(DWARFDie Type, unsigned PointerSize) {
  ValueType S;
  S.Text = typeName(Type);
  DWARFDie T = stripTypedefs(Type);
  if (!T) {
    S.Kind = ValueType::Void;
    return S;
  }
  S.Size = typeSize(T, PointerSize).value_or(0);
  switch (T.getTag()) {
  case dwarf::DW_TAG_pointer_type:
  case dwarf::DW_TAG_reference_type:
  case dwarf::DW_TAG_rvalue_reference_type:
    S.Kind = ValueType::Pointer;
    S.Size = PointerSize;
    return S;
  case dwarf::DW_TAG_enumeration_type:
    S.Kind = ValueType::Int;
    return S;
  case dwarf::DW_TAG_base_type: {
    auto Enc = dwarf::toUnsigned(T.find(dwarf::DW_AT_encoding)).value_or(0);
    if (Enc == dwarf::DW_ATE_float || Enc == dwarf::DW_ATE_complex_float)
      S.Kind = ValueType::Float;
    else if (Enc == dwarf::DW_ATE_boolean)
      S.Kind = ValueType::Bool;
    else
      S.Kind = S.Size > 8 ? ValueType::Int128 : ValueType::Int;
    S.Signed = Enc == dwarf::DW_ATE_signed || Enc == dwarf::DW_ATE_signed_char;
    return S;
  }
  default:
    if (isAggregate(T)) {
      S.Kind = ValueType::Aggregate;
      collectLeaves(T, 0, PointerSize, false, 0, S.Leaves);
      return S;
    }
    S.Kind = ValueType::Int;
    return S;
  }
}

/// A function named in the place: its out-of-line code (its ELF symbol,
/// or the gcc clones of a function known by its source name), or every
/// inlined copy of a function that exists only inlined.
struct FunctionPlace {
  std::string Name;
  std::vector<ElfSymbol> Syms;
  std::vector<DWARFDie> Copies; ///< DW_TAG_inlined_subroutine
  DWARFDie Decl;                ///< has its declaration line and file
  std::vector<std::pair<uint64_t, uint64_t>> Ranges; ///< [begin, end)

  /// Adds the address ranges of every inlined copy to Ranges.
  void addCopyRanges() {
    for (DWARFDie C : Copies) {
      auto R = C.getAddressRanges();
      if (!R) {
        consumeError(R.takeError());
        continue;
      }
      for (const DWARFAddressRange &AR : *R)
        if (AR.HighPC > AR.LowPC)
          Ranges.push_back({AR.LowPC, AR.HighPC});
    }
  }

  bool contains(uint64_t A) const {
    return llvm::any_of(Ranges, [&](const std::pair<uint64_t, uint64_t> &R) {
      return A >= R.first && A < R.second;
    });
  }
};

/// Whose names a site sees: the function the place named (by name or by
/// one of its lines), not an inlined callee whose code is at the address.
struct ScopeOwner {
  std::string Function; ///< source name, when the place names a function
  std::string File;     ///< file:line places: the line named
  unsigned Line = 0;
};

static std::string qualifiedDieName(DWARFDie D);

/// The DW_AT_name of the function a place names: a qualified source
/// name's last component.
std::string ownerName(const ProbePlace &P) {
  return P.SourceName ? lastNameComponent(P.Symbol).str() : P.Symbol;
}

/// gcc's clone suffixes (.constprop.N, .isra.N, .part.N, chained): the
/// clone is the same source function; ".cold" parts are not entries.
bool isCloneOf(StringRef Sym, StringRef Name) {
  if (!Sym.consume_front(Name) || Sym.empty() || Sym.front() != '.')
    return false;
  SmallVector<StringRef, 6> Parts;
  Sym.drop_front().split(Parts, '.');
  if (Parts.size() % 2)
    return false;
  for (size_t I = 0; I < Parts.size(); I += 2) {
    if (Parts[I] != "constprop" && Parts[I] != "isra" && Parts[I] != "part")
      return false;
    unsigned N;
    if (Parts[I + 1].getAsInteger(10, N))
      return false;
  }
  return true;
}

/// Where a copy of an inlined function starts: DW_AT_entry_pc, else its
/// lowest address.
std::optional<uint64_t> entryOf(DWARFDie D) {
  if (auto E = dwarf::toAddress(D.find(dwarf::DW_AT_entry_pc)))
    return *E;
  auto R = D.getAddressRanges();
  if (!R) {
    consumeError(R.takeError());
    return std::nullopt;
  }
  std::optional<uint64_t> Low;
  for (const DWARFAddressRange &AR : *R)
    if (AR.HighPC > AR.LowPC && (!Low || AR.LowPC < *Low))
      Low = AR.LowPC;
  return Low;
}

/// The out-of-line subprogram whose code holds Address (not an inlined
/// callee whose code starts there, which getSubroutineForAddress gives):
/// its declaration line is the base of `f:N`.
DWARFDie subprogramAt(DWARFUnit *U, uint64_t Address) {
  SmallVector<DWARFDie, 4> Chain;
  if (U)
    U->getInlinedChainForAddress(Address, Chain);
  return Chain.empty() ? DWARFDie() : Chain.back();
}

bool sameFile(StringRef Path, StringRef File) {
  return Path == File || Path.ends_with(("/" + File).str());
}

/// One address the probe fires at, with what DWARF says is around it.
struct Site {
  uint64_t Address = 0;
  ElfSymbol Sym;
  uint64_t Offset = 0;
  DWARFUnit *Unit = nullptr;
  /// Innermost first: lexical blocks of the innermost function, then the
  /// function (an inlined subroutine or the subprogram), then the same for
  /// each caller it is inlined into, out to the subprogram.
  std::vector<DWARFDie> Scopes;
  /// The scopes whose names a local name is looked up in, in order: the
  /// owner function's blocks and the function (Scopes' first part), then
  /// the inlined callees whose code is at the address (the frame gdb
  /// stops in there: a name only they have is theirs), then the
  /// functions the owner is inlined into.
  std::vector<DWARFDie> LookupOrder;
  DWARFDie Function;    ///< innermost inlined subroutine or subprogram
  DWARFDie Subprogram;  ///< the concrete subprogram (frame base)
  std::string Where;    ///< "handle+0x4a", for messages

  std::string offsetText(uint64_t A) const {
    return Sym.Name + "+" + hex(A - Sym.Address);
  }
};

/// A string as a pointer to its characters and a byte count.
struct CountedString {
  std::unique_ptr<FetchExpr> Chars;
  std::unique_ptr<FetchExpr> Length;
};

/// Whether T (typedefs stripped) is a string bpfprobe reads as characters
/// and a length: std::string, std::string_view (libstdc++, libc++), Rust
/// &str and String.
static bool isCountedString(DWARFDie T, DWARFDie Complete) {
  std::string Std = stdClassName(Complete);
  if (Std == "basic_string" || Std == "basic_string_view")
    return true;
  return T && T.getTag() == dwarf::DW_TAG_structure_type && T.getShortName() &&
         (StringRef(T.getShortName()) == "&str" ||
          StringRef(T.getShortName()) == "String");
}

/// The member holding the element count of a Rust Vec<T> ("len") or slice
/// &[T] / &mut [T] ("length"), by the names rustc's debug info gives them;
/// null for other types.
static const char *rustLengthMember(DWARFDie Rec) {
  if (!Rec || Rec.getTag() != dwarf::DW_TAG_structure_type ||
      !Rec.getShortName())
    return nullptr;
  DWARFUnit *U = Rec.getDwarfUnit();
  auto Lang = U ? U->getUnitDIE().find(dwarf::DW_AT_language) : std::nullopt;
  if (!Lang || Lang->getAsUnsignedConstant() != dwarf::DW_LANG_Rust)
    return nullptr;
  StringRef Name = Rec.getShortName();
  auto InNamespace = [](DWARFDie D, StringRef Name) {
    return D && D.getTag() == dwarf::DW_TAG_namespace && D.getShortName() &&
           StringRef(D.getShortName()) == Name;
  };
  DWARFDie Parent = Rec.getParent();
  if (Name.starts_with("Vec<") && InNamespace(Parent, "vec") &&
      InNamespace(Parent.getParent(), "alloc"))
    return "len";
  if (Name.starts_with("&[") || Name.starts_with("&mut ["))
    return "length";
  return nullptr;
}

class DwarfResolver {
public:
  DwarfResolver(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI)
      : Spec(Spec), DI(DI), ABI(ABI) {}

  Expected<std::vector<Site>> sites();
  Expected<SitePlan> plan(const Site &S);
  Error addEntryProgram(const Site &S, SitePlan &Plan);
  std::vector<VisibleVariable> visible(const Site &S);

private:
  const ProbeSpec &Spec;
  DebugInfo &DI;
  const ArchABI &ABI;
  std::unique_ptr<DWARFContext> TargetFrames;

  std::string text(TextRange R) const {
    return Spec.Text.substr(R.Begin, R.End - R.Begin);
  }
  bool isPIE() const {
    if (const auto *E = dyn_cast<object::ELFObjectFileBase>(&DI.targetObject()))
      return E->getEType() == ELF::ET_DYN;
    return false;
  }

  Expected<FunctionPlace> findFunction(StringRef Name, TextRange R);
  std::vector<DWARFDie> inlinedCopies(StringRef Name, DWARFDie &Abstract);
  Expected<std::vector<uint64_t>> lineAddresses(StringRef File, unsigned Line,
                                                const FunctionPlace *Within,
                                                TextRange R);
  Error fillSite(Site &S, uint64_t Address, TextRange R,
                 const ScopeOwner &Owner = {});
  Expected<std::vector<Site>> symbolSites();
  Expected<std::vector<Site>> inlinedCopySites(const FunctionPlace &F);
  Expected<Site> cloneSite(const ElfSymbol &Clone);
  Expected<std::vector<Site>> lineSites();
  /// Top-level DIEs of every unit that Accept takes, the unit at Near
  /// first; at most Max.
  std::vector<DWARFDie> findEverywhere(DWARFUnit *Near,
                                       function_ref<bool(DWARFDie)> Accept,
                                       size_t Max = 1, bool OtherUnits = true);
  /// False when no DIE can be named Name: names of 8 or more bytes are
  /// strings of .debug_str (DW_FORM_strp/strx, which both compilers use for
  /// them), so a name absent from it needs no walk through every unit.
  bool mayBeNamed(StringRef Name);
  /// U when its DIEs may be read (DwarfIndex::readable: checked once).
  DWARFUnit *readable(DWARFUnit *U) { return DI.index().readable(U); }
  /// A struct or union declared without members here, defined in another
  /// unit: the definition (found by tag and name, as gdb does); else T.
  DWARFDie completeType(DWARFDie T);
  std::optional<uint64_t> prologueEnd(const ElfSymbol &Sym);

  /// A variable definition (with a location or a constant) at the top of
  /// any unit or in its namespaces that Match takes, the unit Near first.
  DWARFDie findVariableDefinition(DWARFUnit *Near,
                                  function_ref<bool(DWARFDie)> Match);
  /// A global found by the definition D: refused where globals cannot be
  /// read (kernel, PIE return probes), else located. The errors name it
  /// Written (the name as written), or D's qualified name when that is empty.
  Expected<std::pair<Located, DWARFDie>> globalValue(const Site &S, DWARFDie D,
                                                     const SpecExpr &E,
                                                     StringRef Written = {});
  LocationContext locationContext(const Site &S);
  Expected<std::pair<Located, DWARFDie>> lookup(const Site &S,
                                                const SpecExpr &E);
  Expected<std::optional<std::pair<Located, DWARFDie>>>
  lookupLocal(const Site &S, const SpecExpr &E);
  Expected<std::optional<std::pair<Located, DWARFDie>>>
  lookupThisMember(const Site &S, const SpecExpr &E);
  Expected<std::pair<Located, DWARFDie>> lookupQualified(const Site &S,
                                                         const SpecExpr &E);
  Expected<std::optional<std::pair<Located, DWARFDie>>>
  lookupGlobal(const Site &S, const SpecExpr &E);
  Error outOfScopeBlock(const Site &S, const SpecExpr &E);
  Error variableNotFound(const Site &S, const SpecExpr &E);
  Expected<Located> locateVariable(const Site &S, DWARFDie Var,
                                   const SpecExpr &E);
  Expected<std::pair<Located, DWARFDie>> evalExpr(const Site &S,
                                                  const SpecExpr &E,
                                                  unsigned Depth);
  // The steps of evalExpr.
  Expected<std::pair<Located, DWARFDie>> evalArgN(const Site &S,
                                                  const SpecExpr &E);
  Expected<std::pair<Located, DWARFDie>> evalRetVal(const Site &S,
                                                    const SpecExpr &E);
  Error throughReferences(const Site &S, const SpecExpr &E, Located &Loc,
                          DWARFDie &Type, DWARFDie &T);
  Expected<std::pair<Located, DWARFDie>>
  evalDeref(const Site &S, const SpecExpr &E, Located Loc, DWARFDie Type,
            DWARFDie T);
  Expected<std::pair<Located, DWARFDie>>
  evalIndex(const Site &S, const SpecExpr &E, Located Loc, DWARFDie Type,
            DWARFDie T);
  Expected<std::pair<Located, DWARFDie>>
  evalMember(const Site &S, const SpecExpr &E, Located Loc, DWARFDie Type,
             DWARFDie T);
  Expected<std::pair<Located, DWARFDie>>
  evalMethod(const Site &S, const SpecExpr &E, Located Loc, DWARFDie Type,
             DWARFDie T);
  Error memberNotFound(const SpecExpr &E, DWARFDie Record, bool Arrow,
                       StringRef BaseText);
  Expected<std::pair<Located, DWARFDie>>
  staticMember(const Site &S, const SpecExpr &E, DWARFDie Record,
               const MemberInfo &Member);
  Expected<std::pair<Located, DWARFDie>>
  memberOf(const Site &S, const SpecExpr &E, Located Loc, DWARFDie Type,
           const MemberInfo &Member, bool Arrow, StringRef BaseText);
  Expected<std::unique_ptr<FetchExpr>> valueOf(Located L, DWARFDie Type,
                                               const SpecExpr &E);
  Expected<Located> implicitPointee(const Site &S, Located L, int64_t Extra,
                                    const SpecExpr &E);
  Expected<ArgPlan> argPlan(const Site &S, const ProbeArg &Arg);
  Expected<ArgPlan> stringArgPlan(const Site &S, const ProbeArg &Arg,
                                  Located Loc, DWARFDie Type, ArgPlan P);
  Expected<ValueType> argValueType(const ProbeArg &Arg, DWARFDie Type,
                                   ArgPlan &P);
  /// The characters and the length of the string L of type T (a
  /// std::string, std::string_view, Rust &str or String; isCountedString),
  /// found by the member names of libstdc++, libc++ and Rust in the DWARF.
  /// Errors about the layout point at At (the `:string` or the `size`).
  Expected<CountedString> countedString(const Site &S, const Located &L,
                                        DWARFDie T, const SpecExpr &E,
                                        TextRange At);
  Expected<std::unique_ptr<FetchExpr>> aggregateExpr(Located L, unsigned Size,
                                                     const SpecExpr &E);
};

//===----------------------------------------------------------------------===//
// Places
//===----------------------------------------------------------------------===//

std::vector<DWARFDie>
DwarfResolver::findEverywhere(DWARFUnit *Near,
                              function_ref<bool(DWARFDie)> Accept,
                              size_t Max, bool OtherUnits) {
  std::vector<DWARFDie> Out;
  auto Scan = [&](DWARFUnit *U) {
    U = readable(U);
    if (!U || Out.size() >= Max)
      return;
    for (DWARFDie C : U->getUnitDIE(false).children()) {
      if (Accept(C)) {
        Out.push_back(C);
        if (Out.size() >= Max)
          return;
      }
    }
  };
  Scan(Near);
  if (!OtherUnits)
    return Out;
  // The other units, through the context's own unit list (parsed on
  // demand: only look-ups that the probe's unit cannot answer get here).
  uint64_t NearOffset = Near ? Near->getOffset() : ~0ull;
  for (const std::unique_ptr<DWARFUnit> &U : DI.dwarf().info_section_units()) {
    if (Out.size() >= Max)
      break;
    if (U->getOffset() == NearOffset || U->isTypeUnit())
      continue;
    Scan(U.get());
  }
  return Out;
}

bool DwarfResolver::mayBeNamed(StringRef Name) {
  if (Name.size() < 8)
    return true;
  StringRef Str = DI.dwarf().getDWARFObj().getStrSection();
  if (Str.starts_with((Name + Twine('\0')).str()))
    return true;
  return Str.contains((Twine('\0') + Name + Twine('\0')).str());
}

DWARFDie DwarfResolver::completeType(DWARFDie T) {
  DWARFDie S = stripTypedefs(T);
  if (!S || !S.find(dwarf::DW_AT_declaration))
    return T;
  dwarf::Tag Tag = S.getTag();
  if (Tag != dwarf::DW_TAG_structure_type && Tag != dwarf::DW_TAG_union_type &&
      Tag != dwarf::DW_TAG_class_type && Tag != dwarf::DW_TAG_enumeration_type)
    return T;
  const char *Name = S.getShortName();
  if (!Name)
    return T;
  StringRef N(Name);
  if (!mayBeNamed(N))
    return T;
  auto Defs = findEverywhere(S.getDwarfUnit(), [&](DWARFDie C) {
    return C.getTag() == Tag && !C.find(dwarf::DW_AT_declaration) &&
           C.getShortName() && N == C.getShortName() && C.hasChildren();
  });
  return Defs.empty() ? T : Defs.front();
}

std::vector<DWARFDie> DwarfResolver::inlinedCopies(StringRef Name,
                                                   DWARFDie &Abstract) {
  std::vector<DWARFDie> Copies;
  if (!mayBeNamed(Name))
    return Copies;
  auto Abstracts = findEverywhere(
      nullptr,
      [&](DWARFDie C) {
        return C.getTag() == dwarf::DW_TAG_subprogram &&
               C.find(dwarf::DW_AT_inline) && C.getShortName() &&
               Name == C.getShortName();
      },
      64);
  for (DWARFDie A : Abstracts) {
    if (!Abstract)
      Abstract = A;
    DWARFUnit *U = A.getDwarfUnit();
    for (const DWARFDebugInfoEntry &E : U->dies()) {
      DWARFDie D(U, &E);
      if (D.getTag() != dwarf::DW_TAG_inlined_subroutine)
        continue;
      DWARFDie O =
          D.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
      if (O && O.getOffset() == A.getOffset())
        Copies.push_back(D);
    }
  }
  return Copies;
}

Expected<FunctionPlace> DwarfResolver::findFunction(StringRef Name,
                                                    TextRange R) {
  FunctionPlace F;
  F.Name = Name.str();
  std::vector<ElfSymbol> Syms;
  if (Spec.Place.SourceName) {
    // A C++/Rust source name: matched on the demangled symbols
    // (SourceNames.cpp), every entry of the one function it names.
    auto Found = findSourceFunction(Spec.Place, DI.functionSymbols(),
                                    DI.targetPath(), /*MustMatch=*/false);
    if (!Found)
      return Found.takeError();
    Syms = std::move(*Found);
    if (Syms.empty() && !Spec.Place.HasParams) {
      // A function that exists only inlined: its copies whose abstract
      // function's qualified DWARF scope matches the name.
      // The abstract function may be nested in its namespace (clang) or
      // at the top with DW_AT_specification (gcc): every unit's DIEs are
      // walked, and only when .debug_str can hold the name.
      std::string Short = lastNameComponent(Name).str();
      if (mayBeNamed(Short)) {
        for (const std::unique_ptr<DWARFUnit> &Each :
             DI.dwarf().info_section_units()) {
          DWARFUnit *U = readable(Each.get());
          if (!U)
            continue;
          std::set<uint64_t> Abstracts;
          for (const DWARFDebugInfoEntry &E : U->dies()) {
            DWARFDie D(U, &E);
            if (D.getTag() == dwarf::DW_TAG_subprogram &&
                D.find(dwarf::DW_AT_inline) && D.getShortName() &&
                Short == D.getShortName() &&
                sourceNameMatches(Name, qualifiedDieName(D))) {
              Abstracts.insert(D.getOffset());
              if (!F.Decl)
                F.Decl = D;
            }
          }
          if (Abstracts.empty())
            continue;
          for (const DWARFDebugInfoEntry &E : U->dies()) {
            DWARFDie D(U, &E);
            if (D.getTag() != dwarf::DW_TAG_inlined_subroutine)
              continue;
            DWARFDie O = D.getAttributeValueAsReferencedDie(
                dwarf::DW_AT_abstract_origin);
            if (O && Abstracts.count(O.getOffset()))
              F.Copies.push_back(D);
          }
        }
      }
      F.addCopyRanges();
      if (!F.Copies.empty())
        return std::move(F);
    }
    if (Syms.empty()) {
      auto Err = findSourceFunction(Spec.Place, DI.functionSymbols(),
                                    DI.targetPath(), /*MustMatch=*/true);
      if (!Err)
        return Err.takeError();
    }
  } else {
    Syms = DI.findSymbol(Name);
  }
  llvm::erase_if(Syms, [](const ElfSymbol &S) { return !S.IsFunction; });
  if (Syms.size() > 1 && !Spec.Place.SourceName)
    return errorAt(R, "'" + Name + "' names " + Twine(Syms.size()) +
                          " functions in " + DI.targetPath() +
                          "; name the place by FILE:LINE instead");
  if (Syms.empty()) {
    // gcc's clones of the function (f.constprop.0, f.isra.0, f.part.0):
    // each is the function, as gdb's `break f` finds them all.
    for (const std::string &N : DI.functionNames())
      if (isCloneOf(N, Name))
        for (const ElfSymbol &S : DI.findSymbol(N))
          if (S.IsFunction)
            Syms.push_back(S);
    llvm::sort(Syms, [](const ElfSymbol &A, const ElfSymbol &B) {
      return A.Address < B.Address;
    });
  }
  if (Syms.empty() && Name == Spec.Place.Symbol) {
    // A plain name that is a C++ function's last component (`twice` of
    // `shop::twice<int>`), as gdb's `break twice` finds it.
    auto Found = findSourceFunction(Spec.Place, DI.functionSymbols(),
                                    DI.targetPath(), /*MustMatch=*/false);
    if (!Found)
      return Found.takeError();
    Syms = std::move(*Found);
  }
  for (const ElfSymbol &S : Syms) {
    F.Syms.push_back(S);
    F.Ranges.push_back({S.Address, S.Address + std::max<uint64_t>(S.Size, 1)});
    if (!F.Decl)
      F.Decl = subprogramAt(DI.unitAt(S.Address), S.Address);
  }
  if (!F.Syms.empty())
    return std::move(F);
  // A function that exists only inlined: every copy (perf probe's
  // behaviour, and gdb's `break f`).
  F.Copies = inlinedCopies(Name, F.Decl);
  F.addCopyRanges();
  if (!F.Copies.empty())
    return std::move(F);
  if (F.Decl)
    return errorAt(R, "'" + Name + "' is inlined everywhere and no copy of "
                          "it has code in " + DI.targetPath());
  std::vector<std::string> Names = DI.functionNames();
  std::string Msg = "no function '" + Name.str() + "' in " + DI.targetPath();
  if (auto Best = didYouMean(Name, Names))
    Msg += "; did you mean '" + *Best + "'?";
  return errorAt(R, Msg);
}

/// The innermost block (lexical block, inlined subroutine or subprogram)
/// that contains Address in U, as gdb's block_for_pc finds it.
static DWARFDie innermostBlock(DWARFUnit *U, uint64_t Address) {
  SmallVector<DWARFDie, 4> Chain;
  U->getInlinedChainForAddress(Address, Chain);
  if (Chain.empty())
    return DWARFDie();
  DWARFDie B = Chain.front();
  for (bool Deeper = true; Deeper;) {
    Deeper = false;
    for (DWARFDie C : B.children())
      if (C.getTag() == dwarf::DW_TAG_lexical_block &&
          C.addressRangeContainsAddress(Address)) {
        B = C;
        Deeper = true;
        break;
      }
  }
  return B;
}

/// The first row marked DW_LNS_set_prologue_end in the function [Start,
/// End), as gdb 13 skips a prologue first.
static std::optional<uint64_t>
markedPrologueEnd(const DWARFDebugLine::LineTable &LT, uint64_t Start,
                  uint64_t End) {
  for (const DWARFDebugLine::Row &Row : LT.Rows)
    if (!Row.EndSequence && Row.PrologueEnd && Row.Address.Address >= Start &&
        Row.Address.Address < End)
      return Row.Address.Address;
  return std::nullopt;
}

Expected<std::vector<uint64_t>>
DwarfResolver::lineAddresses(StringRef File, unsigned Line,
                             const FunctionPlace *Within, TextRange R) {
  DWARFContext &Ctx = DI.dwarf();
  // With a function, only the units of its code; otherwise every unit
  // whose line table names the file.
  std::vector<DWARFUnit *> Units;
  if (Within) {
    for (const auto &Range : Within->Ranges)
      if (DWARFUnit *U = DI.unitAt(Range.first))
        if (!llvm::is_contained(Units, U))
          Units.push_back(U);
  } else {
    // Rows are parsed only for the units whose line-table headers name it.
    Units = DI.index().unitsWithFile(
        File, [&](StringRef P) { return sameFile(P, File); });
  }
  // gdb's `break FILE:LINE` (linespec.c, create_sals_line_offset): every
  // statement row of the line, then one address per innermost block (the
  // lowest), then the prologue of unoptimized code skipped where that
  // address is a function's first instruction.
  std::vector<std::pair<uint64_t, DWARFUnit *>> Rows;
  std::set<unsigned> LinesWithCode;
  bool FileSeen = false, FileInFunction = false;
  for (DWARFUnit *U : Units) {
    const DWARFDebugLine::LineTable *LT = Ctx.getLineTableForUnit(U);
    if (!LT)
      continue;
    std::set<uint64_t> FileIdx;
    for (uint64_t I = 0, E = LT->Prologue.FileNames.size() + 1; I <= E; ++I) {
      std::string Path;
      if (!LT->getFileNameByIndex(
              I, U->getCompilationDir(),
              DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, Path))
        continue;
      if (sameFile(Path, File))
        FileIdx.insert(I);
    }
    if (FileIdx.empty())
      continue;
    FileSeen = true;
    for (const DWARFDebugLine::Row &Row : LT->Rows) {
      if (Row.EndSequence || !Row.IsStmt || !FileIdx.count(Row.File))
        continue;
      if (Within && !Within->contains(Row.Address.Address))
        continue;
      FileInFunction = true;
      if (Row.Line != Line) {
        // Suggest only other lines a probe could be put on.
        LinesWithCode.insert(Row.Line);
        continue;
      }
      Rows.push_back({Row.Address.Address, U});
    }
  }
  if (!FileSeen && !Within)
    return errorAt(R, "no source file '" + File + "' in the debug info of " +
                          DI.targetPath());
  if (Rows.empty()) {
    std::string Near;
    auto It = LinesWithCode.lower_bound(Line);
    std::vector<unsigned> Cands;
    if (It != LinesWithCode.begin())
      Cands.push_back(*std::prev(It));
    if (It != LinesWithCode.end())
      Cands.push_back(*It);
    for (unsigned C : Cands)
      Near += (Near.empty() ? "" : ", ") + std::to_string(C);
    if (Within && !FileInFunction)
      return errorAt(R, "'" + Within->Name + "' has no code from " + File +
                            (FileSeen ? "" : " (no unit of its code names "
                                             "that file)"));
    return errorAt(R, (Within ? "'" + Within->Name + "' has no code at line " +
                                    Twine(Line) + " of " + File
                              : "no code for " + File + ":" + Twine(Line))
                          .str() +
                          (Near.empty() ? std::string()
                                        : "; nearest lines with code: " + Near));
  }
  llvm::sort(Rows);
  Rows.erase(std::unique(Rows.begin(), Rows.end()), Rows.end());
  std::vector<uint64_t> Starts;
  std::set<uint64_t> Blocks;
  for (auto [A, U] : Rows) {
    // The units of the file were read to their unit DIE only.
    DWARFDie B = readable(U) ? innermostBlock(U, A) : DWARFDie();
    if (B && !Blocks.insert(B.getOffset()).second)
      continue;
    uint64_t At = A;
    // At a function's first instruction gdb skips the prologue: to the row
    // DW_LNS_set_prologue_end marks (which may be that instruction), else
    // past the prologue of unoptimized code.
    if (auto Sym = DI.symbolAt(A); Sym && Sym->Address == A) {
      const DWARFDebugLine::LineTable *LT = Ctx.getLineTableForUnit(U);
      if (auto End = LT ? markedPrologueEnd(*LT, A, A + Sym->Size)
                        : std::nullopt)
        At = *End;
      else if (auto PE = prologueEnd(*Sym))
        At = *PE;
    }
    Starts.push_back(At);
  }
  llvm::sort(Starts);
  Starts.erase(std::unique(Starts.begin(), Starts.end()), Starts.end());
  return Starts;
}

std::optional<uint64_t> DwarfResolver::prologueEnd(const ElfSymbol &Sym) {
  DWARFContext &Ctx = DI.dwarf();
  DWARFUnit *U = DI.unitAt(Sym.Address);
  DWARFDie SP = U ? U->getSubroutineForAddress(Sym.Address) : DWARFDie();
  if (!SP)
    return std::nullopt;
  // Only for code whose parameters have one fixed location (no location
  // lists): that is what unoptimized code looks like.
  bool HasParam = false;
  for (DWARFDie C : SP.children()) {
    if (C.getTag() != dwarf::DW_TAG_formal_parameter)
      continue;
    auto L = C.find(dwarf::DW_AT_location);
    if (!L)
      continue;
    if (!L->isFormClass(DWARFFormValue::FC_Exprloc) &&
        !L->isFormClass(DWARFFormValue::FC_Block))
      return std::nullopt;
    // In a stack slot (DW_OP_fbreg, DW_OP_bregN): a parameter that stays in
    // its register (a leaf function at -O2) needs no prologue to run, and
    // gdb does not skip one there.
    auto Block = L->getAsBlock();
    if (!Block || Block->empty() ||
        !((*Block)[0] == dwarf::DW_OP_fbreg ||
          ((*Block)[0] >= dwarf::DW_OP_breg0 &&
           (*Block)[0] <= dwarf::DW_OP_breg31)))
      return std::nullopt;
    HasParam = true;
  }
  if (!HasParam)
    return std::nullopt;
  const DWARFDebugLine::LineTable *LT = Ctx.getLineTableForUnit(U);
  if (!LT)
    return std::nullopt;
  // DW_LNS_set_prologue_end if the compiler marked it, else the first row
  // on a line after the function's opening line (gdb's rule).
  std::optional<uint64_t> FirstOtherLine;
  unsigned OpenLine = 0;
  for (const DWARFDebugLine::Row &Row : LT->Rows) {
    uint64_t A = Row.Address.Address;
    if (Row.EndSequence || A < Sym.Address || A >= Sym.Address + Sym.Size)
      continue;
    if (Row.PrologueEnd && A > Sym.Address)
      return A;
    if (!OpenLine)
      OpenLine = Row.Line;
    else if (Row.Line != OpenLine && A > Sym.Address && !FirstOtherLine)
      FirstOtherLine = A;
  }
  return FirstOtherLine;
}

Error DwarfResolver::fillSite(Site &S, uint64_t Address, TextRange R,
                              const ScopeOwner &Owner) {
  S.Address = Address;
  auto Sym = DI.symbolAt(Address);
  if (!Sym)
    return errorAt(R, "address " + hex(Address) + " is in no function of " +
                          DI.targetPath());
  S.Sym = *Sym;
  S.Offset = Address - Sym->Address;
  S.Where = S.offsetText(Address);
  S.Unit = DI.unitAt(Address);
  if (!S.Unit)
    return errorAt(R, "no debug info describes " + S.Where + " in " +
                          DI.debugPath());
  SmallVector<DWARFDie, 4> Chain;
  S.Unit->getInlinedChainForAddress(Address, Chain);
  if (Chain.empty())
    return errorAt(R, "no function in the debug info contains " + S.Where);
  // Names are looked up in the scope of the function the place named, or
  // whose line it named (gdb stops in the caller's frame at a caller's
  // line whose address is an inlined callee's first instruction): skip the
  // inlined callees that are not it (their names come after its own).
  size_t First = 0;
  auto NameOf = [](DWARFDie D) {
    const char *N = D.getShortName();
    return StringRef(N ? N : "");
  };
  std::optional<size_t> Named;
  if (!Owner.Function.empty())
    for (size_t I = 0; I < Chain.size(); ++I)
      if (NameOf(Chain[I]) == Owner.Function) {
        Named = I;
        break;
      }
  // A line is in the function whose source holds it: of the functions of
  // the chain written in the line's file (up to the one the place names),
  // the one declared last at or before the line, C functions being laid
  // out one after the other. `deflateReset:720` is a line of lm_init,
  // inlined into deflateReset, and gdb stops in lm_init there; a caller's
  // line where an inlined callee's code is stays the caller's.
  std::optional<size_t> Holder;
  if (Owner.Line) {
    unsigned HolderLine = 0;
    for (size_t I = 0; I < Chain.size() && (!Named || I <= *Named); ++I) {
      unsigned Decl = Chain[I].getDeclLine();
      std::string F = declFile(Chain[I]);
      if (Decl && Decl <= Owner.Line && Decl > HolderLine && !F.empty() &&
          sameFile(F, Owner.File)) {
        Holder = I;
        HolderLine = Decl;
      }
    }
  }
  if (Holder) {
    First = *Holder;
  } else if (Named) {
    First = *Named;
  } else if (Owner.Line) {
    // The line is the caller's when a callee is called from it, or when
    // the callee's source is another file.
    while (First + 1 < Chain.size()) {
      DWARFDie Callee = Chain[First];
      auto CallLine = dwarf::toUnsigned(Callee.find(dwarf::DW_AT_call_line));
      std::string CalleeFile = declFile(Callee);
      bool CalledFromLine = CallLine && *CallLine == Owner.Line;
      bool OtherFile = !CalleeFile.empty() && !sameFile(CalleeFile, Owner.File);
      if (!CalledFromLine && !OtherFile)
        break;
      ++First;
    }
  }
  SmallVector<DWARFDie, 4> Callees(Chain.begin(), Chain.begin() + First);
  Chain.erase(Chain.begin(), Chain.begin() + First);
  S.Function = Chain.front();
  S.Subprogram = Chain.back();
  // Innermost first: for each function of the inlined chain, the lexical
  // blocks that contain the address (deepest first), then the function. A
  // line of the caller can share its address with inlined code, and the
  // caller's variables are as live there as the callee's, which shadow them.
  std::vector<DWARFDie> Blocks;
  std::function<void(DWARFDie)> Descend = [&](DWARFDie D) {
    for (DWARFDie C : D.children()) {
      if (C.getTag() != dwarf::DW_TAG_lexical_block)
        continue;
      if (!C.addressRangeContainsAddress(Address))
        continue;
      Blocks.push_back(C);
      Descend(C);
      return;
    }
  };
  for (DWARFDie Fn : Chain) {
    Blocks.clear();
    Descend(Fn);
    S.Scopes.insert(S.Scopes.end(), Blocks.rbegin(), Blocks.rend());
    S.Scopes.push_back(Fn);
  }
  auto OwnEnd = llvm::find(S.Scopes, S.Function) + 1;
  S.LookupOrder.assign(S.Scopes.begin(), OwnEnd);
  for (DWARFDie Fn : Callees) {
    Blocks.clear();
    Descend(Fn);
    S.LookupOrder.insert(S.LookupOrder.end(), Blocks.rbegin(), Blocks.rend());
    S.LookupOrder.push_back(Fn);
  }
  S.LookupOrder.insert(S.LookupOrder.end(), OwnEnd, S.Scopes.end());
  if (Chain.size() > 1)
    S.Where += " (inlined " +
               std::string(Chain.front().getShortName()
                               ? Chain.front().getShortName()
                               : "function") +
               ")";
  return Error::success();
}

/// The sites of a function that exists only inlined: the entries of its
/// copies, in address order.
Expected<std::vector<Site>>
DwarfResolver::inlinedCopySites(const FunctionPlace &F) {
  const ProbePlace &P = Spec.Place;
  std::vector<Site> Sites;
  if (isReturnProbe(Spec.Kind))
    return errorAt(P.SymbolRange,
                   "'" + P.Symbol + "' exists only inlined (" +
                       Twine(F.Copies.size()) +
                       " copies), so it never returns to a caller; probe "
                       "the line of its return statement instead");
  if (P.HasOffset && P.Offset)
    return errorAt(P.OffsetRange,
                   "'" + P.Symbol + "' exists only inlined (" +
                       Twine(F.Copies.size()) +
                       " copies), so it has no offsets; name one of its "
                       "lines ('" + P.Symbol + ":N')");
  ScopeOwner Owner;
  Owner.Function = ownerName(P);
  std::set<uint64_t> Seen;
  for (DWARFDie C : F.Copies) {
    auto Entry = entryOf(C);
    if (!Entry || !Seen.insert(*Entry).second)
      continue;
    Site S;
    if (Error E = fillSite(S, *Entry, P.SymbolRange, Owner))
      return std::move(E);
    Sites.push_back(std::move(S));
  }
  llvm::sort(Sites, [](const Site &A, const Site &B) {
    return A.Address < B.Address;
  });
  return Sites;
}

/// The site of a probe on one clone of the function (the function itself
/// when it has no clones) at the place's offset, or past its prologue for
/// the bare name.
Expected<Site> DwarfResolver::cloneSite(const ElfSymbol &Clone) {
  const ProbePlace &P = Spec.Place;
  const ElfSymbol *Sym = &Clone;
  if (P.Offset >= std::max<uint64_t>(Sym->Size, 1))
    return errorAt(P.OffsetRange, "offset " + Twine(P.Offset) +
                                      " is past the end of '" + P.Symbol +
                                      "' (" + Twine(Sym->Size) + " bytes)");
  if (P.Offset) {
    auto Near = checkInstructionBoundary(DI.targetObject(), Sym->Address,
                                         Sym->Size, P.Offset);
    if (!Near)
      return errorAt(P.OffsetRange, toString(Near.takeError()));
    if (!Near->IsBoundary)
      return errorAt(P.OffsetRange,
                     "offset " + hex(P.Offset) + " is inside an instruction "
                     "of '" + P.Symbol + "'; the nearest instruction "
                     "boundaries are +" + hex(Near->Before) + " and +" +
                     hex(Near->After));
  }
  // Unoptimized code keeps parameters in stack slots it fills in the
  // prologue, and DWARF describes only those slots. A probe on the bare
  // function name goes after the prologue, as gdb and perf put it; an
  // explicit offset inside it would read the slots before they are set.
  uint64_t Offset = P.Offset;
  // A return probe is at the entry, whatever the prologue.
  std::optional<uint64_t> End;
  if (!isReturnProbe(Spec.Kind))
    End = prologueEnd(*Sym);
  // The bare name goes where gdb 13's `break NAME` does: first to the
  // row the compiler marked as the prologue's end (clang -O2 marks
  // it, possibly at the first instruction), then past the prologue of
  // unoptimized code.
  if (!P.HasOffset && !isReturnProbe(Spec.Kind))
    if (DWARFUnit *U = DI.unitAt(Sym->Address))
      if (const auto *LT = DI.dwarf().getLineTableForUnit(U))
        if (auto Marked = markedPrologueEnd(*LT, Sym->Address,
                                            Sym->Address + Sym->Size)) {
          Offset = *Marked - Sym->Address;
          End.reset();
        }
  if (End) {
    bool NamesVariables = llvm::any_of(Spec.Args, [](const ProbeArg &A) {
      return A.Expr && partNeedingDebugInfo(*A.Expr).has_value();
    });
    if (!P.HasOffset)
      Offset = *End - Sym->Address;
    else if (P.Offset < *End - Sym->Address && NamesVariables)
      return errorAt(P.OffsetRange,
                     "at +" + hex(P.Offset) + " '" + P.Symbol +
                         "' has not yet stored its parameters where its "
                         "debug info says they are (the prologue ends at "
                         "+" + hex(*End - Sym->Address) + "); probe '" +
                         P.Symbol + "' or '" + P.Symbol + "+" +
                         hex(*End - Sym->Address) + "'");
  }
  Site S;
  // The bare name of a function sees its own scope even where the
  // first statement is an inlined callee's first instruction (gdb's
  // stopped_by_user_bp_inline_frame): `this` of Cart::add, not of the
  // std::vector::push_back inlined at its prologue's end.
  ScopeOwner Owner;
  if (!P.HasOffset)
    Owner.Function = ownerName(P);
  if (Error E = fillSite(S, Sym->Address + Offset, P.SymbolRange, Owner))
    return std::move(E);
  return std::move(S);
}

/// The sites of `symbol[+offset]`: one per inlined copy, or one per clone
/// (one in all for a plain function).
Expected<std::vector<Site>> DwarfResolver::symbolSites() {
  const ProbePlace &P = Spec.Place;
  auto F = findFunction(P.Symbol, P.SymbolRange);
  if (!F)
    return F.takeError();
  if (!F->Copies.empty())
    return inlinedCopySites(*F);
  if (F->Syms.size() > 1 && P.HasOffset && P.Offset) {
    std::string Names;
    for (const ElfSymbol &C : F->Syms)
      Names += (Names.empty() ? "" : ", ") + C.Name;
    return errorAt(P.SymbolRange, "'" + P.Symbol + "' is " +
                                      Twine(F->Syms.size()) +
                                      " clones (" + Names +
                                      "); name one of them for an offset");
  }
  // One site per clone (one in all for a plain function).
  std::vector<Site> Sites;
  for (const ElfSymbol &Clone : F->Syms) {
    auto S = cloneSite(Clone);
    if (!S)
      return S.takeError();
    Sites.push_back(std::move(*S));
  }
  return Sites;
}

/// The sites of a line (`file:N`, `symbol:N`, `symbol:file:N`): one per
/// address gdb would break at.
Expected<std::vector<Site>> DwarfResolver::lineSites() {
  const ProbePlace &P = Spec.Place;
  std::vector<Site> Sites;
  std::optional<FunctionPlace> Within;
  std::string File = P.File;
  unsigned Line = P.Line;
  TextRange LineRange = P.LineRange;
  if (P.Form == ProbePlace::SymbolRelLine ||
      P.Form == ProbePlace::SymbolFileLine) {
    auto F = findFunction(P.Symbol, P.SymbolRange);
    if (!F)
      return F.takeError();
    Within = std::move(*F);
  }
  if (P.Form == ProbePlace::SymbolRelLine) {
    DWARFDie SP = Within->Decl;
    if (!SP)
      return errorAt(P.SymbolRange,
                     "no debug info for function '" + P.Symbol + "'");
    std::string DeclFile = declFile(SP);
    unsigned Decl = SP.getDeclLine();
    if (DeclFile.empty() || !Decl)
      return errorAt(P.SymbolRange, "the debug info of '" + P.Symbol +
                                        "' has no declaration line");
    File = DeclFile;
    Line = Decl + P.Line;
  }
  auto Addrs = lineAddresses(File, Line, Within ? &*Within : nullptr,
                             P.Form == ProbePlace::FileLine ? P.FileRange
                                                            : LineRange);
  if (!Addrs)
    return Addrs.takeError();
  // One site per address gdb would break at: one per block that has the
  // line, so every inlined copy.
  ScopeOwner Owner;
  if (Within)
    Owner.Function = ownerName(P);
  Owner.File = File;
  Owner.Line = Line;
  for (uint64_t A : *Addrs) {
    Site S;
    if (Error E = fillSite(S, A, LineRange, Owner))
      return std::move(E);
    Sites.push_back(std::move(S));
  }
  return Sites;
}

Expected<std::vector<Site>> DwarfResolver::sites() {
  if (Spec.Place.Form == ProbePlace::SymbolOffset)
    return symbolSites();
  return lineSites();
}

//===----------------------------------------------------------------------===//
// Names and locations
//===----------------------------------------------------------------------===//

LocationContext DwarfResolver::locationContext(const Site &S) {
  LocationContext C;
  C.ABI = &ABI;
  C.PC = S.Address;
  C.EntryProgram =
      Spec.Kind == ProbeKind::KProbe || Spec.Kind == ProbeKind::UProbe;
  C.AddrSize = S.Unit ? S.Unit->getAddressByteSize() : ABI.PointerSize;
  C.PIE = isPIE() && isUserProbe(Spec.Kind);
  C.Subprogram = S.Subprogram;
  C.Unit = S.Unit;
  C.Dwarf = &DI.dwarf();
  C.Index = &DI.index();
  if (!TargetFrames && &DI.targetObject() != &DI.debugObject())
    TargetFrames = DWARFContext::create(DI.targetObject());
  C.TargetFrames = TargetFrames.get();
  C.UserSpace = isUserProbe(Spec.Kind);
  C.Target = &DI.targetObject();
  C.FunctionAddress = [this](StringRef Name) -> std::optional<uint64_t> {
    std::optional<uint64_t> Found;
    for (const ElfSymbol &Y : DI.findSymbol(Name)) {
      if (!Y.IsFunction)
        continue;
      if (Found && *Found != Y.Address)
        return std::nullopt; // two functions of that name
      Found = Y.Address;
    }
    return Found;
  };
  return C;
}

Expected<Located> DwarfResolver::locateVariable(const Site &S, DWARFDie Var,
                                                const SpecExpr &E) {
  std::string Name = E.Name;
  if (auto CV = Var.find(dwarf::DW_AT_const_value)) {
    if (auto V = constantValue(*CV))
      return Located::value(FetchExpr::constant(*V));
    // A block (a `const char[]` or struct constant, gdb's LOC_CONST_BYTES):
    // the same bytes as a DW_OP_implicit_value, which the evaluator turns
    // into a constant or constant pieces.
    std::optional<ArrayRef<uint8_t>> Block = CV->getAsBlock();
    // A string form (gcc's `static const char v[] = "1.2.13"`): its bytes
    // and the NUL, as many as the variable's type has (gdb's reading).
    std::string Str;
    if (!Block) {
      Expected<const char *> C = CV->getAsCString();
      if (C) {
        Str.assign(*C, strlen(*C) + 1);
        if (auto Size = typeSize(typeOf(Var), ABI.PointerSize))
          Str.resize(*Size, '\0');
        Block = ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(Str.data()), Str.size());
      } else {
        consumeError(C.takeError());
      }
    }
    if (Block) {
      SmallVector<uint8_t, 32> Expr;
      Expr.push_back(dwarf::DW_OP_implicit_value);
      uint64_t N = Block->size();
      do {
        uint8_t Byte = N & 0x7f;
        N >>= 7;
        Expr.push_back(Byte | (N ? 0x80 : 0));
      } while (N);
      Expr.append(Block->begin(), Block->end());
      auto Loc = evaluateLocation(Expr, locationContext(S));
      if (!Loc)
        return errorAt(E.Range, "cannot fetch the constant '" + Name +
                                    "': " + toString(Loc.takeError()));
      return std::move(*Loc);
    }
    return errorAt(E.Range, "'" + Name + "' is a constant DWARF describes "
                            "in a form bpfprobe does not read");
  }
  if (!Var.find(dwarf::DW_AT_location))
    return notHereAt(E.Range, "'" + Name + "' is optimized out at " + S.Where +
                                ": it has no location in the debug info");
  auto Locs = Var.getLocations(dwarf::DW_AT_location);
  if (!Locs)
    return errorAt(E.Range, "cannot read the location of '" + Name +
                                "': " + toString(Locs.takeError()));
  // Where else it has a location (that Usable takes), for the message:
  // merged, the first few.
  auto AvailableAt =
      [&](function_ref<bool(const DWARFLocationExpression &)> Usable) {
        std::vector<std::pair<uint64_t, uint64_t>> Ranges;
        for (const DWARFLocationExpression &L : *Locs)
          if (L.Range && !L.Expr.empty() && L.Range->HighPC > L.Range->LowPC &&
              L.Range->LowPC >= S.Sym.Address && Usable(L))
            Ranges.push_back({L.Range->LowPC, L.Range->HighPC});
        llvm::sort(Ranges);
        std::vector<std::pair<uint64_t, uint64_t>> Merged;
        for (auto R : Ranges) {
          if (!Merged.empty() && R.first <= Merged.back().second)
            Merged.back().second = std::max(Merged.back().second, R.second);
          else
            Merged.push_back(R);
        }
        std::string Text;
        constexpr size_t ShownRanges = 4;
        for (size_t I = 0; I < Merged.size() && I < ShownRanges; ++I)
          Text += (I ? ", +" : "+") + hex(Merged[I].first - S.Sym.Address) +
                  "..+" + hex(Merged[I].second - S.Sym.Address);
        if (Merged.size() > ShownRanges)
          Text += " and " + std::to_string(Merged.size() - ShownRanges) +
                  " more";
        return Text;
      };
  std::string Available =
      AvailableAt([](const DWARFLocationExpression &) { return true; });
  // The entry gdb uses at this address (list order, and an empty range at
  // the function's entry).
  const DWARFLocationExpression *Found =
      findLocationAt(*Locs, S.Address, functionEntry(S.Subprogram));
  if (Found && !Found->Expr.empty()) {
    const DWARFLocationExpression &L = *Found;
    LocationContext Ctx = locationContext(S);
    // DW_OP_addrx indexes the .debug_addr of the variable's own unit (a
    // global may be defined in another unit than the probe's).
    if (DWARFUnit *VU = Var.getDwarfUnit())
      Ctx.Unit = VU;
    auto Loc = evaluateLocation(L.Expr, Ctx);
    if (!Loc && Loc.errorIsA<UnreadableLocationError>())
      // No debugger shows it here: another site of the probe may have it.
      return notHereAt(E.Range, "'" + Name + "' is unreadable at " + S.Where +
                                    ": " + toString(Loc.takeError()));
    if (!Loc) {
      // Where the location is one bpfprobe can read (a double that is in
      // %xmm0 here may be in memory further on).
      std::string Elsewhere =
          AvailableAt([&](const DWARFLocationExpression &Other) {
            if (&Other == Found)
              return false;
            LocationContext At = Ctx;
            At.PC = Other.Range->LowPC;
            auto O = evaluateLocation(Other.Expr, At);
            if (!O) {
              consumeError(O.takeError());
              return false;
            }
            return O->Kind != Located::Optimized;
          });
      return errorAt(E.Range, "cannot fetch '" + Name + "' at " + S.Where +
                                  ": " + toString(Loc.takeError()) +
                                  (Elsewhere.empty()
                                       ? std::string()
                                       : "; it is available at " + Elsewhere +
                                             " of " + S.Sym.Name));
    }
    if (Loc->Kind != Located::Optimized)
      return std::move(*Loc);
  }
  return notHereAt(E.Range,
                 "'" + Name + "' is optimized out at " + S.Where +
                     (Available.empty()
                          ? std::string("")
                          : "; it is available at " + Available + " of " +
                                S.Sym.Name));
}

std::vector<VisibleVariable> DwarfResolver::visible(const Site &S) {
  std::vector<VisibleVariable> Out;
  std::set<std::string> Seen;
  auto Add = [&](DWARFDie V, StringRef Kind) {
    const char *N = V.getShortName();
    if (!N || !Seen.insert(N).second)
      return;
    VisibleVariable VV;
    VV.Name = N;
    VV.Type = typeName(typeOf(V));
    VV.Kind = Kind.str();
    VV.Available = false;
    if (V.find(dwarf::DW_AT_const_value)) {
      VV.Available = true;
    } else if (auto Locs = V.getLocations(dwarf::DW_AT_location)) {
      const DWARFLocationExpression *L =
          findLocationAt(*Locs, S.Address, functionEntry(S.Subprogram));
      VV.Available = L && !L->Expr.empty();
    } else {
      consumeError(Locs.takeError());
    }
    Out.push_back(std::move(VV));
  };
  for (DWARFDie Scope : S.LookupOrder)
    for (DWARFDie C : Scope.children())
      if (isVariableTag(C.getTag()))
        Add(C, C.getTag() == dwarf::DW_TAG_formal_parameter ? "param"
                                                            : "local");
  if (S.Unit)
    for (DWARFDie C : S.Unit->getUnitDIE(false).children())
      if (C.getTag() == dwarf::DW_TAG_variable)
        Add(C, "global");
  return Out;
}

/// The qualified name of a variable or function DIE from the scopes of
/// its declaration: `shop::Cart::carts`.
static std::string qualifiedDieName(DWARFDie D) {
  if (DWARFDie Decl =
          D.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification))
    D = Decl;
  const char *N = D.getShortName();
  std::string Q = N ? N : "";
  for (DWARFDie P = D.getParent(); P; P = P.getParent()) {
    dwarf::Tag T = P.getTag();
    if (T != dwarf::DW_TAG_namespace && T != dwarf::DW_TAG_class_type &&
        T != dwarf::DW_TAG_structure_type && T != dwarf::DW_TAG_union_type)
      break;
    const char *PN = P.getShortName();
    Q = std::string(PN ? PN : "(anonymous namespace)") + "::" + Q;
  }
  return Q;
}

DWARFDie
DwarfResolver::findVariableDefinition(DWARFUnit *Near,
                                      function_ref<bool(DWARFDie)> Match) {
  DWARFDie Found;
  std::function<bool(DWARFDie, unsigned)> Walk = [&](DWARFDie D,
                                                     unsigned Depth) {
    if (D.getTag() == dwarf::DW_TAG_variable &&
        (D.find(dwarf::DW_AT_location) || D.find(dwarf::DW_AT_const_value)) &&
        Match(D)) {
      Found = D;
      return true;
    }
    if (D.getTag() == dwarf::DW_TAG_namespace && Depth < 16)
      for (DWARFDie C : D.children())
        if (Walk(C, Depth + 1))
          return true;
    return false;
  };
  findEverywhere(Near, [&](DWARFDie C) { return Walk(C, 0); });
  return Found;
}

Expected<std::pair<Located, DWARFDie>>
DwarfResolver::globalValue(const Site &S, DWARFDie C, const SpecExpr &E,
                           StringRef Written) {
  std::string Name = Written.empty() ? qualifiedDieName(C) : Written.str();
  if (!isUserProbe(Spec.Kind) && C.find(dwarf::DW_AT_location))
    return errorAt(E.Range, "kernel global '" + Name +
                                "' needs its run-time address, which KASLR "
                                "moves; not supported yet");
  // A PIE global is found relative to %ip, which a return probe sees at the
  // caller's return address, not at this function.
  if (isReturnProbe(Spec.Kind) && isPIE() && C.find(dwarf::DW_AT_location))
    return errorAt(E.Range,
                   "global '" + Name + "' of a position-independent binary "
                   "cannot be located in a return probe (its load address "
                   "is found from %ip, which is the caller's there); fetch "
                   "it in an entry probe");
  auto L = locateVariable(S, C, E);
  if (!L)
    return L.takeError();
  return std::make_pair(std::move(*L), typeOf(C));
}

/// lookup's first step: Name among the variables of the scopes around S,
/// innermost first; none when no scope declares it.
Expected<std::optional<std::pair<Located, DWARFDie>>>
DwarfResolver::lookupLocal(const Site &S, const SpecExpr &E) {
  StringRef Name = E.Name;
  for (DWARFDie Scope : S.LookupOrder) {
    for (DWARFDie C : Scope.children()) {
      if (!isVariableTag(C.getTag()))
        continue;
      const char *N = C.getShortName();
      if (!N || Name != N)
        continue;
      // At return the frame is gone: DWARF describes the variable at the
      // entry, not where the return probe fires.
      if (isReturnProbe(Spec.Kind))
        return errorAt(E.Range,
                       "'" + Name + "' is a " +
                           (C.getTag() == dwarf::DW_TAG_formal_parameter
                                ? "parameter"
                                : "local variable") +
                           " of " + S.Sym.Name +
                           ", gone when a return probe fires; fetch it in "
                           "an entry probe, or use $retval and globals");
      auto L = locateVariable(S, C, E);
      if (!L)
        return L.takeError();
      return std::make_pair(std::move(*L), typeOf(C));
    }
    // Declared in the abstract function but absent from this copy: the
    // compiler dropped it here.
    if (DWARFDie Origin = Scope.getAttributeValueAsReferencedDie(
            dwarf::DW_AT_abstract_origin))
      for (DWARFDie C : Origin.children())
        if (isVariableTag(C.getTag()) && C.getShortName() &&
            Name == C.getShortName())
          return notHereAt(E.Range, "'" + Name + "' is optimized out at " +
                                      S.Where +
                                      ": this copy of the function has no "
                                      "location for it");
  }
  return std::nullopt;
}

/// lookup's second step: in a C++ method, a member of the object (gdb's and
/// C++'s lookup: locals first, then the class and its bases, then globals):
/// `total` is `this->total`. None outside a method or for another name.
Expected<std::optional<std::pair<Located, DWARFDie>>>
DwarfResolver::lookupThisMember(const Site &S, const SpecExpr &E) {
  StringRef Name = E.Name;
  DWARFDie This;
  for (DWARFDie Scope : S.Scopes) {
    for (DWARFDie C : Scope.children())
      if (C.getTag() == dwarf::DW_TAG_formal_parameter &&
          C.getShortName() && StringRef(C.getShortName()) == "this")
        This = C;
    if (This)
      break;
  }
  DWARFDie PT = This ? stripTypedefs(typeOf(This)) : DWARFDie();
  if (PT && isPointer(PT)) {
    DWARFDie Record = stripTypedefs(completeType(stripTypedefs(
        PT.getAttributeValueAsReferencedDie(dwarf::DW_AT_type))));
    if (findMember(Record, Name)) {
      SpecExpr Member;
      Member.Kind = SpecExpr::Arrow;
      Member.Name = Name.str();
      Member.Range = E.Range;
      Member.NameRange = E.NameRange;
      Member.Base = std::make_unique<SpecExpr>();
      Member.Base->Kind = SpecExpr::Ident;
      Member.Base->Name = "this";
      Member.Base->Range = Member.Base->NameRange = E.Range;
      return evalExpr(S, Member, 1);
    }
  }
  return std::nullopt;
}

/// lookup of a qualified name: a namespace global or a static class member
/// (`shop::Cart::carts`), matched on the DWARF scopes of its declaration,
/// the written name being a trailing part of the full one (as gdb).
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::lookupQualified(const Site &S, const SpecExpr &E) {
  StringRef Name = E.Name;
  std::string Tail = "::" + Name.str();
  DWARFDie Def = findVariableDefinition(S.Unit, [&](DWARFDie D) {
    std::string Q = qualifiedDieName(D);
    return Q == Name || StringRef(Q).ends_with(Tail);
  });
  if (Def)
    return globalValue(S, Def, E);
  return errorAt(E.Range, "no global '" + Name + "' in the debug info of " +
                              DI.targetPath() + " (a namespace variable or "
                              "a static class member, by its qualified "
                              "name)");
}

/// lookup of a global: the probe's unit first, then (as gdb) any unit that
/// defines the name; the other units are read only when the symbol table
/// has a data object of that name (a misspelt name on a kernel would
/// otherwise parse every unit). None when no unit defines it.
Expected<std::optional<std::pair<Located, DWARFDie>>>
DwarfResolver::lookupGlobal(const Site &S, const SpecExpr &E) {
  StringRef Name = E.Name;
  bool InSymtab = llvm::any_of(DI.findSymbol(Name), [](const ElfSymbol &Y) {
    return !Y.IsFunction;
  });
  auto Defined = findEverywhere(
      S.Unit,
      [&](DWARFDie C) {
        return C.getTag() == dwarf::DW_TAG_variable && C.getShortName() &&
               Name == C.getShortName() &&
               (C.find(dwarf::DW_AT_location) ||
                C.find(dwarf::DW_AT_const_value));
      },
      1, InSymtab);
  // Located as a qualified global is, the errors naming it as written.
  if (!Defined.empty())
    return globalValue(S, Defined.front(), E, Name);
  return std::nullopt;
}

/// Whether Name is declared in a block of this function that does not
/// cover the PC: that is the error (or this site is left out); success when
/// no such block declares it.
Error DwarfResolver::outOfScopeBlock(const Site &S, const SpecExpr &E) {
  StringRef Name = E.Name;
  std::string Ranges, BadRanges;
  std::function<void(DWARFDie)> Find = [&](DWARFDie D) {
    for (DWARFDie C : D.children()) {
      if (C.getTag() == dwarf::DW_TAG_lexical_block) {
        bool Declares = llvm::any_of(C.children(), [&](DWARFDie V) {
          return isVariableTag(V.getTag()) && V.getShortName() &&
                 Name == V.getShortName();
        });
        if (Declares && Ranges.empty() && BadRanges.empty()) {
          if (auto R = C.getAddressRanges()) {
            for (const DWARFAddressRange &AR : *R)
              if (AR.HighPC > AR.LowPC)
                Ranges += (Ranges.empty() ? "" : ", ") +
                          ("+" + hex(AR.LowPC - S.Sym.Address) + "..+" +
                           hex(AR.HighPC - S.Sym.Address));
          } else {
            BadRanges = toString(R.takeError());
          }
        }
        Find(C);
      }
    }
  };
  Find(S.Function);
  if (!BadRanges.empty())
    return errorAt(E.NameRange.End > E.NameRange.Begin ? E.NameRange
                                                       : E.Range,
                   "'" + Name + "' is declared in a block of " +
                       S.Sym.Name + " whose address ranges cannot be "
                       "read: " + BadRanges);
  // Another site of the place (a copy of an inlined line whose scope
  // is another function's) may have the name: this one is left out.
  if (!Ranges.empty())
    return notHereAt(E.NameRange.End > E.NameRange.Begin ? E.NameRange
                                                         : E.Range,
                   "'" + Name + "' is not in scope at " + S.Where +
                       "; its block covers " + Ranges + " of " +
                       S.Sym.Name);
  return Error::success();
}

/// The error for a name lookup found nowhere, with the names the user most
/// likely meant: for a plain name the parameters and locals visible here
/// (a unit's globals can be a hundred names, and they drowned the two that
/// matter), for '@name' the globals; at most MaxListed of them. The
/// suggestion still considers every visible name.
Error DwarfResolver::variableNotFound(const Site &S, const SpecExpr &E) {
  constexpr size_t MaxListed = 16;
  bool GlobalOnly = E.Kind == SpecExpr::Global;
  StringRef Name = E.Name;
  std::vector<std::string> All, Listed;
  size_t Globals = 0;
  for (const VisibleVariable &V : visible(S)) {
    bool Global = V.Kind == "global";
    Globals += Global;
    if (GlobalOnly && !Global)
      continue;
    All.push_back(V.Name);
    if (GlobalOnly || !Global)
      Listed.push_back(V.Name);
  }
  std::string Msg = std::string(GlobalOnly ? "no global" : "no variable") +
                    " '" + Name.str() + "' at " + S.Where;
  if (auto Best = didYouMean(Name, All))
    Msg += "; did you mean '" + *Best + "'?";
  llvm::sort(Listed);
  Listed.erase(std::unique(Listed.begin(), Listed.end()), Listed.end());
  size_t More = Listed.size() > MaxListed ? Listed.size() - MaxListed : 0;
  Listed.resize(Listed.size() - More);
  Msg += std::string(GlobalOnly ? " (globals here: " : " (visible here: ") +
         joinNames(Listed);
  if (More)
    Msg += " and " + std::to_string(More) + " more";
  if (!GlobalOnly && Globals)
    Msg += "; " + std::to_string(Globals) +
           (Globals == 1 ? " global" : " globals") +
           " not listed: '@name' reads one";
  Msg += ")";
  TextRange At = E.NameRange.End > E.NameRange.Begin ? E.NameRange : E.Range;
  // A local name absent from this site's scope (a copy of an inlined line
  // whose address is outside the callee's block: gdb stops there in the
  // caller, where the name is unknown too) leaves this site out when
  // another site has it; with no site that has it, this is the error.
  if (!GlobalOnly)
    return notHereAt(At, Msg);
  return errorAt(At, Msg);
}

Expected<std::pair<Located, DWARFDie>>
DwarfResolver::lookup(const Site &S, const SpecExpr &E) {
  bool GlobalOnly = E.Kind == SpecExpr::Global;
  StringRef Name = E.Name;
  if (!GlobalOnly) {
    auto Local = lookupLocal(S, E);
    if (!Local)
      return Local.takeError();
    if (*Local)
      return std::move(**Local);
  }
  if (!GlobalOnly && !Name.contains("::")) {
    auto Member = lookupThisMember(S, E);
    if (!Member)
      return Member.takeError();
    if (*Member)
      return std::move(**Member);
  }
  if (Name.contains("::"))
    return lookupQualified(S, E);
  if (S.Unit) {
    auto Global = lookupGlobal(S, E);
    if (!Global)
      return Global.takeError();
    if (*Global)
      return std::move(**Global);
  }
  if (!GlobalOnly)
    if (Error Err = outOfScopeBlock(S, E))
      return std::move(Err);
  return variableNotFound(S, E);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The value (not the location) of L, of the given type: a pointer to
/// follow, an index base.
Expected<std::unique_ptr<FetchExpr>>
DwarfResolver::valueOf(Located L, DWARFDie Type, const SpecExpr &E) {
  auto Size = typeSize(Type, ABI.PointerSize);
  switch (L.Kind) {
  case Located::Memory:
    if (!Size || *Size == 0 || *Size > 8)
      return errorAt(E.Range, "'" + text(E.Range) + "' is not a scalar");
    return FetchExpr::deref(std::move(L.Expr), *Size);
  case Located::Value:
    return std::move(L.Expr);
  case Located::Pieces: {
    // A scalar split in pieces: usable when one piece holds all of it.
    for (Located::Piece &P : L.Parts)
      if (Size && P.Size >= *Size && P.Loc->Kind != Located::Optimized &&
          P.Loc->Kind != Located::Pieces)
        return valueOf(std::move(*P.Loc), Type, E);
    if (Size && *Size <= 8) {
      auto V = scalarFromPieces(std::move(L), ABI);
      if (V)
        return V;
      return errorAt(E.Range, "'" + text(E.Range) + "' is in pieces: " +
                                  toString(V.takeError()));
    }
    return errorAt(E.Range, "'" + text(E.Range) +
                                "' is split across registers and memory "
                                "(DW_OP_piece) in a way that is not supported");
  }
  case Located::ImplicitPointer:
    return errorAt(E.Range,
                   "'" + text(E.Range) + "' is a pointer the compiler "
                   "optimized away (DW_OP_implicit_pointer): it has no value, "
                   "but what it points to does; fetch '*" + text(E.Range) +
                   "' or a member through it");
  case Located::Optimized:
    break;
  }
  return notHereAt(E.Range, "'" + text(E.Range) + "' is optimized out");
}

/// What an implicit pointer points to, Extra bytes further: the location
/// of the variable it names.
Expected<Located> DwarfResolver::implicitPointee(const Site &S, Located L,
                                                 int64_t Extra,
                                                 const SpecExpr &E) {
  SpecExpr Named;
  Named.Kind = SpecExpr::Ident;
  Named.Name = L.Target.getShortName() ? L.Target.getShortName()
                                       : "the variable it points to";
  Named.Range = E.Range;
  Named.NameRange = E.Range;
  auto Loc = locateVariable(S, L.Target, Named);
  if (!Loc)
    return Loc.takeError();
  int64_t Off = L.ImplicitOffset + Extra;
  if (Off == 0)
    return Loc;
  if (Loc->Kind == Located::Memory)
    return Located::memory(FetchExpr::add(std::move(Loc->Expr), Off));
  return errorAt(E.Range, "'" + text(E.Range) + "' points " + Twine(Off) +
                              " bytes into '" + Named.Name +
                              "', which is not in memory at " + S.Where);
}

Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalExpr(const Site &S, const SpecExpr &E, unsigned Depth) {
  if (Depth > 64)
    return errorAt(E.Range, "expression nested too deeply");
  switch (E.Kind) {
  case SpecExpr::Ident:
  case SpecExpr::Global:
    return lookup(S, E);
  case SpecExpr::ArgN:
    return evalArgN(S, E);
  case SpecExpr::RetVal:
    return evalRetVal(S, E);
  case SpecExpr::Reg: {
    auto R = registerOf(E, ABI);
    if (!R)
      return R.takeError();
    return std::make_pair(Located::value(FetchExpr::reg(*R)), DWARFDie());
  }
  default:
    break;
  }

  auto Base = evalExpr(S, *E.Base, Depth + 1);
  if (!Base)
    return Base.takeError();
  if (E.Base->Kind == SpecExpr::Method)
    return errorAt(E.Range, "'" + text(E.Base->Range) +
                                "' is a number (a size_t), not an object or "
                                "a pointer");
  auto [Loc, Type] = std::move(*Base);
  DWARFDie T = stripTypedefs(Type);
  if (Error Err = throughReferences(S, E, Loc, Type, T))
    return std::move(Err);

  switch (E.Kind) {
  case SpecExpr::Deref:
    return evalDeref(S, E, std::move(Loc), Type, T);
  case SpecExpr::Index:
    return evalIndex(S, E, std::move(Loc), Type, T);
  case SpecExpr::Arrow:
  case SpecExpr::Dot:
    return evalMember(S, E, std::move(Loc), Type, T);
  case SpecExpr::Method:
    return evalMethod(S, E, std::move(Loc), Type, T);
  default:
    break;
  }
  return errorAt(E.Range, "unsupported expression");
}

/// '$argN': the Nth parameter of the function, in the order of its
/// abstract declaration.
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalArgN(const Site &S, const SpecExpr &E) {
  if (Error Err = checkArgPlace(Spec, E))
    return std::move(Err);
  // The order of declaration is the abstract function's: an inlined or
  // out-of-line copy may list its parameters in another order.
  DWARFDie Decl = S.Function;
  if (DWARFDie O = S.Function.getAttributeValueAsReferencedDie(
          dwarf::DW_AT_abstract_origin))
    Decl = O;
  unsigned N = 0;
  for (DWARFDie P : Decl.children())
    if (P.getTag() == dwarf::DW_TAG_formal_parameter && ++N == E.Number) {
      SpecExpr Named;
      Named.Kind = SpecExpr::Ident;
      Named.Name = P.getShortName() ? P.getShortName() : "$arg";
      Named.Range = E.Range;
      Named.NameRange = E.Range;
      // The concrete parameter of this copy, if the compiler kept it.
      DWARFDie C = P;
      if (Decl != S.Function) {
        C = DWARFDie();
        for (DWARFDie K : S.Function.children())
          if (K.getTag() == dwarf::DW_TAG_formal_parameter &&
              K.getAttributeValueAsReferencedDie(
                  dwarf::DW_AT_abstract_origin) == P)
            C = K;
        if (!C)
          return notHereAt(E.Range, "'$arg" + Twine(E.Number) + "' ('" +
                                      Named.Name + "') is optimized out at " +
                                      S.Where);
      }
      auto L = locateVariable(S, C, Named);
      if (!L)
        return L.takeError();
      return std::make_pair(std::move(*L), typeOf(C));
    }
  return errorAt(E.Range, "'$arg" + Twine(E.Number) + "': " + S.Where +
                              " has " + Twine(N) + " parameter" +
                              (N == 1 ? "" : "s") + " in the debug info");
}

/// '$retval': where the function's type in the debug info puts it.
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalRetVal(const Site &S, const SpecExpr &E) {
  if (Error Err = checkRetvalPlace(Spec, E))
    return std::move(Err);
  // Where the value is follows from the function's type in the debug
  // info, by the same rules as the calling-convention resolver.
  const CallingConv &CC = ABI.conv(isUserProbe(Spec.Kind));
  DWARFDie RetType = typeOf(S.Subprogram);
  ValueType ST = scalarTypeOfDie(RetType, ABI.PointerSize);
  auto L = returnValueLocation(ST, ABI, CC, E.Range);
  if (!L)
    return L.takeError();
  if (L->Kind == ReturnLocation::InMemory)
    return std::make_pair(Located::memory(std::move(L->Expr)), RetType);
  if (L->Expr->Kind == FetchExpr::Pieces &&
      ST.Kind == ValueType::Aggregate) {
    // A structure in a register pair: pieces, as DW_OP_piece would say.
    Located P;
    P.Kind = Located::Pieces;
    for (size_t I = 0; I < L->Expr->Parts.size(); ++I)
      P.Parts.push_back({L->Expr->PartSizes[I],
                         std::make_unique<Located>(Located::value(
                             std::move(L->Expr->Parts[I]))),
                         L->Expr->PartSizes[I] * 8, 0});
    return std::make_pair(std::move(P), RetType);
  }
  return std::make_pair(Located::value(std::move(L->Expr)), RetType);
}

/// Before a member, element or dereference of the base (Loc, of Type,
/// T without typedefs): through a C++ reference, and through the pointer
/// a std::unique_ptr, std::shared_ptr or std::vector holds.
Error DwarfResolver::throughReferences(const Site &S, const SpecExpr &E,
                                       Located &Loc, DWARFDie &Type,
                                       DWARFDie &T) {
  std::string BaseText = text(E.Base->Range);
  // A C++ reference is its referent, as in C++ (and gdb): `it.id` of a
  // `const Item &it` reads through the address the reference holds.
  if (T && (T.getTag() == dwarf::DW_TAG_reference_type ||
            T.getTag() == dwarf::DW_TAG_rvalue_reference_type)) {
    auto Addr = valueOf(std::move(Loc), Type, *E.Base);
    if (!Addr)
      return Addr.takeError();
    Loc = Located::memory(std::move(*Addr));
    Type = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    T = stripTypedefs(Type);
  }
  // std::unique_ptr and std::shared_ptr: `p->x` and `*p` go through the
  // pointer they hold; std::vector: `v[i]` indexes its element array. The
  // pointer is found by the member names of libstdc++ and libc++ in the
  // DWARF, not at a fixed offset.
  if (E.Kind == SpecExpr::Arrow || E.Kind == SpecExpr::Deref ||
      E.Kind == SpecExpr::Index) {
    DWARFDie Rec = stripTypedefs(completeType(T));
    std::string Std = stdClassName(Rec);
    bool Smart = Std == "unique_ptr" || Std == "shared_ptr";
    bool Vector = Std == "vector";
    if ((Smart && E.Kind != SpecExpr::Index) ||
        (Vector && E.Kind == SpecExpr::Index)) {
      auto Inner =
          Smart ? findLibraryPointer(Rec, {"_M_head_impl", "_M_ptr", "__ptr_",
                                           "__value_"})
                : findLibraryPointer(Rec, {"_M_start", "__begin_"});
      if (!Inner)
        return errorAt(E.Base->Range,
                       "'" + BaseText + "' is a 'std::" + Std +
                           "' whose layout is not libstdc++'s or libc++'s "
                           "(no pointer member named " +
                           (Smart ? "_M_head_impl, _M_ptr or __ptr_"
                                  : "_M_start or __begin_") +
                           " in its debug info)");
      if (Loc.Kind == Located::Memory)
        Loc = Located::memory(
            FetchExpr::add(std::move(Loc.Expr), Inner->ByteOffset));
      else if (Loc.Kind != Located::Value || Inner->ByteOffset != 0)
        return errorAt(E.Base->Range, "'" + BaseText +
                                          "' is not in memory at " + S.Where);
      Type = typeOf(Inner->Die);
      T = stripTypedefs(Type);
    }
  }
  return Error::success();
}

/// '*base' of the base at Loc, of Type (T without typedefs).
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalDeref(const Site &S, const SpecExpr &E, Located Loc,
                         DWARFDie Type, DWARFDie T) {
  std::string BaseText = text(E.Base->Range);
  // *array is its first element, as in C.
  if (T && T.getTag() == dwarf::DW_TAG_array_type) {
    if (Loc.Kind != Located::Memory)
      return errorAt(E.Range, "'" + BaseText +
                                  "' is not in memory at this address");
    return std::make_pair(
        Located::memory(std::move(Loc.Expr)),
        T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type));
  }
  if (!isPointer(T))
    return errorAt(E.Range, "cannot dereference '" + BaseText +
                                "': it has type '" + typeName(Type) +
                                "', not a pointer");
  // A void pointer dereferences to an untyped location: the argument's
  // explicit type (":u64") says how much to read.
  DWARFDie Pointee = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
  if (Loc.Kind == Located::ImplicitPointer) {
    auto L = implicitPointee(S, std::move(Loc), 0, E);
    if (!L)
      return L.takeError();
    return std::make_pair(std::move(*L), Pointee);
  }
  auto P = valueOf(std::move(Loc), Type, *E.Base);
  if (!P)
    return P.takeError();
  return std::make_pair(Located::memory(std::move(*P)), Pointee);
}

/// 'base[N]' of the base at Loc, of Type (T without typedefs).
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalIndex(const Site &S, const SpecExpr &E, Located Loc,
                         DWARFDie Type, DWARFDie T) {
  std::string BaseText = text(E.Base->Range);
  if (T && T.getTag() == dwarf::DW_TAG_array_type) {
    DWARFDie Elem = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    auto ESize = typeSize(Elem, ABI.PointerSize);
    auto Total = typeSize(T, ABI.PointerSize);
    if (!ESize)
      return errorAt(E.Range, "the elements of '" + BaseText +
                                  "' have no known size");
    if (Total && uint64_t(E.Number) >= *Total / std::max<uint64_t>(*ESize, 1))
      return errorAt(E.NameRange, "index " + Twine(E.Number) +
                                      " is out of bounds of '" + BaseText +
                                      "' (" + Twine(*Total / *ESize) +
                                      " elements)");
    // A constant array (DW_AT_const_value, DW_OP_implicit_value): the
    // element's bytes of the value, or of the piece that holds them, as
    // for a member of a small struct.
    uint64_t At = E.Number * *ESize;
    if (Loc.Kind == Located::Value && At + *ESize <= 8)
      return std::make_pair(
          Located::value(FetchExpr::bitfield(std::move(Loc.Expr), 8, At * 8,
                                             *ESize * 8, false)),
          Elem);
    if (Loc.Kind == Located::Pieces) {
      uint64_t PieceAt = 0;
      for (Located::Piece &P : Loc.Parts) {
        // The element's bits within the piece's value (a DW_OP_bit_piece
        // starts BitOffset bits into it), all within its 64 bits.
        if (At >= PieceAt && At + *ESize <= PieceAt + P.Size &&
            P.Loc->Kind == Located::Value && P.Size <= 8 &&
            (At - PieceAt + *ESize) * 8 <= P.BitSize &&
            P.BitOffset + (At - PieceAt + *ESize) * 8 <= 64)
          return std::make_pair(
              Located::value(FetchExpr::bitfield(
                  std::move(P.Loc->Expr), 8,
                  P.BitOffset + (At - PieceAt) * 8, *ESize * 8, false)),
              Elem);
        PieceAt += P.Size;
      }
    }
    if (Loc.Kind != Located::Memory)
      return errorAt(E.Range, "'" + BaseText +
                                  "' is not in memory at this address, so "
                                  "it cannot be indexed");
    return std::make_pair(
        Located::memory(FetchExpr::add(std::move(Loc.Expr),
                                       E.Number * int64_t(*ESize))),
        Elem);
  }
  if (isPointer(T)) {
    DWARFDie Elem = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    auto ESize = typeSize(Elem, ABI.PointerSize);
    if (!ESize)
      return errorAt(E.Range, "cannot index '" + BaseText +
                                  "': it points to '" + typeName(Elem) +
                                  "', which has no size");
    if (Loc.Kind == Located::ImplicitPointer) {
      auto L = implicitPointee(S, std::move(Loc), E.Number * int64_t(*ESize),
                               E);
      if (!L)
        return L.takeError();
      return std::make_pair(std::move(*L), Elem);
    }
    auto P = valueOf(std::move(Loc), Type, *E.Base);
    if (!P)
      return P.takeError();
    return std::make_pair(
        Located::memory(FetchExpr::add(std::move(*P),
                                       E.Number * int64_t(*ESize))),
        Elem);
  }
  return errorAt(E.Range, "cannot index '" + BaseText + "': it has type '" +
                              typeName(Type) +
                              "', not an array or a pointer");
}

/// `v.size()` of the value Loc of type Type (T with typedefs stripped).
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalMethod(const Site &S, const SpecExpr &E, Located Loc,
                          DWARFDie Type, DWARFDie T) {
  std::string BaseText = text(E.Base->Range);
  // `v.size()` as gdb evaluates it: a std::vector's element count,
  // (end - begin) / sizeof(T) from the pointers libstdc++ (_M_start,
  // _M_finish) and libc++ (__begin_, __end_) keep; a string's length.
  // The value is a size_t with no DWARF type.
  DWARFDie Rec = stripTypedefs(completeType(T));
  if (stdClassName(Rec) == "vector") {
    auto Begin = findLibraryPointer(Rec, {"_M_start", "__begin_"});
    auto End = findLibraryPointer(Rec, {"_M_finish", "__end_"});
    if ((!Begin || !End) && Rec.getShortName() &&
        StringRef(Rec.getShortName()).starts_with("vector<bool"))
      return errorAt(E.NameRange,
                     "'" + BaseText + "' is a std::vector<bool>, an array "
                     "of bits without element pointers; its size() is not "
                     "supported");
    if (!Begin || !End)
      return errorAt(E.NameRange,
                     "'" + BaseText + "' is a 'std::vector' whose layout "
                     "is not libstdc++'s or libc++'s (no pointer members "
                     "_M_start and _M_finish or __begin_ and __end_ in its "
                     "debug info)");
    DWARFDie Elem = stripTypedefs(typeOf(Begin->Die))
                        .getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    auto ESize = typeSize(Elem, ABI.PointerSize);
    if (!ESize || *ESize == 0)
      return errorAt(E.NameRange, "the elements of '" + BaseText +
                                      "' have no known size");
    if (Loc.Kind != Located::Memory)
      return errorAt(E.Base->Range, "'" + BaseText +
                                        "' is not in memory at " + S.Where);
    auto EndPtr = FetchExpr::deref(
        FetchExpr::add(Loc.Expr->clone(), End->ByteOffset), ABI.PointerSize);
    auto BeginPtr = FetchExpr::deref(
        FetchExpr::add(std::move(Loc.Expr), Begin->ByteOffset),
        ABI.PointerSize);
    auto Bytes = FetchExpr::binary(FetchExpr::Minus, std::move(EndPtr),
                                   std::move(BeginPtr));
    if (*ESize > 1)
      Bytes = FetchExpr::binary(FetchExpr::DivU, std::move(Bytes),
                                FetchExpr::constant(int64_t(*ESize)));
    return std::make_pair(Located::value(std::move(Bytes)), DWARFDie());
  }
  if (isCountedString(T, Rec)) {
    auto C = countedString(S, Loc, T, *E.Base, E.NameRange);
    if (!C)
      return C.takeError();
    return std::make_pair(Located::value(std::move(C->Length)), DWARFDie());
  }
  // Rust: a Vec<T> keeps its element count in `len` (beside `buf`), a
  // slice &[T] in `length` (beside `data_ptr`); gdb shows both as members.
  if (const char *LenName = rustLengthMember(Rec)) {
    auto M = findMember(Rec, LenName);
    if (M && !M->IsStatic && M->VirtualBase.empty())
      return memberOf(S, E, std::move(Loc), Type, *M, /*Arrow=*/false,
                      BaseText);
  }
  if (isPointer(T))
    return errorAt(E.Range, "'" + BaseText + "' is a pointer; use '" +
                                BaseText + "->" + E.Name + "()'");
  return errorAt(E.NameRange,
                 "'" + E.Name + "()' is known for vectors (std::vector, "
                 "Rust Vec: the element count), Rust slices (their length) "
                 "and strings (std::string, std::string_view, Rust &str "
                 "and String: their length); '" + BaseText +
                     "' has type '" + typeName(Type) + "'");
}

/// 'base->m' and 'base.m' of the base at Loc, of Type (T without
/// typedefs).
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::evalMember(const Site &S, const SpecExpr &E, Located Loc,
                          DWARFDie Type, DWARFDie T) {
  std::string BaseText = text(E.Base->Range);
  bool Arrow = E.Kind == SpecExpr::Arrow;
  DWARFDie Record = T;
  if (Arrow) {
    if (!isPointer(T))
      return errorAt(E.Range,
                     "'" + BaseText + "' has type '" + typeName(Type) +
                         "', not a pointer" +
                         (findMember(T, E.Name)
                              ? "; use '" + BaseText + "." + E.Name + "'"
                              : std::string()));
    Record = stripTypedefs(
        T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type));
  } else if (isPointer(T)) {
    return errorAt(E.Range, "'" + BaseText + "' is a pointer; use '" +
                                BaseText + "->" + E.Name + "'");
  }
  // Declared only in this unit: its definition is in another.
  Record = stripTypedefs(completeType(Record));
  auto M = findMember(Record, E.Name);
  if (!M)
    return memberNotFound(E, Record, Arrow, BaseText);
  if (!M->VirtualBase.empty())
    return errorAt(E.NameRange,
                   "member '" + E.Name + "' of '" + typeName(Record) +
                       "' is in its virtual base '" + M->VirtualBase +
                       "', whose offset in the object is read from the "
                       "vtable at run time; reading it is not supported");
  if (M->IsStatic)
    return staticMember(S, E, Record, *M);
  return memberOf(S, E, std::move(Loc), Type, *M, Arrow, BaseText);
}

/// Why Record has no readable member E.Name.
Error DwarfResolver::memberNotFound(const SpecExpr &E, DWARFDie Record,
                                    bool Arrow, StringRef BaseText) {
  std::vector<std::string> Names = memberNames(Record);
  bool IsRecord = Record && (Record.getTag() == dwarf::DW_TAG_structure_type ||
                             Record.getTag() == dwarf::DW_TAG_union_type ||
                             Record.getTag() == dwarf::DW_TAG_class_type);
  if (!IsRecord)
    return errorAt(E.Range, "'" + BaseText + "' " +
                                (Arrow ? "points to" : "has type") +
                                " '" + typeName(Record) +
                                "', not a struct or union");
  if (Names.empty() && Record.find(dwarf::DW_AT_declaration))
    return errorAt(E.Range, "'" + typeName(Record) +
                                "' is only declared in the debug info: "
                                "no unit defines it");
  if (Names.empty())
    return errorAt(E.Range, "'" + typeName(Record) + "' has no members");
  if (llvm::is_contained(Names, E.Name))
    return errorAt(E.NameRange,
                   "member '" + E.Name + "' of '" + typeName(Record) +
                       "' has a location or bit layout that cannot be "
                       "read (a bit-field of 0 or more than 64 bits, "
                       "bits outside its storage unit, or a DWARF 2 "
                       "location expression)");
  std::string Msg = "'" + typeName(Record) + "' has no member '" +
                    E.Name + "'";
  if (auto Best = didYouMean(E.Name, Names))
    Msg += "; did you mean '" + *Best + "'?";
  Msg += " (members: " + joinNames(Names) + ")";
  return errorAt(E.NameRange, Msg);
}

/// A static data member: a global, whatever the object.
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::staticMember(const Site &S, const SpecExpr &E,
                            DWARFDie Record, const MemberInfo &Member) {
  const MemberInfo *M = &Member;
  // A static data member is a global, whatever the object.
  DWARFDie Decl = M->Die;
  DWARFDie Def = findVariableDefinition(S.Unit, [&](DWARFDie D) {
    DWARFDie Spec =
        D.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
    return (Spec && Spec.getOffset() == Decl.getOffset()) ||
           (D.getOffset() == Decl.getOffset());
  });
  if (!Def)
    return errorAt(E.NameRange, "static member '" + E.Name + "' of '" +
                                    typeName(Record) +
                                    "' is defined in no unit of " +
                                    DI.targetPath());
  return globalValue(S, Def, E);
}

/// Member M of the object at Loc, of Type (through it if Arrow).
Expected<std::pair<Located, DWARFDie>>
DwarfResolver::memberOf(const Site &S, const SpecExpr &E, Located Loc,
                        DWARFDie Type, const MemberInfo &Member, bool Arrow,
                        StringRef BaseText) {
  const MemberInfo *M = &Member;
  DWARFDie MT = typeOf(M->Die);
  Located Out;
  if (Arrow && Loc.Kind == Located::ImplicitPointer) {
    // p->m of a pointer the compiler removed: the member of what it
    // points to, wherever that lives.
    auto L = implicitPointee(S, std::move(Loc), 0, E);
    if (!L)
      return L.takeError();
    Loc = std::move(*L);
    Arrow = false;
  }
  if (Arrow) {
    auto P = valueOf(std::move(Loc), Type, *E.Base);
    if (!P)
      return P.takeError();
    Out = Located::memory(FetchExpr::add(std::move(*P), M->ByteOffset));
  } else if (Loc.Kind == Located::Memory) {
    Out = Located::memory(FetchExpr::add(std::move(Loc.Expr), M->ByteOffset));
  } else if (Loc.Kind == Located::Value && M->IsBitfield) {
    // A bitfield of a small struct held in a register.
    if (M->ByteOffset + M->StorageSize > 8)
      return errorAt(E.Range, "'" + BaseText +
                                  "' is in a register; its bitfield '" +
                                  E.Name + "' is not within 8 bytes");
    auto VT = valueTypeOf(MT, ABI.PointerSize);
    bool Signed = VT && VT->Signed;
    if (!VT)
      consumeError(VT.takeError());
    return std::make_pair(
        Located::value(FetchExpr::bitfield(
            std::move(Loc.Expr), 8, M->ByteOffset * 8 + M->BitOffset,
            M->BitSize, Signed)),
        MT);
  } else if (Loc.Kind == Located::Value) {
    // A small struct held in a register: the member's bytes of it.
    auto MSize = typeSize(MT, ABI.PointerSize);
    if (!MSize || M->ByteOffset + *MSize > 8)
      return errorAt(E.Range, "'" + BaseText +
                                  "' is in a register; its member '" +
                                  E.Name + "' is not within 8 bytes");
    Out = Located::value(FetchExpr::bitfield(
        std::move(Loc.Expr), 8, M->ByteOffset * 8, *MSize * 8, false));
  } else if (Loc.Kind == Located::Pieces) {
    // Find the piece that holds the member.
    uint64_t At = 0;
    auto MSize = typeSize(MT, ABI.PointerSize).value_or(0);
    for (Located::Piece &P : Loc.Parts) {
      if (M->ByteOffset >= At && M->ByteOffset + MSize <= At + P.Size) {
        // Bits of the member within what the piece describes.
        uint64_t Pos = P.BitOffset + (M->ByteOffset - At) * 8;
        uint64_t Bits = MSize * 8;
        if (P.BitSize && (M->ByteOffset - At) * 8 + Bits > P.BitSize)
          break; // beyond a DW_OP_bit_piece's bits: not described
        if (P.Loc->Kind == Located::Memory) {
          if (P.BitOffset % 8)
            return notHereAt(E.Range,
                             "member '" + E.Name + "' of '" + BaseText +
                                 "' is in memory at a bit offset (" +
                                 Twine(P.BitOffset) + ") at " + S.Where);
          Out = Located::memory(
              FetchExpr::add(std::move(P.Loc->Expr), Pos / 8));
        } else if (P.Loc->Kind == Located::Value) {
          const FetchExpr &V = *P.Loc->Expr;
          if (Pos + Bits <= 64 && P.Size <= 8) {
            Out = Located::value(FetchExpr::bitfield(
                std::move(P.Loc->Expr), 8, Pos, Bits, false));
          } else if (V.Kind == FetchExpr::Const && V.Value == 0) {
            // A zero stack value in a piece wider than a register
            // (clang's `DW_OP_lit0, DW_OP_stack_value, DW_OP_piece 0x18`
            // for members a memset cleared): every byte of it is zero, as
            // gdb shows it.
            Out = Located::value(FetchExpr::constant(0));
          } else {
            // DWARF gives a stack value (or register) of 8 bytes for a
            // wider piece: the bytes past it are not described (gdb shows
            // the whole piece as zeros), so nothing here is certain.
            return notHereAt(E.Range,
                             "member '" + E.Name + "' of '" + BaseText +
                                 "' is in a " + Twine(P.Size) +
                                 "-byte piece that DWARF describes by an "
                                 "8-byte value at " + S.Where);
          }
        }
        break;
      }
      At += P.Size;
    }
    if (Out.Kind == Located::Optimized)
      return notHereAt(E.Range, "member '" + E.Name + "' of '" + BaseText +
                                  "' is optimized out at " + S.Where);
  } else {
    return notHereAt(E.Range, "'" + BaseText + "' is optimized out at " +
                                S.Where);
  }
  if (M->IsBitfield) {
    if (Out.Kind != Located::Memory)
      return errorAt(E.Range, "bitfield '" + E.Name +
                                  "' of a value held in registers is not "
                                  "supported");
    auto VT = valueTypeOf(MT, ABI.PointerSize);
    bool Signed = VT && VT->Signed;
    if (!VT)
      consumeError(VT.takeError());
    Out = Located::value(FetchExpr::bitfield(
        FetchExpr::deref(std::move(Out.Expr), M->StorageSize),
        M->StorageSize, M->BitOffset, M->BitSize, Signed));
  }
  return std::make_pair(std::move(Out), MT);
}

/// The bytes of an aggregate as a fetch tree the prologue copies: Deref
/// blocks for memory, register values for register pieces.
static Expected<std::unique_ptr<FetchExpr>>
aggregateBytes(Located L, unsigned Size) {
  switch (L.Kind) {
  case Located::Memory:
    return FetchExpr::deref(std::move(L.Expr), Size);
  case Located::Value:
    if (Size <= 8)
      return std::move(L.Expr);
    if (L.Expr->Kind == FetchExpr::Const && L.Expr->Value == 0) {
      // A zero stack value in a piece wider than a register (memberOf):
      // zeros, in parts of at most 8 bytes.
      std::vector<std::unique_ptr<FetchExpr>> Parts;
      std::vector<unsigned> Sizes;
      for (unsigned Left = Size; Left;) {
        unsigned N = Left >= 8 ? 8 : Left >= 4 ? 4 : Left >= 2 ? 2 : 1;
        Parts.push_back(FetchExpr::constant(0));
        Sizes.push_back(N);
        Left -= N;
      }
      return FetchExpr::pieces(std::move(Parts), std::move(Sizes));
    }
    break;
  case Located::Pieces: {
    std::vector<std::unique_ptr<FetchExpr>> Parts;
    std::vector<unsigned> Sizes;
    for (Located::Piece &P : L.Parts) {
      // Bytes are copied whole: a DW_OP_bit_piece that is not whole bytes
      // from bit 0 would shift what follows it.
      if (P.BitOffset != 0 || (P.BitSize && P.BitSize != P.Size * 8))
        return createStringError(inconvertibleErrorCode(),
                                 "part of it is a DW_OP_bit_piece that is "
                                 "not whole bytes");
      auto Sub = aggregateBytes(std::move(*P.Loc), P.Size);
      if (!Sub)
        return Sub.takeError();
      Parts.push_back(std::move(*Sub));
      Sizes.push_back(P.Size);
    }
    return FetchExpr::pieces(std::move(Parts), std::move(Sizes));
  }
  case Located::ImplicitPointer:
    return createStringError(inconvertibleErrorCode(),
                             "part of it is a pointer the compiler optimized "
                             "away (DW_OP_implicit_pointer)");
  case Located::Optimized:
    return createStringError(inconvertibleErrorCode(),
                             "part of it is optimized out");
  }
  return createStringError(inconvertibleErrorCode(),
                           "a register piece is wider than a register");
}

Expected<std::unique_ptr<FetchExpr>>
DwarfResolver::aggregateExpr(Located L, unsigned Size, const SpecExpr &E) {
  auto B = aggregateBytes(std::move(L), Size);
  if (!B)
    return errorAt(E.Range, "cannot copy '" + text(E.Range) + "': " +
                                toString(B.takeError()));
  return B;
}

Expected<CountedString>
DwarfResolver::countedString(const Site &S, const Located &L, DWARFDie T,
                             const SpecExpr &E, TextRange At) {
  DWARFDie Rec = completeType(T);
  std::string Std = stdClassName(Rec);
  // The value of the Size-byte member at Off: in memory, or in the register
  // piece that holds it (a string_view passed by value travels in two
  // registers).
  auto MemberValue = [&](uint64_t Off,
                         unsigned Size) -> std::unique_ptr<FetchExpr> {
    if (L.Kind == Located::Memory)
      return FetchExpr::deref(FetchExpr::add(L.Expr->clone(), Off), Size);
    if (L.Kind != Located::Pieces)
      return nullptr;
    uint64_t PieceAt = 0;
    for (const Located::Piece &Part : L.Parts) {
      if (Off >= PieceAt && Off + Size <= PieceAt + Part.Size &&
          Part.BitSize == Part.Size * 8 && Part.BitOffset == 0) {
        if (Part.Loc->Kind == Located::Memory)
          return FetchExpr::deref(
              FetchExpr::add(Part.Loc->Expr->clone(), Off - PieceAt), Size);
        // A value is at most a register's 8 bytes (a wider piece of one
        // is not described past them).
        if (Part.Loc->Kind == Located::Value && Off - PieceAt + Size <= 8)
          return FetchExpr::bitfield(Part.Loc->Expr->clone(), 8,
                                     (Off - PieceAt) * 8, Size * 8, false);
        return nullptr;
      }
      PieceAt += Part.Size;
    }
    return nullptr;
  };
  // A member of a memory object: a bitfield or a whole integer or pointer.
  auto Field = [&](uint64_t Base,
                   const MemberInfo &M) -> std::unique_ptr<FetchExpr> {
    uint64_t Off = Base + M.ByteOffset;
    if (M.IsBitfield)
      return FetchExpr::bitfield(
          FetchExpr::deref(FetchExpr::add(L.Expr->clone(), Off),
                           M.StorageSize),
          M.StorageSize, M.BitOffset, M.BitSize, false);
    return MemberValue(Off, typeSize(typeOf(M.Die), ABI.PointerSize)
                                .value_or(ABI.PointerSize));
  };
  CountedString C;
  if (Std == "basic_string") {
    if (L.Kind != Located::Memory)
      return errorAt(E.Range,
                     "'" + text(E.Range) + "' is not in memory at " + S.Where);
    // libstdc++: the characters behind _M_dataplus._M_p (inside the object
    // for a short string, on the heap for a long one), the length in
    // _M_string_length.
    if (auto Chars = findLibraryPointer(Rec, {"_M_p"})) {
      auto Len = findLibraryLength(Rec, {"_M_string_length"});
      if (!Len)
        return errorAt(At, "'" + typeName(T) + "' has _M_dataplus._M_p but "
                           "no _M_string_length: not a libstdc++ layout "
                           "bpfprobe knows");
      C.Chars = MemberValue(Chars->ByteOffset, ABI.PointerSize);
      C.Length = Field(0, *Len);
      return std::move(C);
    }
    // libc++: a union of a long form (__l: flag bit __is_long_, __size_,
    // __data_ pointer) and a short one (__s: __size_ in the bits beside
    // the flag, the characters in __data_ inside the object). The flag
    // picks one with a select.
    auto Long = findLibraryRecord(Rec, {"__l"});
    auto Short = findLibraryRecord(Rec, {"__s"});
    std::optional<MemberInfo> IsLong, LSize, LData, SSize, SData;
    if (Long && Short) {
      DWARFDie LT = typeOf(Long->Die), ST = typeOf(Short->Die);
      IsLong = findMember(LT, "__is_long_");
      LSize = findMember(LT, "__size_");
      LData = findMember(LT, "__data_");
      SSize = findMember(ST, "__size_");
      SData = findMember(ST, "__data_");
    }
    DWARFDie SDataType =
        SData ? stripTypedefs(typeOf(SData->Die)) : DWARFDie();
    if (!IsLong || !IsLong->IsBitfield || IsLong->BitSize != 1 || !LSize ||
        LSize->IsBitfield || !LData || LData->IsBitfield ||
        !isPointer(stripTypedefs(typeOf(LData->Die))) || !SSize || !SData ||
        !SDataType || SDataType.getTag() != dwarf::DW_TAG_array_type)
      return errorAt(At,
                     "this std::string layout is not supported: bpfprobe "
                     "reads libstdc++'s (_M_dataplus._M_p, _M_string_length) "
                     "and libc++'s with the flag bit __is_long_ (__l and __s "
                     "with __size_ and __data_); '" + typeName(T) +
                         "' has neither");
    std::unique_ptr<FetchExpr> Flag = Field(Long->ByteOffset, *IsLong);
    C.Length = FetchExpr::select(Flag->clone(), Field(Long->ByteOffset, *LSize),
                                 Field(Short->ByteOffset, *SSize));
    C.Chars = FetchExpr::select(
        std::move(Flag), Field(Long->ByteOffset, *LData),
        FetchExpr::add(L.Expr->clone(), Short->ByteOffset + SData->ByteOffset));
    if (!C.Length || !C.Chars)
      return notHereAt(E.Range, "the length or the characters of '" +
                                    text(E.Range) + "' cannot be read at " +
                                    S.Where);
    return std::move(C);
  }
  // A pointer and a length, not NUL-terminated: std::string_view
  // (libstdc++ _M_str/_M_len, libc++ __data_/__size_), Rust &str
  // (data_ptr/length) and String (vec.buf.ptr.pointer/vec.len).
  auto Ptr =
      findLibraryPointer(Rec, {"_M_str", "__data_", "data_ptr", "pointer"});
  auto Len = findLibraryLength(Rec, {"_M_len", "__size_", "length", "len"});
  if (!Ptr || !Len)
    return errorAt(At, "'" + typeName(T) +
                           "' needs its pointer and length members, which its "
                           "debug info does not have under the names bpfprobe "
                           "knows (_M_str/_M_len, __data_/__size_, "
                           "data_ptr/length, pointer/len)");
  auto LenSize = typeSize(typeOf(Len->Die), ABI.PointerSize);
  if (!LenSize || *LenSize > 8)
    return errorAt(At, "the length member of '" + typeName(T) +
                           "' has no usable size");
  // Chars stays null when only the length is known here (what size()
  // needs); the caller that reads the characters refuses that.
  C.Length = MemberValue(Len->ByteOffset, *LenSize);
  C.Chars = MemberValue(Ptr->ByteOffset, ABI.PointerSize);
  if (!C.Length)
    return notHereAt(E.Range, "the length of '" + text(E.Range) +
                                  "' is optimized out at " + S.Where);
  return std::move(C);
}

/// argPlan for an argument fetched ':string' (or ':ustring'): Loc and Type
/// are where Arg is and its DWARF type, P the plan with its names filled in.
Expected<ArgPlan> DwarfResolver::stringArgPlan(const Site &S,
                                               const ProbeArg &Arg,
                                               Located Loc, DWARFDie Type,
                                               ArgPlan P) {
  const SpecExpr &E = *Arg.Expr;
  const ValueType *FT = &*Arg.FetchType;
  if (E.Kind == SpecExpr::Method)
    return errorAt(Arg.FetchTypeRange,
                   "'" + text(E.Range) + "' is a number; ':" + FT->Text +
                       "' needs a string");
  DWARFDie T = stripTypedefs(Type);
  // A reference to a library string is the string.
  if (T && (T.getTag() == dwarf::DW_TAG_reference_type ||
            T.getTag() == dwarf::DW_TAG_rvalue_reference_type)) {
    DWARFDie Referent = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
    if (!stdClassName(completeType(Referent)).empty()) {
      auto Addr = valueOf(std::move(Loc), Type, E);
      if (!Addr)
        return Addr.takeError();
      Loc = Located::memory(std::move(*Addr));
      Type = Referent;
      T = stripTypedefs(Type);
    }
  }
  // A string that is a pointer and a length: its characters, up to the
  // string limit, and its length beside them.
  if (isCountedString(T, completeType(T))) {
    auto C = countedString(S, Loc, T, E, Arg.FetchTypeRange);
    if (!C)
      return C.takeError();
    if (!C->Chars)
      return notHereAt(E.Range, "the pointer of '" + text(E.Range) +
                                    "' is optimized out at " + S.Where +
                                    " (its length is not: '" +
                                    text(E.Range) + ".size()')");
    P.Expr = std::move(C->Chars);
    P.Length = std::move(C->Length);
    P.Type.Kind = ValueType::String;
    P.Type.Size = StringFetchSize;
    P.UserString =
        Arg.FetchUserString && !isUserProbe(Spec.Kind);
    return std::move(P);
  }
  // A char array in memory is its own address; a pointer is read. The
  // characters must be bytes: a string of ints would be garbage.
  if (T && (T.getTag() == dwarf::DW_TAG_array_type || isPointer(T))) {
    DWARFDie Elem = stripTypedefs(
        T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type));
    bool Bytes = !Elem; // void *
    if (Elem && Elem.getTag() == dwarf::DW_TAG_base_type)
      Bytes = typeSize(Elem, ABI.PointerSize).value_or(0) == 1;
    if (!Bytes)
      return errorAt(Arg.FetchTypeRange,
                     "':" + FT->Text + "' needs a pointer to char or a "
                     "char array; '" + text(E.Range) + "' is a '" +
                     typeName(Type) + "'");
  }
  std::unique_ptr<FetchExpr> Addr;
  if (T && T.getTag() == dwarf::DW_TAG_array_type &&
      Loc.Kind == Located::Memory) {
    Addr = std::move(Loc.Expr);
  } else if (isPointer(T) || !T) {
    auto V = valueOf(std::move(Loc), T ? Type : DWARFDie(), E);
    if (!V)
      return V.takeError();
    Addr = std::move(*V);
  } else {
    return errorAt(Arg.FetchTypeRange,
                   "':" + FT->Text + "' needs a pointer or a char array; '" +
                       text(E.Range) + "' is a '" + typeName(Type) + "'");
  }
  P.Expr = std::move(Addr);
  P.Type.Kind = ValueType::String;
  P.Type.Size = StringFetchSize;
  P.UserString =
      Arg.FetchUserString && !isUserProbe(Spec.Kind);
  return std::move(P);
}

/// The type argPlan fetches Arg (of DWARF type Type) as: its ':type' when it
/// has one, else its own; names it in P.CType where that differs.
Expected<ValueType> DwarfResolver::argValueType(const ProbeArg &Arg,
                                                DWARFDie Type, ArgPlan &P) {
  const SpecExpr &E = *Arg.Expr;
  const ValueType *FT = Arg.FetchType ? &*Arg.FetchType : nullptr;
  ValueType VT;
  if (FT && isAggregate(completeType(Type))) {
    // A struct, union or array is copied whole or not at all: reading a
    // scalar's worth of it would depend on where it lives.
    DWARFDie Whole = completeType(Type);
    return errorAt(Arg.FetchTypeRange,
                   "'" + text(E.Range) + "' is a '" + typeName(Whole) +
                       "', not a scalar: fetch one of its members or "
                       "elements, or leave out ':" + FT->Text +
                       "' to copy it whole");
  }
  if (FT) {
    VT.Kind = FT->Kind; // Int, or Pointer for hex
    VT.Size = FT->Size;
    VT.Signed = FT->Signed;
    P.CType = FT->Text;
  } else if (!stripTypedefs(Type)) {
    if (E.Kind == SpecExpr::Method) {
      // size(): a size_t.
      VT.Kind = ValueType::Int;
      VT.Size = ABI.PointerSize;
      P.CType = "size_t";
    } else if (E.Kind == SpecExpr::Reg) {
      VT.Kind = ValueType::Int;
      VT.Size = ABI.reg(ABI.findReg(E.Name)).Size;
    } else {
      return errorAt(E.Range, "'" + text(E.Range) + "' has no type (void); "
                              "give one, e.g. ':u64'");
    }
  } else {
    auto V = valueTypeOf(Type, ABI.PointerSize);
    if (!V)
      return errorAt(E.Range, "cannot fetch '" + text(E.Range) + "': " +
                                  toString(V.takeError()));
    VT = *V;
  }
  return VT;
}

Expected<ArgPlan> DwarfResolver::argPlan(const Site &S, const ProbeArg &Arg) {
  if (Arg.Form == ProbeArg::CType)
    return errorAt(Arg.Range, "C type arguments are for entry probes "
                              "without debug info; name the values instead");
  const SpecExpr &E = *Arg.Expr;
  auto R = evalExpr(S, E, 0);
  if (!R)
    return R.takeError();
  auto [Loc, Type] = std::move(*R);
  ArgPlan P;
  P.Name = Arg.Text;
  P.Text = Arg.Text;
  P.CType = typeName(Type);

  const ValueType *FT = Arg.FetchType ? &*Arg.FetchType : nullptr;
  if (FT && FT->Kind == ValueType::String)
    return stringArgPlan(S, Arg, std::move(Loc), Type, std::move(P));

  auto VTOr = argValueType(Arg, Type, P);
  if (!VTOr)
    return VTOr.takeError();
  ValueType VT = *VTOr;

  if (VT.Kind == ValueType::Aggregate) {
    // Copied whole: a memory block (Deref of the aggregate's size), or the
    // register and memory pieces DWARF lists, in order.
    auto Block = aggregateExpr(std::move(Loc), VT.Size, E);
    if (!Block)
      return Block.takeError();
    P.Expr = std::move(*Block);
    P.Type = VT;
    return std::move(P);
  }
  if (Loc.Kind == Located::Memory) {
    P.Expr = FetchExpr::deref(std::move(Loc.Expr), VT.Size);
  } else {
    auto V = valueOf(std::move(Loc), Type, E);
    if (!V)
      return V.takeError();
    P.Expr = std::move(*V);
  }
  P.Type = VT;
  return std::move(P);
}

/// Entry values read from an entry program (DW_OP_entry_value that no call
/// site gives; EntryValue.cpp): numbers their slots, and names the entry
/// program (the function's entry) and the frame that pairs it with this
/// site: the stack pointer the function had at its entry, the CFA at the
/// site less the return address a call pushed.
Error DwarfResolver::addEntryProgram(const Site &S, SitePlan &Plan) {
  std::vector<FetchExpr *> Slots;
  std::function<void(FetchExpr &)> Walk = [&](FetchExpr &E) {
    if (E.Kind == FetchExpr::EntrySlot) {
      E.Value = Slots.size();
      Slots.push_back(&E);
      return;
    }
    if (E.Operand)
      Walk(*E.Operand);
    for (auto &P : E.Parts)
      Walk(*P);
  };
  for (ArgPlan &A : Plan.Args) {
    Walk(*A.Expr);
    if (A.Length)
      Walk(*A.Length);
  }
  if (Slots.empty())
    return Error::success();
  TextRange R = Spec.HasArgList ? Spec.ArgListRange : Spec.Place.SymbolRange;
  auto Refuse = [&](const Twine &Why) {
    return errorAt(R, "entry values at " + S.Where +
                          " are given by no call site and " + Why);
  };
  if (Slots.size() > MaxEntryValues)
    return Refuse("more than " + Twine(MaxEntryValues) +
                  " of them would need an entry program");
  std::optional<uint64_t> Entry = functionEntry(S.Subprogram);
  if (!Entry || *Entry != S.Sym.Address)
    return Refuse("symbol '" + S.Sym.Name +
                  "' does not start at the function's entry, where an "
                  "entry program would read them");
  auto CFA = cfaAt(locationContext(S));
  if (!CFA)
    return Refuse("the frame at the probe is unknown (" +
                  toString(CFA.takeError()) + ")");
  ProbeKind EntryKind = isUserProbe(Spec.Kind) ? ProbeKind::UProbe
                                               : ProbeKind::KProbe;
  Plan.EntryKind = probeKindName(EntryKind).str();
  Plan.EntrySection =
      libbpfSectionName(EntryKind, Spec.Binary, S.Sym.Name, 0);
  Plan.EntryFrame = FetchExpr::add(std::move(*CFA),
                                   -int64_t(ABI.ReturnAddressBytes));
  return Error::success();
}

Expected<SitePlan> DwarfResolver::plan(const Site &S) {
  SitePlan Plan;
  Plan.Kind = probeKindName(Spec.Kind).str();
  Plan.Target = Spec.Binary;
  Plan.Symbol = S.Sym.Name;
  Plan.Offset = S.Offset;
  Plan.Address = S.Address;
  Plan.SymbolSize = S.Sym.Size;
  Plan.Arch = ABI.Name;
  // What the runtime compares at attach time: the probed binary's (or the
  // running kernel's) build-id, which the debug file was checked against.
  Plan.BuildId = DI.targetBuildId().empty() ? DI.buildId() : DI.targetBuildId();
  Plan.Source = "dwarf";
  Plan.Spec = Spec.Text;
  Plan.Space = isUserProbe(Spec.Kind) ? AddrSpace::User : AddrSpace::Kernel;
  Plan.Section =
      libbpfSectionName(Spec.Kind, Spec.Binary, S.Sym.Name, S.Offset);
  for (const ProbeArg &Arg : Spec.Args) {
    auto A = argPlan(S, Arg);
    if (!A)
      return A.takeError();
    Plan.Args.push_back(std::move(*A));
  }
  if (Error E = addEntryProgram(S, Plan))
    return std::move(E);
  if (Error E = checkStackBudget(Plan, Spec))
    return std::move(E);
  return std::move(Plan);
}

/// Resolve(), failing with DwarfUnitCheck's error when it needed a unit the
/// check refused: that unit was left out (its DIEs would have been read
/// past the section), so whatever Resolve() found without it may be wrong.
/// The error points at the probe's binary (or kind), as the debug file's
/// other refusals do.
template <typename T>
Expected<T> refusingCorrupt(DebugInfo &DI, const ProbeSpec *Spec,
                            function_ref<Expected<T>()> Resolve) {
  DwarfUnitCheck &Check = DI.index().check();
  consumeError(Check.takeFailure()); // another resolution's
  Expected<T> Result = Resolve();
  if (Error E = Check.takeFailure()) {
    if (!Result)
      consumeError(Result.takeError());
    std::string Msg = DI.debugPath() + ": " + toString(std::move(E));
    if (!Spec)
      return createStringError(inconvertibleErrorCode(), Msg);
    return errorAt(isUserProbe(Spec->Kind) ? Spec->BinaryRange
                                           : Spec->KindRange,
                   Msg);
  }
  return Result;
}

Expected<std::vector<SitePlan>>
resolveSites(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI,
             std::vector<ResolveWarning> *Warnings) {
  DwarfResolver R(Spec, DI, ABI);
  auto Sites = R.sites();
  if (!Sites)
    return Sites.takeError();
  // Every path of sites() finds at least one address or says why not; a
  // corrupt debug file can still leave none (a function whose ranges and
  // symbol both vanished), and that is a refusal, not an empty probe.
  if (Sites->empty())
    return errorAt(Spec.Place.Form == ProbePlace::SymbolOffset
                       ? Spec.Place.SymbolRange
                       : Spec.Place.LineRange,
                   "the debug info gives no code address for this place");
  std::vector<SitePlan> Plans;
  // A copy of an inlined line where a value has no location is left out
  // (perf does the same), as long as another copy has every value.
  std::vector<ResolveWarning> Skipped;
  for (const Site &S : *Sites) {
    auto P = R.plan(S);
    if (!P) {
      Error E = P.takeError();
      if (Sites->size() == 1 || !E.isA<NotHereError>())
        return std::move(E);
      handleAllErrors(std::move(E), [&](const NotHereError &N) {
        Skipped.push_back({N.range(), N.text()});
      });
      continue;
    }
    Plans.push_back(std::move(*P));
  }
  if (Plans.empty())
    return errorAt(Skipped.front().Range,
                   Skipped.front().Message +
                       (Skipped.size() == 2
                            ? Twine(" (and at the other site of this place)")
                        : Skipped.size() > 2
                            ? " (and at the " + Twine(Skipped.size() - 1) +
                                  " other sites of this place)"
                            : Twine()));
  // One warning for all the copies left out, with the first one's reason:
  // one per copy was a screenful at a line with seven copies.
  if (!Skipped.empty() && Warnings) {
    ResolveWarning W = std::move(Skipped.front());
    W.Message = "left out " +
                (Skipped.size() == 1 ? std::string("one")
                                     : std::to_string(Skipped.size())) +
                " of the " + std::to_string(Sites->size()) +
                " sites: " + W.Message;
    if (Skipped.size() > 1)
      W.Message += "; " + std::to_string(Skipped.size() - 1) +
                   " more left out ('bpfprobe-resolve --vars' shows each "
                   "site's variables)";
    Warnings->push_back(std::move(W));
  }
  return std::move(Plans);
}

} // namespace

Expected<std::vector<SitePlan>>
resolveWithDwarf(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI,
                 std::vector<ResolveWarning> *Warnings) {
  return refusingCorrupt<std::vector<SitePlan>>(
      DI, &Spec, [&] { return resolveSites(Spec, DI, ABI, Warnings); });
}

bool describesFunction(const ProbeSpec &Spec, DebugInfo &DI) {
  if (Spec.Place.Form != ProbePlace::SymbolOffset)
    return true;
  // No symbol of that name: the DWARF resolver says why (an inline-only
  // function has no return, a misspelt name gets a suggestion).
  bool AnySymbol = false;
  for (const ElfSymbol &S : DI.findSymbol(Spec.Place.Symbol)) {
    if (!S.IsFunction)
      continue;
    AnySymbol = true;
    DWARFUnit *U = DI.unitAt(S.Address);
    if (U && U->getSubroutineForAddress(S.Address))
      return true;
    // A unit the check refused: resolveWithDwarf says so.
    if (Error E = DI.index().check().takeFailure()) {
      consumeError(std::move(E));
      return true;
    }
  }
  return !AnySymbol;
}

Expected<std::vector<SiteVariables>>
listVariables(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI) {
  return refusingCorrupt<std::vector<SiteVariables>>(
      DI, &Spec, [&]() -> Expected<std::vector<SiteVariables>> {
        DwarfResolver R(Spec, DI, ABI);
        auto Sites = R.sites();
        if (!Sites)
          return Sites.takeError();
        std::vector<SiteVariables> Out;
        for (const Site &S : *Sites)
          Out.push_back({S.Where, S.Address, R.visible(S)});
        return std::move(Out);
      });
}

static Expected<std::vector<ProbeableLine>> linesOf(StringRef Function,
                                                    DebugInfo &DI) {
  std::vector<ElfSymbol> Syms = DI.findSymbol(Function);
  llvm::erase_if(Syms, [](const ElfSymbol &S) { return !S.IsFunction; });
  if (Syms.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no function '" + Function + "' in " +
                                 DI.targetPath());
  const ElfSymbol &Sym = Syms.front();
  DWARFContext &Ctx = DI.dwarf();
  DWARFUnit *U = DI.unitAt(Sym.Address);
  DWARFDie SP = subprogramAt(U, Sym.Address);
  const DWARFDebugLine::LineTable *LT = U ? Ctx.getLineTableForUnit(U) : nullptr;
  if (!SP || !LT)
    return createStringError(inconvertibleErrorCode(),
                             "no debug info for function '" + Function + "'");
  unsigned Decl = SP.getDeclLine();
  std::string DeclFile = declFile(SP);
  std::map<std::pair<std::string, unsigned>, bool> Lines;
  for (const DWARFDebugLine::Row &Row : LT->Rows) {
    if (Row.EndSequence || !Row.IsStmt || Row.Address.Address < Sym.Address ||
        Row.Address.Address >= Sym.Address + Sym.Size)
      continue;
    std::string File;
    LT->getFileNameByIndex(Row.File, U->getCompilationDir(),
                           DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
                           File);
    Lines[{File, Row.Line}] = true;
  }
  std::vector<ProbeableLine> Out;
  for (const auto &[Key, Unused] : Lines)
    Out.push_back({Key.first == DeclFile && Key.second >= Decl
                       ? Key.second - Decl
                       : ~0u,
                   Key.second, Key.first});
  return std::move(Out);
}

Expected<std::vector<ProbeableLine>> listLines(StringRef Function,
                                               DebugInfo &DI) {
  return refusingCorrupt<std::vector<ProbeableLine>>(
      DI, nullptr, [&] { return linesOf(Function, DI); });
}

} // namespace bpfprobe
