//===- Resolver.cpp - Choosing how a probe is resolved -------------------===//
//
/// \file
/// The decisions the front ends (the plugin and bpfprobe-resolve) share
/// before and after resolution: whether a spec needs debug info or resolves
/// by the calling convention, what a value without a body parameter is
/// called and read as, and how the programs of a multi-site probe are named.
//===----------------------------------------------------------------------===//

#include "Resolve/Resolver.h"
#include "Resolve/BtfResolver.h"
#include "Resolve/DwarfResolver.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace bpfprobe {

bool needsDebugInfo(const ProbeSpec &Spec) {
  // C++/Rust source names are matched on the binary's demangled symbols.
  if (Spec.Place.Form != ProbePlace::SymbolOffset || Spec.Place.SourceName)
    return true;
  return llvm::any_of(Spec.Args, [](const ProbeArg &Arg) {
    return Arg.Form != ProbeArg::CType && Arg.Expr &&
           partNeedingDebugInfo(*Arg.Expr).has_value();
  });
}

static bool hasRetval(const SpecExpr &E) {
  if (E.Kind == SpecExpr::RetVal)
    return true;
  return E.Base && hasRetval(*E.Base);
}

DebugInfoNeed debugInfoNeed(const ProbeSpec &Spec) {
  // A trampoline's arguments are typed by BTF, which is the only source
  // that resolves them.
  if (needsDebugInfo(Spec) || isTrampolineProbe(Spec.Kind))
    return DebugInfoNeed::Required;
  // A return value's place depends on its type (a structure of doubles is
  // in %xmm0, a long long of a 32-bit task in two registers): where the
  // debug info gives the type, that decides, not the body's parameter.
  // Kernel debug info is large and rarely installed: only user probes.
  bool TypesOnly = llvm::any_of(Spec.Args, [](const ProbeArg &A) {
    return A.Form == ProbeArg::CType;
  });
  if (isUserProbe(Spec.Kind) && isReturnProbe(Spec.Kind) && !TypesOnly &&
      llvm::any_of(Spec.Args, [](const ProbeArg &A) {
        return A.Expr && hasRetval(*A.Expr);
      }))
    return DebugInfoNeed::Optional;
  return DebugInfoNeed::None;
}

