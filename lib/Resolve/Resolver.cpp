//===- Resolver.cpp - Choosing how a probe is resolved -------------------===//
//
/// \file
/// The decisions the front ends (the plugin and bpfprobe-resolve) share
/// before and after resolution: whether a spec needs debug info or resolves
/// by the calling convention, what a value without a body parameter is
/// called and read as, and how the programs of a multi-site probe are named.
//===----------------------------------------------------------------------===//

#include "Resolve/Resolver.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace bpfprobe {

bool needsDebugInfo(const ProbeSpec &Spec) {
  if (Spec.Place.Form != ProbePlace::SymbolOffset)
    return true;
  return llvm::any_of(Spec.Args, [](const ProbeArg &Arg) {
    return Arg.Form != ProbeArg::CType && Arg.Expr &&
           partNeedingDebugInfo(*Arg.Expr).has_value();
  });
}

std::string argValueName(const ProbeSpec &Spec, const ProbeArg &Arg) {
  if (!Arg.Expr)
    return Arg.Text;
  TextRange R = Arg.Expr->Range;
  return StringRef(Spec.Text).slice(R.Begin, R.End).trim().str();
}

ScalarType untypedArgType(const ProbeArg &Arg, const ArchABI &ABI) {
  if (Arg.FetchType)
    return scalarTypeForFetchType(*Arg.FetchType, ABI);
  ScalarType T;
  T.Kind = ScalarType::Int;
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
