//===- DwarfUnitCheck.cpp - Bound every DIE attribute, one unit at a time -===//
//
/// \file
/// Implements DwarfUnitCheck.h. The walk follows DWARFUnit's
/// extractDIEsToVector and DWARFDebugInfoEntry::extractFast step by step
/// (the same abbreviation look-up, the same fixed sizes, the same
/// DWARFFormValue::skipValue), and stops where they stop; where they would
/// read on from past the unit, it refuses the unit instead.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfUnitCheck.h"
#include "Resolve/LLVMCompat.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFAbbreviationDeclaration.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugAbbrev.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/DebugInfo/DWARF/DWARFTypeUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Support/DataExtractor.h"

#include <algorithm>
#include <cinttypes>

using namespace llvm;

namespace bpfprobe {

/// Checks the header of the line table at Start in .debug_line (Contents):
/// the entry formats of a DWARF 5 header against the forms DWARF 5
/// (6.2.4.1) allows there, and the header within its table. LLVM's
/// line-table parser dereferences out of bounds on some other forms (form 0
/// crashes llvm-dwarfdump 19 too), makes one entry per count even for
/// entries without fields (a hang), and advances over a DW_FORM_block by its
/// stated length, past the section (LLVM 22 crashes). A table is parsed only
/// for the unit whose DW_AT_stmt_list names it, so it is checked with that
/// unit; truncated tables are left to LLVM, which reports them.
static Error checkLineTable(StringRef Contents, bool LittleEndian,
                            uint64_t Start) {
  if (Start >= Contents.size())
    return Error::success();
  DataExtractor Data(Contents, LittleEndian, 8);
  DataExtractor::Cursor C(Start);
  uint64_t Length = Data.getU32(C);
  unsigned OffsetSize = 4;
  if (Length == 0xffffffff) {
    Length = Data.getU64(C);
    OffsetSize = 8;
  } else if (Length >= 0xfffffff0) {
    consumeError(C.takeError());
    return Error::success();
  }
  // A table overrunning the section is still parsed by LLVM, so its header
  // is checked too (within the section).
  uint64_t End = std::min<uint64_t>(C.tell() + Length, Contents.size());
  if (!C || End <= Start) {
    consumeError(C.takeError());
    return Error::success();
  }
  uint16_t Version = Data.getU16(C);
  if (Version >= 5) {
    Data.skip(C, 2);                 // address_size, segment_selector_size
    Data.getUnsigned(C, OffsetSize); // header_length
    Data.skip(C, 5);                 // minimum_instruction_length .. line_range
    uint8_t OpcodeBase = Data.getU8(C);
    Data.skip(C, OpcodeBase ? OpcodeBase - 1 : 0);
    for (const char *What : {"directory", "file name"}) {
      uint8_t FormatCount = Data.getU8(C);
      SmallVector<uint64_t, 8> Forms;
      for (unsigned I = 0; C && I < FormatCount; ++I) {
        Data.getULEB128(C); // content type
        uint64_t Form = Data.getULEB128(C);
        switch (Form) {
        case dwarf::DW_FORM_string:
        case dwarf::DW_FORM_line_strp:
        case dwarf::DW_FORM_strp:
        case dwarf::DW_FORM_strp_sup:
        case dwarf::DW_FORM_strx:
        case dwarf::DW_FORM_strx1:
        case dwarf::DW_FORM_strx2:
        case dwarf::DW_FORM_strx3:
        case dwarf::DW_FORM_strx4:
        case dwarf::DW_FORM_udata:
        case dwarf::DW_FORM_data1:
        case dwarf::DW_FORM_data2:
        case dwarf::DW_FORM_data4:
        case dwarf::DW_FORM_data8:
        case dwarf::DW_FORM_data16:
        case dwarf::DW_FORM_block:
          break;
        default:
          if (!C)
            break;
          return createStringError(
              inconvertibleErrorCode(),
              "corrupt .debug_line: the line table at offset 0x%" PRIx64
              " gives its %s entries the form 0x%" PRIx64
              ", which a line table cannot use",
              Start, What, Form);
        }
        Forms.push_back(Form);
      }
      // Skip the entries to reach the file name formats.
      // Every entry takes at least one byte unless it has no fields, and
      // LLVM makes one entry per count even then: a count of empty
      // entries is no bound on its loop (found by the fuzzer, a hang).
      uint64_t Count = Data.getULEB128(C);
      if (Forms.empty() && Count && C)
        return createStringError(
            inconvertibleErrorCode(),
            "corrupt .debug_line: the line table at offset 0x%" PRIx64
            " gives %" PRIu64 " %s entries without fields",
            Start, Count, What);
      for (uint64_t I = 0; C && I < Count; ++I)
        for (uint64_t Form : Forms) {
          switch (Form) {
          case dwarf::DW_FORM_string:
            Data.getCStrRef(C);
            break;
          case dwarf::DW_FORM_line_strp:
          case dwarf::DW_FORM_strp:
          case dwarf::DW_FORM_strp_sup:
            Data.skip(C, OffsetSize);
            break;
          case dwarf::DW_FORM_strx:
          case dwarf::DW_FORM_udata:
            Data.getULEB128(C);
            break;
          case dwarf::DW_FORM_strx1:
          case dwarf::DW_FORM_data1:
            Data.skip(C, 1);
            break;
          case dwarf::DW_FORM_strx2:
          case dwarf::DW_FORM_data2:
            Data.skip(C, 2);
            break;
          case dwarf::DW_FORM_strx3:
            Data.skip(C, 3);
            break;
          case dwarf::DW_FORM_strx4:
          case dwarf::DW_FORM_data4:
            Data.skip(C, 4);
            break;
          case dwarf::DW_FORM_data8:
            Data.skip(C, 8);
            break;
          case dwarf::DW_FORM_data16:
            Data.skip(C, 16);
            break;
          case dwarf::DW_FORM_block:
            Data.skip(C, Data.getULEB128(C));
            break;
          }
          if (!C)
            break;
        }
    }
    // LLVM's prologue parser advances over a DW_FORM_block by its stated
    // length and reads on from there, past the section (LLVM 22 crashes
    // on it; found by bpfprobe-dwarf-fuzzer): a header running past its
    // table is refused.
    if (!C || C.tell() > End) {
      consumeError(C.takeError());
      return createStringError(
          inconvertibleErrorCode(),
          "corrupt .debug_line: the header of the line table at offset "
          "0x%" PRIx64 " runs past its end",
          Start);
    }
  }
  consumeError(C.takeError());
  return Error::success();
}

DwarfUnitCheck::Key DwarfUnitCheck::keyOf(const DWARFUnit &U) {
  return {&U.getInfoSection(), U.getOffset()};
}

/// Forms whose value LLVM follows into another unit: DW_FORM_ref_addr (a
/// .debug_info offset, through the unit list), DW_FORM_ref_sig8 (a type
/// unit, by its signature), and DW_FORM_indirect, which may be either.
static bool refersElsewhere(dwarf::Form F) {
  return F == dwarf::DW_FORM_ref_addr || F == dwarf::DW_FORM_ref_sig8 ||
         F == dwarf::DW_FORM_indirect;
}

bool DwarfUnitCheck::refers(const DWARFAbbreviationDeclaration &Decl) {
  auto [It, New] = Refers.try_emplace(&Decl, false);
  if (New)
    for (const auto &Spec : Decl.attributes())
      if (refersElsewhere(Spec.Form))
        It->second = true;
  return It->second;
}

void DwarfUnitCheck::walk(DWARFUnit &U, bool UnitDieOnly, Walk &W) {
  W.Done = true;
  ++(UnitDieOnly ? UnitDieWalks : WholeWalks);
  // Without its abbreviations LLVM extracts nothing from the unit.
  const DWARFAbbreviationDeclarationSet *Set = U.getAbbreviations();
  if (!Set)
    return;
  DWARFDataExtractor Data = U.getDebugInfoExtractor();
  const dwarf::FormParams Params = U.getFormParams();
  const uint64_t End = U.getNextUnitOffset();
  std::string Section = U.isDWOUnit() ? ".debug_info.dwo"
                        : U.isTypeUnit() && U.getVersion() < 5 ? ".debug_types"
                                                               : ".debug_info";
  auto Hex = [](uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); };
  // DWARFUnitHeader::extract refuses a unit that ends past the section;
  // every read below is at an offset below End.
  if (End <= U.getOffset() || !Data.isValidOffset(End - 1)) {
    W.Failure = "corrupt " + Section + ": the unit at offset " +
                Hex(U.getOffset()) + " ends past the section";
    return;
  }
  auto Past = [&](uint64_t DieOffset) {
    W.Failure = "corrupt " + Section + ": an attribute of the DIE at offset " +
                Hex(DieOffset) + " runs past the end of its unit (" + Hex(End) +
                ")";
  };
  uint64_t Off = U.getOffset() + U.getHeaderSize();
  unsigned Depth = 0;
  bool UnitDieRead = false;
  std::optional<uint64_t> StmtList;
  while (Off < End) {
    uint64_t DieOffset = Off;
    uint64_t Code = Data.getULEB128(&Off);
    if (Code == 0) {
      if (Depth <= 1)
        return; // the unit DIE's children end, or a null unit DIE
      --Depth;
      continue;
    }
    // LLVM looks the code up as 32 bits, and stops at an unknown one.
    const DWARFAbbreviationDeclaration *Decl =
        Set->getAbbreviationDeclaration(uint32_t(Code));
    if (!Decl)
      return;
    std::optional<size_t> Fixed = Decl->getFixedAttributesByteSize(U);
    if (Fixed && !refers(*Decl) && UnitDieRead) {
      // Most DIEs: fixed-size forms only, one bound for all of them.
      Off += *Fixed;
      if (Off > End)
        return Past(DieOffset);
    } else {
      for (const auto &Spec : Decl->attributes()) {
        uint64_t Before = Off;
        if (std::optional<int64_t> Size = Spec.getByteSize(U))
          Off += *Size;
        else if (!DWARFFormValue::skipValue(Spec.Form, Data, &Off, Params))
          return; // LLVM stops at this DIE; the unit reads as cut short
        if (Off < Before || Off > End)
          return Past(DieOffset);
        bool StmtListHere = !UnitDieRead && Spec.Attr == dwarf::DW_AT_stmt_list;
        if (!refersElsewhere(Spec.Form) && !StmtListHere)
          continue;
        // Within the unit: read the value as LLVM will.
        DWARFFormValue V(Spec.Form);
        uint64_t At = Before;
        if (!V.extractValue(Data, &At, Params, &U))
          continue;
        if (StmtListHere)
          StmtList = dwarf::toSectionOffset(std::optional<DWARFFormValue>(V));
        if (V.getForm() == dwarf::DW_FORM_ref_addr) {
          if (DWARFUnit *T =
                  U.getUnitVector().getUnitForOffset(V.getRawUValue()))
            W.Refs.push_back(T);
        } else if (V.getForm() == dwarf::DW_FORM_ref_sig8) {
          if (DWARFUnit *T = typeUnitForHash(Ctx, U.getVersion(),
                                             V.getRawUValue(), U.isDWOUnit(),
                                             0))
            W.Refs.push_back(T);
        }
      }
    }
    if (!UnitDieRead) {
      // The unit's line table: LLVM parses it for this unit, from the
      // offset its unit DIE gives (getLineTableForUnit).
      UnitDieRead = true;
      if (StmtList) {
        auto [It, New] =
            LineTables.try_emplace({U.getLineSection().Data.data(), *StmtList});
        if (New)
          if (Error E = checkLineTable(U.getLineSection().Data,
                                       U.isLittleEndian(), *StmtList))
            It->second = toString(std::move(E));
        if (!It->second.empty()) {
          W.Failure = It->second;
          return;
        }
      }
    }
    if (UnitDieOnly || (Depth == 0 && !Decl->hasChildren()))
      return;
    if (Decl->hasChildren())
      ++Depth;
  }
}

