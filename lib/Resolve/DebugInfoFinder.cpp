//===- DebugInfoFinder.cpp - Locate and open the DWARF of a target --------===//
//
/// \file
/// Implements the search described in DebugInfoFinder.h. Each source
/// produces candidate files; a candidate is accepted only after it has been
/// opened as ELF and checked (CRC for .gnu_debuglink, build-id against the
/// target or the running kernel, .debug_info present), and every refusal is
/// recorded as "place: reason" so that the final error lists them all.
/// Only the ELF headers, the notes, .gnu_debuglink and the symbol tables are
/// read here; the DWARF is left to DWARFContext, which parses units lazily.
//===----------------------------------------------------------------------===//

#include "Resolve/DebugInfoFinder.h"
#include "Resolve/FileTrust.h"
#include "Resolve/Resolver.h"
#include "Support/BinarySearch.h"
#include "Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/Decompressor.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

using namespace llvm;
using namespace llvm::object;

namespace bpfprobe {

namespace {

/// One symbol as scanSymbols() sees it: the name still in the mapped string
/// table.
struct RawSymbol {
  /// The string table from the name on: the name ends at the first NUL, or
  /// at the table's end if a corrupt one lacks it. Measured only when it is
  /// used: most look-ups compare a few bytes of 200k names (a kernel's).
  StringRef Text;
  uint64_t Address = 0, Size = 0;
  bool IsFunction = false;
  uint8_t Binding = 0;

  StringRef name() const { return Text.substr(0, Text.find('\0')); }
  bool named(StringRef N) const {
    // The first byte rejects nearly all without a call to memcmp.
    return !N.empty() && Text[0] == N[0] && Text.starts_with(N) &&
           (Text.size() == N.size() || !Text[N.size()]);
  }

  ElfSymbol get() const {
    ElfSymbol E;
    E.Name = name().str();
    E.Address = Address;
    E.Size = Size;
    E.IsFunction = IsFunction;
    return E;
  }
};

/// Calls F with every symbol of Obj's .symtab (or .dynsym) that names
/// something a probe can use: defined functions and data, not section, file
/// or mapping symbols. Reads the table in place: the ELFSymbolRef accessors
/// look the string table up again for every symbol, which is most of the
/// time on a kernel's 200k symbols.
template <class ELFT>
void scanSymbols(const object::ELFObjectFile<ELFT> &Obj, bool Dynamic,
                 function_ref<void(const RawSymbol &)> F) {
  const object::ELFFile<ELFT> &EF = Obj.getELFFile();
  auto Sections = EF.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return;
  }
  unsigned Want = Dynamic ? ELF::SHT_DYNSYM : ELF::SHT_SYMTAB;
  bool Relocatable = EF.getHeader().e_type == ELF::ET_REL;
  bool ClearThumbBit = EF.getHeader().e_machine == ELF::EM_ARM ||
                       EF.getHeader().e_machine == ELF::EM_MIPS;
  for (const auto &Sec : *Sections) {
    if (Sec.sh_type != Want)
      continue;
    auto Syms = EF.symbols(&Sec);
    auto Strings = EF.getStringTableForSymtab(Sec, *Sections);
    if (!Syms || !Strings) {
      if (!Syms)
        consumeError(Syms.takeError());
      if (!Strings)
        consumeError(Strings.takeError());
      return;
    }
    // A symbol table without its null entry has no symbols to read.
    if (Syms->empty())
      return;
    RawSymbol E;
    for (const auto &Sym : Syms->drop_front()) {
      uint8_t Type = Sym.getType();
      if (Type != ELF::STT_FUNC && Type != ELF::STT_GNU_IFUNC &&
          Type != ELF::STT_OBJECT && Type != ELF::STT_TLS &&
          Type != ELF::STT_NOTYPE)
        continue;
      uint16_t Shndx = Sym.st_shndx;
      if (Shndx == ELF::SHN_UNDEF || Shndx == ELF::SHN_ABS)
        continue;
      if (Sym.st_name >= Strings->size())
        continue;
      StringRef Text = Strings->substr(Sym.st_name);
      // Mapping symbols ($x, $d, $t) and assembler locals (.L).
      if (Text.empty() || !Text[0] || Text[0] == '$' || Text.starts_with(".L"))
        continue;
      uint64_t Addr = Sym.st_value;
      if (ClearThumbBit && Type == ELF::STT_FUNC)
        Addr &= ~uint64_t(1);
      if (Relocatable && Shndx < ELF::SHN_LORESERVE && Shndx < Sections->size())
        Addr += (*Sections)[Shndx].sh_addr;
      E.Text = Text;
      E.Address = Addr;
      E.Size = Sym.st_size;
      E.IsFunction = Type == ELF::STT_FUNC || Type == ELF::STT_GNU_IFUNC;
      E.Binding = Sym.getBinding();
      F(E);
    }
    return;
  }
}

void forEachSymbol(const ObjectFile *Obj, bool Dynamic,
                   function_ref<void(const RawSymbol &)> F) {
  if (!Obj)
    return;
  if (const auto *E = dyn_cast<object::ELF64LEObjectFile>(Obj))
    scanSymbols(*E, Dynamic, F);
  else if (const auto *E = dyn_cast<object::ELF64BEObjectFile>(Obj))
    scanSymbols(*E, Dynamic, F);
  else if (const auto *E = dyn_cast<object::ELF32LEObjectFile>(Obj))
    scanSymbols(*E, Dynamic, F);
  else if (const auto *E = dyn_cast<object::ELF32BEObjectFile>(Obj))
    scanSymbols(*E, Dynamic, F);
}

} // namespace

std::vector<ElfSymbol> DebugInfo::findSymbol(StringRef Name) const {
  std::vector<ElfSymbol> Found;
  forEachSymbol(SymbolObj, SymbolsDynamic, [&](const RawSymbol &S) {
    if (S.named(Name))
      Found.push_back(S.get());
  });
  return Found;
}

std::optional<ElfSymbol> DebugInfo::symbolAt(uint64_t Address) const {
  // The function with the highest start at or below Address; among aliases
  // (one address) a sized one over a zero-sized one, and a global one over
  // a local one of no greater size.
  std::optional<RawSymbol> Best;
  forEachSymbol(SymbolObj, SymbolsDynamic, [&](const RawSymbol &S) {
    if (!S.IsFunction || S.Address > Address ||
        (Best && S.Address < Best->Address))
      return;
    if (Best && S.Address == Best->Address &&
        !((Best->Size == 0 && S.Size != 0) ||
          (S.Binding == ELF::STB_GLOBAL && Best->Size <= S.Size)))
      return;
    Best = S;
  });
  if (Best &&
      (Address == Best->Address || Address - Best->Address < Best->Size))
    return Best->get();
  return std::nullopt;
}

