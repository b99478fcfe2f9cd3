//===- LLVMCompat.h - The few LLVM APIs that differ between 19 and 22 ----===//
//
/// \file
/// bpfprobe builds against LLVM 19 (Debian's default) and LLVM 22. The DWARF
/// expression and unwind-table classes moved between those releases; this
/// header hides the difference so the resolvers read the same either way.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_LLVMCOMPAT_H
#define BPFPROBE_RESOLVE_LLVMCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"

#if LLVM_VERSION_MAJOR >= 21
#include "llvm/DebugInfo/DWARF/LowLevel/DWARFExpression.h"
#include "llvm/DebugInfo/DWARF/LowLevel/DWARFUnwindTable.h"
#else
#include "llvm/DebugInfo/DWARF/DWARFExpression.h"
#endif

#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFTypePrinter.h"

namespace bpfprobe {

/// Prints a DWARF type's name (a template over the DIE type since LLVM 20).
#if LLVM_VERSION_MAJOR >= 20
using TypePrinter = llvm::DWARFTypePrinter<llvm::DWARFDie>;
#else
using TypePrinter = llvm::DWARFTypePrinter;
#endif

/// The unwind rows of one FDE.
inline llvm::Expected<llvm::dwarf::UnwindTable>
unwindTableFor(const llvm::dwarf::FDE &Fde) {
#if LLVM_VERSION_MAJOR >= 21
  return llvm::dwarf::createUnwindTable(&Fde);
#else
  return llvm::dwarf::UnwindTable::create(&Fde);
#endif
}

/// The type unit of a DW_FORM_ref_sig8 hash. LLVM 19 also takes the unit's
/// DWARF version; later releases do not: whichever signature this LLVM has.
template <typename Context>
auto typeUnitForHash(Context &Ctx, uint16_t Version, uint64_t Hash, bool IsDWO,
                     int) -> decltype(Ctx.getTypeUnitForHash(Version, Hash, IsDWO)) {
  return Ctx.getTypeUnitForHash(Version, Hash, IsDWO);
}
template <typename Context>
auto typeUnitForHash(Context &Ctx, uint16_t, uint64_t Hash, bool IsDWO, long)
    -> decltype(Ctx.getTypeUnitForHash(Hash, IsDWO)) {
  return Ctx.getTypeUnitForHash(Hash, IsDWO);
}

} // namespace bpfprobe

#endif