/// A return probe with `@entry(...)` arguments: the entry values are
/// resolved as an entry probe of the same function (kprobe, uprobe or
/// fentry: DWARF at the entry pc, BTF or the calling convention at the
/// entry parameters), the other arguments as the return probe. The plan of
/// the return site gets every argument in order, the entry values as
/// FetchExpr::EntrySlot, and names the entry program's kind and section;
/// the front end names the program and the pass builds it
/// (plugin/EntryPairing.cpp).
static Expected<Resolution> resolveWithEntry(const ProbeSpec &Spec,
                                             ArrayRef<ArgInput> Inputs,
                                             const ArchABI &ABI, DebugInfo *DI,
                                             StringRef ConvName,
                                             const BtfTypes *BTF) {
  ProbeKind EntryKind = Spec.Kind == ProbeKind::KRetProbe ? ProbeKind::KProbe
                        : Spec.Kind == ProbeKind::URetProbe
                            ? ProbeKind::UProbe
                            : ProbeKind::FEntry;
  auto Shell = [&](ProbeKind K) {
    ProbeSpec S;
    S.Kind = K;
    S.KindRange = Spec.KindRange;
    S.Binary = Spec.Binary;
    S.BinaryRange = Spec.BinaryRange;
    S.Place = Spec.Place;
    S.HasArgList = true;
    S.ArgListRange = Spec.ArgListRange;
    S.Text = Spec.Text;
    return S;
  };
  ProbeSpec EntrySpec = Shell(EntryKind), RetSpec = Shell(Spec.Kind);
  std::vector<ArgInput> EntryInputs, RetInputs;
  std::vector<size_t> EntryIdx, RetIdx;
  // Inputs run in parallel with the arguments, or are empty (a DWARF or
  // BTF resolution does not use them).
  bool HaveInputs = Inputs.size() == Spec.Args.size();
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ProbeArg &Arg = Spec.Args[I];
    ProbeArg C = Arg.clone();
    C.AtEntry = false;
    if (Arg.AtEntry) {
      if (EntryIdx.size() == MaxEntryValues)
        return make_error<ResolveError>(
            Arg.EntryRange, "a return probe takes at most " +
                                std::to_string(MaxEntryValues) +
                                " '@entry(...)' values");
      EntrySpec.Args.push_back(std::move(C));
      if (HaveInputs)
        EntryInputs.push_back(Inputs[I]);
      EntryIdx.push_back(I);
    } else {
      RetSpec.Args.push_back(std::move(C));
      if (HaveInputs)
        RetInputs.push_back(Inputs[I]);
      RetIdx.push_back(I);
    }
  }
  auto Entry = resolveProbe(EntrySpec, EntryInputs, ABI, DI, ConvName, BTF);
  if (!Entry)
    return Entry.takeError();
  auto Ret = resolveProbe(RetSpec, RetInputs, ABI, DI, ConvName, BTF);
  if (!Ret)
    return Ret.takeError();
  if (Entry->Plans.size() != 1 || Ret->Plans.size() != 1)
    return make_error<ResolveError>(
        Spec.Place.SymbolRange,
        "'@entry(...)' needs one entry and one return site; '" +
            Spec.Place.Symbol + "' has " +
            std::to_string(Entry->Plans.size()) + " and " +
            std::to_string(Ret->Plans.size()));
  SitePlan &EP = Entry->Plans.front();
  Resolution R = std::move(*Ret);
  for (ResolveWarning &W : Entry->Warnings)
    R.Warnings.push_back(std::move(W));
  SitePlan &Plan = R.Plans.front();
  std::vector<ArgPlan> Args(Spec.Args.size());
  for (size_t J = 0; J < RetIdx.size(); ++J)
    Args[RetIdx[J]] = std::move(Plan.Args[J]);
  unsigned Slot = 0;
  for (size_t J = 0; J < EntryIdx.size(); ++J) {
    const ProbeArg &Arg = Spec.Args[EntryIdx[J]];
    ArgPlan &AP = EP.Args[J];
    if (AP.Type.Kind == ValueType::String ||
        AP.Type.Kind == ValueType::Aggregate || AP.Length)
      return make_error<ResolveError>(
          Arg.Range, "'" + Arg.Text + "' is " +
                         (AP.Type.Kind == ValueType::String ? "a string"
                                                            : "a structure") +
                         "; '@entry(...)' saves scalars (integers and "
                         "pointers): fetch a member, or the pointer and read "
                         "it at entry with a kprobe or uprobe");
    // fexit sees the entry arguments in its own context: a plain argument
    // needs no entry program.
    if (Spec.Kind == ProbeKind::FExit &&
        AP.Expr->Kind == FetchExpr::CtxSlot && !AP.Expr->TrampolineRet) {
      Args[EntryIdx[J]] = std::move(AP);
      continue;
    }
    AP.Expr = FetchExpr::entrySlot(Slot++, std::move(AP.Expr));
    Args[EntryIdx[J]] = std::move(AP);
  }
  Plan.Args = std::move(Args);
  Plan.Spec = Spec.Text;
  if (Slot) {
    Plan.EntryKind = probeKindName(EntryKind).str();
    Plan.EntrySection = EP.Section;
  }
  return std::move(R);
}

/// Every plan a resolver made must be one the pass accepts. The pass runs
/// validate() (FetchPlan.h) on the plan it reads back, and a refusal there
/// is a compile error with no place in the annotation, which blames the
/// user for a resolver's mistake. So each argument gets validate()'s own
/// checks (validateArg) here, on every site, and one that fails is refused
/// at its argument as a bpfprobe bug.
static Error checkPlans(const Resolution &R, const ProbeSpec &Spec,
                        const ArchABI &ABI) {
  auto Refuse = [&](TextRange At, const std::string &What,
                    const std::string &Why) {
    return make_error<ResolveError>(
        At, "cannot fetch " + What + ": bpfprobe made a plan for it that " +
                "its own code generation refuses (" + Why +
                "); this is a bpfprobe bug, please report it");
  };
  for (const SitePlan &Site : R.Plans) {
    bool Parallel = Site.Args.size() == Spec.Args.size();
    for (size_t I = 0; I < Site.Args.size(); ++I) {
      // A copy over the stack budget is the user's to change:
      // checkStackBudget refuses it in those terms.
      const ValueType &T = Site.Args[I].Type;
      if ((T.Kind == ValueType::String || T.Kind == ValueType::Aggregate) &&
          T.Size > PrologueStackBudget)
        continue;
      if (Error E = validateArg(Site.Args[I], ABI)) {
        std::string Why = toString(std::move(E));
        if (!Parallel)
          return Refuse(Spec.ArgListRange, "the arguments", Why);
        return Refuse(Spec.Args[I].Range, "'" + Spec.Args[I].Text + "'",
                      Why);
      }
    }
  }
  // The rest of validate() is the site's: its entry program, which the
  // front end names, and the stack budget, which checkStackBudget refuses
  // in the user's terms.
  return Error::success();
}

static Expected<Resolution> resolveUnchecked(const ProbeSpec &Spec,
                                             ArrayRef<ArgInput> Inputs,
                                             const ArchABI &ABI,
                                             DebugInfo *DI, StringRef ConvName,
                                             const BtfTypes *BTF);