std::vector<std::string> DebugInfo::functionNames() const {
  std::vector<std::string> Names;
  forEachSymbol(SymbolObj, SymbolsDynamic, [&](const RawSymbol &S) {
    if (S.IsFunction)
      Names.push_back(S.name().str());
  });
  return Names;
}

std::vector<ElfSymbol> DebugInfo::functionSymbols() const {
  std::vector<ElfSymbol> Syms;
  forEachSymbol(SymbolObj, SymbolsDynamic, [&](const RawSymbol &S) {
    if (S.IsFunction)
      Syms.push_back(S.get());
  });
  return Syms;
}

namespace {

/// An error whose message names the debug-info option: Before, the option
/// in the front end's words (Kind), then After.
Error hintedError(const Twine &Before, Hint::KindTy Kind, const Twine &After) {
  return make_error<HintedError>(Before.str(), Hint{Kind, "", After.str()});
}

/// The words every "not found" error ends with, after "pass PATH-OPTION".
constexpr const char *UserHintTail = " or install the -dbgsym/-dbg package";

/// An opened candidate file.
using OwnedObject = OwningBinary<ObjectFile>;

/// What a candidate must satisfy beyond being ELF with DWARF.
struct Expectation {
  /// Build-id it must carry ("" = unknown, not checked).
  std::string BuildId;
  /// Whose build-id that is, for the message ("the binary's",
  /// "the running kernel's").
  std::string Whose;
  /// CRC32 the whole file must have (.gnu_debuglink).
  std::optional<uint32_t> Crc;
  /// The file must have a .symtab (a kernel image or module serves as its
  /// own target).
  bool NeedSymtab = false;
};

std::optional<SectionRef> findSection(const ObjectFile &Obj, StringRef Name);

/// Every section LLVM's DWARFContext reads as DWARF section Name
/// ("eh_frame"): it skips a name's leading '.' and '_' characters, so
/// `eh_frame` and `__eh_frame` are .eh_frame to it, and the checks below
/// must look at what LLVM will parse, not only at the canonical name.
SmallVector<SectionRef, 2> sectionsAsDwarf(const ObjectFile &Obj,
                                           StringRef Name) {
  SmallVector<SectionRef, 2> Out;
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> N = S.getName();
    if (!N) {
      consumeError(N.takeError());
      continue;
    }
    if (N->substr(std::min(N->find_first_not_of("._"), N->size())) == Name)
      Out.push_back(S);
  }
  return Out;
}

/// Checks that every FDE of .eh_frame and .debug_frame names a CIE that
/// precedes it. LLVM's frame parser keeps CIEs in a DenseMap keyed by the
/// offset an FDE computes, and a CIE pointer that computes its empty or
/// tombstone key (offset ~0, one past its own field in .eh_frame) corrupts
/// the map and crashes the parse (found by bpfprobe-dwarf-fuzzer). The
/// parse runs on first use, deep inside a resolution: a file whose frame
/// tables break the rule is refused when it is opened. Truncated or
/// compressed sections are left to LLVM, which reports them.
Error checkFrameSections(const ObjectFile &Obj) {
  for (bool EH : {true, false}) {
    for (SectionRef S : sectionsAsDwarf(Obj, EH ? "eh_frame" : "debug_frame")) {
      if ((ELFSectionRef(S).getFlags() & ELF::SHF_COMPRESSED) ||
          ELFSectionRef(S).getType() == ELF::SHT_NOBITS)
        continue;
      Expected<StringRef> Contents = S.getContents();
      if (!Contents) {
        consumeError(Contents.takeError());
        continue;
      }
      DataExtractor Data(*Contents, Obj.isLittleEndian(), 8);
      DataExtractor::Cursor C(0);
      std::set<uint64_t> CIEs; // not a DenseMap: ~0 is an offset here
      while (C && C.tell() < Contents->size()) {
        uint64_t Start = C.tell();
        uint64_t Length = Data.getU32(C);
        bool Dwarf64 = Length == 0xffffffff;
        if (Dwarf64)
          Length = Data.getU64(C);
        if (!C || Length == 0)
          break; // the end, or .eh_frame's terminator
        uint64_t IdField = C.tell();
        // LLVM reads the id and looks its CIE up before it checks the
        // entry's length, so an entry that overruns the section is checked
        // too, and is the last one.
        uint64_t End = IdField + Length;
        // .eh_frame's CIE id/pointer is 4 bytes even in the 64-bit format
        // (LSB 10.6.1.1); LLVM's parser reads it so, and the check must too.
        uint64_t Id = Data.getUnsigned(C, Dwarf64 && !EH ? 8 : 4);
        uint64_t CieIdValue = EH ? 0 : (Dwarf64 ? UINT64_MAX : UINT32_MAX);
        if (!C)
          break;
        if (Id == CieIdValue) {
          CIEs.insert(Start);
        } else {
          uint64_t Cie = EH ? IdField - Id : Id;
          if (!CIEs.count(Cie)) {
            consumeError(C.takeError());
            return createStringError(
                inconvertibleErrorCode(),
                "corrupt %s: the FDE at offset 0x%" PRIx64
                " names a CIE at 0x%" PRIx64 " that does not precede it",
                EH ? ".eh_frame" : ".debug_frame", Start, Cie);
          }
        }
        if (End > Contents->size() || End <= Start)
          break;
        Data.skip(C, End - C.tell());
      }
      consumeError(C.takeError());
    }
  }
  return Error::success();
}

