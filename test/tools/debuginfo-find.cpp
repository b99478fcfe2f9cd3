//===- debuginfo-find.cpp - Run the debug-info finder for lit tests ------===//
//
/// \file
/// usage: bpfprobe-debuginfo-find [--root DIR] [--debuginfo PATH]
///            [--no-debuginfod] [--debuginfod-client PROG]
///            [--debuginfod-cache DIR] [--kernel [--sysfs DIR] [--release R]]
///            [--symbol NAME]... [--addr ADDR]... TARGET
///
/// Calls findDebugInfo() for TARGET (a binary path; with --kernel "" or
/// "vmlinux" for the kernel, else a module name) and prints how the debug
/// info was found, its path and build-ids, then one line per --symbol (every
/// match, or "not found") and per --addr (the containing function). On
/// failure it prints `error: MESSAGE` to stdout and exits 1.
//===----------------------------------------------------------------------===//

#include "Resolve/DebugInfoFinder.h"
#include "Resolve/Resolver.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace bpfprobe;

static int usage() {
  errs() << "usage: bpfprobe-debuginfo-find [--root DIR] [--debuginfo PATH] "
            "[--no-debuginfod] [--debuginfod-client PROG] [--debuginfod-cache "
            "DIR] [--kernel [--sysfs "
            "DIR] [--release R]] [--symbol NAME]... [--addr ADDR]... "
            "TARGET\n";
  return 2;
}

int main(int Argc, char **Argv) {
  FinderOptions Opts;
  bool Kernel = false;
  std::vector<std::string> Symbols;
  std::vector<uint64_t> Addrs;
  std::optional<std::string> Target;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    auto Value = [&]() -> std::optional<std::string> {
      if (I + 1 >= Argc)
        return std::nullopt;
      return std::string(Argv[++I]);
    };
    std::optional<std::string> V;
    if (Arg == "--no-debuginfod") {
      Opts.UseDebuginfod = false;
    } else if (Arg == "--kernel") {
      Kernel = true;
    } else if (Arg == "--root" || Arg == "--debuginfo" ||
               Arg == "--debuginfod-client" || Arg == "--debuginfod-cache" ||
               Arg == "--sysfs" ||
               Arg == "--release" || Arg == "--symbol" || Arg == "--addr") {
      if (!(V = Value()))
        return usage();
      if (Arg == "--root")
        Opts.DebugRoot = *V;
      else if (Arg == "--debuginfo")
        Opts.ExplicitPath = *V;
      else if (Arg == "--debuginfod-client")
        Opts.DebuginfodClient = *V;
      else if (Arg == "--debuginfod-cache")
        Opts.DebuginfodCache = *V;
      else if (Arg == "--sysfs")
        Opts.SysfsRoot = *V;
      else if (Arg == "--release")
        Opts.KernelRelease = *V;
      else if (Arg == "--symbol")
        Symbols.push_back(*V);
      else {
        uint64_t A;
        if (StringRef(*V).getAsInteger(0, A))
          return usage();
        Addrs.push_back(A);
      }
    } else if (Arg.starts_with("--") || Target) {
      return usage();
    } else {
      Target = Arg.str();
    }
  }
  if (!Target && !Kernel)
    return usage();

  Expected<std::unique_ptr<DebugInfo>> DI =
      findDebugInfo(Target.value_or(""), Kernel, Opts);
  if (!DI) {
    // Hints in the plugin's words: this tool stands in for the plugin's
    // search.
    std::string Msg;
    handleAllErrors(
        DI.takeError(),
        [&](const HintedError &H) {
          Msg = H.render([](const Hint &K) -> std::string {
            if (K.Kind == Hint::DebugInfoOption)
              return "-fplugin-arg-bpfprobe-debuginfo";
            return "pass -fplugin-arg-bpfprobe-debuginfo=PATH";
          });
        },
        [&](const ErrorInfoBase &E) { Msg = E.message(); });
    outs() << "error: " << Msg << '\n';
    return 1;
  }
  DebugInfo &D = **DI;
  outs() << "found-by: " << D.foundBy() << '\n'
         << "target: " << D.targetPath() << '\n'
         << "debug-path: " << D.debugPath() << '\n'
         << "build-id: " << D.buildId() << '\n'
         << "target-build-id: " << D.targetBuildId() << '\n'
         << "symbols: " << D.symbolTable() << '\n';
  for (const std::string &Name : Symbols) {
    std::vector<ElfSymbol> Found = D.findSymbol(Name);
    if (Found.empty())
      outs() << "symbol " << Name << ": not found\n";
    for (const ElfSymbol &S : Found)
      outs() << "symbol " << Name << ": address " << format_hex(S.Address, 1)
             << " size " << S.Size << (S.IsFunction ? " function" : " object")
             << '\n';
  }
  for (uint64_t A : Addrs) {
    outs() << "addr " << format_hex(A, 1) << ": ";
    if (std::optional<ElfSymbol> S = D.symbolAt(A))
      outs() << S->Name << '+' << format_hex(A - S->Address, 1) << '\n';
    else
      outs() << "no function\n";
  }
  return 0;
}
