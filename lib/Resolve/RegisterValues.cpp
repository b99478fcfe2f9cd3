//===- RegisterValues.cpp - $argN and $retval, once for every resolver ---===//
//
/// \file
/// Where `$argN` can be read, and where a return probe finds the return
/// value, by the psABI's rules for return values. The calling-convention
/// resolver (types from the body's parameters) and the DWARF resolver
/// (types from the debug info) both call returnValueLocation, so the same
/// type gives the same fetch on both paths: a 64-bit `long long` of a
/// 32-bit task is {%ax,%dx} on either, a `struct { double d; }` returned in
/// %xmm0 is refused on either.
//===----------------------------------------------------------------------===//

#include "Resolve/Resolver.h"
#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace bpfprobe {

char HintedError::ID = 0;

std::string neutralHintWords(const Hint &H) {
  switch (H.Kind) {
  case Hint::None:
    return "";
  case Hint::DebugInfoPath:
    return "give the path of the debug info";
  case Hint::DebugInfoOption:
    return "the explicit debug-info path";
  case Hint::CallConv:
    return "choose the '" + H.Payload + "' calling convention";
  }
  return "";
}

Error checkRetvalPlace(const ProbeSpec &Spec, const SpecExpr &E) {
  if (seesReturnValue(Spec.Kind))
    return Error::success();
  return make_error<ResolveError>(E.Range, "'$retval' is only available in "
                                           "kretprobe, uretprobe and fexit "
                                           "probes");
}

Error checkArgPlace(const ProbeSpec &Spec, const SpecExpr &E) {
  if (!isReturnProbe(Spec.Kind))
    return Error::success();
  return make_error<ResolveError>(
      E.Range, ("'$arg" + Twine(E.Number) +
                "' is not available in a return probe: argument registers "
                "are clobbered at return")
                   .str());
}

static std::string typeText(const ValueType &T) {
  return T.Text.empty() ? "this type" : "'" + T.Text + "'";
}

/// Registers RetRegs[0..] holding Size bytes, W bytes each.
static Expected<ReturnLocation> inReturnRegs(const ArchABI &ABI,
                                             const CallingConv &CC,
                                             unsigned Size, TextRange R,
                                             const ValueType &T) {
  unsigned W = ABI.PointerSize;
  unsigned N = divideCeil(Size, W);
  if (N > CC.RetRegs.size())
    return make_error<ResolveError>(
        R, ("'$retval' of " + typeText(T) + " (" + Twine(Size * 8) +
               " bits) does not fit the return registers of " + ABI.Name)
                  .str());
  ReturnLocation L;
  if (N == 1 && Size == W) {
    L.Expr = FetchExpr::reg(CC.RetRegs[0]);
    return std::move(L);
  }
  std::vector<std::unique_ptr<FetchExpr>> Parts;
  std::vector<unsigned> Sizes;
  for (unsigned I = 0; I < N; ++I) {
    Parts.push_back(FetchExpr::reg(CC.RetRegs[I]));
    Sizes.push_back(std::min(W, Size - I * W));
  }
  if (N == 1 && Size < W) {
    L.Expr = std::move(Parts[0]); // the low bytes of the register
    return std::move(L);
  }
  L.Expr = FetchExpr::pieces(std::move(Parts), std::move(Sizes));
  return std::move(L);
}

Expected<ReturnLocation> returnValueLocation(const ValueType &T,
                                             const ArchABI &ABI,
                                             const CallingConv &CC,
                                             TextRange R) {
  auto Refuse = [&](const Twine &Why) {
    return make_error<ResolveError>(
        R, ("cannot fetch '$retval' of " + typeText(T) + ": " + Why).str());
  };
  if (CC.RetRegs.empty())
    return Refuse("the calling convention names no return register");
  switch (T.Kind) {
  case ValueType::Void:
    return Refuse("the function returns nothing");
  case ValueType::Float:
    // Only the base (soft-float) Arm standard returns floating point in
    // core registers (AAPCS 6.5: r0, r0-r1).
    if (CC.Rule->returnsFloatInCoreRegs() && (T.Size == 4 || T.Size == 8))
      return inReturnRegs(ABI, CC, T.Size, R, T);
    return Refuse("floating-point values are returned in FP registers (" +
                  Twine(CC.RuleRef) + "), which struct pt_regs does not hold");
  case ValueType::Int128:
  case ValueType::Int:
  case ValueType::Bool:
  case ValueType::Pointer:
  case ValueType::String: // no C type is one; its address would travel so
    return inReturnRegs(ABI, CC, std::max(T.Size, 1u), R, T);
  case ValueType::Aggregate:
    break;
  }

  // Structures and unions.
  AggregateReturn How = CC.Rule->aggregateReturn(T.Size, T.Leaves);
  switch (How.Kind) {
  case AggregateReturn::InMemory: {
    ReturnLocation L;
    L.Kind = ReturnLocation::InMemory;
    L.Expr = FetchExpr::reg(CC.RetRegs[0]);
    return std::move(L);
  }
  case AggregateReturn::InRegs:
    return inReturnRegs(ABI, CC, T.Size, R, T);
  case AggregateReturn::Refused:
    return Refuse(How.Why);
  case AggregateReturn::Unsupported:
    break;
  }
  return Refuse("structures and unions returned by value are not "
                "supported on " +
                Twine(ABI.Name) + " (" + CC.RuleRef + ")");
}

} // namespace bpfprobe