/// Checks the uncompressed size each compressed section (SHF_COMPRESSED)
/// states in its header. DWARFContext::create allocates that size before it
/// decompresses, so a corrupt header asks for petabytes and the allocation
/// aborts (found by bpfprobe-dwarf-fuzzer). Neither zlib (at most about
/// 1032:1) nor zstd (a run-length block: 128 KiB from a few bytes) expands
/// a section by more than 65536 times, so a larger stated size is refused.
Error checkCompressedSizes(const ObjectFile &Obj) {
  for (const SectionRef &S : Obj.sections()) {
    if (!(ELFSectionRef(S).getFlags() & ELF::SHF_COMPRESSED))
      continue;
    Expected<StringRef> Name = S.getName();
    Expected<StringRef> Contents = S.getContents();
    if (!Name || !Contents) {
      if (!Name)
        consumeError(Name.takeError());
      if (!Contents)
        consumeError(Contents.takeError());
      continue; // LLVM skips it too
    }
    auto D = Decompressor::create(*Name, *Contents, Obj.isLittleEndian(),
                                  Obj.getBytesInAddress() == 8);
    if (!D) {
      consumeError(D.takeError());
      continue; // LLVM reports it and reads the section as absent
    }
    uint64_t Stated = D->getDecompressedSize();
    if (Stated / 65536 > Contents->size())
      return createStringError(inconvertibleErrorCode(),
                               "corrupt %s: its header states %" PRIu64
                               " bytes uncompressed from %zu compressed",
                               Name->str().c_str(), Stated, Contents->size());
  }
  return Error::success();
}

std::optional<SectionRef> findSection(const ObjectFile &Obj, StringRef Name) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> N = S.getName();
    if (!N) {
      consumeError(N.takeError());
      continue;
    }
    if (*N == Name)
      return S;
  }
  return std::nullopt;
}

bool hasSymtab(const ObjectFile &Obj) {
  for (const SectionRef &S : Obj.sections())
    if (ELFSectionRef(S).getType() == ELF::SHT_SYMTAB)
      return true;
  return false;
}

/// A .debug_info (or compressed .zdebug_info) with contents.
bool hasDwarf(const ObjectFile &Obj) {
  for (StringRef Name : {".debug_info", ".zdebug_info"}) {
    std::optional<SectionRef> S = findSection(Obj, Name);
    if (S && S->getSize() && ELFSectionRef(*S).getType() != ELF::SHT_NOBITS)
      return true;
  }
  return false;
}

std::string lowerFirst(std::string M) {
  if (!M.empty())
    M[0] = toLower(M[0]);
  return M;
}

/// Lower-cases the first letter of an LLVM error message and drops a
/// trailing period, to fit into our own sentences.
std::string quietMessage(Error E) {
  std::string M = lowerFirst(toString(std::move(E)));
  while (!M.empty() && (M.back() == '.' || M.back() == '\n'))
    M.pop_back();
  return M;
}

/// Opens Path as an ELF object: a regular file, opened once without
/// blocking (FileTrust.h); its owner, mode and real path go to *Facts
/// when given, for the trust check. On failure returns the reason, phrased
/// for the list of places tried.
Expected<OwnedObject> openElf(StringRef Path, OpenedFile *Facts = nullptr) {
  Expected<OpenedFile> File = openRegularFile(Path);
  if (!File)
    return File.takeError();
  Expected<std::unique_ptr<ObjectFile>> Obj =
      ObjectFile::createObjectFile(File->Buffer->getMemBufferRef());
  if (!Obj)
    return fail("not an ELF file (" + quietMessage(Obj.takeError()) + ")");
  if (!(*Obj)->isELF())
    return fail("not an ELF file");
  if (Facts) {
    Facts->Owner = File->Owner;
    Facts->Mode = File->Mode;
    Facts->RealPath = File->RealPath;
  }
  return OwnedObject(std::move(*Obj), std::move(File->Buffer));
}

/// The file name and CRC of a .gnu_debuglink section.
struct DebugLink {
  std::string Name;
  uint32_t Crc = 0;
};

/// Reads .gnu_debuglink: the file name, NUL, padding to 4, then the CRC in
/// the file's byte order. std::nullopt if absent; an error if malformed.
Expected<std::optional<DebugLink>> readDebugLink(const ObjectFile &Obj) {
  std::optional<SectionRef> S = findSection(Obj, ".gnu_debuglink");
  if (!S)
    return std::nullopt;
  Expected<StringRef> Contents = S->getContents();
  if (!Contents)
    return fail("unreadable .gnu_debuglink (" +
                quietMessage(Contents.takeError()) + ")");
  StringRef Data = *Contents;
  size_t Nul = Data.find('\0');
  if (Nul == StringRef::npos || Nul == 0)
    return fail("malformed .gnu_debuglink (no file name)");
  size_t CrcOff = alignTo(Nul + 1, 4);
  if (CrcOff + 4 > Data.size())
    return fail("malformed .gnu_debuglink (no CRC after the name)");
  DebugLink L;
  L.Name = Data.substr(0, Nul).str();
  const char *P = Data.data() + CrcOff;
  L.Crc = Obj.isLittleEndian()
              ? support::endian::read32<llvm::endianness::little>(P)
              : support::endian::read32<llvm::endianness::big>(P);
  return L;
}

std::string hex32(uint32_t V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format_hex(V, 10);
  return S;
}

/// The NT_GNU_BUILD_ID among notes walked by ELFFile::notes, which checks
/// each note against its container; Err collects a malformed note.
template <class ELFT, class Container>
std::string buildIdOfNotes(const ELFFile<ELFT> &File, const Container &C,
                           uint64_t Align) {
  Error Err = Error::success();
  std::string Hex;
  for (const typename ELFT::Note &N : File.notes(C, Err))
    if (N.getType() == ELF::NT_GNU_BUILD_ID && N.getName() == "GNU" &&
        !N.getDesc(Align).empty()) {
      Hex = toHex(N.getDesc(Align), /*LowerCase=*/true);
      break;
    }
  consumeError(std::move(Err)); // a malformed note ends the walk
  return Hex;
}

/// Finds the NT_GNU_BUILD_ID in a raw note stream: /sys/kernel/notes and
/// /sys/module/<m>/notes/.note.gnu.build-id, in host byte order. The notes
/// get an ELF header in front and are walked as one PT_NOTE segment.
std::string buildIdFromNotes(StringRef Data) {
  using ELFT = ELFType<llvm::endianness::native, sizeof(void *) == 8>;
  typename ELFT::Ehdr Header{};
  std::string Image(reinterpret_cast<const char *>(&Header), sizeof(Header));
  Image += Data;
  auto File = ELFFile<ELFT>::create(Image);
  if (!File) {
    consumeError(File.takeError());
    return "";
  }
  typename ELFT::Phdr Segment{};
  Segment.p_type = ELF::PT_NOTE;
  Segment.p_offset = sizeof(Header);
  Segment.p_filesz = Data.size();
  Segment.p_align = 4;
  return buildIdOfNotes(*File, Segment, 4);
}

