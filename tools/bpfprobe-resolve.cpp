//===- bpfprobe-resolve.cpp - Resolve probe specs from the command line --===//
//
/// \file
/// usage: bpfprobe-resolve [--debuginfo PATH] [--arch A] [--cc NAME]
///                         [-D | --vars [--externs] | --lines] [--time]
///                         [--stats] SPEC...
///
/// The plugin's resolution, without a compile: for each SPEC, each site's
/// fetch plan in kprobe_events syntax, like `perf probe -D`
/// \code
///   $ bpfprobe-resolve 'uprobe/./srv:handle(req->hdr.len, c->fd)'
///   p:handle ./srv:handle req->hdr.len=+4(%si):u16 c->fd=+0(%di):s32
/// \endcode
/// (one line per site: a line inlined twice gives two). `--vars` lists the
/// parameters and locals visible at each site with their types and whether
/// they have a location there, and with `--externs` the unit's globals too
/// (perf probe -V [--externs]); `--lines` lists the lines of a function a
/// probe can be put on (perf probe -L). Errors show the spec with a caret
/// under the offending byte; the exit status is then 1.
///
/// Every spec goes through the library the plugin uses (lib/Spec,
/// lib/Resolve): the same choice between DWARF and the calling convention,
/// the same plans. Debug info is opened once per target and shared by all
/// the specs, as the plugin shares it across the probes of a file.
/// `--time` prints to stderr how long finding and opening the debug info and
/// resolving took; `--stats` how much of the debug info was read: the
/// compile units parsed, whether any look-up had to read the header of
/// every unit, and how many units' DIE streams were checked before their
/// DIEs were read (bench/resolve.py reports it beside its timings).
//===----------------------------------------------------------------------===//

#include "Plan/FetchPlan.h"
#include "Resolve/BtfResolver.h"
#include "Resolve/DebugInfoFinder.h"
#include "Resolve/DwarfResolver.h"
#include "Resolve/Resolver.h"
#include "Spec/ProbeSpec.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>

using namespace llvm;
using namespace bpfprobe;

