//===- DwarfIndex.h - Find one unit or one FDE without parsing all -*- C++ -*-===//
//
/// \file
/// Look-ups that parse only what one probe needs, shared by all the probes
/// that use the same debug info. DWARFContext answers "which compile unit
/// covers this address" by reading the header of every unit in .debug_info
/// (on a kernel image: 2,400 headers spread over 200 MB, each one a page
/// fault) and "which FDE covers this address" by parsing every CFI program
/// of .debug_frame. Here:
///   - .debug_aranges (a small section) maps the address to its unit's
///     offset, and that unit alone is read from its header;
///   - .debug_frame is indexed by walking its entry headers once, and the
///     one FDE wanted is parsed with its CIE.
/// Whatever the fast path cannot prove right (no aranges entry for the
/// address, a unit that refers into other units, a relocatable object
/// whose .debug_frame needs relocations) goes to DWARFContext's own search.
/// Every unit handed out has passed DwarfUnitCheck first (its DIE stream,
/// or its unit DIE where only that is read): resolution code gets its
/// units here, or through readable().
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_DWARFINDEX_H
#define BPFPROBE_RESOLVE_DWARFINDEX_H

#include "Resolve/DwarfUnitCheck.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace llvm {
class DWARFContext;
class DWARFDebugFrame;
namespace dwarf {
class FDE;
}
} // namespace llvm

namespace bpfprobe {

class DwarfIndex {
public:
  explicit DwarfIndex(llvm::DWARFContext &Ctx);
  ~DwarfIndex();

  /// The compile unit whose code contains Address, or nullptr.
  llvm::DWARFUnit *unitForAddress(uint64_t Address);

  /// U, when DwarfUnitCheck passes it and its whole DIE tree could be read
  /// (readableUnit()), else null; once per unit. Any unit not from this
  /// index (the context's unit list, a DIE's unit) goes through here before
  /// its DIEs are read.
  llvm::DWARFUnit *readable(llvm::DWARFUnit *U);

  /// The check, for its failures (DwarfUnitCheck::takeFailure) and for
  /// units whose unit DIE alone is read.
  DwarfUnitCheck &check() { return Check; }

  /// The compile units whose line tables name a file Matches accepts (its
  /// absolute path is passed), File being the name the user wrote: only
  /// entries whose name ends like File's last component are tried. Reads
  /// every unit's header, unit DIE and line-table header, but the rows of
  /// none: a kernel has 2,400 tables and 19 MB of rows. Only the unit DIEs
  /// of the units returned are checked: read their DIEs through readable().
  std::vector<llvm::DWARFUnit *>
  unitsWithFile(llvm::StringRef File,
                llvm::function_ref<bool(llvm::StringRef Path)> Matches);

  /// The .debug_frame FDE covering Address, or nullptr if there is none.
  /// std::nullopt when this index cannot answer (no .debug_frame, a
  /// relocatable object, a malformed section): ask DWARFContext.
  std::optional<const llvm::dwarf::FDE *> debugFrameFDE(uint64_t Address);

  /// How many units this index read on their own, and how many look-ups
  /// went through every unit header (DWARFContext's address search, file
  /// names): for `bpfprobe-resolve --stats`, its tests and the bench.
  unsigned unitsRead() const { return Units.size(); }

  unsigned contextLookups() const { return ContextLookups; }

private:
  llvm::DWARFContext &Ctx;
  DwarfUnitCheck Check;
  llvm::DenseMap<llvm::DWARFUnit *, bool> Readable;

  // .debug_aranges: address ranges to unit offsets, sorted by LowPC.
  struct ArangeEntry {
    uint64_t LowPC, HighPC, UnitOffset;
  };
  std::vector<ArangeEntry> Aranges;
  bool ArangesRead = false;
  /// Units read on their own, by offset; a DWARFUnitVector so that DIE
  /// references resolve through it.
  llvm::DWARFUnitVector Units;
  /// Set when a unit needs the whole unit list (DW_FORM_ref_addr and the
  /// like): from then on DWARFContext answers.
  bool UseContext = false;
  unsigned ContextLookups = 0;

  void readAranges();
  llvm::DWARFUnit *unitAtOffset(uint64_t Offset);

  // .debug_frame: FDE ranges to the offsets of the FDE and its CIE.
  struct FrameEntry {
    uint64_t Begin, End;
    uint64_t FdeOffset, FdeSize, CieOffset, CieSize;
  };
  std::vector<FrameEntry> Frames;
  enum { NotRead, Usable, Unusable } FramesState = NotRead;
  void readFrames();
  /// Mini sections ("CIE, FDE") parsed so far, by FDE offset.
  struct ParsedFDE {
    std::string Bytes;
    std::unique_ptr<llvm::DWARFDebugFrame> Frame;
    const llvm::dwarf::FDE *Fde = nullptr;
  };
  std::map<uint64_t, ParsedFDE> ParsedFDEs;
};

/// U when its whole DIE tree could be read, else null: a corrupt unit (an
/// unknown abbreviation, a truncated tree) is treated as absent, since LLVM's
/// own walks of it dereference invalid DIEs.
llvm::DWARFUnit *readableUnit(llvm::DWARFUnit *U);

} // namespace bpfprobe

#endif
