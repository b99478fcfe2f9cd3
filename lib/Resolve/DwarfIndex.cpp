//===- DwarfIndex.cpp - Find one unit or one FDE without parsing all -----===//
//
/// \file
/// Implements DwarfIndex.h. A unit is constructed the way DWARFUnitVector
/// constructs the units of .debug_info (same sections, same abbreviation
/// table), only for the one offset .debug_aranges names. One FDE is parsed
/// by giving DWARFDebugFrame a two-entry section: a copy of its CIE at
/// offset 0 and of the FDE, whose CIE pointer is rewritten to 0.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfIndex.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFAbbreviationDeclaration.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugAbbrev.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugArangeSet.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugLine.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFFormValue.h"
#include "llvm/DebugInfo/DWARF/DWARFObject.h"
#include "llvm/DebugInfo/DWARF/DWARFSection.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace bpfprobe {

DwarfIndex::DwarfIndex(DWARFContext &Ctx) : Ctx(Ctx), Check(Ctx) {
  // Relocatable objects (kernel modules) need their DWARF relocated, which
  // only DWARFContext's own extractors do.
  if (const object::ObjectFile *F = Ctx.getDWARFObj().getFile())
    UseContext = F->isRelocatableObject();
}

DwarfIndex::~DwarfIndex() = default;

//===----------------------------------------------------------------------===//
// Units
//===----------------------------------------------------------------------===//

void DwarfIndex::readAranges() {
  ArangesRead = true;
  const DWARFObject &D = Ctx.getDWARFObj();
  DWARFDataExtractor Data(D.getArangesSection(), D.isLittleEndian(), 0);
  uint64_t Offset = 0;
  while (Data.isValidOffset(Offset)) {
    DWARFDebugArangeSet Set;
    if (Error E = Set.extract(Data, &Offset, [](Error W) {
          consumeError(std::move(W));
        })) {
      consumeError(std::move(E));
      break; // keep what was read; the rest falls back to the context
    }
    for (const DWARFDebugArangeSet::Descriptor &Desc : Set.descriptors())
      if (Desc.Length)
        Aranges.push_back({Desc.Address, Desc.getEndAddress(),
                           Set.getCompileUnitDIEOffset()});
  }
  llvm::sort(Aranges, [](const ArangeEntry &A, const ArangeEntry &B) {
    return A.LowPC < B.LowPC;
  });
}

/// Forms that reach into other units or other files: a unit using them
/// needs the whole unit list to resolve its references.
static bool refersOutside(const DWARFAbbreviationDeclarationSet &Set) {
  for (const DWARFAbbreviationDeclaration &Decl : Set)
    for (const DWARFAbbreviationDeclaration::AttributeSpec &Spec :
         Decl.attributes())
      switch (Spec.Form) {
      case dwarf::DW_FORM_ref_addr:
      case dwarf::DW_FORM_ref_sig8:
      case dwarf::DW_FORM_GNU_ref_alt:
      case dwarf::DW_FORM_GNU_strp_alt:
      case dwarf::DW_FORM_ref_sup4:
      case dwarf::DW_FORM_ref_sup8:
      case dwarf::DW_FORM_strp_sup:
        return true;
      default:
        break;
      }
  return false;
}

DWARFUnit *DwarfIndex::unitAtOffset(uint64_t Offset) {
  if (DWARFUnit *U = Units.getUnitForOffset(Offset))
    if (U->getOffset() == Offset)
      return U;
  const DWARFObject &D = Ctx.getDWARFObj();
  const DWARFSection *Info = nullptr;
  unsigned InfoSections = 0;
  D.forEachInfoSections([&](const DWARFSection &S) {
    Info = &S;
    ++InfoSections;
  });
  if (InfoSections != 1)
    return nullptr;
  DWARFDataExtractor Data(D, *Info, D.isLittleEndian(), 0);
  if (!Data.isValidOffset(Offset))
    return nullptr;
  DWARFUnitHeader Header;
  uint64_t At = Offset;
  if (Error E = Header.extract(Ctx, Data, &At, DW_SECT_INFO)) {
    consumeError(std::move(E));
    return nullptr;
  }
  if (Header.isTypeUnit())
    return nullptr;
  auto U = std::make_unique<DWARFCompileUnit>(
      Ctx, *Info, Header, Ctx.getDebugAbbrev(), &D.getRangesSection(),
      &D.getLocSection(), D.getStrSection(), D.getStrOffsetsSection(),
      &D.getAddrSection(), D.getLineSection(), D.isLittleEndian(),
      /*IsDWO=*/false, Units);
  const DWARFAbbreviationDeclarationSet *Abbrevs = U->getAbbreviations();
  if (!Abbrevs)
    return nullptr;
  if (refersOutside(*Abbrevs)) {
    UseContext = true;
    return nullptr;
  }
  return Units.addUnit(std::move(U));
}

