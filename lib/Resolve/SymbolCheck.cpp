//===- SymbolCheck.cpp - Does a calling-convention site have a symbol? ----===//
//
/// \file
/// A user probe resolved by the calling convention reads no debug info, so
/// nothing looked at the binary while compiling: a function that exists
/// only inlined (no symbol of its own) was found missing only when the
/// runtime tried to attach. When the binary is at hand, its symbol tables
/// are checked here, and when the symbol is missing its DWARF says why
/// (a subprogram with DW_AT_inline and no code of its own). Only the error
/// path reads DWARF, and only the DIEs' tags and names.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfIndex.h"
#include "Resolve/DwarfUnitCheck.h"
#include "Resolve/FileTrust.h"
#include "Resolve/Resolver.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace bpfprobe {

namespace {

bool hasSymbol(const object::ELFObjectFileBase &Obj, StringRef Name) {
  auto Match = [&](const object::SymbolRef &S) {
    Expected<StringRef> N = S.getName();
    if (!N) {
      consumeError(N.takeError());
      return false;
    }
    if (*N != Name)
      return false;
    Expected<uint32_t> Flags = S.getFlags();
    if (!Flags) {
      consumeError(Flags.takeError());
      return true;
    }
    return !(*Flags & object::SymbolRef::SF_Undefined);
  };
  for (const object::SymbolRef &S : Obj.symbols())
    if (Match(S))
      return true;
  for (const object::SymbolRef &S : Obj.getDynamicSymbolIterators())
    if (Match(S))
      return true;
  return false;
}

bool hasSection(const object::ObjectFile &Obj, StringRef Name) {
  for (const object::SectionRef &S : Obj.sections()) {
    Expected<StringRef> N = S.getName();
    if (N && *N == Name)
      return true;
    if (!N)
      consumeError(N.takeError());
  }
  return false;
}

/// Does the DWARF describe Name as a function with inlined copies only?
bool onlyInlined(const object::ObjectFile &Obj, StringRef Name) {
  std::unique_ptr<DWARFContext> Ctx = DWARFContext::create(
      Obj, DWARFContext::ProcessDebugRelocations::Ignore, nullptr, "",
      [](Error E) { consumeError(std::move(E)); },
      [](Error E) { consumeError(std::move(E)); });
  // Each unit's DIE stream checked before LLVM extracts it, as the
  // resolver's are (DwarfUnitCheck.h); a unit refused is not looked at.
  DwarfUnitCheck Check(*Ctx);
  bool Abstract = false;
  for (const auto &Each : Ctx->compile_units()) {
    DWARFUnit *CU = readableUnit(Check.wholeUnit(Each.get()));
    if (!CU)
      continue;
    for (const DWARFDebugInfoEntry &Entry : CU->dies()) {
      DWARFDie D(CU, &Entry);
      if (D.getTag() != dwarf::DW_TAG_subprogram)
        continue;
      const char *N = D.getShortName();
      if (!N || Name != N)
        continue;
      // A definition with code of its own would have had a symbol.
      if (D.find(dwarf::DW_AT_low_pc) || D.find(dwarf::DW_AT_ranges))
        return false;
      if (D.find(dwarf::DW_AT_inline))
        Abstract = true;
    }
  }
  return Abstract;
}

} // namespace

Error checkSymbolAtHand(const ProbeSpec &Spec) {
  if (!isUserProbe(Spec.Kind) || Spec.Place.Form != ProbePlace::SymbolOffset)
    return Error::success();
  StringRef Sym = Spec.Place.Symbol;
  // Names the symbol table spells otherwise (C++) are not checked here.
  if (Sym.empty() || Sym.find_first_of(":(<> ") != StringRef::npos)
    return Error::success();
  // Opened once, without blocking, only if regular (FileTrust.h).
  Expected<OpenedFile> File = openRegularFile(Spec.Binary);
  if (!File) {
    consumeError(File.takeError());
    return Error::success(); // not at hand: the runtime checks it
  }
  Expected<std::unique_ptr<object::Binary>> Bin =
      object::createBinary(File->Buffer->getMemBufferRef());
  if (!Bin) {
    consumeError(Bin.takeError());
    return Error::success();
  }
  auto *Obj = dyn_cast<object::ELFObjectFileBase>(Bin->get());
  if (!Obj || hasSymbol(*Obj, Sym))
    return Error::success();
  if (onlyInlined(*Obj, Sym))
    return make_error<ResolveError>(
        Spec.Place.SymbolRange,
        ("'" + Sym + "' exists only inlined in " + Spec.Binary +
         ": no symbol to attach to; probe a source line inside it "
         "(" + Spec.Binary + ":FILE:LINE, with debug info) or its caller")
            .str());
  if (!hasSection(*Obj, ".symtab"))
    return make_error<ResolveError>(
        Spec.Place.SymbolRange,
        ("symbol '" + Sym + "' not found in " + Spec.Binary +
         ": the binary is stripped (no .symtab) and does not export it")
            .str());
  return make_error<ResolveError>(
      Spec.Place.SymbolRange,
      ("symbol '" + Sym + "' not found in " + Spec.Binary +
       " (neither .symtab nor .dynsym has it)")
          .str());
}

} // namespace bpfprobe
