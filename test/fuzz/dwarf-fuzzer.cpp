//===- dwarf-fuzzer.cpp - libFuzzer target for ELF/DWARF through the resolver //
//
/// \file
/// usage: bpfprobe-dwarf-fuzzer [-max_len=16384] [-runs=N] CORPUS_DIR...
///
/// Each input is a whole ELF file, seeded with small real binaries built by
/// gcc and clang at -O2 -g (test/fuzz/corpus-dwarf, from dwarf-seed.c) and
/// mutated. It is written to a private temporary file and opened as the
/// target the way the plugin opens one (findDebugInfo: symbol tables, notes,
/// .debug_*), then a fixed set of probes of dwarf-seed.c's functions is
/// resolved against it (resolveWithDwarf: entry, line, return, members,
/// bit-fields, inlined sites, struct by value), and its variables and lines
/// are listed. Any bytes must give plans or an llvm::Error: no crash, hang
/// or sanitizer report. A plan that comes back must print as a
/// kprobe_events line.
//===----------------------------------------------------------------------===//

#include "Plan/FetchPlan.h"
#include "Resolve/DebugInfoFinder.h"
#include "Resolve/DwarfResolver.h"
#include "Spec/ProbeSpec.h"
#include "Target/ArchABI.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace llvm;
using namespace bpfprobe;

#define FUZZ_CHECK(Cond)                                                       \
  do {                                                                         \
    if (!(Cond))                                                               \
      __builtin_trap();                                                        \
  } while (false)

/// Kind, then what follows "PATH:FUNCTION" (a relative line only for handle).
static const char *const Probes[][2] = {
    {"uprobe", "(req, fd)"},
    {"uprobe", "(req->hdr.len, req->hdr.flags, req->hdr.kind, req->name, fd)"},
    {"uprobe", "(req->next->next->hdr.len, *req->name, p.a, p.b, c)"},
    {"uretprobe", "($retval, sink)"},
    {"uprobe", ":4(r->hdr.len, total, w)"},
    {"uprobe", ":5(total, r, r->hdr, fd)"},
    {"uprobe", ":7(total, fd)"},
};

static std::string TmpPath;

static void removeTmp() {
  if (!TmpPath.empty())
    ::unlink(TmpPath.c_str());
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (TmpPath.empty()) {
    TmpPath = "/tmp/bpfprobe-dwarf-fuzz-" + std::to_string(::getpid());
    std::atexit(removeTmp);
  }
  {
    std::error_code EC;
    raw_fd_ostream OS(TmpPath, EC);
    if (EC)
      abort();
    OS.write(reinterpret_cast<const char *>(Data), Size);
  }
  const ArchABI *ABI = lookupArch("x86_64");
  FUZZ_CHECK(ABI != nullptr);

  FinderOptions Opts;
  Opts.UseDebuginfod = false;
  Opts.DebugRoot = "/nonexistent";
  Opts.SysfsRoot = "/nonexistent";
  auto DI = findDebugInfo(TmpPath, /*Kernel=*/false, Opts);
  if (!DI) {
    consumeError(DI.takeError());
    return 0;
  }
  for (const char *Function : {"handle", "add_pair", "weigh"}) {
    for (const auto &Probe : Probes) {
      const char *Args = Probe[1];
      if (Args[0] == ':' && std::string(Function) != "handle")
        continue;
      std::string Text =
          std::string(Probe[0]) + "/" + TmpPath + ":" + Function + Args;
      Expected<ProbeSpec> Spec = parseProbeSpec(Text);
      FUZZ_CHECK(static_cast<bool>(Spec));
      auto Plans = resolveWithDwarf(*Spec, **DI, *ABI);
      if (!Plans) {
        consumeError(Plans.takeError());
        continue;
      }
      for (const SitePlan &P : *Plans)
        FUZZ_CHECK(!formatKprobeEvent(P, *ABI).empty());
    }
    std::string Text = std::string("uprobe/") + TmpPath + ":" + Function;
    if (Expected<ProbeSpec> Spec = parseProbeSpec(Text)) {
      if (auto Vars = listVariables(*Spec, **DI, *ABI); !Vars)
        consumeError(Vars.takeError());
    } else {
      consumeError(Spec.takeError());
    }
    if (auto Lines = listLines(Function, **DI); !Lines)
      consumeError(Lines.takeError());
  }
  return 0;
}
