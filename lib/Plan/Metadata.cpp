//===- Metadata.cpp - Writer of the .bpfprobe metadata section ----------===//
//
/// \file
/// See Metadata.h and docs/metadata.md.
//===----------------------------------------------------------------------===//

#include "Plan/Metadata.h"
#include "Support/Text.h"
#include "Target/ArchABI.h"
#include "bpfprobe/metadata.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bpfprobe {

std::string formatMetadataRecord(const SitePlan &Site, const ArchABI &ABI) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << BPFPROBE_METADATA_MAGIC << ' ' << BPFPROBE_METADATA_VERSION << '\n';
  auto Put = [&](StringRef K, StringRef V) {
    OS << K << '=';
    writeEscapedValue(OS, V);
    OS << '\n';
  };
  Put(BPFPROBE_KEY_PROGRAM, Site.Program);
  Put(BPFPROBE_KEY_SECTION, Site.Section);
  Put(BPFPROBE_KEY_KIND, Site.Kind);
  Put(BPFPROBE_KEY_TARGET, Site.Target);
  Put(BPFPROBE_KEY_SYMBOL, Site.Symbol);
  Put(BPFPROBE_KEY_OFFSET, std::to_string(Site.Offset));
  Put(BPFPROBE_KEY_ADDRESS, "0x" + utohexstr(Site.Address, /*LowerCase=*/true));
  if (Site.SymbolSize)
    Put(BPFPROBE_KEY_SYMBOL_SIZE, std::to_string(Site.SymbolSize));
  Put(BPFPROBE_KEY_ARCH, Site.Arch);
  // The kernel the prologue's pt_regs belong to: the arch's own, or the
  // 64-bit kernel of a compat table.
  static const bpfprobe_kernel_arch KernelArches[] = {BPFPROBE_KERNEL_ARCHES};
  StringRef Kernel = ABI.CompatOf ? ABI.CompatOf : ABI.Name;
  for (const bpfprobe_kernel_arch &K : KernelArches)
    if (Kernel == K.name) {
      Put(BPFPROBE_KEY_KERNEL_MACHINE, std::to_string(K.e_machine));
      Put(BPFPROBE_KEY_COMPAT, ABI.CompatOf ? "1" : "0");
    }
  Put(BPFPROBE_KEY_BUILD_ID, Site.BuildId);
  Put(BPFPROBE_KEY_SOURCE, Site.Source);
  Put(BPFPROBE_KEY_SPEC, Site.Spec);
  if (Site.Record) {
    Put(BPFPROBE_KEY_RECORD_ID, std::to_string(recordIdFor(Site.Program)));
    // The wrapper's records carry struct bpfprobe_record_ctx (metadata.h).
    Put(BPFPROBE_KEY_RECORD_CONTEXT, std::to_string(BPFPROBE_RECORD_CTX_SIZE));
  }
  if (!Site.EntryProgram.empty())
    Put(BPFPROBE_KEY_ENTRY_PROGRAM, Site.EntryProgram);
  if (!Site.SessionProgram.empty())
    Put(BPFPROBE_KEY_SESSION_PROGRAM, Site.SessionProgram);
  if (!Site.EntryOf.empty())
    Put(BPFPROBE_KEY_ENTRY_OF, Site.EntryOf);
  if (!Site.Dispatcher.empty()) {
    Put(BPFPROBE_KEY_DISPATCHER, Site.Dispatcher);
    Put(BPFPROBE_KEY_COOKIE, std::to_string(Site.Cookie));
  }
  for (const ArgPlan &A : Site.Args) {
    OS << BPFPROBE_KEY_ARG << '=';
    writeEscapedValue(OS, A.Name);
    // A pointer-and-length string records its length beside its bytes.
    if (A.Length && A.Type.Kind == ValueType::String)
      OS << '\t'
         << (A.UserString ? BPFPROBE_TYPE_COUNTED_USTRING
                          : BPFPROBE_TYPE_COUNTED_STRING)
         << '\t';
    else
      OS << '\t' << kprobeTypeName(A.Type, A.UserString) << '\t';
    writeEscapedValue(OS, formatFetchArg(*A.Expr, A.Type, A.UserString, ABI,
                                         Site.Space));
    OS << '\t';
    writeEscapedValue(OS, A.Text);
    OS << '\n';
  }
  OS << BPFPROBE_METADATA_END << '\n';
  return Out;
}

uint32_t recordIdFor(StringRef Program) {
  uint32_t H = 2166136261u;
  for (unsigned char C : Program) {
    H ^= C;
    H *= 16777619u;
  }
  return H ? H : 1;
}

} // namespace bpfprobe