/// The build-id in the PT_NOTE segments of an ELF object, else in its
/// SHT_NOTE sections. Not LLVM's getBuildID: ELFFile::notes bounds a
/// segment by p_offset + p_filesz, a sum that can wrap (as sh_offset +
/// sh_size did, found by bpfprobe-dwarf-fuzzer), and getBuildID reads the
/// descriptor with p_align as given, 0 included, which LLVM's alignTo
/// asserts against.
template <class ELFT> std::string buildIdOfElf(const ELFObjectFile<ELFT> &Obj) {
  const ELFFile<ELFT> &File = Obj.getELFFile();
  uint64_t Size = File.getBufSize();
  auto Segments = File.program_headers();
  if (!Segments) {
    consumeError(Segments.takeError());
  } else {
    for (const typename ELFT::Phdr &Ph : *Segments) {
      if (Ph.p_type != ELF::PT_NOTE || Ph.p_offset > Size ||
          Ph.p_filesz > Size - Ph.p_offset)
        continue;
      std::string Hex =
          buildIdOfNotes(File, Ph, std::max<uint64_t>(Ph.p_align, 4));
      if (!Hex.empty())
        return Hex;
    }
  }
  auto Sections = File.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return "";
  }
  for (const typename ELFT::Shdr &Sh : *Sections) {
    if (Sh.sh_type != ELF::SHT_NOTE)
      continue;
    // ELFFile::notes bounds the section by sh_offset + sh_size, a sum that
    // can wrap (found by bpfprobe-dwarf-fuzzer): bound each on its own.
    uint64_t Size = File.getBufSize();
    if (Sh.sh_offset > Size || Sh.sh_size > Size - Sh.sh_offset)
      continue;
    // The alignment ELFFile::notes walks with: 0 and 1 (allowed for core
    // dumps) mean 4. getDesc(0) would be a division by zero in disguise.
    std::string Hex =
        buildIdOfNotes(File, Sh, std::max<uint64_t>(Sh.sh_addralign, 4));
    if (!Hex.empty())
      return Hex;
  }
  return "";
}

/// The search itself: candidates in order, each checked, each refusal kept.
class Finder {
public:
  Finder(const FinderOptions &Opts) : Opts(Opts) {}

  Expected<std::unique_ptr<DebugInfo>> findUser(StringRef Target);
  Expected<std::unique_ptr<DebugInfo>> findKernel(StringRef Module);

private:
  const FinderOptions &Opts;
  /// "place: reason" for every candidate refused so far.
  std::vector<std::string> Tried;
  /// The probed binary's owner, whose debug files are trusted as it is
  /// (root for the kernel).
  uid_t TargetOwner = 0;

  void reject(const Twine &Place, const Twine &Reason) {
    Tried.push_back((Place + ": " + Reason).str());
  }
  std::string triedList() const { return join(Tried, "; "); }

  /// Opens Path, checks who could have written it (distrustReason) and
  /// checks it against Want; on refusal records why.
  std::optional<OwnedObject> tryCandidate(StringRef Path, StringRef Place,
                                          const Expectation &Want);
  /// Why Obj is not acceptable, "" if it is.
  std::string checkCandidate(const ObjectFile &Obj, const Expectation &Want);

  /// <root>/.build-id/xx/yyyy.debug
  std::string buildIdPath(StringRef Id) const;
  /// Asks a debuginfod server for the debug file of Id; std::nullopt after
  /// recording why not.
  std::optional<std::string> askDebuginfod(StringRef Id);
  /// The client program to run, or "" after recording why none.
  std::string findDebuginfodClient();

  Expected<std::unique_ptr<DebugInfo>> finish(std::unique_ptr<DebugInfo> DI,
                                              OwnedObject Debug,
                                              StringRef DebugPath,
                                              StringRef FoundBy);
};

std::string Finder::checkCandidate(const ObjectFile &Obj,
                                   const Expectation &Want) {
  std::string Id = readBuildId(Obj);
  if (!Want.BuildId.empty() && !Id.empty() && Id != Want.BuildId)
    return "build-id " + Id + " does not match " + Want.Whose + " " +
           Want.BuildId;
  // The CRC reads the whole file (a kernel-sized debug file: hundreds of
  // megabytes, and as much resident memory). When the file and the binary
  // both have a build-id, the build-id decides, as it does for perf and
  // debuginfod; the CRC is checked only when one of them has none.
  bool IdsMatch = !Want.BuildId.empty() && Id == Want.BuildId;
  if (Want.Crc && !IdsMatch) {
    uint32_t Crc = crc32(arrayRefFromStringRef(Obj.getData()));
    if (Crc != *Want.Crc)
      return "CRC mismatch: .gnu_debuglink expects " + hex32(*Want.Crc) +
             ", the file has " + hex32(Crc) +
             " (a debug file from another build)";
  }
  if (!Want.BuildId.empty() && Id.empty() && !Want.Crc)
    return "no build-id to check against " + Want.Whose + " " + Want.BuildId;
  if (!hasDwarf(Obj))
    return "no .debug_info (expected DWARF; was it stripped?)";
  if (Want.NeedSymtab && !hasSymtab(Obj))
    return "no .symtab (expected a symbol table)";
  return "";
}

std::optional<OwnedObject> Finder::tryCandidate(StringRef Path, StringRef Place,
                                                const Expectation &Want) {
  std::string Where =
      Place.empty() ? Path.str() : (Path + " (" + Place + ")").str();
  OpenedFile Facts;
  Expected<OwnedObject> Bin = openElf(Path, &Facts);
  if (!Bin) {
    reject(Where, quietMessage(Bin.takeError()));
    return std::nullopt;
  }
  // Found, not named: only a file nobody else could have written.
  std::string Why = distrustReason(Facts, TargetOwner);
  if (Why.empty())
    Why = checkCandidate(*Bin->getBinary(), Want);
  if (!Why.empty()) {
    reject(Where, Why);
    return std::nullopt;
  }
  return std::move(*Bin);
}

std::string Finder::buildIdPath(StringRef Id) const {
  SmallString<256> P(Opts.DebugRoot);
  sys::path::append(P, ".build-id", Id.take_front(2),
                    Id.drop_front(2) + ".debug");
  return std::string(P);
}

