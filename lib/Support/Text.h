//===- Text.h - Escaping of values and quoted text --------------*- C++ -*-===//
//
/// \file
/// The C++ side of Support/Escape.h, whose rules the C runtime shares:
/// values of metadata and plan lines, and quoted text for people.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_SUPPORT_TEXT_H
#define BPFPROBE_SUPPORT_TEXT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace bpfprobe {

/// Writes V as the value of a metadata or plan line: \\ \n \t escaped.
void writeEscapedValue(llvm::raw_ostream &OS, llvm::StringRef V);

/// The value a line holds, its escapes undone; std::nullopt when it has an
/// escape other than \\ \n \t, or ends in a lone backslash.
std::optional<std::string> unescapeValue(llvm::StringRef V);

/// Writes S in double quotes as a C string literal (\" \\ \n \t \xNN).
void writeQuoted(llvm::raw_ostream &OS, llvm::StringRef S);

} // namespace bpfprobe

#endif
