//===- BtfResolver.h - Kernel entry probes resolved through BTF -*- C++ -*-===//
//
/// \file
/// Resolution with BTF, the type information every current kernel carries
/// (`/sys/kernel/btf/vmlinux`): a kernel function's entry parameters by
/// name (its FUNC and FUNC_PROTO, placed by the architecture's kernel
/// calling convention), `$retval` typed by the prototype, and member,
/// element and dereference steps through BTF types (anonymous members,
/// bitfields, arrays, typedefs, modifiers, enums). BTF has no locations, so
/// only function entries (and returns) resolve; the sites are not pinned to
/// one kernel build (SitePlan::BuildId stays empty). fentry and fexit
/// probes resolve here only: their arguments are the BPF trampoline's
/// context slots (FetchExpr::CtxSlot), typed by the same prototype.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_BTFRESOLVER_H
#define BPFPROBE_RESOLVE_BTFRESOLVER_H

#include "Plan/FetchPlan.h"
#include "Spec/ProbeSpec.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

struct btf;

namespace bpfprobe {

struct ArchABI;

/// The BTF of a kernel (raw BTF like /sys/kernel/btf/vmlinux, or an ELF
/// file's `.BTF` section: a vmlinux image, a module over its base).
class BtfTypes {
public:
  /// The default kernel BTF.
  static constexpr const char *KernelPath = "/sys/kernel/btf/vmlinux";

  /// Opens Path; a module's BTF is split BTF over BasePath (non-empty).
  static llvm::Expected<std::unique_ptr<BtfTypes>>
  open(llvm::StringRef Path, llvm::StringRef BasePath = "");
  ~BtfTypes();

  struct btf *get() const { return Types; }
  const std::string &path() const { return Path; }

private:
  BtfTypes(struct btf *Types, struct btf *Base, std::string Path)
      : Types(Types), Base(Base), Path(std::move(Path)) {}
  struct btf *Types;
  struct btf *Base;
  std::string Path;
};

/// Resolves Spec (a kernel probe at a function's entry, or its return)
/// against BTF. Argument names in the plan are the argument texts; the
/// front end renames them after its parameters. Errors point into the
/// annotation: unknown functions, parameters and members with a
/// did-you-mean, a function BTF lacks (static or inlined: use DWARF), a
/// chain through a type BTF has no definition of.
llvm::Expected<SitePlan> resolveWithBtf(const ProbeSpec &Spec,
                                        const BtfTypes &BTF,
                                        const ArchABI &ABI);

} // namespace bpfprobe

#endif