std::string Finder::findDebuginfodClient() {
  if (!Opts.DebuginfodClient.empty()) {
    if (sys::path::has_parent_path(Opts.DebuginfodClient)) {
      if (sys::fs::can_execute(Opts.DebuginfodClient))
        return Opts.DebuginfodClient;
    } else if (ErrorOr<std::string> P =
                   sys::findProgramByName(Opts.DebuginfodClient)) {
      return *P;
    }
    reject("debuginfod", "client '" + Opts.DebuginfodClient +
                             "' not found or not executable");
    return "";
  }
  // LLVM's own client: beside the running clang (or tool), in the LLVM this
  // was built against, on PATH; then the elfutils one.
  SmallVector<std::string, 2> Dirs;
  std::string Self = sys::fs::getMainExecutable(nullptr, nullptr);
  if (!Self.empty())
    Dirs.push_back(sys::path::parent_path(Self).str());
  Dirs.push_back("/usr/lib/llvm-" + std::to_string(LLVM_VERSION_MAJOR) +
                 "/bin");
  SmallVector<StringRef, 2> DirRefs(Dirs.begin(), Dirs.end());
  for (std::string Name :
       {std::string("llvm-debuginfod-find"),
        "llvm-debuginfod-find-" + std::to_string(LLVM_VERSION_MAJOR)}) {
    if (ErrorOr<std::string> P = sys::findProgramByName(Name, DirRefs))
      return *P;
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
  }
  if (ErrorOr<std::string> P = sys::findProgramByName("debuginfod-find"))
    return *P;
  reject("debuginfod", "no client program (expected llvm-debuginfod-find "
                       "from LLVM, or debuginfod-find from elfutils)");
  return "";
}

/// The last non-empty line of a file, trimmed; "" if none.
std::string lastLine(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return "";
  StringRef Text = (*Buf)->getBuffer().rtrim();
  size_t NL = Text.rfind('\n');
  return Text.substr(NL == StringRef::npos ? 0 : NL + 1).trim().str();
}

/// The debuginfod client's whole environment. Its cache is the effective
/// user's (HOME from the password database; no DEBUGINFOD_CACHE_PATH or
/// XDG_CACHE_HOME from the caller), so a root compile run with another
/// user's environment neither reads files that user planted in a cache
/// nor lets the client write or clean (elfutils deletes old files there)
/// a directory the caller chose. A cache named on the command line
/// (FinderOptions::DebuginfodCache) is used instead. The servers and the
/// client's limits and proxies are the caller's: the servers are trusted
/// to serve the DWARF of a build-id (docs/security.md).
std::vector<std::string> debuginfodEnvironment(const FinderOptions &Opts,
                                               StringRef Urls) {
  std::vector<std::string> Env;
  Env.push_back("DEBUGINFOD_URLS=" + Urls.str());
  Env.push_back("PATH=/usr/local/bin:/usr/bin:/bin");
  if (const struct passwd *Pw = ::getpwuid(::geteuid()))
    if (Pw->pw_dir && *Pw->pw_dir)
      Env.push_back(std::string("HOME=") + Pw->pw_dir);
  if (!Opts.DebuginfodCache.empty())
    Env.push_back("DEBUGINFOD_CACHE_PATH=" + Opts.DebuginfodCache);
  for (const char *Name :
       {"DEBUGINFOD_TIMEOUT", "DEBUGINFOD_MAXSIZE", "DEBUGINFOD_MAXTIME",
        "DEBUGINFOD_RETRY_LIMIT", "http_proxy", "https_proxy", "HTTPS_PROXY",
        "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"})
    if (std::optional<std::string> V = sys::Process::GetEnv(Name))
      Env.push_back(std::string(Name) + "=" + *V);
  return Env;
}

std::optional<std::string> Finder::askDebuginfod(StringRef Id) {
  if (!Opts.UseDebuginfod) {
    reject("debuginfod", "not consulted (disabled)");
    return std::nullopt;
  }
  std::optional<std::string> Urls = sys::Process::GetEnv("DEBUGINFOD_URLS");
  if (!Urls || StringRef(*Urls).trim().empty()) {
    Tried.push_back("DEBUGINFOD_URLS not set");
    return std::nullopt;
  }
  std::string Where = "debuginfod (" + StringRef(*Urls).trim().str() + ")";
  if (Id.empty()) {
    reject(Where, "not asked: the binary has no build-id");
    return std::nullopt;
  }
  std::string Client = findDebuginfodClient();
  if (Client.empty())
    return std::nullopt;

  SmallString<128> OutPath, ErrPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("bpfprobe-debuginfod", "out", OutPath)) {
    reject(Where, "cannot create a temporary file: " + EC.message());
    return std::nullopt;
  }
  if (std::error_code EC =
          sys::fs::createTemporaryFile("bpfprobe-debuginfod", "err", ErrPath)) {
    sys::fs::remove(OutPath);
    reject(Where, "cannot create a temporary file: " + EC.message());
    return std::nullopt;
  }
  bool Elfutils = sys::path::filename(Client).starts_with("debuginfod-find");
  SmallVector<StringRef, 4> Args = {Client};
  if (Elfutils)
    Args.append({"debuginfo", Id});
  else
    Args.append({"--debuginfo", Id});
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(OutPath),
                                          StringRef(ErrPath)};
  std::vector<std::string> Env = debuginfodEnvironment(Opts, *Urls);
  SmallVector<StringRef, 12> EnvRefs(Env.begin(), Env.end());
  std::string ExecError;
  // The client has its own timeout (DEBUGINFOD_TIMEOUT).
  int RC =
      sys::ExecuteAndWait(Client, Args, ArrayRef<StringRef>(EnvRefs), Redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &ExecError);
  std::string Out = lastLine(OutPath), Err = lastLine(ErrPath);
  sys::fs::remove(OutPath);
  sys::fs::remove(ErrPath);
  if (RC != 0 || Out.empty()) {
    std::string Why =
        RC < 0 ? "could not run " + Client + ": " + lowerFirst(ExecError)
               : "build-id " + Id.str() + " not found by " + Client;
    if (RC >= 0 && !Err.empty())
      Why += " (" + Err + ")";
    reject(Where, Why);
    return std::nullopt;
  }
  return Out;
}

