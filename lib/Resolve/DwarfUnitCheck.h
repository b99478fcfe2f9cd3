//===- DwarfUnitCheck.h - Bound DIE attributes, unit by unit -*- C++ -*-===//
//
/// \file
/// The check that keeps LLVM's DIE extraction within the section, made
/// before LLVM extracts the DIEs of a unit and only for that unit. LLVM's
/// DWARFUnit::extractDIEsToVector advances over a block form by its stated
/// length without a bound, and the next attribute's LEB128 then reads from
/// that far past the section (found by bpfprobe-dwarf-fuzzer). The check
/// walks a unit's DIE stream as LLVM does, with a bound after every
/// attribute, and refuses the unit when one runs past it. The header of the
/// unit's line table (its DW_AT_stmt_list), which LLVM parses only for that
/// unit, is checked with it.
///
/// LLVM extracts a unit's DIEs on first use, from many places: a unit found
/// by address, every unit's first DIE when DWARFContext searches by address
/// itself, and any unit an attribute refers to (DW_FORM_ref_addr into
/// another unit, DW_FORM_ref_sig8 into a type unit). So a unit passes only
/// when every unit its attributes reach passes too, and the look-ups that
/// hand out units (DwarfIndex) ask before they hand one out. Verdicts are
/// kept per unit: a kernel's 2,400 units cost only those a probe reads.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_DWARFUNITCHECK_H
#define BPFPROBE_RESOLVE_DWARFUNITCHECK_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class DWARFAbbreviationDeclaration;
class DWARFContext;
struct DWARFSection;
class DWARFUnit;
} // namespace llvm

namespace bpfprobe {

class DwarfUnitCheck {
public:
  explicit DwarfUnitCheck(llvm::DWARFContext &Ctx) : Ctx(Ctx) {}

  /// U when every attribute of every DIE LLVM would extract from it lies
  /// within U, and the same holds for every unit those DIEs refer to,
  /// transitively; else null, and the failure is kept for takeFailure().
  /// Null for null.
  llvm::DWARFUnit *wholeUnit(llvm::DWARFUnit *U);

  /// U when the attributes of its unit DIE lie within U (all that
  /// getUnitDIE(/*ExtractUnitDIEOnly=*/true) extracts), and the units they
  /// refer to pass wholeUnit(); else null, as wholeUnit().
  llvm::DWARFUnit *unitDie(llvm::DWARFUnit *U);

  /// Whether the unit DIE of every unit of .debug_info passes unitDie():
  /// asked before DWARFContext's own address search, which reads them all.
  bool everyUnitDie();

  /// The first failure noted since the last call (a unit refused, or asked
  /// for again after it was refused), or success.
  llvm::Error takeFailure();

  /// How many units' DIE streams were walked whole, and how many units'
  /// unit DIEs alone (for `bpfprobe-resolve --stats` and its tests).
  unsigned wholeWalks() const { return WholeWalks; }
  unsigned unitDieWalks() const { return UnitDieWalks; }

private:
  llvm::DWARFContext &Ctx;
  using Key = std::pair<const llvm::DWARFSection *, uint64_t>;
  struct Walk {
    bool Done = false;
    std::string Failure; ///< empty: within bounds
    std::vector<llvm::DWARFUnit *> Refs;
  };
  struct Verdict {
    Walk Whole, Die;
    /// The verdict of the unit with the units it reaches (wholeUnit()).
    bool ClosureDone = false;
    std::string ClosureFailure;
  };
  std::map<Key, Verdict> Units; ///< a map: references stay valid

  /// Line-table header verdicts by (section, offset): the failure or empty.
  std::map<std::pair<const char *, uint64_t>, std::string> LineTables;
  /// Abbreviations with a form whose value can name another unit.
  llvm::DenseMap<const llvm::DWARFAbbreviationDeclaration *, bool> Refers;
  std::string Failure;
  /// everyUnitDie()'s verdict: the failure, or empty.
  std::optional<std::string> AllUnitDies;
  unsigned WholeWalks = 0, UnitDieWalks = 0;

  static Key keyOf(const llvm::DWARFUnit &U);
  const Walk &walked(llvm::DWARFUnit &U, bool UnitDieOnly);
  void walk(llvm::DWARFUnit &U, bool UnitDieOnly, Walk &W);
  bool refers(const llvm::DWARFAbbreviationDeclaration &Decl);
  /// Failure of the units in Refs, wholly checked, with what they reach.
  std::string closure(std::vector<llvm::DWARFUnit *> Refs,
                      std::optional<Key> Self);
  std::string unitDieFailure(llvm::DWARFUnit &U);
  llvm::DWARFUnit *note(llvm::DWARFUnit *U, const std::string &Failure);
};

} // namespace bpfprobe

#endif
