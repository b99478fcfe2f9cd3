//===- DebugInfoFinder.h - Locate and open the DWARF of a target -*- C++ -*-===//
//
/// \file
/// Finds the debug information for a probe target the way gdb and perf do,
/// and opens it once per translation unit:
///   1. an explicit path (-fplugin-arg-bpfprobe-debuginfo=PATH: a binary, a
///      separate .debug file, a kernel vmlinux or a module .ko),
///   2. the binary itself, if it has .debug_info,
///   3. its .gnu_debuglink next to it, in .debug/, and under /usr/lib/debug
///      (the build-ids must match; the CRC of the whole file is checked
///      only when one of them has no build-id),
///   4. /usr/lib/debug/.build-id/xx/yyyy.debug by its NT_GNU_BUILD_ID,
///   5. a debuginfod server (DEBUGINFOD_URLS) through LLVM's client.
/// For the kernel (kprobes without an explicit path) the running kernel's
/// build-id (/sys/kernel/notes) selects /usr/lib/debug/boot/vmlinux-$(uname
/// -r) or the build-id path; modules by /sys/module/<m>/notes.
///
/// Every candidate is checked before it is used (a regular file, written
/// by nobody but root, the effective user or the binary's owner
/// (FileTrust.h), is ELF, has .debug_info, CRC and build-id match) and every
/// rejection is kept, so the error for "nothing found" names each place
/// tried and why it was refused. The debuginfod client runs with the
/// effective user's HOME and cache, not the caller's.
/// Opening is lazy: the DWARFContext is created but no unit is parsed.
/// debuginfod is reached through LLVM's client program
/// (llvm-debuginfod-find, else elfutils' debuginfod-find) run as a
/// subprocess: the libLLVM.so that clang loads the plugin into does not
/// contain the LLVMDebuginfod library.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_DEBUGINFOFINDER_H
#define BPFPROBE_RESOLVE_DEBUGINFOFINDER_H

#include "Resolve/DwarfIndex.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace bpfprobe {

/// One ELF symbol of the probed binary (not of the debug file, whose
/// addresses are the same but whose .text may be NOBITS).
struct ElfSymbol {
  std::string Name;
  uint64_t Address = 0;
  uint64_t Size = 0;
  bool IsFunction = false;
};

/// The probed binary and the DWARF describing it, opened together.
class DebugInfo {
public:
  /// Path of the probed binary as the user named it; for the kernel
  /// "vmlinux" or the module's name.
  const std::string &targetPath() const { return TargetPath; }
  /// Path of the file the DWARF was read from (may equal targetPath()).
  const std::string &debugPath() const { return DebugPath; }
  /// Hex NT_GNU_BUILD_ID of the debug file ("" if it has none).
  const std::string &buildId() const { return BuildId; }
  /// Hex build-id of what is probed: the target binary's, or the running
  /// kernel's/module's (from /sys) when found by it; what the runtime checks
  /// before attaching. Equal to buildId() whenever both are known.
  const std::string &targetBuildId() const { return TargetBuildId; }
  /// Which symbol table findSymbol() reads, for diagnostics (".symtab of
  /// ./srv", ".dynsym of ./srv", ".symtab of the debug file /x.debug").
  const std::string &symbolTable() const { return SymbolTable; }
  /// How the debug file was found ("explicit path", "the binary itself",
  /// ".gnu_debuglink", "build-id directory", "debuginfod", and for the
  /// kernel "kernel image path": <root>/boot/vmlinux-<release> and the like,
  /// or a module's .ko below <root>/lib/modules/<release>/).
  const std::string &foundBy() const { return FoundBy; }

  llvm::DWARFContext &dwarf() { return *Dwarf; }
  /// Unit and call-frame look-ups that parse only what they return
  /// (DwarfIndex.h), shared by every probe resolved against this file.
  DwarfIndex &index() {
    if (!Index)
      Index = std::make_unique<DwarfIndex>(*Dwarf);
    return *Index;
  }
  /// The compile unit whose code contains Address, or nullptr.
  llvm::DWARFUnit *unitAt(uint64_t Address) {
    return index().unitForAddress(Address);
  }
  /// The debug file as an object (its .eh_frame/.debug_frame for CFA).
  const llvm::object::ObjectFile &debugObject() const { return *DebugObj; }
  /// The target binary as an object (symbol table, instruction bytes).
  const llvm::object::ObjectFile &targetObject() const { return *TargetObj; }