Expected<std::unique_ptr<DebugInfo>>
Finder::finish(std::unique_ptr<DebugInfo> DI, OwnedObject Debug,
               StringRef DebugPath, StringRef FoundBy) {
  DI->DebugPath = DebugPath.str();
  DI->FoundBy = FoundBy.str();
  if (Debug.getBinary()) {
    DI->DebugBin = std::move(Debug);
    DI->DebugObj = DI->DebugBin.getBinary();
  } else {
    DI->DebugObj = DI->TargetObj;
  }
  DI->BuildId = readBuildId(*DI->DebugObj);
  if (DI->TargetBuildId.empty())
    DI->TargetBuildId = DI->BuildId;

  // Symbols: the target's .symtab; for a stripped target the (verified)
  // debug file's, whose addresses are the same; else the target's .dynsym.
  const auto &Target = cast<ELFObjectFileBase>(*DI->TargetObj);
  const auto &DebugElf = cast<ELFObjectFileBase>(*DI->DebugObj);
  if (hasSymtab(Target)) {
    DI->SymbolObj = &Target;
    DI->SymbolTable = ".symtab of " + DI->TargetPath;
  } else if (DI->DebugObj != DI->TargetObj && hasSymtab(DebugElf)) {
    DI->SymbolObj = &DebugElf;
    DI->SymbolTable = ".symtab of the debug file " + DI->DebugPath;
  } else {
    DI->SymbolObj = &Target;
    DI->SymbolsDynamic = true;
    DI->SymbolTable = ".dynsym of " + DI->TargetPath;
  }

  if (Error E = checkCompressedSizes(*DI->DebugObj))
    return fail(DI->DebugPath + ": " + toString(std::move(E)));
  if (Error E = checkFrameSections(*DI->DebugObj))
    return fail(DI->DebugPath + ": " + toString(std::move(E)));
  if (DI->TargetObj && DI->TargetObj != DI->DebugObj)
    if (Error E = checkFrameSections(*DI->TargetObj))
      return fail(DI->TargetPath + ": " + toString(std::move(E)));
  // Lazy: creating the context reads the section table only; units are
  // parsed on first use.
  DI->Dwarf = DWARFContext::create(*DI->DebugObj);
  // DIE streams and line-table headers are checked one unit at a time,
  // before the resolution first reads a unit's DIEs or its line table
  // (DwarfUnitCheck.h, through DwarfIndex).
  return std::move(DI);
}

/// A bare binary name ("libc.so.6", "server") as the runtime looks for it
/// (Support/BinarySearch.h): a library in $LD_LIBRARY_PATH and the
/// loader's directories, anything else in $PATH. Else the error, which
/// says where it looked and, when the name is a file here, how to name it.
static Expected<std::string> findBareBinary(StringRef Target) {
  bool Lib = Target.contains(".so");
  std::string Dirs;
  if (Lib) {
    if (std::optional<std::string> L = sys::Process::GetEnv("LD_LIBRARY_PATH"))
      Dirs = *L + ":";
    Dirs += BPFPROBE_LIBRARY_DIRS;
  } else if (std::optional<std::string> P = sys::Process::GetEnv("PATH")) {
    Dirs = *P;
  }
  SmallVector<StringRef, 16> Parts;
  StringRef(Dirs).split(Parts, ':', -1, false);
  for (StringRef D : Parts) {
    SmallString<256> Cand(D);
    sys::path::append(Cand, Target);
    if (sys::fs::is_regular_file(Cand) &&
        (Lib || sys::fs::can_execute(Cand)))
      return std::string(Cand);
  }
  std::string Msg = "binary '" + Target.str() + "' not found in " +
                    (Lib ? "$LD_LIBRARY_PATH or the loader's directories"
                         : "$PATH") +
                    " (a name without '/' is looked for as perf and the "
                    "shell look for it)";
  if (sys::fs::exists(Target))
    Msg += "; to probe the file here, write './" + Target.str() + "'";
  return createStringError(inconvertibleErrorCode(), Msg);
}

Expected<std::unique_ptr<DebugInfo>> Finder::findUser(StringRef Target) {
  if (Target.empty())
    return fail("no probe target: expected the path of the probed "
                "binary");
  auto DI = std::make_unique<DebugInfo>();
  DI->TargetPath = Target.str();
  OpenedFile TargetFacts;
  Expected<OwnedObject> TargetBin = openElf(Target, &TargetFacts);
  if (!TargetBin) {
    std::string Why = quietMessage(TargetBin.takeError());
    // "'/dev/zero' is a character device, not an ELF file"
    if (StringRef(Why).starts_with("is "))
      return fail("'" + Target + "' " + Why +
                  "; expected the path of an ELF executable or shared "
                  "library");
    return fail("cannot open the probed binary '" + Target + "': " + Why +
                "; expected the path of an ELF executable or shared "
                "library");
  }
  TargetOwner = TargetFacts.Owner;
  DI->TargetBin = std::move(*TargetBin);
  DI->TargetObj = DI->TargetBin.getBinary();
  const ObjectFile &TObj = *DI->TargetObj;
  DI->TargetBuildId = readBuildId(TObj);
  std::string BinId = DI->TargetBuildId;

  Expectation ByBuildId;
  ByBuildId.BuildId = BinId;
  ByBuildId.Whose = "the binary's";

  // 1. The explicit path: the user said so, so a refusal is final.
  if (!Opts.ExplicitPath.empty()) {
    Expected<OwnedObject> Bin = openElf(Opts.ExplicitPath);
    if (!Bin)
      return hintedError("debug info '" + Opts.ExplicitPath + "' given by ",
                         Hint::DebugInfoOption,
                         ": " + quietMessage(Bin.takeError()));
    std::string Id = readBuildId(*Bin->getBinary());
    if (!BinId.empty() && !Id.empty() && Id != BinId)
      return fail("debug info '" + Opts.ExplicitPath + "' has build-id " + Id +
                  ", but " + Target + " has build-id " + BinId +
                  "; pass the debug file built with this binary");
    if (!hasDwarf(*Bin->getBinary()))
      return fail("debug info '" + Opts.ExplicitPath +
                  "' has no .debug_info; expected a binary built with "
                  "-g or its separate .debug file");
    return finish(std::move(DI), std::move(*Bin), Opts.ExplicitPath,
                  "explicit path");
  }

  // 2. The binary itself.
  if (hasDwarf(TObj))
    return finish(std::move(DI), OwnedObject(), Target, "the binary itself");
  reject(Target, "no .debug_info in the binary");

  // 3. .gnu_debuglink: next to the binary, in .debug/, under the root.
  Expected<std::optional<DebugLink>> Link = readDebugLink(TObj);
  if (!Link) {
    reject(Target, quietMessage(Link.takeError()));
  } else if (!*Link) {
    reject(Target, "no .gnu_debuglink");
  } else {
    Expectation ByCrc = ByBuildId;
    ByCrc.Crc = (*Link)->Crc;
    SmallString<256> Dir;
    if (sys::fs::real_path(Target, Dir))
      Dir = Target;
    sys::path::remove_filename(Dir);
    if (Dir.empty())
      Dir = ".";
    SmallString<256> Self, Beside(Dir), InDotDebug(Dir), UnderRoot;
    sys::path::append(Beside, (*Link)->Name);
    sys::path::append(InDotDebug, ".debug", (*Link)->Name);
    sys::fs::real_path(Target, Self);
    UnderRoot = Opts.DebugRoot;
    if (sys::path::is_absolute(Dir))
      sys::path::append(UnderRoot, sys::path::relative_path(Dir));
    sys::path::append(UnderRoot, (*Link)->Name);
    for (StringRef Path :
         {StringRef(Beside), StringRef(InDotDebug), StringRef(UnderRoot)}) {
      if (Path == StringRef(Self)) {
        reject(Path, ".gnu_debuglink names the binary itself");
        continue;
      }
      if (std::optional<OwnedObject> Bin =
              tryCandidate(Path, ".gnu_debuglink", ByCrc))
        return finish(std::move(DI), std::move(*Bin), Path, ".gnu_debuglink");
    }
  }

  // 4. The build-id directory.
  if (BinId.empty()) {
    reject(Target, "no build-id, so no build-id directory or debuginfod "
                   "look-up (link with -Wl,--build-id)");
  } else {
    std::string Path = buildIdPath(BinId);
    if (std::optional<OwnedObject> Bin = tryCandidate(Path, "", ByBuildId))
      return finish(std::move(DI), std::move(*Bin), Path, "build-id directory");
  }

  // 5. debuginfod.
  if (!BinId.empty()) {
    if (std::optional<std::string> Path = askDebuginfod(BinId))
      if (std::optional<OwnedObject> Bin =
              tryCandidate(*Path, "from debuginfod", ByBuildId))
        return finish(std::move(DI), std::move(*Bin), *Path, "debuginfod");
  }

  return hintedError("no debug info for " + Target + ": " + triedList() + "; ",
                     Hint::DebugInfoPath, UserHintTail);
}