/// U, when its whole DIE tree could be read. A corrupt .debug_info or
/// .debug_abbrev (an unknown abbreviation code, a truncated unit) makes LLVM
/// stop extracting part-way, leaving no unit DIE or children lists without
/// their closing null entry, and LLVM's own walks of a unit
/// (getSubroutineForAddress, DWARFDie child iteration) then dereference
/// invalid DIEs. Such a unit is treated as absent.
DWARFUnit *readableUnit(DWARFUnit *U) {
  if (!U || !U->getUnitDIE(/*ExtractUnitDIEOnly=*/false).isValid())
    return nullptr;
  // Every DIE with children is closed by a null entry, the unit DIE's last.
  unsigned Open = 0;
  for (unsigned I = 0, N = U->getNumDIEs(); I < N; ++I) {
    DWARFDie D = U->getDIEAtIndex(I);
    if (D.isNULL()) {
      if (Open-- == 0)
        return nullptr;
    } else if (D.hasChildren()) {
      ++Open;
    }
    if (Open == 0 && I + 1 < N)
      return nullptr; // entries after the unit DIE's subtree
  }
  return Open == 0 ? U : nullptr;
}

DWARFUnit *DwarfIndex::readable(DWARFUnit *U) {
  // The check first, every time: a refused unit notes its failure again
  // for the resolution that asks now.
  if (!Check.wholeUnit(U))
    return nullptr;
  auto [It, New] = Readable.try_emplace(U, false);
  if (New)
    It->second = readableUnit(U) != nullptr;
  return It->second ? U : nullptr;
}

DWARFUnit *DwarfIndex::unitForAddress(uint64_t Address) {
  if (!UseContext) {
    if (!ArangesRead)
      readAranges();
    auto It = llvm::upper_bound(Aranges, Address,
                                [](uint64_t A, const ArangeEntry &E) {
                                  return A < E.LowPC;
                                });
    if (It != Aranges.begin() && Address < std::prev(It)->HighPC)
      if (DWARFUnit *U = unitAtOffset(std::prev(It)->UnitOffset))
        return readable(U);
  }
  // No aranges entry (clang does not emit .debug_aranges by default), or a
  // unit this index cannot read alone. DWARFContext's search reads the unit
  // DIE of every unit not in .debug_aranges.
  ++ContextLookups;
  if (!Check.everyUnitDie())
    return nullptr;
  return readable(Ctx.getCompileUnitForCodeAddress(Address));
}

std::vector<DWARFUnit *>
DwarfIndex::unitsWithFile(StringRef File,
                          function_ref<bool(StringRef Path)> Matches) {
  ++ContextLookups;
  StringRef Base = sys::path::filename(File);
  const DWARFObject &D = Ctx.getDWARFObj();
  std::vector<DWARFUnit *> Found;
  for (const auto &U : Ctx.compile_units()) {
    if (!Check.unitDie(U.get()))
      continue;
    DWARFDie Die = U->getUnitDIE(/*ExtractUnitDIEOnly=*/true);
    std::optional<uint64_t> StmtList =
        dwarf::toSectionOffset(Die.find(dwarf::DW_AT_stmt_list));
    if (!StmtList)
      continue;
    DWARFDataExtractor Data(D, D.getLineSection(), D.isLittleEndian(),
                            U->getAddressByteSize());
    DWARFDebugLine::Prologue Header;
    uint64_t Offset = *StmtList;
    if (Error E = Header.parse(Data, &Offset, [](Error W) {
          consumeError(std::move(W));
        }, Ctx, U.get())) {
      consumeError(std::move(E));
      // An unreadable header: let the full parse judge this unit.
      Found.push_back(U.get());
      continue;
    }
    // Building absolute paths is most of the cost: only for entries whose
    // own name could end the path the user wrote. File indexes start at 0
    // in DWARF 5 and at 1 before.
    for (size_t K = 0; K < Header.FileNames.size(); ++K) {
      Expected<const char *> Name = Header.FileNames[K].Name.getAsCString();
      if (!Name) {
        consumeError(Name.takeError());
        continue;
      }
      if (!StringRef(*Name).ends_with(Base))
        continue;
      std::string Path;
      if (Header.getFileNameByIndex(
              Header.getVersion() >= 5 ? K : K + 1, U->getCompilationDir(),
              DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath, Path) &&
          Matches(Path)) {
        Found.push_back(U.get());
        break;
      }
    }
  }
  return Found;
}

//===----------------------------------------------------------------------===//
// .debug_frame
//===----------------------------------------------------------------------===//

