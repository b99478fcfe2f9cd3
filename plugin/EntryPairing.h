//===- EntryPairing.h - Entry values handed to return probes ----*- C++ -*-===//
//
/// \file
/// The maps and the pairing code behind `@entry(...)` in return probes: an
/// entry program saves the values per task and call depth, the return
/// program takes them back. The design and its limits are in
/// EntryPairing.cpp.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLUGIN_ENTRYPAIRING_H
#define BPFPROBE_PLUGIN_ENTRYPAIRING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

namespace llvm {
class AllocaInst;
class GlobalVariable;
class Module;
} // namespace llvm

namespace bpfprobe {

/// The two maps of one return probe's entry values.
struct EntryMaps {
  /// LRU hash: key {pid_tgid, depth} (2 x u64), value the saved record
  /// (Words x u64: the fault word, then one word per value).
  llvm::GlobalVariable *Values = nullptr;
  /// LRU hash: key pid_tgid (u64), value the task's call depth (u64).
  llvm::GlobalVariable *Depth = nullptr;
  unsigned Words = 0;
};

/// Entries of each map: calls in flight at once, over all tasks.
constexpr unsigned EntryMapEntries = 16384;

/// Creates the maps for the return program \p Program, a record of
/// \p Words 64-bit words, as BTF-defined `.maps` (the module needs debug
/// info: libbpf reads map definitions from BTF). An error when the module
/// has none or the names are taken.
llvm::Expected<EntryMaps> createEntryMaps(llvm::Module &M,
                                          llvm::StringRef Program,
                                          unsigned Words);

/// In the entry program: saves the record in \p Vals (Words x i64, all
/// stored) under the task's current depth and increments the depth.
void emitEntrySave(llvm::IRBuilder<> &B, const EntryMaps &Maps,
                   llvm::AllocaInst *Vals);

/// In the return program: decrements the task's depth and moves the record
/// saved at that depth into \p Vals (zeroed first). Returns an i1 that is
/// true when there was none: the entry was missed (the probe was attached
/// while the call was in flight, or the map evicted it).
llvm::Value *emitEntryTake(llvm::IRBuilder<> &B, const EntryMaps &Maps,
                           llvm::AllocaInst *Vals);

} // namespace bpfprobe

#endif
