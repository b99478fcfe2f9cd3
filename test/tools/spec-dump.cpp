//===- spec-dump.cpp - Print parsed probe annotations for lit tests -----===//
//
/// \file
/// usage: bpfprobe-spec-dump [--looks-like] SPEC...
///
/// Parses each SPEC with parseProbeSpec() and prints dumpProbeSpec(). On a
/// syntax error it prints, to stdout so FileCheck sees it in order,
/// `error: MESSAGE`, the spec, and a line with '^' under the offending byte,
/// and the exit status is 1. With --looks-like it prints, for each following
/// SPEC, `probe-spec` or `libbpf-section` as looksLikeProbeSpec() decides.
//===----------------------------------------------------------------------===//

#include "Spec/ProbeSpec.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace bpfprobe;

/// Spaces up to the offending byte; tabs are kept so the caret lines up, and
/// UTF-8 continuation bytes take no column.
static void printCaret(StringRef Spec, unsigned Offset, raw_ostream &OS) {
  for (unsigned I = 0; I < Offset && I < Spec.size(); ++I) {
    unsigned char C = Spec[I];
    if (C == '\t')
      OS << '\t';
    else if ((C & 0xC0) != 0x80)
      OS << ' ';
  }
  OS << "^\n";
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    errs() << "usage: bpfprobe-spec-dump [--looks-like] SPEC...\n";
    return 2;
  }
  bool LooksLike = false;
  int Status = 0;
  for (int I = 1; I < Argc; ++I) {
    StringRef Spec = Argv[I];
    if (Spec == "--looks-like") {
      LooksLike = true;
      continue;
    }
    if (LooksLike) {
      outs() << (looksLikeProbeSpec(Spec) ? "probe-spec" : "libbpf-section")
             << '\n';
      continue;
    }
    Expected<ProbeSpec> Parsed = parseProbeSpec(Spec);
    if (Parsed) {
      dumpProbeSpec(*Parsed, outs());
      continue;
    }
    Status = 1;
    handleAllErrors(
        Parsed.takeError(),
        [&](const SpecError &E) {
          outs() << "error: " << E.text() << '\n' << Spec << '\n';
          printCaret(Spec, E.offset(), outs());
        },
        [&](const ErrorInfoBase &E) {
          outs() << "error: " << E.message() << '\n';
        });
  }
  return Status;
}
