//===- Error.h - The libraries' error helper --------------------*- C++ -*-===//
//
/// \file
/// fail(): the llvm::Error a library returns for a failure that has no
/// place in an annotation. One located in an annotation is a ResolveError
/// (Resolve/Resolver.h, errorAt()), which the plugin shows with a caret.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_SUPPORT_ERROR_H
#define BPFPROBE_SUPPORT_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace bpfprobe {

/// An error with the message Msg.
inline llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

} // namespace bpfprobe

#endif
