//===- ArchABI.cpp - Architecture lookup ----------------------------------===//
//
/// \file
/// Finds the ABI table for an architecture name, a libbpf __TARGET_ARCH_*
/// suffix or the host; the tables themselves live in Arch<Name>.cpp.
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace bpfprobe {

extern const ArchABI ArchX86_64, ArchI386, ArchIA32Compat, ArchAArch64, ArchARM,
    ArchARMCompat, ArchRISCV64, ArchS390x, ArchPPC64LE, ArchMips64,
    ArchLoongArch64;

static const ArchABI *const Archs[] = {
    &ArchX86_64,  &ArchI386,   &ArchIA32Compat, &ArchAArch64,
    &ArchARM,     &ArchARMCompat, &ArchRISCV64, &ArchS390x,
    &ArchPPC64LE, &ArchMips64, &ArchLoongArch64};

ArrayRef<const ArchABI *> allArchs() { return Archs; }

static bool listContains(StringRef List, StringRef Name) {
  SmallVector<StringRef, 8> Items;
  List.split(Items, ',', -1, false);
  for (StringRef I : Items)
    if (I.trim() == Name)
      return true;
  return false;
}

const ArchABI *lookupArch(StringRef Name) {
  for (const ArchABI *A : Archs)
    if (Name == A->Name || listContains(A->Aliases, Name))
      return A;
  return nullptr;
}

const ArchABI *lookupArchByTargetMacro(StringRef Suffix) {
  return lookupArch(Suffix);
}

const ArchABI *hostArch() {
  Triple T(sys::getProcessTriple());
  if (const ArchABI *A = lookupArch(T.getArchName()))
    return A;
  // Triple spellings the alias lists do not carry ("powerpc64le" is there,
  // "mips64el" too); fall back on the canonical arch type name.
  return lookupArch(Triple::getArchTypeName(T.getArch()));
}

std::string archNames() {
  std::string S;
  for (const ArchABI *A : Archs) {
    if (!S.empty())
      S += ", ";
    S += A->Name;
  }
  return S;
}

int ArchABI::findReg(StringRef N) const {
  for (unsigned I = 0; I < Regs.size(); ++I)
    if (N == Regs[I].Name || listContains(Regs[I].Aliases, N))
      return I;
  return -1;
}

int ArchABI::findDwarfReg(unsigned DwarfNum) const {
  for (unsigned I = 0; I < Regs.size(); ++I)
    if (Regs[I].DwarfNum == int(DwarfNum))
      return I;
  return -1;
}

const CallingConv *ArchABI::findConv(StringRef N) const {
  if (N == "kernel")
    return &KernelCC;
  if (N == "user")
    return &UserCC;
  if (N == KernelCC.Name)
    return &KernelCC;
  if (N == UserCC.Name)
    return &UserCC;
  return nullptr;
}

std::string ArchABI::convNames() const {
  std::string S = KernelCC.Name;
  if (StringRef(UserCC.Name) != KernelCC.Name)
    S += std::string(", ") + UserCC.Name;
  return S;
}

std::string ArchABI::regNames() const {
  std::string S;
  for (const RegInfo &R : Regs) {
    if (!S.empty())
      S += ", ";
    S += "%";
    S += R.Name;
  }
  return S;
}

} // namespace bpfprobe