Expected<Resolution> resolveProbe(const ProbeSpec &Spec,
                                  ArrayRef<ArgInput> Inputs,
                                  const ArchABI &ABI, DebugInfo *DI,
                                  StringRef ConvName, const BtfTypes *BTF) {
  auto R = resolveUnchecked(Spec, Inputs, ABI, DI, ConvName, BTF);
  if (!R)
    return R.takeError();
  if (Error E = checkPlans(*R, Spec, ABI))
    return std::move(E);
  return R;
}

static Expected<Resolution> resolveUnchecked(const ProbeSpec &Spec,
                                             ArrayRef<ArgInput> Inputs,
                                             const ArchABI &ABI,
                                             DebugInfo *DI, StringRef ConvName,
                                             const BtfTypes *BTF) {
  if (llvm::any_of(Spec.Args, [](const ProbeArg &A) { return A.AtEntry; }))
    return resolveWithEntry(Spec, Inputs, ABI, DI, ConvName, BTF);
  Resolution R;
  DebugInfoNeed Need = debugInfoNeed(Spec);
  if (isTrampolineProbe(Spec.Kind) && !BTF)
    return make_error<ResolveError>(
        Spec.KindRange, probeKindName(Spec.Kind).str() +
                            " probes are resolved through the kernel's BTF, "
                            "which was not found");
  if (isTrampolineProbe(Spec.Kind))
    DI = nullptr;
  if (!DI && BTF && Need == DebugInfoNeed::Required &&
      !isUserProbe(Spec.Kind)) {
    auto Plan = resolveWithBtf(Spec, *BTF, ABI);
    if (!Plan)
      return Plan.takeError();
    R.Plans.push_back(std::move(*Plan));
    R.FromBtf = true;
    return std::move(R);
  }
  // An optional look-up falls back to the calling convention for a
  // function the debug info does not describe (assembly).
  if (DI && Need == DebugInfoNeed::Optional && !describesFunction(Spec, *DI))
    DI = nullptr;
  if (DI && Need != DebugInfoNeed::None) {
    auto Plans = resolveWithDwarf(Spec, *DI, ABI, &R.Warnings);
    if (!Plans)
      return Plans.takeError();
    R.Plans = std::move(*Plans);
    R.FromDwarf = true;
    return std::move(R);
  }
  auto Plan = resolveWithoutDebugInfo(Spec, Inputs, ABI, ConvName);
  if (!Plan)
    return Plan.takeError();
  R.Plans.push_back(std::move(*Plan));
  return std::move(R);
}

SitePlan sitePlanAtSymbol(const ProbeSpec &Spec, const ArchABI &ABI,
                          StringRef Source) {
  SitePlan Site;
  Site.Kind = probeKindName(Spec.Kind).str();
  Site.Target = Spec.Binary;
  Site.Symbol = Spec.Place.Symbol;
  Site.Offset = Spec.Place.Offset;
  Site.Arch = ABI.Name;
  Site.Source = Source.str();
  Site.Spec = Spec.Text;
  Site.Section = Spec.sectionName();
  Site.Space = isUserProbe(Spec.Kind) ? AddrSpace::User : AddrSpace::Kernel;
  return Site;
}

ValueType untypedArgType(const ProbeArg &Arg, const ArchABI &ABI) {
  if (Arg.FetchType && Arg.FetchType->Kind == ValueType::String) {
    // Read as the string's address.
    ValueType T;
    T.Kind = ValueType::Pointer;
    T.Size = ABI.PointerSize;
    T.Text = Arg.FetchType->Text;
    return T;
  }
  if (Arg.FetchType)
    return *Arg.FetchType;
  ValueType T;
  T.Kind = ValueType::Int;
  T.Size = ABI.PointerSize;
  T.Text = "u" + std::to_string(ABI.PointerSize * 8);
  return T;
}

std::string siteProgramName(StringRef Base, unsigned N) {
  if (!N)
    return Base.str();
  return (Base + "__" + Twine(N)).str();
}

Error checkStackBudget(const SitePlan &Site, const ProbeSpec &Spec) {
  if (Site.stackBytes() <= PrologueStackBudget)
    return Error::success();
  return make_error<ResolveError>(
      Spec.ArgListRange,
      ("the prologue needs " + Twine(Site.stackBytes()) +
       " bytes of BPF stack, more than its budget of " +
       Twine(PrologueStackBudget))
          .str());
}

Expected<unsigned> registerOf(const SpecExpr &E, const ArchABI &ABI) {
  int R = ABI.findReg(E.Name);
  if (R < 0)
    return make_error<ResolveError>(
        E.NameRange, "unknown register '%" + E.Name + "' on " + ABI.Name +
                         "; registers: " + ABI.regNames());
  return unsigned(R);
}

} // namespace bpfprobe
