//===- SiteDispatch.cpp - One BPF program for many copies of a site -----===//
//
/// \file
/// A line inlined into a thousand functions is a thousand sites, and each
/// copy has its own prologue (its values live in different registers and
/// stack slots), so the pass emitted a thousand programs, and the runtime
/// attached a thousand perf-event uprobes, one registration and one
/// unregistration (an RCU grace period) each: about 0.1 s per site. A
/// uprobe_multi link (Linux 6.6) attaches one program at many offsets of a
/// binary in one system call, each offset with a 64-bit cookie, and tears
/// them down with one synchronization. For
/// \code
///   BPF_PROBE_RECORD_NAMED(on_line, "uprobe/./srv:srv.c:42(x)");
/// \endcode
/// with copies in f and g the pass now emits
/// \code
///   static __noinline int on_line(struct pt_regs *ctx) { ... }    // copy 0
///   static __noinline int on_line__1(struct pt_regs *ctx) { ... } // copy 1
///
///   SEC("uprobe/./srv:srv.c:42")
///   int on_line__multi(struct pt_regs *ctx) {
///     switch (bpf_get_attach_cookie(ctx)) {
///     case 1: return on_line__1(ctx);
///     default: return on_line(ctx);
///     }
///   }
/// \endcode
/// Each site keeps its program name (now a static subprogram's) and so its
/// record_id and its records, byte for byte; the metadata adds
/// `dispatcher=on_line__multi` and `cookie=N` (docs/metadata.md). The
/// runtime attaches the dispatcher once per binary through a uprobe_multi
/// link, or, on older kernels, once per site as a perf-event uprobe with the
/// same cookie (lib/Runtime/MultiAttach.c).
///
/// Why static subprograms and not one function with every copy inlined:
/// LLVM's SimplifyCFG sinks code common to the switch's cases into one
/// block, turning each copy's constant `ctx` offsets into a phi of them,
/// and the verifier accepts context reads only at a constant offset. A
/// call is never sunk into an indirect call. The verifier walks each
/// static subprogram in its caller's state, once per call, so a
/// dispatcher costs the sum of its copies plus a binary search on the
/// cookie. A dispatcher takes at most MaxSitesPerDispatcher copies (the
/// kernel's limit of 256 subprograms per program, and load time, which
/// grows with the square of a program's size); more copies make more
/// dispatchers, one link each.
///
/// Left alone: sites with `@entry(...)` values (their entry program, return
/// program and session program stay one per site, EntryPairing.cpp), and
/// kernel sites (kprobe_multi attaches at function entries only, no
/// offsets, and a kernel line's copies are at offsets).
//===----------------------------------------------------------------------===//

#include "SiteDispatch.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace bpfprobe {

namespace {
/// BPF_FUNC_get_attach_cookie (include/uapi/linux/bpf.h).
constexpr uint64_t HelperGetAttachCookie = 174;
} // namespace

bool canDispatch(const SitePlan &Site) {
  return Site.Space == AddrSpace::User &&
         (Site.Kind == "uprobe" || Site.Kind == "uretprobe") &&
         Site.EntryProgram.empty() && Site.EntryOf.empty() &&
         Site.SessionProgram.empty();
}

void assignDispatchers(std::vector<SitePlan> &Sites) {
  // Kind and binary: one link attaches one program to one file, all
  // entries or all returns.
  StringMap<std::vector<SitePlan *>> Groups;
  std::vector<std::string> Order;
  for (SitePlan &S : Sites) {
    if (!canDispatch(S))
      continue;
    std::string Key = S.Kind + '\0' + S.Target;
    auto [It, New] = Groups.try_emplace(Key);
    if (New)
      Order.push_back(Key);
    It->second.push_back(&S);
  }
  for (const std::string &Key : Order) {
    std::vector<SitePlan *> &G = Groups[Key];
    if (G.size() < 2)
      continue;
    for (size_t First = 0; First < G.size(); First += MaxSitesPerDispatcher) {
      size_t End = std::min(G.size(), First + MaxSitesPerDispatcher);
      if (End - First < 2)
        break; // a last lone copy is its own program
      std::string Name = G[First]->Program + "__multi";
      for (size_t I = First; I < End; ++I) {
        G[I]->Dispatcher = Name;
        G[I]->Cookie = I - First;
      }
    }
  }
}

Function *buildDispatcher(Module &M, StringRef Name, StringRef Section,
                          ArrayRef<Function *> SiteFns, Function &Like) {
  LLVMContext &Ctx = M.getContext();
  FunctionType *FT = SiteFns.front()->getFunctionType();
  Function *D = Function::Create(FT, GlobalValue::ExternalLinkage, Name, M);
  D->setSection(Section);
  D->setAttributes(AttributeList::get(
      Ctx, AttributeList::FunctionIndex,
      AttrBuilder(Ctx, Like.getAttributes().getFnAttrs())));
  D->removeFnAttr(Attribute::AlwaysInline);
  D->removeFnAttr(Attribute::NoInline);
  D->removeFnAttr(Attribute::OptimizeNone);
  // BTF func info: `int Name(struct pt_regs *ctx)`, as the site's own.
  if (DISubprogram *SP = SiteFns.front()->getSubprogram()) {
    DIBuilder DIB(M, /*AllowUnresolved=*/false, SP->getUnit());
    DISubprogram *DSP = DIB.createFunction(
        SP->getFile(), Name, StringRef(), SP->getFile(), SP->getLine(),
        SP->getType(), SP->getScopeLine(),
        DINode::FlagPrototyped | DINode::FlagAllCallsDescribed,
        DISubprogram::SPFlagDefinition);
    DITypeRefArray Types = SP->getType()->getTypeArray();
    DIB.createParameterVariable(DSP, "ctx", 1, SP->getFile(), SP->getLine(),
                                Types.size() > 1 ? Types[1] : nullptr,
                                /*AlwaysPreserve=*/true);
    D->setSubprogram(DSP);
    DIB.finalizeSubprogram(DSP);
  }
  Argument *CtxArg = D->getArg(0);
  CtxArg->setName("ctx");
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", D));
  if (DISubprogram *DSP = D->getSubprogram())
    B.SetCurrentDebugLocation(DILocation::get(Ctx, DSP->getLine(), 0, DSP));
  FunctionType *HelperTy =
      FunctionType::get(B.getInt64Ty(), {PointerType::getUnqual(Ctx)}, false);
  Value *Cookie = B.CreateCall(
      HelperTy,
      ConstantExpr::getIntToPtr(B.getInt64(HelperGetAttachCookie),
                                PointerType::getUnqual(Ctx)),
      {CtxArg}, "cookie");
  auto Case = [&](Function *Site) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Site->getName(), D);
    IRBuilder<> CB(BB);
    CB.SetCurrentDebugLocation(B.getCurrentDebugLocation());
    CB.CreateRet(CB.CreateCall(Site, {CtxArg}));
    return BB;
  };
  SwitchInst *SW = B.CreateSwitch(Cookie, Case(SiteFns.front()),
                                  SiteFns.size() - 1);
  for (size_t I = 1; I < SiteFns.size(); ++I)
    SW->addCase(B.getInt64(I), Case(SiteFns[I]));
  return D;
}

} // namespace bpfprobe