namespace {

constexpr const char *Usage =
    "usage: bpfprobe-resolve [--debuginfo PATH | --btf PATH] [--arch ARCH]\n"
    "                        [--cc NAME]\n"
    "                        [-D | --vars [--externs] | --lines] [--time]\n"
    "                        [--stats] SPEC...\n"
    "\n"
    "Prints each site's fetch plan in kprobe_events syntax (like perf probe "
    "-D);\n"
    "a plan kprobe_events cannot say (DWARF arithmetic, selects, register "
    "pieces)\n"
    "is printed in the extended notation of docs/how-it-works.md, on a line "
    "after\n"
    "'# extended notation, not kprobe_events syntax'.\n"
    "  -D, --plans       print the plans (the default)\n"
    "  --debuginfo PATH  debug info to use: a binary, a .debug file, a "
    "vmlinux or .ko\n"
    "  --btf PATH        resolve kernel probes with this BTF (raw BTF or an "
    "ELF\n"
    "                    file's .BTF; a module's over --btf-base PATH); "
    "without\n"
    "                    either option, a kernel probe whose DWARF is not "
    "found\n"
    "                    uses /sys/kernel/btf (plans say '# from BTF')\n"
    "  --arch ARCH       the probed architecture (default: this machine's)\n"
    "  --cc NAME         calling convention for C-type argument lists\n"
    "  --vars            list the variables visible at each site (perf probe "
    "-V)\n"
    "  --externs         with --vars, the globals of the unit too\n"
    "  --lines           list the probe-able lines of the function (perf "
    "probe -L)\n"
    "  --time            print the time taken to stderr\n"
    "  --stats           print how much debug info was read to stderr\n"
    "\n"
    "example: bpfprobe-resolve 'uprobe/./srv:handle(req->hdr.len, c->fd)'\n";

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

struct Options {
  FinderOptions Finder;
  std::string Arch, CallConv, Btf, BtfBase;
  enum { Plans, Vars, Lines } Mode = Plans;
  bool Time = false, Stats = false, Externs = false;
  std::vector<std::string> Specs;
};

/// A library hint in this tool's own options.
std::string hintWords(const Hint &H) {
  switch (H.Kind) {
  case Hint::None:
    return "";
  case Hint::DebugInfoPath:
    return "pass --debuginfo PATH";
  case Hint::DebugInfoOption:
    return "--debuginfo";
  case Hint::CallConv:
    return "pass --cc " + H.Payload;
  }
  return "";
}

/// "error: MESSAGE", the spec, and a caret line under the bytes of Range
/// (one '^' then '~' to its end), as bpfprobe-spec-dump and clang show it.
void reportAt(StringRef Spec, TextRange Range, StringRef Message,
              StringRef Severity = "error") {
  outs().flush();
  errs() << Severity << ": " << Message << '\n' << Spec << '\n';
  std::string Caret;
  unsigned End = std::max(Range.End, Range.Begin + 1);
  for (unsigned I = 0; I < End && I <= Spec.size(); ++I) {
    unsigned char C = I < Spec.size() ? Spec[I] : ' ';
    if ((C & 0xC0) == 0x80)
      continue; // UTF-8 continuation bytes take no column
    if (I < Range.Begin)
      Caret += C == '\t' ? '\t' : ' ';
    else
      Caret += I == Range.Begin ? '^' : '~';
  }
  errs() << Caret << '\n';
}

/// Reports any error of the library: with a caret when it points into the
/// spec (SpecError, ResolveError), else the message and the spec.
void report(StringRef Spec, Error E, TextRange Fallback) {
  handleAllErrors(
      std::move(E),
      [&](const SpecError &S) {
        reportAt(Spec, {S.offset(), S.offset() + 1}, S.text());
      },
      [&](const ResolveError &R) {
        reportAt(Spec, R.range(), R.render(hintWords));
        for (const std::string &N : R.notes())
          errs() << "note: " << N << '\n';
      },
      [&](const HintedError &H) {
        reportAt(Spec, Fallback, H.render(hintWords));
      },
      [&](const ErrorInfoBase &Other) {
        reportAt(Spec, Fallback, Other.message());
      });
}

class Resolver {
public:
  Resolver(const Options &Opts, const ArchABI &ABI)
      : Opts(Opts), ABI(ABI), DebugInfos(Opts.Finder) {}

  /// Resolves one spec and prints what the mode asks for; false after
  /// reporting an error.
  bool run(StringRef Text);

  double OpenMs = 0, ResolveMs = 0;
  /// The debug info each target resolved against, in first-use order.
  std::vector<DebugInfo *> Used;

private:
  const Options &Opts;
  const ArchABI &ABI;
  DebugInfoCache DebugInfos;
  /// Targets whose debug info could not be found: the message, repeated
  /// for each spec that names them.
  std::map<std::string, std::string> Missing;
  /// BTF opened so far by kernel module ("" = vmlinux); null after a
  /// failure.
  std::map<std::string, std::unique_ptr<BtfTypes>> Btfs;