const DwarfUnitCheck::Walk &DwarfUnitCheck::walked(DWARFUnit &U,
                                                   bool UnitDieOnly) {
  Verdict &V = Units[keyOf(U)];
  Walk &W = UnitDieOnly ? V.Die : V.Whole;
  if (!W.Done)
    walk(U, UnitDieOnly, W);
  return W;
}

std::string DwarfUnitCheck::closure(std::vector<DWARFUnit *> Work,
                                    std::optional<Key> Self) {
  DenseSet<Key> Seen;
  if (Self)
    Seen.insert(*Self);
  while (!Work.empty()) {
    DWARFUnit *R = Work.back();
    Work.pop_back();
    Key K = keyOf(*R);
    if (!Seen.insert(K).second)
      continue;
    Verdict &V = Units[K];
    if (V.ClosureDone) {
      if (!V.ClosureFailure.empty())
        return V.ClosureFailure;
      continue; // it, and all it reaches, passed
    }
    const Walk &W = walked(*R, /*UnitDieOnly=*/false);
    if (!W.Failure.empty())
      return W.Failure;
    Work.insert(Work.end(), W.Refs.begin(), W.Refs.end());
  }
  return {};
}

DWARFUnit *DwarfUnitCheck::note(DWARFUnit *U, const std::string &F) {
  if (F.empty())
    return U;
  if (Failure.empty())
    Failure = F;
  return nullptr;
}

