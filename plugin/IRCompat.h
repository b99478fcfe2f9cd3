//===- IRCompat.h - The IR APIs that differ between LLVM 19 and 22 -*- C++ -*-===//
//
/// \file
/// The plugin builds against LLVM 19 (Debian's default) and LLVM 22; the few
/// IR-building calls whose names changed between them are wrapped here.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLUGIN_IRCOMPAT_H
#define BPFPROBE_PLUGIN_IRCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

namespace bpfprobe {

/// The declaration of intrinsic ID (overloaded on Tys) in M, added if absent
/// (Intrinsic::getDeclaration until LLVM 19, getOrInsertDeclaration since).
inline llvm::Function *intrinsicDecl(llvm::Module &M, llvm::Intrinsic::ID ID,
                                     llvm::ArrayRef<llvm::Type *> Tys = {}) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::getOrInsertDeclaration(&M, ID, Tys);
#else
  return llvm::Intrinsic::getDeclaration(&M, ID, Tys);
#endif
}

} // namespace bpfprobe

#endif