/// The running kernel's release, as uname -r prints it.
std::string kernelRelease(const FinderOptions &Opts) {
  if (!Opts.KernelRelease.empty())
    return Opts.KernelRelease;
  struct utsname U;
  if (uname(&U) != 0)
    return "";
  return U.release;
}

/// Module names are compared with '-' and '_' treated alike, as modprobe
/// does.
std::string normalizeModuleName(StringRef Name) {
  std::string S = Name.str();
  std::replace(S.begin(), S.end(), '-', '_');
  return S;
}

Expected<std::unique_ptr<DebugInfo>> Finder::findKernel(StringRef Module) {
  bool IsModule = !Module.empty() && Module != "vmlinux";
  if (IsModule && (Module.contains('/') || Module.contains(':')))
    return fail("'" + Module +
                "' is not a kernel module name; expected "
                "a name as /sys/module lists it (e.g. 'xfs')");
  std::string Release = kernelRelease(Opts);
  std::string What = IsModule ? "module " + Module.str() : "the kernel";

  // The running kernel's (or module's) build-id.
  SmallString<256> Notes(Opts.SysfsRoot);
  if (IsModule)
    sys::path::append(Notes, "module", normalizeModuleName(Module), "notes",
                      ".note.gnu.build-id");
  else
    sys::path::append(Notes, "kernel", "notes");
  std::string RunningId, NotesError;
  ErrorOr<std::unique_ptr<MemoryBuffer>> NotesBuf =
      MemoryBuffer::getFileAsStream(Notes);
  if (!NotesBuf)
    NotesError = lowerFirst(NotesBuf.getError().message());
  else if ((RunningId = buildIdFromNotes((*NotesBuf)->getBuffer())).empty())
    NotesError = "no NT_GNU_BUILD_ID note";

  auto DI = std::make_unique<DebugInfo>();
  DI->TargetPath = IsModule ? Module.str() : "vmlinux";
  DI->TargetBuildId = RunningId;

  auto Adopt = [&](OwnedObject Bin, StringRef Path, StringRef FoundBy) {
    DI->TargetBin = std::move(Bin);
    DI->TargetObj = DI->TargetBin.getBinary();
    if (DI->TargetBuildId.empty() || !Opts.ExplicitPath.empty())
      DI->TargetBuildId = readBuildId(*DI->TargetObj);
    return finish(std::move(DI), OwnedObject(), Path, FoundBy);
  };

  // 1. The explicit path: may be for another machine, so it is not checked
  // against the running kernel (the runtime does that before attaching).
  if (!Opts.ExplicitPath.empty()) {
    Expected<OwnedObject> Bin = openElf(Opts.ExplicitPath);
    if (!Bin)
      return hintedError("debug info '" + Opts.ExplicitPath + "' given by ",
                         Hint::DebugInfoOption,
                         ": " + quietMessage(Bin.takeError()) +
                             "; expected an ELF " +
                             (IsModule ? "module .ko" : "vmlinux") +
                             " with symbols and DWARF");
    const ObjectFile &Obj = *Bin->getBinary();
    if (!hasSymtab(Obj) || !hasDwarf(Obj))
      return fail(
          "debug info '" + Opts.ExplicitPath + "' has no " +
          (hasSymtab(Obj) ? ".debug_info" : ".symtab") + "; expected an ELF " +
          (IsModule ? "module .ko" : "vmlinux") +
          " with symbols and DWARF (/boot/vmlinuz is compressed and has "
          "neither; the linux-image-" +
          (Release.empty() ? "VERSION" : Release) +
          "-dbg package has /usr/lib/debug/boot/vmlinux-" +
          (Release.empty() ? "VERSION" : Release) + ")");
    return Adopt(std::move(*Bin), Opts.ExplicitPath, "explicit path");
  }

  // Before and after "pass PATH-OPTION" in the messages that end in it.
  std::string PackageHintHead =
      Release.empty()
          ? std::string()
          : "install linux-image-" + Release + "-dbg (it provides " +
                (IsModule ? "/usr/lib/debug/lib/modules/" + Release + "/"
                          : "/usr/lib/debug/boot/vmlinux-" + Release) +
                ") or ";
  std::string PackageHintTail =
      Release.empty()
          ? std::string(UserHintTail)
          : std::string(" to an ELF ") + (IsModule ? "module .ko" : "vmlinux") +
                " with symbols and DWARF";

  // Without the running build-id nothing found could be proven to match.
  if (IsModule && !NotesBuf) {
    SmallString<256> ModDir(Opts.SysfsRoot);
    sys::path::append(ModDir, "module", normalizeModuleName(Module));
    if (!sys::fs::is_directory(ModDir))
      return hintedError("module " + Module + " is not loaded (no " + ModDir +
                             "); load it (modprobe " + Module + ") or ",
                         Hint::DebugInfoPath,
                         " to its .ko with symbols and DWARF");
    sys::path::append(ModDir, "notes");
    if (!sys::fs::is_directory(ModDir))
      return fail("module " + Module + " is built into the kernel (no " +
                  ModDir +
                  "); probe its functions as kernel symbols "
                  "(kprobe/SYMBOL, without the module name)");
  }
  if (!NotesError.empty())
    return hintedError("cannot find debug info for " + What +
                           " without the running build-id: " + Notes + ": " +
                           NotesError + "; " + PackageHintHead,
                       Hint::DebugInfoPath, PackageHintTail);

  Expectation Want;
  Want.BuildId = RunningId;
  Want.Whose = IsModule ? "the loaded module's" : "the running kernel's";
  Want.NeedSymtab = true;

  std::vector<std::string> Paths;
  if (!IsModule && !Release.empty()) {
    SmallString<256> P(Opts.DebugRoot);
    sys::path::append(P, "boot", "vmlinux-" + Release);
    Paths.push_back(std::string(P));
    P = Opts.DebugRoot;
    sys::path::append(P, "lib", "modules", Release, "vmlinux");
    Paths.push_back(std::string(P));
    if (Opts.DebugRoot == FinderOptions().DebugRoot) {
      Paths.push_back("/boot/vmlinux-" + Release);
      Paths.push_back("/lib/modules/" + Release + "/build/vmlinux");
    }
  }
  Paths.push_back(buildIdPath(RunningId));
  for (const std::string &Path : Paths)
    if (std::optional<OwnedObject> Bin = tryCandidate(Path, "", Want))
      return Adopt(std::move(*Bin), Path,
                   StringRef(Path).contains("/.build-id/")
                       ? "build-id directory"
                       : "kernel image path");

  // A module's .ko under <root>/lib/modules/<release>/, at any depth.
  if (IsModule && !Release.empty()) {
    SmallString<256> Dir(Opts.DebugRoot);
    sys::path::append(Dir, "lib", "modules", Release);
    std::string ModuleFile = normalizeModuleName(Module) + ".ko";
    bool Seen = false;
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
         !EC && It != End; It.increment(EC)) {
      if (normalizeModuleName(sys::path::filename(It->path())) != ModuleFile)
        continue;
      Seen = true;
      std::string Path = It->path();
      if (std::optional<OwnedObject> Bin = tryCandidate(Path, "", Want))
        return Adopt(std::move(*Bin), Path, "kernel image path");
    }
    if (!Seen)
      reject(Dir, "no " + Module + ".ko below it");
  }

  if (std::optional<std::string> Path = askDebuginfod(RunningId))
    if (std::optional<OwnedObject> Bin =
            tryCandidate(*Path, "from debuginfod", Want))
      return Adopt(std::move(*Bin), *Path, "debuginfod");

  return hintedError("no debug info for " + What + " " + Release +
                         " (build-id " + RunningId + "): " + triedList() +
                         "; " + PackageHintHead,
                     Hint::DebugInfoPath, PackageHintTail);
}

} // namespace

