//===- spec-fuzzer.cpp - libFuzzer target for parseProbeSpec ------------===//
//
/// \file
/// usage: bpfprobe-spec-fuzzer [-max_len=256] [-runs=N] CORPUS_DIR...
///
/// Feeds arbitrary bytes to parseProbeSpec() and checks what comes back
/// besides "no crash, no hang, no sanitizer report":
///  - an error points inside the text or just past it, and its message is in
///    house style (lower-case first word, no trailing period);
///  - a parsed spec has every range inside the text, arguments whose Text is
///    their range, and a dump; its libbpf section name (when it has one)
///    parses back to the same target and is not claimed by
///    looksLikeProbeSpec(), so the plugin never re-reads its own output;
///    libbpfSectionName() for the same symbol and offset parses back too.
/// A failed check is __builtin_trap(), which libFuzzer reports as a crash.
//===----------------------------------------------------------------------===//

#include "Spec/ProbeSpec.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bpfprobe;

#define FUZZ_CHECK(Cond)                                                       \
  do {                                                                         \
    if (!(Cond))                                                               \
      __builtin_trap();                                                        \
  } while (false)

static void checkRange(TextRange R, size_t Size) {
  FUZZ_CHECK(R.Begin <= R.End && R.End <= Size);
}

static void checkSpec(const ProbeSpec &S, StringRef Text) {
  FUZZ_CHECK(S.Text == Text);
  checkRange(S.KindRange, Text.size());
  checkRange(S.BinaryRange, Text.size());
  FUZZ_CHECK(!isUserProbe(S.Kind) || !S.Binary.empty());
  const ProbePlace &P = S.Place;
  for (TextRange R :
       {P.SymbolRange, P.OffsetRange, P.FileRange, P.LineRange})
    checkRange(R, Text.size());
  checkRange(S.ArgListRange, Text.size());
  FUZZ_CHECK(S.HasArgList || S.Args.empty());
  for (const ProbeArg &A : S.Args) {
    checkRange(A.Range, Text.size());
    FUZZ_CHECK(A.Text == Text.slice(A.Range.Begin, A.Range.End));
    FUZZ_CHECK(!A.Text.empty());
    FUZZ_CHECK((A.Form == ProbeArg::CType) == !A.Expr);
    unsigned Depth = 0;
    for (const SpecExpr *E = A.Expr.get(); E; E = E->Base.get()) {
      checkRange(E->Range, Text.size());
      checkRange(E->NameRange, Text.size());
      FUZZ_CHECK(++Depth <= MaxSpecNesting);
    }
    if (A.Form != ProbeArg::Expression) {
      checkRange(A.Type.Range, Text.size());
      FUZZ_CHECK(!A.Type.Words.empty() && !A.Type.Text.empty());
    }
    if (A.FetchType)
      checkRange(A.FetchTypeRange, Text.size());
  }

  std::string Dump;
  raw_string_ostream OS(Dump);
  dumpProbeSpec(S, OS);
  FUZZ_CHECK(!OS.str().empty());

  std::string Section = S.sectionName();
  FUZZ_CHECK(Section.empty() ==
             (P.Form != ProbePlace::SymbolOffset || P.SourceName));
  if (Section.empty())
    return;
  FUZZ_CHECK(!looksLikeProbeSpec(Section));
  Expected<ProbeSpec> Again = parseProbeSpec(Section);
  FUZZ_CHECK(static_cast<bool>(Again));
  FUZZ_CHECK(Again->Kind == S.Kind && Again->Place.Symbol == P.Symbol &&
             Again->Place.Offset == P.Offset && !Again->HasArgList);
  FUZZ_CHECK(Again->Binary == (isUserProbe(S.Kind) ? S.Binary : ""));

  // The name the plugin gives a site resolved to the same symbol+offset.
  Expected<ProbeSpec> Resolved = parseProbeSpec(
      libbpfSectionName(S.Kind, S.Binary, P.Symbol, P.Offset));
  FUZZ_CHECK(static_cast<bool>(Resolved));
  FUZZ_CHECK(Resolved->Place.Symbol == P.Symbol &&
             Resolved->Place.Offset == P.Offset);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<ProbeSpec> Spec = parseProbeSpec(Text);
  (void)looksLikeProbeSpec(Text);
  if (Spec) {
    checkSpec(*Spec, Text);
    return 0;
  }
  handleAllErrors(
      Spec.takeError(),
      [&](const SpecError &E) {
        const std::string &M = E.text();
        FUZZ_CHECK(E.offset() <= Size);
        FUZZ_CHECK(!M.empty() && !(M[0] >= 'A' && M[0] <= 'Z') &&
                   M.back() != '.');
      },
      [](const ErrorInfoBase &) { __builtin_trap(); });
  return 0;
}
