//===- Resolver.h - From a ProbeSpec to a FetchPlan -------------*- C++ -*-===//
//
/// \file
/// The resolution layer: given a parsed annotation and an architecture,
/// produce the SitePlan(s) that fetch each argument. Without debug info it
/// resolves by the calling convention (types only, at function entry) and
/// plain register expressions (%reg, $argN, $retval); names, members, locals
/// and source lines come from DWARF (DwarfResolver.h, found by
/// DebugInfoFinder.h), kernel entry parameters and members also from BTF
/// (BtfResolver.h).
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_RESOLVER_H
#define BPFPROBE_RESOLVE_RESOLVER_H

#include "Plan/FetchPlan.h"
#include "Spec/ProbeSpec.h"
#include "Target/TypeLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include "llvm/ADT/STLFunctionalExtras.h"
#include <vector>

namespace bpfprobe {

struct ArchABI;

/// Fixed-width and POSIX typedef names every kernel and libc agrees on
/// ("__u32", "uint64_t", "size_t"), as a type of the probed architecture.
std::optional<ValueType> wellKnownTypedef(llvm::StringRef Name,
                                           const ArchABI &ABI);

/// A fix the library suggests. The library does not know which front end
/// it runs in, so it names the fix, not an option: the plugin words
/// DebugInfoPath as "-fplugin-arg-bpfprobe-debuginfo=PATH",
/// bpfprobe-resolve as "--debuginfo PATH".
struct Hint {
  enum KindTy {
    None,
    DebugInfoPath, ///< give the path of the debug info explicitly
    DebugInfoOption, ///< the name of the option that gave that path
    CallConv,      ///< choose the calling convention named by Payload
  };
  KindTy Kind = None;
  std::string Payload;
  /// Words that follow the hint in the message ("or install the -dbgsym
  /// package").
  std::string Tail;
};

/// Words for a hint that name no front end's options (log(), toString()).
std::string neutralHintWords(const Hint &H);

/// A library failure with an optional fix for the front end to word. The
/// message reads Text + words-for-Hint + Hint.Tail; Text ends where the
/// hint starts ("source-line probes need debug info: ").
class HintedError : public llvm::ErrorInfo<HintedError> {
public:
  static char ID;
  HintedError(std::string Message, Hint H = {})
      : Message(std::move(Message)), TheHint(std::move(H)) {}
  /// The message without the hint.
  const std::string &text() const { return Message; }
  const Hint &hint() const { return TheHint; }
  /// The message with the hint in the caller's words.
  std::string
  render(llvm::function_ref<std::string(const Hint &)> Words) const {
    if (TheHint.Kind == Hint::None)
      return Message;
    return Message + Words(TheHint) + TheHint.Tail;
  }
  void log(llvm::raw_ostream &OS) const override {
    OS << render(neutralHintWords);
  }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Message;
  Hint TheHint;
};

/// A resolution failure that points into the annotation text.
class ResolveError : public llvm::ErrorInfo<ResolveError, HintedError> {
public:
  static char ID;
  ResolveError(TextRange Range, std::string Message, Hint H = {},
               std::vector<std::string> Notes = {})
      : ErrorInfo(std::move(Message), std::move(H)), Range(Range),
        Notes(std::move(Notes)) {}
  TextRange range() const { return Range; }
  /// Notes that follow the error, one diagnostic each (the candidates of
  /// an ambiguous name).
  const std::vector<std::string> &notes() const { return Notes; }

private:
  TextRange Range;
  std::vector<std::string> Notes;
};

/// The error about the annotation text at R, which the plugin shows with a
/// caret there (errors with no place in the annotation: Support/Error.h).
inline llvm::Error errorAt(TextRange R, const llvm::Twine &Msg, Hint H = {}) {
  return llvm::make_error<ResolveError>(R, Msg.str(), std::move(H));
}

/// Classifies a C type built only from keywords ("unsigned long", "char *",
/// "_Bool"). Returns std::nullopt when the type names a typedef or a
/// struct/union/enum tag that only the front end can look up; an error for
/// an impossible combination ("long char").
llvm::Expected<std::optional<ValueType>>
classifyBuiltinCType(const CTypeSyntax &T, const ArchABI &ABI);

/// Decides each lone name of Spec's argument list (ProbeArg::IdentOrType):
/// a C type (calling-convention mode) when another argument is a C type,
/// when it is a well-known typedef name (wellKnownTypedef: "size_t", "u64",
/// "pid_t"; docs/syntax.md lists them as built-in, so they need no
/// declaration), or when IsDeclaredType says the program declares it as a
/// type (the plugin asks its translation unit); otherwise an expression.
void decideArgForms(ProbeSpec &Spec, const ArchABI &ABI,
                    llvm::function_ref<bool(llvm::StringRef)> IsDeclaredType);

/// If resolving E needs debug info (names, members, dereferences of names),
/// the byte range of the first part that does; otherwise std::nullopt.
std::optional<TextRange> partNeedingDebugInfo(const SpecExpr &E);

/// What the front end knows about each argument: the C type of a CType
/// argument, or for an expression the type it will be read as (its explicit
/// fetch type, else the body parameter's type).
struct ArgInput {
  ValueType Type;
  std::string ParamName; ///< the body parameter it binds to
};

/// Resolves a probe without debug info: C type arguments by the calling
/// convention of ABI at function entry, %reg / $argN / $retval expressions
/// from the registers. Spec.Args and Inputs run in parallel. The convention
/// is the ABI's kernel one for kprobes and its user one for uprobes, or the
/// one named by ConvName ("regparm3", "cdecl", "kernel", "user"; from
/// -fplugin-arg-bpfprobe-cc=).
llvm::Expected<SitePlan> resolveWithoutDebugInfo(const ProbeSpec &Spec,
                                                 llvm::ArrayRef<ArgInput> Inputs,
                                                 const ArchABI &ABI,
                                                 llvm::StringRef ConvName = "");

/// What a plan records of a value of type T (Kind, Size, Signed); an error
/// (at Range) for types whose values cannot be fetched from pt_regs or
/// memory (floating point, __int128, void, aggregates of unknown size).
llvm::Expected<ValueType> fetchedType(const ValueType &T, const ArchABI &ABI,
                                      TextRange Range);

// Choosing how to resolve (Resolver.cpp) ---------------------------------
// The plugin and bpfprobe-resolve both use these, so a spec means the same
// thing to both.

/// True when Spec needs debug info: a source-line place, or an argument that
/// names variables or steps through members, elements or pointers
/// (partNeedingDebugInfo). C types, registers, $argN and $retval at
/// symbol+offset resolve by the calling convention. IdentOrType arguments
/// must have been decided (as CType or Expression) first.
bool needsDebugInfo(const ProbeSpec &Spec);

/// A site at Spec's symbol+offset as written, resolved by Source ("cc",
/// "btf"): everything but its arguments.
SitePlan sitePlanAtSymbol(const ProbeSpec &Spec, const ArchABI &ABI,
                          llvm::StringRef Source);

/// The type an expression argument is read as when no body parameter gives
/// it one: its explicit ':type', else a whole register, unsigned
/// (kprobe_events' default).
ValueType untypedArgType(const ProbeArg &Arg, const ArchABI &ABI);

/// The BPF program name of site N (from 0) of the probe Base: Base itself
/// for the first site, Base__N for the others (the inlined copies of a
/// line).
std::string siteProgramName(llvm::StringRef Base, unsigned N);

/// An error at the argument list if the site's prologue needs more BPF
/// stack than PrologueStackBudget.
llvm::Error checkStackBudget(const SitePlan &Site, const ProbeSpec &Spec);

/// The ArchABI register index a `%reg` expression names, or an error at its
/// name listing the architecture's registers.
llvm::Expected<unsigned> registerOf(const SpecExpr &E, const ArchABI &ABI);

// The one resolution entry point ------------------------------------------
// The plugin and bpfprobe-resolve both call resolveProbe, so a spec gets the
// same plans from both, whichever resolver answers.

class DebugInfo;
class BtfTypes;

/// Which debug info a spec needs.
enum class DebugInfoNeed {
  None,     ///< resolved by the calling convention alone
  Optional, ///< used when found: a user return probe's `$retval`, whose
            ///< location depends on the function's return type
  Required, ///< names, members, source lines (needsDebugInfo)
};
DebugInfoNeed debugInfoNeed(const ProbeSpec &Spec);

/// Something resolution skipped but did not refuse, at Range of the spec.
struct ResolveWarning {
  TextRange Range;
  std::string Message;
};

struct Resolution {
  std::vector<SitePlan> Plans; ///< one per site
  std::vector<ResolveWarning> Warnings;
  /// The plans came from DWARF (argument names are then the argument
  /// texts; the caller renames them after its parameters).
  bool FromDwarf = false;
  /// The plan came from BTF (argument names as for FromDwarf).
  bool FromBtf = false;
};

/// Resolves Spec: with DWARF when DI is given and the spec can use it
/// (debugInfoNeed), else by the calling convention of ABI (ConvName as for
/// resolveWithoutDebugInfo). Inputs run in parallel with Spec.Args; a
/// Required spec without DI is refused with a DebugInfoPath hint. A kernel
/// spec that needs debug info is resolved with BTF (BtfResolver.h) when
/// BTF is given and DI is not: the front end passes BTF when the kernel's
/// DWARF is not found, or DI = nullptr when the user chose BTF.
llvm::Expected<Resolution> resolveProbe(const ProbeSpec &Spec,
                                        llvm::ArrayRef<ArgInput> Inputs,
                                        const ArchABI &ABI, DebugInfo *DI,
                                        llvm::StringRef ConvName = "",
                                        const BtfTypes *BTF = nullptr);

/// For a user probe at symbol[+offset]: when its binary is at hand (a
/// file at Spec.Binary), an error at the symbol unless the binary's .symtab
/// or .dynsym defines it, saying "exists only inlined" when its DWARF has
/// the function only as inlined copies (SymbolCheck.cpp). Success when the
/// binary is not at hand or the name is not a plain C identifier.
llvm::Error checkSymbolAtHand(const ProbeSpec &Spec);

// Register values: where `$argN` can be read, `$retval` (and `%reg`:
// registerOf), one implementation that every resolver calls
// (RegisterValues.cpp), so that the calling-convention and the DWARF
// resolver give the same answer for the same value.

struct CallingConv;

/// An error at E unless a `$argN` can be read in a probe of Spec's kind
/// (not in return probes); both resolvers refuse it with this message.
llvm::Error checkArgPlace(const ProbeSpec &Spec, const SpecExpr &E);

/// An error at E unless a `$retval` can be read in a probe of Spec's kind.
llvm::Error checkRetvalPlace(const ProbeSpec &Spec, const SpecExpr &E);

/// Where a function's return value of type T is when its return probe
/// fires, by the convention CC of ABI: one return register, a register pair
/// for a value twice a register's width (memory order: eax then edx), the
/// integer registers of a small structure where the psABI returns it there.
/// Floating-point values and structures returned in FP registers or memory
/// are refused (struct pt_regs has neither), naming why.
struct ReturnLocation {
  /// InRegisters: Expr is the value (a register or register pieces);
  /// InMemory: Expr is the address of the value (a structure returned
  /// through the caller's buffer, whose address the callee returns).
  enum KindTy { InRegisters, InMemory } Kind = InRegisters;
  std::unique_ptr<FetchExpr> Expr;
};
llvm::Expected<ReturnLocation> returnValueLocation(const ValueType &T,
                                                   const ArchABI &ABI,
                                                   const CallingConv &CC,
                                                   TextRange R);

/// Where each of a function's parameters (of types Params, in order) is at
/// its entry by the convention CC of ABI, as the calling-convention
/// resolver places them; Ranges[I] (when given) is where a refusal of
/// parameter I points. Resolvers that know a prototype but not locations
/// (BTF) use it.
llvm::Expected<std::vector<std::unique_ptr<FetchExpr>>>
entryArgumentLocations(llvm::ArrayRef<ValueType> Params, const ArchABI &ABI,
                       const CallingConv &CC,
                       llvm::ArrayRef<TextRange> Ranges = {});

} // namespace bpfprobe

#endif