std::string readBuildId(const ObjectFile &Obj) {
  // The PT_NOTE segments (what the kernel and the runtime read), else the
  // SHT_NOTE sections: a relocatable module has no program headers.
  if (auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return buildIdOfElf(*O);
  if (auto *O = dyn_cast<ELF64BEObjectFile>(&Obj))
    return buildIdOfElf(*O);
  if (auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return buildIdOfElf(*O);
  if (auto *O = dyn_cast<ELF32BEObjectFile>(&Obj))
    return buildIdOfElf(*O);
  return "";
}

Expected<std::unique_ptr<DebugInfo>>
findDebugInfo(StringRef Target, bool Kernel, const FinderOptions &Opts) {
  Finder F(Opts);
  if (Kernel)
    return F.findKernel(Target);
  return F.findUser(Target);
}

Expected<DebugInfo *> DebugInfoCache::get(StringRef Target, bool Kernel) {
  std::string Key = ((Kernel ? "kernel:" : "user:") + Target).str();
  auto It = Opened.find(Key);
  if (It != Opened.end())
    return It->second.get();
  // A spec's bare name: the file the runtime will find (findBareBinary).
  std::string Path = Target.str();
  if (!Kernel && !Target.empty() && !Target.contains('/')) {
    Expected<std::string> Found = findBareBinary(Target);
    if (!Found) {
      Opened[Key] = nullptr;
      return fail(toString(Found.takeError()));
    }
    Path = *Found;
  }
  auto DI = findDebugInfo(Path, Kernel, Opts);
  if (!DI) {
    Opened[Key] = nullptr;
    return DI.takeError();
  }
  return Opened.emplace(Key, std::move(*DI)).first->second.get();
}

DebugInfo *DebugInfoCache::find(StringRef Target, bool Kernel) {
  std::string Key = ((Kernel ? "kernel:" : "user:") + Target).str();
  auto It = Opened.find(Key);
  if (It != Opened.end())
    return It->second.get();
  if (NotFound.count(Key))
    return nullptr;
  FinderOptions Quiet = Opts;
  Quiet.UseDebuginfod = false;
  std::string Path = Target.str();
  if (!Kernel && !Target.empty() && !Target.contains('/')) {
    Expected<std::string> Found = findBareBinary(Target);
    if (!Found) {
      consumeError(Found.takeError());
      NotFound.insert(Key);
      return nullptr;
    }
    Path = *Found;
  }
  auto DI = findDebugInfo(Path, Kernel, Quiet);
  if (!DI) {
    consumeError(DI.takeError());
    NotFound.insert(Key);
    return nullptr;
  }
  return Opened.emplace(Key, std::move(*DI)).first->second.get();
}

} // namespace bpfprobe
