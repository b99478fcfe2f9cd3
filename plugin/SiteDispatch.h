//===- SiteDispatch.h - One BPF program for many copies of a site -*- C++ -*-===//
//
/// \file
/// Groups the sites of one probe body that can share a BPF program (every
/// inlined copy of a probed line) and builds that program: a dispatcher
/// that calls the site's own code by the BPF cookie it was attached with.
/// The design is in SiteDispatch.cpp.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLUGIN_SITEDISPATCH_H
#define BPFPROBE_PLUGIN_SITEDISPATCH_H

#include "Plan/FetchPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace bpfprobe {

/// At most this many sites share one dispatcher. Each site is a static
/// subprogram of it, and the kernel allows 256 subprograms per program
/// (BPF_MAX_SUBPROGS); and the verifier's rewrites (helper inlining, dead
/// code removal) each move the whole program, so loading costs grow with
/// the square of its size: 1,000 copies loaded in 0.86 s as 4 programs of
/// 250 and in 0.28 s as 32 programs of 32, whose 32 links attach in 19 ms.
constexpr unsigned MaxSitesPerDispatcher = 32;

/// Can \p Site share a program with its copies? A uprobe or uretprobe
/// without entry values (their entry programs and session programs keep
/// one program per site).
bool canDispatch(const SitePlan &Site);

/// Sets Dispatcher and Cookie on every site of \p Sites that shares a
/// program: sites of one kind and binary, two or more, in groups of at most
/// MaxSitesPerDispatcher, each dispatcher named after its first site
/// ("on_line__multi").
void assignDispatchers(std::vector<SitePlan> &Sites);

/// The dispatcher program: `int Name(struct pt_regs *ctx)` in \p Section
/// calling SiteFns[bpf_get_attach_cookie(ctx)] (cookie 0, and any cookie
/// out of range, is SiteFns[0]) and returning its result. \p Like gives its
/// attributes and debug info (the body the sites wrap).
llvm::Function *buildDispatcher(llvm::Module &M, llvm::StringRef Name,
                                llvm::StringRef Section,
                                llvm::ArrayRef<llvm::Function *> SiteFns,
                                llvm::Function &Like);

} // namespace bpfprobe

#endif
