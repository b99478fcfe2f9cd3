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

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFAbbreviationDeclaration.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugAbbrev.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/DebugInfo/DWARF/DWARFTypeUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"

using namespace llvm;

namespace bpfprobe {

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
    if (Fixed && !refers(*Decl)) {
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
        if (!refersElsewhere(Spec.Form))
          continue;
        // Within the unit: read the value as LLVM will.
        DWARFFormValue V(Spec.Form);
        uint64_t At = Before;
        if (!V.extractValue(Data, &At, Params, &U))
          continue;
        if (V.getForm() == dwarf::DW_FORM_ref_addr) {
          if (DWARFUnit *T =
                  U.getUnitVector().getUnitForOffset(V.getRawUValue()))
            W.Refs.push_back(T);
        } else if (V.getForm() == dwarf::DW_FORM_ref_sig8) {
          if (DWARFUnit *T = Ctx.getTypeUnitForHash(
                  U.getVersion(), V.getRawUValue(), U.isDWOUnit()))
            W.Refs.push_back(T);
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