void DwarfIndex::readFrames() {
  FramesState = Unusable;
  const DWARFObject &D = Ctx.getDWARFObj();
  if (UseContext && D.getFile() && D.getFile()->isRelocatableObject())
    return;
  StringRef Section = D.getFrameSection().Data;
  if (Section.empty())
    return;
  uint8_t DefaultAddrSize = D.getAddressSize();
  DataExtractor Data(Section, D.isLittleEndian(), DefaultAddrSize);
  struct CIEInfo {
    uint64_t Size;
    uint8_t AddrSize, SegSize;
  };
  std::map<uint64_t, CIEInfo> CIEs;
  struct Pending {
    uint64_t FdeOffset, FdeSize, CieOffset, LocOffset;
  };
  std::vector<Pending> FDEs;
  uint64_t Offset = 0;
  DataExtractor::Cursor C(0);
  while (Offset < Section.size()) {
    uint64_t Start = Offset;
    C = DataExtractor::Cursor(Offset);
    uint64_t Length = Data.getU32(C);
    bool Is64 = Length == 0xffffffffu;
    if (Is64)
      Length = Data.getU64(C);
    else if (Length >= 0xfffffff0u)
      break;
    if (!C) {
      consumeError(C.takeError());
      return;
    }
    uint64_t Body = C.tell();
    uint64_t End = Body + Length;
    if (Length == 0 || End > Section.size() || End < Body) {
      if (Length == 0) { // padding
        Offset = Body;
        continue;
      }
      return;
    }
    uint64_t Id = Is64 ? Data.getU64(C) : Data.getU32(C);
    bool IsCIE = Is64 ? Id == UINT64_MAX : Id == UINT32_MAX;
    if (IsCIE) {
      CIEInfo Info{End - Start, DefaultAddrSize, 0};
      uint8_t Version = Data.getU8(C);
      Data.getCStrRef(C); // augmentation
      if (Version >= 4) {
        Info.AddrSize = Data.getU8(C);
        Info.SegSize = Data.getU8(C);
      }
      CIEs[Start] = Info;
    } else {
      FDEs.push_back({Start, End - Start, Id, C.tell()});
    }
    if (!C) {
      consumeError(C.takeError());
      return;
    }
    Offset = End;
  }
  for (const Pending &P : FDEs) {
    auto It = CIEs.find(P.CieOffset);
    if (It == CIEs.end())
      return; // a CIE this walk did not see: let LLVM judge the section
    uint8_t AS = It->second.AddrSize;
    if (AS != 4 && AS != 8)
      return;
    uint64_t At = P.LocOffset + It->second.SegSize;
    DataExtractor FD(Section, D.isLittleEndian(), AS);
    DataExtractor::Cursor FC(At);
    uint64_t Begin = FD.getUnsigned(FC, AS);
    uint64_t Range = FD.getUnsigned(FC, AS);
    if (!FC) {
      consumeError(FC.takeError());
      return;
    }
    Frames.push_back({Begin, Begin + Range, P.FdeOffset, P.FdeSize,
                      P.CieOffset, It->second.Size});
  }
  llvm::sort(Frames, [](const FrameEntry &A, const FrameEntry &B) {
    return A.Begin < B.Begin;
  });
  FramesState = Usable;
}

std::optional<const dwarf::FDE *> DwarfIndex::debugFrameFDE(uint64_t Address) {
  if (FramesState == NotRead)
    readFrames();
  if (FramesState != Usable)
    return std::nullopt;
  auto It = llvm::upper_bound(Frames, Address,
                              [](uint64_t A, const FrameEntry &E) {
                                return A < E.Begin;
                              });
  if (It == Frames.begin() || Address >= std::prev(It)->End)
    return nullptr;
  const FrameEntry &F = *std::prev(It);
  auto Parsed = ParsedFDEs.find(F.FdeOffset);
  if (Parsed != ParsedFDEs.end())
    return Parsed->second.Fde;

  const DWARFObject &D = Ctx.getDWARFObj();
  StringRef Section = D.getFrameSection().Data;
  // Parsed in place: DWARFDebugFrame keeps references into the bytes.
  ParsedFDE &P = ParsedFDEs[F.FdeOffset];
  P.Bytes = Section.substr(F.CieOffset, F.CieSize).str();
  std::string Fde = Section.substr(F.FdeOffset, F.FdeSize).str();
  // The CIE pointer follows the initial length (4, or 12 for DWARF64).
  bool Is64 = F.FdeSize >= 12 &&
              StringRef(Fde).take_front(4) == StringRef("\xff\xff\xff\xff", 4);
  std::memset(&Fde[Is64 ? 12 : 4], 0, Is64 ? 8 : 4);
  P.Bytes += Fde;
  P.Frame = std::make_unique<DWARFDebugFrame>(Ctx.getArch(), /*IsEH=*/false);
  DWARFDataExtractor Data(StringRef(P.Bytes), D.isLittleEndian(),
                          D.getAddressSize());
  if (Error E = P.Frame->parse(Data)) {
    consumeError(std::move(E));
    ParsedFDEs.erase(F.FdeOffset);
    return std::nullopt;
  }
  for (const dwarf::FrameEntry &E : P.Frame->entries())
    if (const auto *Fd = dyn_cast<dwarf::FDE>(&E))
      P.Fde = Fd;
  if (!P.Fde) {
    ParsedFDEs.erase(F.FdeOffset);
    return std::nullopt;
  }
  return P.Fde;
}

} // namespace bpfprobe
