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

Expected<Resolution> resolveProbe(const ProbeSpec &Spec,
                                  ArrayRef<ArgInput> Inputs,
                                  const ArchABI &ABI, DebugInfo *DI,
                                  StringRef ConvName, const BtfTypes *BTF) {
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
