//===- Plugin.cpp - libbpfprobe.so registration -------------------------===//
//
/// \file
/// Front-end registration, in libbpfprobe-frontend.so, which libbpfprobe.so
/// loads when it finds itself inside clang (Loader.cpp): a PluginASTAction
/// that runs before the main action (so one -fplugin is enough: it pushes
/// the IR pass onto the code generator's PassBuilder callbacks). The
/// `bpfprobe` attribute registers itself in ProbeAttr.cpp.
///
/// Usage: clang -target bpf -O2 -g -fplugin=libbpfprobe.so
///          [-fplugin-arg-bpfprobe-arch=x86_64]
///          [-fplugin-arg-bpfprobe-print-plan]
///          [-fplugin-arg-bpfprobe-entry-pairing=map] -c probe.bpf.c
//===----------------------------------------------------------------------===//

#include "BPFProbe.h"
#include "Target/ArchABI.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace bpfprobe {
namespace {

class BPFProbeAction : public PluginASTAction {
  PluginOptions Opts;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    // The wrapper pass must run before inlining, at -O0 as at -O2: the
    // pipeline-start extension point is invoked by both pipelines.
    // The plans the front end issues go to the pass through this table as
    // well as on the functions, so the pass can tell them from forgeries.
    auto Issued = std::make_shared<IssuedPlans>();
    bool MapOnly = Opts.EntryPairingMapOnly;
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
        [Issued, MapOnly](PassBuilder &PB) {
          PB.registerPipelineStartEPCallback(
              [Issued, MapOnly](ModulePassManager &MPM, OptimizationLevel) {
                MPM.addPass(WrapperPass(Issued, MapOnly));
              });
        });
    return createProbeConsumer(CI, Opts, Issued);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &A : Args) {
      StringRef S(A);
      if (S.consume_front("arch=")) {
        if (!lookupArch(S)) {
          D.Report(D.getCustomDiagID(
              DiagnosticsEngine::Error,
              "bpfprobe: unknown architecture '%0' in "
              "-fplugin-arg-bpfprobe-arch; known: %1"))
              << S << archNames();
          return false;
        }
        Opts.Arch = S.str();
      } else if (S.consume_front("debuginfo=")) {
        Opts.DebugInfo = S.str();
      } else if (S.consume_front("btf=")) {
        Opts.Btf = S.str();
      } else if (S.consume_front("btf-base=")) {
        Opts.BtfBase = S.str();
      } else if (S.consume_front("cc=")) {
        Opts.CallConv = S.str();
      } else if (S == "print-plan") {
        Opts.PrintPlan = true;
      } else if (S.consume_front("entry-pairing=")) {
        if (S != "map" && S != "auto") {
          D.Report(D.getCustomDiagID(
              DiagnosticsEngine::Error,
              "bpfprobe: unknown entry pairing '%0' in "
              "-fplugin-arg-bpfprobe-entry-pairing; expected 'auto' (a "
              "session program too, chosen at attach time) or 'map'"))
              << S;
          return false;
        }
        Opts.EntryPairingMapOnly = S == "map";
      } else {
        D.Report(D.getCustomDiagID(
            DiagnosticsEngine::Error,
            "bpfprobe: unknown plugin argument '%0'; expected arch=NAME, "
            "debuginfo=PATH, btf=PATH, btf-base=PATH, cc=NAME, "
            "entry-pairing=auto|map or print-plan"))
            << S;
        return false;
      }
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace
} // namespace bpfprobe

static FrontendPluginRegistry::Add<bpfprobe::BPFProbeAction>
    RegisterAction("bpfprobe", "synthesize BPF probe prologues");
