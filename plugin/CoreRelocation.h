//===- CoreRelocation.h - CO-RE field relocations for BTF plans -*- C++ -*-===//
//
/// \file
/// Turns the member accesses a BTF-resolved plan marks as CO-RE
/// (FetchExpr::Core) into the IR the BPF backend makes `.BTF.ext` field
/// relocations from, so libbpf patches each offset for the running kernel.
/// See CoreRelocation.cpp for why the pass emits the backend's lowered
/// form instead of `preserve_access_index` intrinsics.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLUGIN_CORERELOCATION_H
#define BPFPROBE_PLUGIN_CORERELOCATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class DIBuilder;
class DIFile;
class DIType;
class GlobalVariable;
class Module;
} // namespace llvm

namespace bpfprobe {

/// The CO-RE accesses of one module. offset() may be called for any number
/// of sites; finalize() once after the last.
class CoreRelocations {
public:
  explicit CoreRelocations(llvm::Module &M) : M(M) {}

  /// An i64 that is Imm (the byte offset of Core in the BTF the probe was
  /// compiled against) until libbpf relocates it. An error for a malformed
  /// access or one whose offsets do not add up to Imm.
  llvm::Expected<llvm::Value *> offset(llvm::IRBuilder<> &B,
                                       llvm::StringRef Core, int64_t Imm);

  /// The four relocated values of a bitfield read (libbpf's
  /// BPF_CORE_READ_BITFIELD_PROBED): read ByteSize bytes at ByteOffset
  /// into a zeroed u64, shift left by LShift, right by RShift. The other
  /// arguments are the plan's compile-time read, checked against Core.
  struct BitfieldRead {
    llvm::Value *ByteOffset, *ByteSize, *LShift, *RShift;
  };
  llvm::Expected<BitfieldRead> bitfield(llvm::IRBuilder<> &B,
                                        llvm::StringRef Core,
                                        unsigned ByteOffset, unsigned Size,
                                        unsigned Shift, unsigned BitSize);

  /// Synthesizes the debug-info types of every access (each structure
  /// with the members some access uses, at their offsets) and attaches
  /// them to the relocation globals. An error when the module has no
  /// debug info (without -g there is no BTF to relocate against).
  llvm::Error finalize();

  bool empty() const { return Globals.empty(); }

  /// The accesses that follow are in a function compiled without
  /// optimization (optnone): the backend makes CO-RE relocations only in
  /// its optimizing pipeline (BPFMISimplifyPatchable), so offset() refuses.
  void setUnoptimized(bool U) { Unoptimized = U; }

private:
  struct Member {
    std::string Name;
    uint64_t BitOffset;
    std::string Type; ///< a type in FetchExpr::Core's form
    std::string Key;  ///< for a composite member, its composite's key
    unsigned BitSize = 0; ///< a bitfield's width
  };
  struct Composite {
    bool Union = false;
    std::string Name;
    uint64_t Size = 0;
    std::vector<Member> Members;
    llvm::DIType *DI = nullptr;
  };

  llvm::Module &M;
  /// By key: a named composite's type text, an anonymous one's parent key
  /// and member offset.
  std::map<std::string, Composite> Composites;
  /// One relocation: its global (named for now; finalize() gives it the
  /// name the backend reads, once member indexes are known), its root
  /// structure's key, and each step as (container key, member index at
  /// the time of the access).
  struct Access {
    llvm::GlobalVariable *GV;
    std::string Root;
    int64_t Imm;
    std::vector<std::pair<std::string, size_t>> Steps;
    unsigned Kind; ///< libbpf's bpf_core_relo_kind
  };
  /// An access read from its text.
  struct Parsed {
    std::string Root;
    std::vector<std::pair<std::string, size_t>> Steps;
    uint64_t Bits = 0;     ///< offset of the last member from the root
    unsigned LeafBits = 0; ///< the last member's width if a bitfield
    uint64_t LeafSize = 0; ///< bytes of the last member's type
  };
  llvm::Error parse(llvm::StringRef Core, Parsed &P);
  llvm::Value *relocation(llvm::IRBuilder<> &B, const Parsed &P,
                          unsigned Kind, int64_t Imm);
  std::vector<Access> Globals;
  unsigned Seq = 0;
  bool Unoptimized = false;

  llvm::DIType *typeFor(llvm::StringRef Type, const std::string &Key,
                        llvm::DIBuilder &DIB, llvm::DIFile *File);
  llvm::DIType *compositeFor(const std::string &Key, llvm::DIBuilder &DIB,
                             llvm::DIFile *File);
};

} // namespace bpfprobe

#endif
