//===- BPFProbe.h - Pieces of libbpfprobe.so shared between files -*- C++ -*-//
//
/// \file
/// The plugin has three parts: registration (Plugin.cpp), the front end that
/// turns annotations into fetch plans (ProbeAttr.cpp) and the IR pass that
/// turns plans into wrapper functions (WrapperPass.cpp). This header is the
/// seam between them.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLUGIN_BPFPROBE_H
#define BPFPROBE_PLUGIN_BPFPROBE_H

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/PassManager.h"

#include <memory>
#include <string>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace bpfprobe {

/// -fplugin-arg-bpfprobe-* options.
struct PluginOptions {
  std::string Arch;      ///< arch=NAME
  std::string DebugInfo; ///< debuginfo=PATH
  /// btf=PATH: resolve kernel probes with this BTF (raw, or an ELF file's
  /// .BTF; a module's over BtfBase) instead of DWARF.
  std::string Btf;
  std::string BtfBase; ///< btf-base=PATH (default /sys/kernel/btf/vmlinux)
  bool PrintPlan = false; ///< print-plan
  /// cc=NAME: the calling convention to resolve by instead of the arch's
  /// kernel (kprobe) or user (uprobe) one: "regparm3", "cdecl", "kernel",
  /// "user", or a table's convention name.
  std::string CallConv;
  /// entry-pairing=map: a return probe's @entry values are paired through
  /// the map only; no session program is emitted, so the object references
  /// no session kfunc and loads without the kernel's BTF (libbpf resolves
  /// kfuncs against it).
  bool EntryPairingMapOnly = false;
};

/// The plan annotations (prefix included) the front end issued in this
/// compilation. Inside clang the pass lowers only these: the table lives in
/// the process, where no source text can add to it.
using IssuedPlans = llvm::StringSet<>;

/// The AST consumer that finds annotated functions, resolves their plans,
/// checks the binding against the body's parameters and attaches the plan
/// for the pass (recording it in Issued). Also installs the token watcher it
/// needs to point carets into SEC("...") strings.
std::unique_ptr<clang::ASTConsumer>
createProbeConsumer(clang::CompilerInstance &CI, const PluginOptions &Opts,
                    std::shared_ptr<IssuedPlans> Issued);

/// Synthesizes the wrapper functions and the .bpfprobe section from the
/// plans attached by the front end. With Issued (inside clang), a plan
/// annotation not in it is refused; without (opt), every plan in the module
/// is parsed and checked.
class WrapperPass : public llvm::PassInfoMixin<WrapperPass> {
public:
  WrapperPass() = default;
  explicit WrapperPass(std::shared_ptr<const IssuedPlans> Issued,
                       bool EntryPairingMapOnly = false)
      : Issued(std::move(Issued)), EntryPairingMapOnly(EntryPairingMapOnly) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::shared_ptr<const IssuedPlans> Issued;
  bool EntryPairingMapOnly = false;
};

/// Annotations whose name starts with this belong to the plugin; a
/// user-written one is an error (ProbeAttr.cpp).
constexpr const char *ReservedAnnotationPrefix = "bpfprobe.";
/// Name of the marker annotation the `bpfprobe` attribute leaves on a
/// function; its argument is the spec string literal.
constexpr const char *SpecAnnotation = "bpfprobe.spec";
/// The same for `bpfprobe_record`: a probe whose body the pass writes.
constexpr const char *RecordAnnotation = "bpfprobe.record";

} // namespace bpfprobe

#endif
