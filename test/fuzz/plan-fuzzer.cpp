//===- plan-fuzzer.cpp - libFuzzer target for the fetch plan text -------===//
//
/// \file
/// usage: bpfprobe-plan-fuzzer [-max_len=1024] [-runs=N] CORPUS_DIR...
///
/// Feeds arbitrary bytes to parsePlan(), the reader of the text that carries
/// a site's plan from the front end to the pass (the pass reads it from IR,
/// where anyone can write it), and checks besides "no crash, no hang, no
/// sanitizer report":
///  - an error is a "bad plan..." message;
///  - a parsed plan serializes to text that parses again, and that text is a
///    fixed point of serialize(parse(.)): nothing is lost or invented;
///  - what the pass computes from any parsed plan (clone, stackBytes,
///    countDerefs) is defined, and a plan whose architecture is known and
///    that validate() accepts (what the pass lowers) prints as a
///    kprobe_events line (formatKprobeEvent), as the pass does for the
///    metadata.
/// A failed check is __builtin_trap(), which libFuzzer reports as a crash.
//===----------------------------------------------------------------------===//

#include "Plan/FetchPlan.h"
#include "Target/ArchABI.h"

#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bpfprobe;

#define FUZZ_CHECK(Cond)                                                       \
  do {                                                                         \
    if (!(Cond))                                                               \
      __builtin_trap();                                                        \
  } while (false)

static void checkPlan(const SitePlan &Site) {
  std::string Text = serializePlan(Site);
  Expected<SitePlan> Again = parsePlan(Text);
  FUZZ_CHECK(static_cast<bool>(Again));
  FUZZ_CHECK(serializePlan(*Again) == Text);
  FUZZ_CHECK(Again->Args.size() == Site.Args.size());

  (void)Site.stackBytes();
  for (const ArgPlan &A : Site.Args) {
    FUZZ_CHECK(A.Expr != nullptr);
    ArgPlan Copy = A.clone();
    FUZZ_CHECK(Copy.Expr->countDerefs() == A.Expr->countDerefs());
  }

  const ArchABI *ABI = lookupArch(Site.Arch);
  if (!ABI)
    return;
  // The pass lowers only what validate() accepts; what it accepts prints.
  if (Error E = validate(Site, *ABI)) {
    FUZZ_CHECK(StringRef(toString(std::move(E))).size() > 0);
    return;
  }
  FUZZ_CHECK(!formatKprobeEvent(Site, *ABI).empty());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<SitePlan> Plan = parsePlan(Text);
  if (Plan) {
    checkPlan(*Plan);
    return 0;
  }
  std::string Msg = toString(Plan.takeError());
  FUZZ_CHECK(StringRef(Msg).starts_with("bad plan"));
  return 0;
}
