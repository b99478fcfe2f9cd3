//===- DwarfResolver.h - Probes resolved through DWARF ----------*- C++ -*-===//
//
/// \file
/// Resolution with debug info: places (symbol+offset, symbol:rel-line,
/// file:line, symbol@file:line; one site per inlined copy of a line), the
/// scope at each site (subprogram, lexical blocks, inlined subroutines),
/// each named variable's location at the PC, and member / index /
/// dereference steps through the type graph. The result is one SitePlan per
/// site, or a ResolveError that points into the annotation and says why.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_DWARFRESOLVER_H
#define BPFPROBE_RESOLVE_DWARFRESOLVER_H

#include "Plan/FetchPlan.h"
#include "Resolve/DebugInfoFinder.h"
#include "Spec/ProbeSpec.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace bpfprobe {

struct ArchABI;

/// Resolves every site of Spec against DI. Argument names in the plans are
/// the argument texts; the front end renames them after the parameters.
/// Sites where an argument has no location (an inlined copy whose compiler
/// dropped it) are left out with a warning naming them in Warnings; an error
/// only when no site has them all.
struct ResolveWarning;
llvm::Expected<std::vector<SitePlan>>
resolveWithDwarf(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI,
                 std::vector<ResolveWarning> *Warnings = nullptr);

/// Whether DI describes the function Spec's place names (a subprogram of
/// its symbol, or no symbol of that name, which only DWARF can explain): a
/// return probe's `$retval` takes its type from it when it does, and from
/// the body's parameter otherwise (assembly functions).
bool describesFunction(const ProbeSpec &Spec, DebugInfo &DI);

/// One variable visible at a site, for `bpfprobe-resolve --vars` and for
/// "available here" diagnostics.
struct VisibleVariable {
  std::string Name;
  std::string Type;
  std::string Kind;     ///< "param", "local", "global"
  bool Available;       ///< has a location at the site's PC
};

/// The sites of Spec's place, each with the variables visible there.
struct SiteVariables {
  std::string Where; ///< "handle+0x4a" (and "inlined in caller+0x10")
  uint64_t Address = 0;
  std::vector<VisibleVariable> Vars;
};
llvm::Expected<std::vector<SiteVariables>>
listVariables(const ProbeSpec &Spec, DebugInfo &DI, const ArchABI &ABI);

/// Source lines of a function that have code (a probe can be put on them),
/// as "line" numbers relative to the function's first line and absolute.
struct ProbeableLine {
  unsigned Relative;
  unsigned Absolute;
  std::string File;
};
llvm::Expected<std::vector<ProbeableLine>>
listLines(llvm::StringRef Function, DebugInfo &DI);

} // namespace bpfprobe

#endif