DWARFUnit *DwarfUnitCheck::wholeUnit(DWARFUnit *U) {
  if (!U)
    return nullptr;
  Key K = keyOf(*U);
  Verdict &V = Units[K]; // std::map: stays valid while others are added
  if (!V.ClosureDone) {
    const Walk &W = walked(*U, /*UnitDieOnly=*/false);
    std::string F = W.Failure.empty() ? closure(W.Refs, K) : W.Failure;
    V.ClosureDone = true;
    V.ClosureFailure = std::move(F);
  }
  return note(U, V.ClosureFailure);
}

std::string DwarfUnitCheck::unitDieFailure(DWARFUnit &U) {
  const Walk &W = walked(U, /*UnitDieOnly=*/true);
  if (!W.Failure.empty() || W.Refs.empty())
    return W.Failure;
  // The unit DIE refers elsewhere (into its own unit too, possibly).
  return closure(W.Refs, std::nullopt);
}

DWARFUnit *DwarfUnitCheck::unitDie(DWARFUnit *U) {
  return U ? note(U, unitDieFailure(*U)) : nullptr;
}

bool DwarfUnitCheck::everyUnitDie() {
  if (!AllUnitDies) {
    for (const auto &U : Ctx.info_section_units())
      if (std::string F = unitDieFailure(*U); !F.empty()) {
        AllUnitDies = std::move(F);
        break;
      }
    if (!AllUnitDies)
      AllUnitDies = std::string();
  }
  note(nullptr, *AllUnitDies);
  return AllUnitDies->empty();
}

Error DwarfUnitCheck::takeFailure() {
  if (Failure.empty())
    return Error::success();
  std::string F = std::move(Failure);
  Failure.clear();
  return createStringError(inconvertibleErrorCode(), F);
}

} // namespace bpfprobe
