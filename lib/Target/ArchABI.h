//===- ArchABI.h - Per-architecture register and calling-convention data -===//
//
/// \file
/// What the prologue generator needs to know about an architecture: where
/// each register lives in the `struct pt_regs` a BPF kprobe/uprobe program
/// receives as its context, which registers carry integer arguments and the
/// return value, and where stack arguments sit at function entry. Each
/// architecture is one table of data in its own file (ArchX86_64.cpp, ...);
/// no code outside this library switches on the architecture.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_TARGET_ARCHABI_H
#define BPFPROBE_TARGET_ARCHABI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bpfprobe {

/// One machine register as seen through `struct pt_regs`.
struct RegInfo {
  /// Name in kprobe_events fetch-arg syntax, without '%' ("di", "r8", "sp").
  const char *Name;
  /// Byte offset of the register's slot in the BPF program's `struct pt_regs`.
  unsigned PtRegsOffset;
  /// Size of the slot in bytes (8 on 64-bit arches, 4 on 32-bit ones).
  unsigned Size;
  /// DWARF register number, or -1 when DWARF has none for it.
  int DwarfNum;
  /// Other accepted spellings ("rdi" for "di"), comma separated, or "".
  const char *Aliases;
};

/// The psABI rule that decides where values wider than a register,
/// aggregates passed by value and arguments past the registers go
/// (ArgRule.h); each lives beside the table that uses it.
class ArgRule;

/// One calling convention: the integer argument registers in order, and the
/// rule for arguments that do not fit in them.
struct CallingConv {
  const char *Name; ///< "sysv", "regparm3", "cdecl", ...
  /// Indices into ArchABI::Regs of the integer/pointer argument registers.
  llvm::ArrayRef<unsigned> ArgRegs;
  /// Offset from the stack pointer, at function entry, of the first stack
  /// argument (x86_64: 8, past the return address).
  unsigned StackArgOffset;
  /// Size of one stack argument slot.
  unsigned StackSlotSize;
  /// Indices into ArchABI::Regs of the return-value register(s); the second
  /// one, if any, holds the high half of a double-width return.
  llvm::ArrayRef<unsigned> RetRegs;
  /// Where wide values, aggregates and overflow arguments go.
  const ArgRule *Rule = nullptr;
  /// One line for diagnostics: the document and section of the rule.
  const char *RuleRef = "";
};

struct ArchABI {
  /// Canonical name ("x86_64"), as accepted by -fplugin-arg-bpfprobe-arch=.
  const char *Name;
  /// Other names: libbpf __TARGET_ARCH_* suffix ("x86"), triple arch names.
  const char *Aliases;
  /// Source of the table: kernel header and psABI section.
  const char *Reference;
  unsigned PointerSize;     ///< bytes; also the width of an argument register
  unsigned LongSize;        ///< bytes
  unsigned LongLongAlign;   ///< bytes
  bool LittleEndian;
  llvm::ArrayRef<RegInfo> Regs;
  unsigned SPReg;           ///< index into Regs
  unsigned IPReg;           ///< index into Regs
  CallingConv KernelCC;     ///< used by kprobe/kretprobe
  CallingConv UserCC;       ///< used by uprobe/uretprobe
  /// Data layout facts the calling convention depends on.
  unsigned DoubleAlign = 8;     ///< bytes (i386: 4)
  unsigned LongDoubleSize = 16; ///< bytes (i386: 12, arm: 8)
  unsigned LongDoubleAlign = 16;
  bool CharSigned = true;       ///< plain char (arm, aarch64, ppc, s390x, riscv: unsigned)
  /// The table describes user tasks of a 32-bit ABI running under a 64-bit
  /// kernel (the pt_regs slots are the 64-bit kernel's): no kernel probes.
  const char *CompatOf = nullptr;
  /// Bytes a call pushes (the return address) that the return pops: the
  /// stack pointer at a return probe is the one at the function's entry
  /// plus this (x86_64: 8, i386: 4; 0 where the return address is in a
  /// link register). Pairs entry and return probes of one call.
  unsigned ReturnAddressBytes = 0;

  const RegInfo &reg(unsigned Idx) const { return Regs[Idx]; }
  /// Finds a register by kprobe_events name or alias; -1 if unknown.
  int findReg(llvm::StringRef Name) const;
  /// Finds a register by DWARF number; -1 if unknown.
  int findDwarfReg(unsigned DwarfNum) const;
  /// Names of all registers, comma separated, for diagnostics.
  std::string regNames() const;
  const CallingConv &conv(bool UserSpace) const {
    return UserSpace ? UserCC : KernelCC;
  }
  /// The kernel or user convention named Name ("regparm3", "cdecl"), or
  /// null; "kernel" and "user" name the defaults.
  const CallingConv *findConv(llvm::StringRef Name) const;
  /// Names of the conventions this table has, comma separated.
  std::string convNames() const;
};

/// Looks an architecture up by name or alias ("x86_64", "x86", "amd64").
const ArchABI *lookupArch(llvm::StringRef Name);
/// Maps a libbpf `__TARGET_ARCH_<x>` suffix to an architecture.
const ArchABI *lookupArchByTargetMacro(llvm::StringRef Suffix);
/// The architecture of the machine the compiler runs on, or null.
const ArchABI *hostArch();
/// All known architectures.
llvm::ArrayRef<const ArchABI *> allArchs();
/// Names of all known architectures, comma separated.
std::string archNames();

} // namespace bpfprobe

#endif