  Expected<DebugInfo *> debugInfo(const ProbeSpec &Spec);
  const BtfTypes *btfFor(const std::string &Module, std::string &Why);
  void decideArgForms(ProbeSpec &Spec);
  Expected<std::vector<ArgInput>> inputs(const ProbeSpec &Spec);
  bool printPlans(const ProbeSpec &Spec);
  bool printVars(const ProbeSpec &Spec);
  bool printLines(const ProbeSpec &Spec);
};

Expected<DebugInfo *> Resolver::debugInfo(const ProbeSpec &Spec) {
  bool Kernel = !isUserProbe(Spec.Kind);
  std::string Key = (Kernel ? "kernel:" : "user:") + Spec.Binary;
  auto T0 = Clock::now();
  auto DI = DebugInfos.get(Spec.Binary, Kernel);
  OpenMs += msSince(T0);
  if (!DI) {
    std::string Msg;
    handleAllErrors(
        DI.takeError(), [&](const HintedError &H) { Msg = H.render(hintWords); },
        [&](const ErrorInfoBase &Other) { Msg = Other.message(); });
    Missing[Key] = Msg;
    return createStringError(inconvertibleErrorCode(), Msg);
  }
  if (!*DI)
    return createStringError(inconvertibleErrorCode(), Missing[Key]);
  if (!llvm::is_contained(Used, *DI))
    Used.push_back(*DI);
  return *DI;
}

const BtfTypes *Resolver::btfFor(const std::string &Module,
                                 std::string &Why) {
  auto It = Btfs.find(Module);
  if (It != Btfs.end() && It->second)
    return It->second.get();
  std::string Path = Opts.Btf, Base;
  if (Path.empty())
    Path = Module.empty() ? BtfTypes::KernelPath : "/sys/kernel/btf/" + Module;
  if (!Module.empty())
    Base = Opts.BtfBase.empty() ? BtfTypes::KernelPath : Opts.BtfBase;
  auto T0 = Clock::now();
  auto B = BtfTypes::open(Path, Base);
  OpenMs += msSince(T0);
  if (!B) {
    Why = toString(B.takeError());
    Btfs[Module] = nullptr;
    return nullptr;
  }
  return (Btfs[Module] = std::move(*B)).get();
}

/// A lone name is decided as the plugin decides it (decideArgForms),
/// without a translation unit to ask.
void Resolver::decideArgForms(ProbeSpec &Spec) {
  bpfprobe::decideArgForms(Spec, ABI, [](StringRef) { return false; });
}

/// The calling convention needs each argument's type: a C type names it;
/// an expression is read as its ':type' or a whole register.
Expected<std::vector<ArgInput>> Resolver::inputs(const ProbeSpec &Spec) {
  std::vector<ArgInput> Out;
  for (const ProbeArg &Arg : Spec.Args) {
    ArgInput In;
    // The names kprobe_events gives (argN for a type), as the plugin's
    // records name their values.
    In.ParamName = kprobeArgName(Arg.Text, Out.size() + 1,
                                 Arg.Form == ProbeArg::CType);
    if (Arg.Form == ProbeArg::CType) {
      auto T = classifyBuiltinCType(Arg.Type, ABI);
      if (!T)
        return T.takeError();
      if (!*T)
        return make_error<ResolveError>(
            Arg.Type.Range,
            "unknown type '" + Arg.Type.Text +
                "': bpfprobe-resolve knows built-in types, pointers and "
                "fixed-width typedefs (size_t, __u32, ...); a struct, union "
                "or enum by value needs the plugin, which sees its "
                "declaration");
      In.Type = **T;
    } else {
      In.Type = untypedArgType(Arg, ABI);
    }
    Out.push_back(std::move(In));
  }
  return Out;
}

/// The name of the probe's programs: its symbol, or for a file:line place
/// the function of the first site (perf names events the same way).
std::string probeName(const ProbeSpec &Spec, ArrayRef<SitePlan> Plans) {
  std::string Base = Spec.Place.Symbol;
  if (Base.empty() && !Plans.empty())
    Base = Plans.front().Symbol;
  for (char &C : Base)
    if (!isAlnum(C) && C != '_')
      C = '_';
  return Base.empty() ? "probe" : Base;
}

bool Resolver::printPlans(const ProbeSpec &Spec) {
  TextRange Whole{0, unsigned(Spec.Text.size())};
  std::vector<SitePlan> Plans;
  DebugInfoNeed Need = debugInfoNeed(Spec);
  DebugInfo *DI = nullptr;
  const BtfTypes *BTF = nullptr;
  bool Kernel = !isUserProbe(Spec.Kind);
  bool Trampoline = isTrampolineProbe(Spec.Kind);
  if (Need == DebugInfoNeed::Required && Kernel &&
      (Opts.Finder.ExplicitPath.empty() || Trampoline)) {
    // BTF when asked, or when the kernel's DWARF is not at hand; always
    // for fentry and fexit.
    if (Opts.Btf.empty() && !Trampoline) {
      auto T0 = Clock::now();
      DI = DebugInfos.find(Spec.Binary, true);
      OpenMs += msSince(T0);
    }
    std::string Why;
    if (!DI && !(BTF = btfFor(Spec.Binary, Why)) && !Opts.Btf.empty()) {
      report(Spec.Text,
             make_error<ResolveError>(Spec.KindRange, Why), Spec.KindRange);
      return false;
    }
    if (DI && !llvm::is_contained(Used, DI))
      Used.push_back(DI);
  }
  if (Need == DebugInfoNeed::Required && !DI && !BTF) {
    auto Found = debugInfo(Spec);
    if (!Found) {
      report(Spec.Text, Found.takeError(),
             isUserProbe(Spec.Kind) ? Spec.BinaryRange : Spec.KindRange);
      return false;
    }
    DI = *Found;
  } else if (Need == DebugInfoNeed::Optional) {
    auto T0 = Clock::now();
    DI = DebugInfos.find(Spec.Binary, !isUserProbe(Spec.Kind));
    OpenMs += msSince(T0);
    if (DI && !llvm::is_contained(Used, DI))
      Used.push_back(DI);
  }
  std::vector<ArgInput> In;
  if (Need != DebugInfoNeed::Required) {
    auto I = inputs(Spec);
    if (!I) {
      report(Spec.Text, I.takeError(), Whole);
      return false;
    }
    In = std::move(*I);
  }
  auto T0 = Clock::now();
  auto R = resolveProbe(Spec, In, ABI, DI, Opts.CallConv, BTF);
  ResolveMs += msSince(T0);
  if (!R) {
    report(Spec.Text, R.takeError(), Whole);
    return false;
  }
  for (const ResolveWarning &W : R->Warnings)
    reportAt(Spec.Text, W.Range, W.Message, "warning");
  Plans = std::move(R->Plans);
  // The arguments are named as kprobe_events does, like recording probes.
  if (R->FromBtf)
    outs() << "# from BTF: " << BTF->path() << "\n";
  if (R->FromDwarf || R->FromBtf)
    for (SitePlan &Plan : Plans)
      for (size_t I = 0; I < Plan.Args.size(); ++I)
        Plan.Args[I].Name = kprobeArgName(Spec.Args[I].Text, I + 1, false);
  std::string Base = probeName(Spec, Plans);
  for (size_t N = 0; N < Plans.size(); ++N) {
    Plans[N].Program = siteProgramName(Base, N);
    // A plan with DWARF arithmetic, selects or register pieces has no
    // kprobe_events spelling: say so on the line before it.
    if (!isKprobeRepresentable(Plans[N]))
      outs() << "# extended notation, not kprobe_events syntax "
                "(docs/how-it-works.md):\n";
    outs() << formatKprobeEvent(Plans[N], ABI) << '\n';
  }
  return true;
}

bool Resolver::printVars(const ProbeSpec &Spec) {
  auto DI = debugInfo(Spec);
  if (!DI) {
    report(Spec.Text, DI.takeError(),
           isUserProbe(Spec.Kind) ? Spec.BinaryRange : Spec.KindRange);
    return false;
  }
  auto T0 = Clock::now();
  auto Sites = listVariables(Spec, **DI, ABI);
  ResolveMs += msSince(T0);
  if (!Sites) {
    report(Spec.Text, Sites.takeError(), {0, unsigned(Spec.Text.size())});
    return false;
  }
  for (const SiteVariables &S : *Sites) {
    outs() << "Variables at " << S.Where << " ("
           << format_hex(S.Address, 2) << "):\n";
    size_t TypeW = 0;
    auto Shown = [&](const VisibleVariable &V) {
      return Opts.Externs || V.Kind != "global";
    };
    for (const VisibleVariable &V : S.Vars)
      if (Shown(V))
        TypeW = std::max(TypeW, V.Type.size());
    for (const VisibleVariable &V : S.Vars) {
      if (!Shown(V))
        continue;
      outs() << "  " << left_justify(V.Kind, 7) << left_justify(V.Type, TypeW)
             << "  " << V.Name;
      if (!V.Available)
        outs() << (V.Kind == "global" ? "  (no address in this unit)"
                                      : "  (optimized out here)");
      outs() << '\n';
    }
  }
  return true;
}

bool Resolver::printLines(const ProbeSpec &Spec) {
  const ProbePlace &P = Spec.Place;
  if (P.Form != ProbePlace::SymbolOffset || P.HasOffset ||
      Spec.HasArgList) {
    reportAt(Spec.Text,
             P.Form == ProbePlace::FileLine ? P.FileRange : P.SymbolRange,
             "--lines takes a function: 'uprobe/BINARY:FUNCTION' or "
             "'kprobe/FUNCTION', without an offset, line or arguments");
    return false;
  }
  auto DI = debugInfo(Spec);
  if (!DI) {
    report(Spec.Text, DI.takeError(),
           isUserProbe(Spec.Kind) ? Spec.BinaryRange : Spec.KindRange);
    return false;
  }
  auto T0 = Clock::now();
  auto Lines = listLines(P.Symbol, **DI);
  ResolveMs += msSince(T0);
  if (!Lines) {
    report(Spec.Text, Lines.takeError(), P.SymbolRange);
    return false;
  }
  // Like perf probe -L: the function's own lines numbered from its first
  // line, with their source text when the file is readable; lines of
  // functions inlined into it by file:line.
  std::string DeclFile;
  unsigned Decl = 0;
  for (const ProbeableLine &L : *Lines)
    if (L.Relative != ~0u) {
      DeclFile = L.File;
      Decl = L.Absolute - L.Relative;
      break;
    }
  outs() << "<" << P.Symbol << "@" << (DeclFile.empty() ? "?" : DeclFile)
         << ":" << Decl << ">\n";
  std::map<std::string, std::unique_ptr<MemoryBuffer>> Sources;
  auto SourceLine = [&](const std::string &File, unsigned Line) -> StringRef {
    auto It = Sources.find(File);
    if (It == Sources.end()) {
      auto Buf = MemoryBuffer::getFile(File);
      It = Sources.emplace(File, Buf ? std::move(*Buf) : nullptr).first;
    }
    if (!It->second || !Line)
      return "";
    StringRef Text = It->second->getBuffer();
    for (unsigned I = 1; I < Line && !Text.empty(); ++I)
      Text = Text.split('\n').second;
    return Text.split('\n').first;
  };
  for (const ProbeableLine &L : *Lines) {
    if (L.Relative == ~0u)
      continue;
    outs() << right_justify(std::to_string(L.Relative), 7) << "  "
           << right_justify(std::to_string(L.Absolute), 5) << "  "
           << SourceLine(L.File, L.Absolute) << '\n';
  }
  bool Header = false;
  for (const ProbeableLine &L : *Lines) {
    if (L.Relative != ~0u)
      continue;
    if (!Header)
      outs() << "inlined into " << P.Symbol << ":\n";
    Header = true;
    outs() << "      -  " << L.File << ":" << L.Absolute << "  "
           << SourceLine(L.File, L.Absolute) << '\n';
  }
  return true;
}

bool Resolver::run(StringRef Text) {
  auto T0 = Clock::now();
  auto Parsed = parseProbeSpec(Text);
  ResolveMs += msSince(T0);
  if (!Parsed) {
    report(Text, Parsed.takeError(), {0, unsigned(Text.size())});
    return false;
  }
  ProbeSpec &Spec = *Parsed;
  decideArgForms(Spec);
  switch (Opts.Mode) {
  case Options::Plans:
    return printPlans(Spec);
  case Options::Vars:
    return printVars(Spec);
  case Options::Lines:
    return printLines(Spec);
  }
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  auto Start = Clock::now();
  Options Opts;
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    auto Value = [&](StringRef Name, std::string &Out) {
      if (A == Name) {
        if (I + 1 >= Argc) {
          errs() << "bpfprobe-resolve: " << Name << " needs a value\n";
          exit(2);
        }
        Out = Argv[++I];
        return true;
      }
      if (A.consume_front((Name + "=").str())) {
        Out = A.str();
        return true;
      }
      return false;
    };
    if (Value("--debuginfo", Opts.Finder.ExplicitPath) ||
        Value("--btf", Opts.Btf) || Value("--btf-base", Opts.BtfBase) ||
        Value("--arch", Opts.Arch) || Value("--cc", Opts.CallConv))
      continue;
    if (A == "--plans" || A == "-D")
      Opts.Mode = Options::Plans;
    else if (A == "--vars" || A == "-V")
      Opts.Mode = Options::Vars;
    else if (A == "--lines" || A == "-L")
      Opts.Mode = Options::Lines;
    else if (A == "--externs")
      Opts.Externs = true;
    else if (A == "--time")
      Opts.Time = true;
    else if (A == "--stats")
      Opts.Stats = true;
    else if (A == "--help" || A == "-h") {
      outs() << Usage;
      return 0;
    } else if (A == "--")
      for (++I; I < Argc; ++I)
        Opts.Specs.push_back(Argv[I]);
    else if (A.starts_with("-") && A.size() > 1) {
      errs() << "bpfprobe-resolve: unknown option '" << A << "'\n" << Usage;
      return 2;
    } else
      Opts.Specs.push_back(A.str());
  }
  if (Opts.Specs.empty()) {
    errs() << Usage;
    return 2;
  }
  const ArchABI *ABI = Opts.Arch.empty() ? hostArch() : lookupArch(Opts.Arch);
  if (!ABI) {
    errs() << "bpfprobe-resolve: "
           << (Opts.Arch.empty() ? "cannot tell this machine's architecture"
                                 : "unknown architecture '" + Opts.Arch + "'")
           << "; pass --arch with one of " << archNames() << '\n';
    return 2;
  }

