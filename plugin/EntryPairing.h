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
  /// LRU hash: key {pid_tgid, frame} (2 x u64; the frame is the stack
  /// pointer at the entry, or the call depth for fentry/fexit), value the
  /// saved record (Words x u64: the fault word, then one word per value).
  llvm::GlobalVariable *Values = nullptr;
  /// fentry/fexit only: LRU hash, key pid_tgid (u64), value the task's
  /// call depth (u64). Null for the other kinds.
  llvm::GlobalVariable *Depth = nullptr;
  unsigned Words = 0;
};

/// Entries of each map: calls in flight at once, over all tasks.
constexpr unsigned EntryMapEntries = 16384;

/// Creates the maps for the return program \p Program, a record of
/// \p Words 64-bit words, as BTF-defined `.maps` (the module needs debug
/// info: libbpf reads map definitions from BTF); the depth map only with
/// \p ByDepth (fentry/fexit). An error when the module has no debug info
/// or a name is taken.
llvm::Expected<EntryMaps> createEntryMaps(llvm::Module &M,
                                          llvm::StringRef Program,
                                          unsigned Words, bool ByDepth);

/// In the entry program: saves the record in \p Vals (Words x i64, all
/// stored) under the task and \p Frame (the stack pointer, i64), or with
/// a null Frame under the task's depth, which it increments.
void emitEntrySave(llvm::IRBuilder<> &B, const EntryMaps &Maps,
                   llvm::AllocaInst *Vals, llvm::Value *Frame);

/// In the return program: moves the record saved under the task and
/// \p Frame (the entry's stack pointer computed at the return), or with a
/// null Frame under the task's depth, which it decrements, into \p Vals
/// (zeroed first). Returns an i1 that is true when there was none: the
/// entry was missed.
llvm::Value *emitEntryTake(llvm::IRBuilder<> &B, const EntryMaps &Maps,
                           llvm::AllocaInst *Vals, llvm::Value *Frame);

} // namespace bpfprobe

#endif
