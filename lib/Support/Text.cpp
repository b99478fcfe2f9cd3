//===- Text.cpp - Escaping of values and quoted text ------------*- C++ -*-===//
//
/// \file
/// See Text.h; the rules are Escape.h's.
//===----------------------------------------------------------------------===//

#include "Support/Text.h"
#include "Support/Escape.h"

using namespace llvm;

namespace bpfprobe {

void writeEscapedValue(raw_ostream &OS, StringRef V) {
  for (char C : V) {
    if (const char *E = bpfprobe_value_escape(C))
      OS << E;
    else
      OS << C;
  }
}

std::optional<std::string> unescapeValue(StringRef V) {
  std::string Out;
  for (size_t I = 0; I < V.size(); ++I) {
    if (V[I] != '\\') {
      Out += V[I];
      continue;
    }
    int C = ++I < V.size() ? bpfprobe_value_unescape(V[I]) : -1;
    if (C < 0)
      return std::nullopt;
    Out += char(C);
  }
  return Out;
}

void writeQuoted(raw_ostream &OS, StringRef S) {
  OS << '"';
  char E[8];
  for (char C : S) {
    if (bpfprobe_quote_escape(C, /*json=*/0, E))
      OS << E;
    else
      OS << C;
  }
  OS << '"';
}

} // namespace bpfprobe