  /// Looks a symbol up by name in the target's symbol table (.symtab; for
  /// a stripped binary the verified debug file's .symtab, which has the
  /// same addresses; else .dynsym); for duplicates (local statics) returns
  /// all. Functions and data objects both: check IsFunction.
  std::vector<ElfSymbol> findSymbol(llvm::StringRef Name) const;
  /// The function symbol containing Address, if any (a zero-size symbol
  /// contains only its own address). In a relocatable module (.ko)
  /// addresses are section offsets, so this is only meaningful in .text.
  std::optional<ElfSymbol> symbolAt(uint64_t Address) const;
  /// The names of all function symbols, for "did you mean".
  std::vector<std::string> functionNames() const;
  /// Every function symbol of the symbol table, in table order.
  std::vector<ElfSymbol> functionSymbols() const;

  // Implementation detail, filled by findDebugInfo().
  std::string TargetPath, DebugPath, BuildId, FoundBy;
  std::string TargetBuildId, SymbolTable;
  llvm::object::OwningBinary<llvm::object::ObjectFile> TargetBin, DebugBin;
  const llvm::object::ObjectFile *TargetObj = nullptr;
  const llvm::object::ObjectFile *DebugObj = nullptr;
  std::unique_ptr<llvm::DWARFContext> Dwarf;
  std::unique_ptr<DwarfIndex> Index; ///< after Dwarf: refers to it
  /// The symbol table the look-ups read, in place in the mapped file: a
  /// kernel's has ~200k entries, and copying them into maps costs more than
  /// the few linear scans a compile makes.
  const llvm::object::ObjectFile *SymbolObj = nullptr;
  bool SymbolsDynamic = false;
};

struct FinderOptions {
  std::string ExplicitPath;  ///< -fplugin-arg-bpfprobe-debuginfo=
  bool UseDebuginfod = true; ///< consult DEBUGINFOD_URLS
  /// Root for /usr/lib/debug lookups (tests point it elsewhere).
  std::string DebugRoot = "/usr/lib/debug";
  /// The debuginfod client's cache directory, named on the command line
  /// (bpfprobe-debuginfo-find --debuginfod-cache); "" is the effective
  /// user's default. Never taken from the environment.
  std::string DebuginfodCache;
  /// The debuginfod client program; "" searches for llvm-debuginfod-find
  /// (beside the running executable, in /usr/lib/llvm-<major>/bin, on PATH),
  /// then elfutils' debuginfod-find on PATH.
  std::string DebuginfodClient;
  /// Where the running kernel's and modules' build-ids are read
  /// (<SysfsRoot>/kernel/notes, <SysfsRoot>/module/<m>/notes/); tests
  /// point it at a fake tree.
  std::string SysfsRoot = "/sys";
  /// The running kernel's release; "" asks uname(2).
  std::string KernelRelease;
};

/// Opens the target and its debug info. Target is the binary path of a user
/// probe or "" / "vmlinux" / a module name for the kernel. Without an
/// explicit path, a kernel image or module must match the running one's
/// build-id; an explicit path must match the target binary's build-id when
/// both have one (a kernel image given explicitly may be for another
/// machine: the runtime checks it before attaching). The error lists every
/// place that was tried and why it was refused ("no debug info for ./srv:
/// ./srv: no .debug_info in the binary; ./srv: no .gnu_debuglink;
/// /usr/lib/debug/.build-id/ab/cdef.debug: not found; DEBUGINFOD_URLS not
/// set; pass -fplugin-arg-bpfprobe-debuginfo=PATH or install the
/// -dbgsym/-dbg package").
llvm::Expected<std::unique_ptr<DebugInfo>>
findDebugInfo(llvm::StringRef Target, bool Kernel, const FinderOptions &Opts);

/// Hex NT_GNU_BUILD_ID of an ELF object, "" if none.
std::string readBuildId(const llvm::object::ObjectFile &Obj);

/// Debug info opened once per probed target and shared by every probe that
/// names it: all the probes of a translation unit in the plugin, all the
/// specs of one bpfprobe-resolve run. Units parsed for one probe stay parsed
/// for the next.
class DebugInfoCache {
public:
  explicit DebugInfoCache(FinderOptions Opts) : Opts(std::move(Opts)) {}

  /// The debug info of a kernel probe's module ("" = vmlinux) or a user
  /// probe's binary. The first failure for a target is returned as the
  /// error; later requests for that target return nullptr (the caller has
  /// reported it already).
  llvm::Expected<DebugInfo *> get(llvm::StringRef Target, bool Kernel);

  /// The debug info of a target if it is at hand (debuginfod is not
  /// asked), else nullptr; a failure here is not reported, and get() still
  /// reports it.
  DebugInfo *find(llvm::StringRef Target, bool Kernel);

private:
  FinderOptions Opts;
  std::set<std::string> NotFound; ///< find() failed for these keys
  /// "kernel:<module>" / "user:<path>" -> opened (null: failed before).
  std::map<std::string, std::unique_ptr<DebugInfo>> Opened;
};

} // namespace bpfprobe

#endif