  // Never destroyed: like clang's -disable-free, leave the DWARF of a
  // kernel image to the OS instead of freeing it object by object.
  static Resolver *Kept = new Resolver(Opts, *ABI); // reachable: no leak
  Resolver &R = *Kept;
  bool OK = true;
  for (const std::string &Spec : Opts.Specs)
    OK &= R.run(Spec);
  outs().flush();
  if (Opts.Stats)
    for (DebugInfo *DI : R.Used) {
      auto Plural = [](unsigned N, StringRef One, StringRef Many) {
        return std::to_string(N) + " " + (N == 1 ? One : Many).str();
      };
      DwarfIndex &I = DI->index();
      errs() << "bpfprobe-resolve: " << DI->debugPath() << " ("
             << DI->foundBy()
             << "): " << Plural(I.unitsRead(), "compile unit", "compile units")
             << " read by address, "
             << Plural(I.contextLookups(), "look-up", "look-ups")
             << " through every unit header; DIE streams checked: "
             << Plural(I.check().wholeWalks(), "unit", "units") << " whole, "
             << Plural(I.check().unitDieWalks(), "unit DIE", "unit DIEs")
             << " alone\n";
    }
  if (Opts.Time)
    errs() << format("bpfprobe-resolve: %zu spec%s: debug info %.1f ms, "
                     "resolution %.1f ms, total %.1f ms\n",
                     Opts.Specs.size(), Opts.Specs.size() == 1 ? "" : "s",
                     R.OpenMs, R.ResolveMs, msSince(Start));
  return OK ? 0 : 1;
}
