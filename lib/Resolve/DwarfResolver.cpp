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

#include <map>
#include <set>

using namespace llvm;

namespace bpfprobe {
namespace {

Error errorAt(TextRange R, const Twine &Msg) {
  return make_error<ResolveError>(R, Msg.str());
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

bool isScopeTag(dwarf::Tag T) {
  return T == dwarf::DW_TAG_subprogram ||
         T == dwarf::DW_TAG_inlined_subroutine ||
         T == dwarf::DW_TAG_lexical_block;
}

bool isVariableTag(dwarf::Tag T) {
  return T == dwarf::DW_TAG_variable || T == dwarf::DW_TAG_formal_parameter;
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
  DWARFDie Function;    ///< innermost inlined subroutine or subprogram
  DWARFDie Subprogram;  ///< the concrete subprogram (frame base)
  std::string Where;    ///< "handle+0x4a", for messages

  std::string offsetText(uint64_t A) const {
    return Sym.Name + "+" + hex(A - Sym.Address);
  }
};

class DwarfResolver {
public:
  DwarfResolver(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI)
      : Spec(Spec), DI(DI), ABI(ABI) {}

  Expected<std::vector<Site>> sites();
  Expected<SitePlan> plan(const Site &S);
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

  Expected<ElfSymbol> functionSymbol(StringRef Name, TextRange R);
  Expected<std::vector<uint64_t>> lineAddresses(StringRef File, unsigned Line,
                                                const ElfSymbol *Within,
                                                TextRange R);
  Error fillSite(Site &S, uint64_t Address, TextRange R);
  std::optional<uint64_t> prologueEnd(const ElfSymbol &Sym);

  LocationContext locationContext(const Site &S);
  Expected<std::pair<Located, DWARFDie>> lookup(const Site &S,
                                                const SpecExpr &E);
  Expected<Located> locateVariable(const Site &S, DWARFDie Var,
                                   const SpecExpr &E);
  Expected<std::pair<Located, DWARFDie>> evalExpr(const Site &S,
                                                  const SpecExpr &E,
                                                  unsigned Depth);
  Expected<std::unique_ptr<FetchExpr>> valueOf(Located L, DWARFDie Type,
                                               const SpecExpr &E);
  Expected<Located> implicitPointee(const Site &S, Located L, int64_t Extra,
                                    const SpecExpr &E);
  Expected<ArgPlan> argPlan(const Site &S, const ProbeArg &Arg);
  Expected<std::unique_ptr<FetchExpr>> aggregateExpr(Located L, unsigned Size,
                                                     const SpecExpr &E);
};

//===----------------------------------------------------------------------===//
// Places
//===----------------------------------------------------------------------===//

Expected<ElfSymbol> DwarfResolver::functionSymbol(StringRef Name,
                                                  TextRange R) {
  std::vector<ElfSymbol> Syms = DI.findSymbol(Name);
  llvm::erase_if(Syms, [](const ElfSymbol &S) { return !S.IsFunction; });
  if (Syms.size() == 1)
    return Syms.front();
  if (Syms.size() > 1)
    return errorAt(R, "'" + Name + "' names " + Twine(Syms.size()) +
                          " functions in " + DI.targetPath() +
                          "; name the place by FILE:LINE instead");
  std::vector<std::string> Names = DI.functionNames();
  std::string Msg = "no function '" + Name.str() + "' in " + DI.targetPath();
  if (auto Best = didYouMean(Name, Names))
    Msg += "; did you mean '" + *Best + "'?";
  return errorAt(R, Msg);
}

Expected<std::vector<uint64_t>>
DwarfResolver::lineAddresses(StringRef File, unsigned Line,
                             const ElfSymbol *Within, TextRange R) {
  DWARFContext &Ctx = DI.dwarf();
  // With a function, only its compilation unit; otherwise every unit whose
  // line table names the file.
  std::vector<DWARFUnit *> Units;
  if (Within) {
    if (DWARFUnit *U = DI.unitAt(Within->Address))
      Units.push_back(U);
  } else {
    // Rows are parsed only for the units whose line-table headers name it.
    Units = DI.index().unitsWithFile(File, [&](StringRef P) {
      return P == File || P.ends_with(("/" + File).str());
    });
  }
  std::vector<uint64_t> Starts;
  std::set<unsigned> LinesWithCode;
  bool FileSeen = false;
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
      StringRef P(Path);
      if (P == File || P.ends_with(("/" + File).str()))
        FileIdx.insert(I);
    }
    if (FileIdx.empty())
      continue;
    FileSeen = true;
    // A row begins a line when the previous row of its sequence was on
    // another line or file. Prefer statement rows.
    unsigned PrevLine = 0;
    uint64_t PrevFile = ~0ull;
    for (const DWARFDebugLine::Row &Row : LT->Rows) {
      bool Ours = FileIdx.count(Row.File);
      if (Ours && !Row.EndSequence) {
        if (Within && (Row.Address.Address < Within->Address ||
                       Row.Address.Address >= Within->Address + Within->Size))
          ;
        else {
          // Suggest only other lines a probe could be put on.
          if (Row.IsStmt && Row.Line != Line)
            LinesWithCode.insert(Row.Line);
          if (Row.Line == Line && Row.IsStmt &&
              (PrevLine != Row.Line || PrevFile != Row.File))
            Starts.push_back(Row.Address.Address);
        }
      }
      PrevLine = Row.EndSequence ? 0 : Row.Line;
      PrevFile = Row.EndSequence ? ~0ull : Row.File;
    }
  }
  if (!FileSeen)
    return errorAt(R, "no source file '" + File + "' in the debug info of " +
                          DI.targetPath());
  if (Starts.empty()) {
    std::string Near;
    auto It = LinesWithCode.lower_bound(Line);
    std::vector<unsigned> Cands;
    if (It != LinesWithCode.begin())
      Cands.push_back(*std::prev(It));
    if (It != LinesWithCode.end())
      Cands.push_back(*It);
    for (unsigned C : Cands)
      Near += (Near.empty() ? "" : ", ") + std::to_string(C);
    return errorAt(R, "no code for " + File + ":" + Twine(Line) +
                          (Within ? " in " + Within->Name : std::string()) +
                          (Near.empty() ? std::string()
                                        : "; nearest lines with code: " + Near));
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

Error DwarfResolver::fillSite(Site &S, uint64_t Address, TextRange R) {
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
  if (Chain.size() > 1)
    S.Where += " (inlined " +
               std::string(Chain.front().getShortName()
                               ? Chain.front().getShortName()
                               : "function") +
               ")";
  return Error::success();
}

Expected<std::vector<Site>> DwarfResolver::sites() {
  const ProbePlace &P = Spec.Place;
  std::vector<Site> Sites;
  if (P.Form == ProbePlace::SymbolOffset) {
    auto Sym = functionSymbol(P.Symbol, P.SymbolRange);
    if (!Sym)
      return Sym.takeError();
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
    if (auto End = prologueEnd(*Sym)) {
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
    if (Error E = fillSite(S, Sym->Address + Offset, P.SymbolRange))
      return std::move(E);
    Sites.push_back(std::move(S));
    return Sites;
  }

  std::optional<ElfSymbol> Within;
  std::string File = P.File;
  unsigned Line = P.Line;
  TextRange LineRange = P.LineRange;
  if (P.Form == ProbePlace::SymbolRelLine ||
      P.Form == ProbePlace::SymbolFileLine) {
    auto Sym = functionSymbol(P.Symbol, P.SymbolRange);
    if (!Sym)
      return Sym.takeError();
    Within = *Sym;
  }
  if (P.Form == ProbePlace::SymbolRelLine) {
    DWARFUnit *U = DI.unitAt(Within->Address);
    DWARFDie SP = U ? U->getSubroutineForAddress(Within->Address) : DWARFDie();
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
  // One site per function instance: the inlined copies of the line, or
  // the out-of-line function. The first address of each instance.
  std::set<uint64_t> SeenInstances;
  for (uint64_t A : *Addrs) {
    Site S;
    if (Error E = fillSite(S, A, LineRange))
      return std::move(E);
    uint64_t Instance = S.Function.getOffset();
    if (!SeenInstances.insert(Instance).second)
      continue;
    Sites.push_back(std::move(S));
  }
  return Sites;
}

//===----------------------------------------------------------------------===//
// Names and locations
//===----------------------------------------------------------------------===//

LocationContext DwarfResolver::locationContext(const Site &S) {
  LocationContext C;
  C.ABI = &ABI;
  C.PC = S.Address;
  C.AddrSize = S.Unit ? S.Unit->getAddressByteSize() : ABI.PointerSize;
  C.PIE = isPIE() && isUserProbe(Spec.Kind);
  C.Subprogram = S.Subprogram;
  C.Unit = S.Unit;
  C.Dwarf = &DI.dwarf();
  C.Index = &DI.index();
  if (!TargetFrames && &DI.targetObject() != &DI.debugObject())
    TargetFrames = DWARFContext::create(DI.targetObject());
  C.TargetFrames = TargetFrames.get();
  return C;
}

Expected<Located> DwarfResolver::locateVariable(const Site &S, DWARFDie Var,
                                                const SpecExpr &E) {
  std::string Name = E.Name;
  if (auto CV = Var.find(dwarf::DW_AT_const_value)) {
    if (auto V = CV->getAsSignedConstant())
      return Located::value(FetchExpr::constant(*V));
    if (auto V = CV->getAsUnsignedConstant())
      return Located::value(FetchExpr::constant(int64_t(*V)));
    return errorAt(E.Range, "'" + Name + "' is a constant DWARF describes "
                            "as a block of bytes, which is not supported");
  }
  if (!Var.find(dwarf::DW_AT_location))
    return errorAt(E.Range, "'" + Name + "' is optimized out at " + S.Where +
                                ": it has no location in the debug info");
  auto Locs = Var.getLocations(dwarf::DW_AT_location);
  if (!Locs)
    return errorAt(E.Range, "cannot read the location of '" + Name +
                                "': " + toString(Locs.takeError()));
  std::string Available;
  for (const DWARFLocationExpression &L : *Locs) {
    if (L.Range && (S.Address < L.Range->LowPC ||
                    S.Address >= L.Range->HighPC)) {
      if (!L.Expr.empty() && L.Range->HighPC > L.Range->LowPC) {
        if (!Available.empty())
          Available += ", ";
        Available += "+" + hex(L.Range->LowPC - S.Sym.Address) + "..+" +
                     hex(L.Range->HighPC - S.Sym.Address);
      }
      continue;
    }
    if (L.Expr.empty())
      break;
    auto Loc = evaluateLocation(L.Expr, locationContext(S));
    if (!Loc)
      return errorAt(E.Range, "cannot fetch '" + Name + "' at " + S.Where +
                                  ": " + toString(Loc.takeError()));
    if (Loc->Kind == Located::Optimized)
      break;
    return std::move(*Loc);
  }
  return errorAt(E.Range,
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
      for (const auto &L : *Locs)
        if (!L.Expr.empty() &&
            (!L.Range || (S.Address >= L.Range->LowPC &&
                          S.Address < L.Range->HighPC)))
          VV.Available = true;
    } else {
      consumeError(Locs.takeError());
    }
    Out.push_back(std::move(VV));
  };
  for (DWARFDie Scope : S.Scopes)
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

Expected<std::pair<Located, DWARFDie>>
DwarfResolver::lookup(const Site &S, const SpecExpr &E) {
  bool GlobalOnly = E.Kind == SpecExpr::Global;
  StringRef Name = E.Name;
  if (!GlobalOnly) {
    for (DWARFDie Scope : S.Scopes) {
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
            return errorAt(E.Range, "'" + Name + "' is optimized out at " +
                                        S.Where +
                                        ": this copy of the function has no "
                                        "location for it");
    }
  }
  // Globals of the compilation unit.
  if (S.Unit) {
    for (DWARFDie C : S.Unit->getUnitDIE(false).children()) {
      if (C.getTag() != dwarf::DW_TAG_variable || !C.getShortName() ||
          Name != C.getShortName())
        continue;
      if (C.find(dwarf::DW_AT_location) || C.find(dwarf::DW_AT_const_value)) {
        if (!isUserProbe(Spec.Kind) && C.find(dwarf::DW_AT_location))
          return errorAt(E.Range,
                         "kernel global '" + Name +
                             "' needs its run-time address, which KASLR "
                             "moves; not supported yet");
        // A PIE global is found relative to %ip, which a return probe sees
        // at the caller's return address, not at this function.
        if (isReturnProbe(Spec.Kind) && isPIE() &&
            C.find(dwarf::DW_AT_location))
          return errorAt(E.Range,
                         "global '" + Name + "' of a position-independent "
                         "binary cannot be located in a return probe (its "
                         "load address is found from %ip, which is the "
                         "caller's there); fetch it in an entry probe");
        auto L = locateVariable(S, C, E);
        if (!L)
          return L.takeError();
        return std::make_pair(std::move(*L), typeOf(C));
      }
    }
  }
  // Declared in a block of this function that does not cover the PC?
  if (!GlobalOnly) {
    std::string Ranges;
    std::function<void(DWARFDie)> Find = [&](DWARFDie D) {
      for (DWARFDie C : D.children()) {
        if (C.getTag() == dwarf::DW_TAG_lexical_block) {
          bool Declares = llvm::any_of(C.children(), [&](DWARFDie V) {
            return isVariableTag(V.getTag()) && V.getShortName() &&
                   Name == V.getShortName();
          });
          if (Declares && Ranges.empty())
            if (auto R = C.getAddressRanges())
              for (const DWARFAddressRange &AR : *R)
                if (AR.HighPC > AR.LowPC)
                  Ranges += (Ranges.empty() ? "" : ", ") +
                          ("+" + hex(AR.LowPC - S.Sym.Address) + "..+" +
                           hex(AR.HighPC - S.Sym.Address));
            else
              consumeError(R.takeError());
          Find(C);
        }
      }
    };
    Find(S.Function);
    if (!Ranges.empty())
      return errorAt(E.NameRange.End > E.NameRange.Begin ? E.NameRange
                                                         : E.Range,
                     "'" + Name + "' is not in scope at " + S.Where +
                         "; its block covers " + Ranges + " of " +
                         S.Sym.Name);
  }
  std::vector<std::string> Names;
  for (const VisibleVariable &V : visible(S))
    if (!GlobalOnly || V.Kind == "global")
      Names.push_back(V.Name);
  std::string Msg = std::string(GlobalOnly ? "no global" : "no variable") +
                    " '" + Name.str() + "' at " + S.Where;
  if (auto Best = didYouMean(Name, Names))
    Msg += "; did you mean '" + *Best + "'?";
  Msg += " (visible here: " + joinNames(Names) + ")";
  return errorAt(E.NameRange.End > E.NameRange.Begin ? E.NameRange : E.Range,
                 Msg);
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
  return errorAt(E.Range, "'" + text(E.Range) + "' is optimized out");
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
  case SpecExpr::ArgN: {
    if (isReturnProbe(Spec.Kind))
      return errorAt(E.Range, "'$arg" + Twine(E.Number) +
                                  "' is gone when a return probe fires");
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
            return errorAt(E.Range, "'$arg" + Twine(E.Number) + "' ('" +
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
  case SpecExpr::RetVal: {
    const CallingConv &CC = ABI.conv(isUserProbe(Spec.Kind));
    DWARFDie Fn = S.Subprogram;
    return std::make_pair(Located::value(FetchExpr::reg(CC.RetRegs[0])),
                          typeOf(Fn));
  }
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
  auto [Loc, Type] = std::move(*Base);
  DWARFDie T = stripTypedefs(Type);
  std::string BaseText = text(E.Base->Range);

  switch (E.Kind) {
  case SpecExpr::Deref: {
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
  case SpecExpr::Index: {
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
  case SpecExpr::Arrow:
  case SpecExpr::Dot: {
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
    auto M = findMember(Record, E.Name);
    if (!M) {
      std::vector<std::string> Names = memberNames(Record);
      if (Names.empty())
        return errorAt(E.Range, "'" + typeName(Record) +
                                    "' has no members (is it a struct or "
                                    "union whose definition is in the debug "
                                    "info?)");
      std::string Msg = "'" + typeName(Record) + "' has no member '" +
                        E.Name + "'";
      if (auto Best = didYouMean(E.Name, Names))
        Msg += "; did you mean '" + *Best + "'?";
      Msg += " (members: " + joinNames(Names) + ")";
      return errorAt(E.NameRange, Msg);
    }
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
          if (P.Loc->Kind == Located::Memory)
            Out = Located::memory(
                FetchExpr::add(std::move(P.Loc->Expr), M->ByteOffset - At));
          else if (P.Loc->Kind == Located::Value)
            Out = Located::value(FetchExpr::bitfield(
                std::move(P.Loc->Expr), 8, (M->ByteOffset - At) * 8,
                MSize * 8, false));
          break;
        }
        At += P.Size;
      }
      if (Out.Kind == Located::Optimized)
        return errorAt(E.Range, "member '" + E.Name + "' of '" + BaseText +
                                    "' is optimized out at " + S.Where);
    } else {
      return errorAt(E.Range, "'" + BaseText + "' is optimized out at " +
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
  default:
    break;
  }
  return errorAt(E.Range, "unsupported expression");
}

/// The bytes of an aggregate as a fetch tree the prologue copies: Deref
/// blocks for memory, register values for register pieces.
static Expected<std::unique_ptr<FetchExpr>>
aggregateBytes(Located L, unsigned Size) {
  switch (L.Kind) {
  case Located::Memory:
    return FetchExpr::deref(std::move(L.Expr), Size);
  case Located::Value:
    if (Size > 8)
      break;
    return std::move(L.Expr);
  case Located::Pieces: {
    std::vector<std::unique_ptr<FetchExpr>> Parts;
    std::vector<unsigned> Sizes;
    for (Located::Piece &P : L.Parts) {
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

  const FetchTypeSpec *FT = Arg.FetchType ? &*Arg.FetchType : nullptr;
  if (FT && (FT->Kind == FetchTypeSpec::String ||
             FT->Kind == FetchTypeSpec::UString)) {
    // A char array in memory is its own address; a pointer is read.
    DWARFDie T = stripTypedefs(Type);
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
      return errorAt(FT->Range, "':" + FT->name() + "' needs a pointer or a "
                                "char array; '" + text(E.Range) + "' is a '" +
                                typeName(Type) + "'");
    }
    P.Expr = std::move(Addr);
    P.Type.Kind = ValueType::String;
    P.Type.Size = StringFetchSize;
    P.Type.UserString =
        FT->Kind == FetchTypeSpec::UString && !isUserProbe(Spec.Kind);
    return std::move(P);
  }

  ValueType VT;
  if (FT) {
    ScalarType ST = scalarTypeForFetchType(*FT, ABI);
    VT.Kind = FT->Kind == FetchTypeSpec::Hex ? ValueType::Pointer
                                             : ValueType::Int;
    VT.Size = ST.Size;
    VT.Signed = ST.Signed;
    P.CType = FT->name();
  } else if (!stripTypedefs(Type)) {
    if (E.Kind == SpecExpr::Reg) {
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
  if (Error E = checkStackBudget(Plan, Spec))
    return std::move(E);
  return std::move(Plan);
}

} // namespace

Expected<std::vector<SitePlan>>
resolveWithDwarf(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI) {
  DwarfResolver R(Spec, DI, ABI);
  auto Sites = R.sites();
  if (!Sites)
    return Sites.takeError();
  std::vector<SitePlan> Plans;
  for (const Site &S : *Sites) {
    auto P = R.plan(S);
    if (!P)
      return P.takeError();
    Plans.push_back(std::move(*P));
  }
  return std::move(Plans);
}

Expected<std::vector<SiteVariables>>
listVariables(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI) {
  DwarfResolver R(Spec, DI, ABI);
  auto Sites = R.sites();
  if (!Sites)
    return Sites.takeError();
  std::vector<SiteVariables> Out;
  for (const Site &S : *Sites)
    Out.push_back({S.Where, S.Address, R.visible(S)});
  return std::move(Out);
}

Expected<std::vector<ProbeableLine>> listLines(StringRef Function,
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
  DWARFDie SP = U ? U->getSubroutineForAddress(Sym.Address) : DWARFDie();
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

} // namespace bpfprobe
