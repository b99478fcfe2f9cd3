//===- WrapperPass.cpp - Synthesize BPF probe wrappers from fetch plans --===//
//
/// \file
/// The front end (ProbeAttr.cpp) leaves each probe body with a fetch plan in
/// an `annotate("bpfprobe.plan:...")` attribute. This module pass turns the
/// plan into code. For
/// \code
///   SEC("uprobe/./demo:add8(int, long, long, long, long, long, short, char *)")
///   int on_add8(struct pt_regs *ctx, int a, long b, long c, long d, long e,
///               long f, short g, char *s) { ... }
/// \endcode
/// the front end produced the plan
/// \code
///   p:on_add8 ./demo:add8 a=%di:s32 b=%si:s64 ... g=+8(%sp):s16 s=+16(%sp):x64
/// \endcode
/// and this pass rewrites the module to the equivalent of
/// \code
///   static __always_inline int __bpfprobe_body_on_add8(struct pt_regs *ctx,
///       int a, long b, ..., short g, char *s) { ... }      // the user's body
///
///   SEC("uprobe/./demo:add8")
///   int on_add8(struct pt_regs *ctx) {                      // the prologue
///     int a = (int)ctx->di;                                 // truncate, extend
///     long b = ctx->si;  ...
///     short g = 0; bpf_probe_read_user(&g, 2, (void *)(ctx->sp + 8));
///     unsigned long s = 0; bpf_probe_read_user(&s, 8, (void *)(ctx->sp + 16));
///     return __bpfprobe_body_on_add8(ctx, a, b, ..., g, (char *)s);
///   }
/// \endcode
/// The body becomes internal and always-inline (optnone/noinline that -O0
/// put on it are removed), so the BPF limit of five call arguments never
/// applies. The wrapper gets a DISubprogram with a named `ctx` parameter so
/// the BTF func info the kernel checks stays valid, and every site's plan is
/// recorded in the `.bpfprobe` section (docs/metadata.md). At -O0, loads of
/// libbpf's helper pointers (`static long (*bpf_x)(...) = (void *)N`) are
/// folded to the constant so the object is loadable without optimization.
/// Each memory read goes to its own stack slot, which the helper zeroes when
/// the read faults: a faulting read leaves the value 0. DWARF arithmetic,
/// comparisons and DW_OP_bra selects (FetchPlan.h) become plain BPF ALU
/// code; a division by zero gives 0 and, in a recording probe, sets the
/// argument's fault bit.
///
/// Usage: opt -load=libclang-cpp.so -load-pass-plugin=libbpfprobe.so
///            -passes=bpfprobe-wrapper in.ll
//===----------------------------------------------------------------------===//

#include "BPFProbe.h"
#include "CoreRelocation.h"
#include "EntryPairing.h"
#include "IRCompat.h"
#include "SiteDispatch.h"
#include "Plan/FetchPlan.h"
#include "Plan/Metadata.h"
#include "Target/ArchABI.h"
#include "bpfprobe/metadata.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <functional>
#include <optional>

using namespace llvm;

namespace bpfprobe {
namespace {

/// BPF helper ids (include/uapi/linux/bpf.h).
constexpr uint64_t HelperMapLookupElem = 1;
constexpr uint64_t HelperMapUpdateElem = 2;
constexpr uint64_t HelperGetCurrentPidTgid = 14;
constexpr uint64_t HelperProbeReadUser = 112;
constexpr uint64_t HelperProbeReadKernel = 113;
constexpr uint64_t HelperProbeReadUserStr = 114;
constexpr uint64_t HelperProbeReadKernelStr = 115;
constexpr uint64_t HelperRingbufReserve = 131;
constexpr uint64_t HelperRingbufSubmit = 132;

void diagnose(Module &M, const Twine &Msg) {
  // LLVMContext::emitError goes through diagnose(); clang prints it as an
  // error and fails the compilation.
  M.getContext().emitError("bpfprobe: " + Msg);
}

struct AnnotatedBody {
  Function *F;
  std::vector<SitePlan> Sites;
};

/// Pulls our entries out of llvm.global.annotations, leaving the others.
/// With Issued (inside clang), a plan the front end did not issue is
/// refused; every plan is parsed, which checks it.
std::vector<AnnotatedBody> takePlans(Module &M, const IssuedPlans *Issued,
                                     bool EntryPairingMapOnly, bool &Failed) {
  std::vector<AnnotatedBody> Bodies;
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return Bodies;
  auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return Bodies;
  std::vector<Constant *> Keep;
  SmallPtrSet<GlobalVariable *, 8> DeadStrings;
  for (Use &U : Arr->operands()) {
    auto *CS = dyn_cast<ConstantStruct>(U.get());
    Function *F = CS ? dyn_cast<Function>(CS->getOperand(0)->stripPointerCasts())
                     : nullptr;
    auto *StrGV = CS ? dyn_cast<GlobalVariable>(
                           CS->getOperand(1)->stripPointerCasts())
                     : nullptr;
    StringRef Str;
    if (StrGV && StrGV->hasInitializer())
      if (auto *CDA = dyn_cast<ConstantDataArray>(StrGV->getInitializer()))
        if (CDA->isCString())
          Str = CDA->getAsCString();
    StringRef Whole = Str;
    if (!F || !Str.consume_front(PlanAnnotationPrefix)) {
      Keep.push_back(cast<Constant>(U.get()));
      continue;
    }
    DeadStrings.insert(StrGV);
    if (Issued && !Issued->contains(Whole)) {
      diagnose(M, "a fetch plan on '" + F->getName() +
                      "' was not issued by the bpfprobe front end; the '" +
                      PlanAnnotationPrefix + "' annotation is reserved");
      Failed = true;
      continue;
    }
    auto Plan = parsePlan(Str);
    if (!Plan) {
      diagnose(M, "corrupt fetch plan on '" + F->getName() +
                      "': " + toString(Plan.takeError()));
      Failed = true;
      continue;
    }
    auto It = llvm::find_if(Bodies,
                            [&](const AnnotatedBody &B) { return B.F == F; });
    if (It == Bodies.end()) {
      Bodies.push_back({F, {}});
      It = std::prev(Bodies.end());
    }
    // A return probe's entry values: a session program too
    // (EntryPairing.cpp), unless entry-pairing=map.
    if (!EntryPairingMapOnly && !Plan->EntryProgram.empty() &&
        (Plan->Kind == "uretprobe" || Plan->Kind == "kretprobe"))
      Plan->SessionProgram = Plan->Program + "__session";
    It->Sites.push_back(std::move(*Plan));
  }
  if (Bodies.empty())
    return Bodies;
  if (Keep.empty()) {
    GA->eraseFromParent();
  } else {
    auto *Ty = ArrayType::get(Arr->getType()->getElementType(), Keep.size());
    auto *New = new GlobalVariable(M, Ty, GA->isConstant(), GA->getLinkage(),
                                   ConstantArray::get(Ty, Keep), "", GA,
                                   GA->getThreadLocalMode());
    New->setSection(GA->getSection());
    New->takeName(GA);
    GA->eraseFromParent();
  }
  for (GlobalVariable *G : DeadStrings)
    if (G->use_empty())
      G->eraseFromParent();
  return Bodies;
}

/// Removes F from llvm.used and llvm.compiler.used.
void dropFromUsedLists(Module &M, Function *F) {
  for (StringRef Name : {"llvm.used", "llvm.compiler.used"}) {
    GlobalVariable *GV = M.getNamedGlobal(Name);
    if (!GV || !GV->hasInitializer())
      continue;
    auto *Arr = dyn_cast<ConstantArray>(GV->getInitializer());
    if (!Arr)
      continue;
    std::vector<Constant *> Keep;
    for (Use &U : Arr->operands())
      if (U.get()->stripPointerCasts() != F)
        Keep.push_back(cast<Constant>(U.get()));
    if (Keep.size() == Arr->getNumOperands())
      continue;
    GV->eraseFromParent();
    if (Keep.empty())
      continue;
    auto *Ty = ArrayType::get(PointerType::getUnqual(M.getContext()),
                              Keep.size());
    auto *New = new GlobalVariable(M, Ty, false, GlobalValue::AppendingLinkage,
                                   ConstantArray::get(Ty, Keep), Name);
    New->setSection("llvm.metadata");
  }
}

/// At -O0 clang loads libbpf's helper pointers from their globals; the
/// verifier needs the constant in the call. Replace such loads.
void foldHelperPointerLoads(Module &M) {
  for (GlobalVariable &G : M.globals()) {
    if (!G.hasInitializer() || !G.hasLocalLinkage())
      continue;
    auto *CE = dyn_cast<ConstantExpr>(G.getInitializer());
    if (!CE || CE->getOpcode() != Instruction::IntToPtr)
      continue;
    bool OnlyLoads = llvm::all_of(G.users(), [&](User *U) {
      auto *LI = dyn_cast<LoadInst>(U);
      return LI && LI->getType() == CE->getType() && !LI->isVolatile();
    });
    if (!OnlyLoads)
      continue;
    for (User *U : make_early_inc_range(G.users())) {
      auto *LI = cast<LoadInst>(U);
      LI->replaceAllUsesWith(CE);
      LI->eraseFromParent();
    }
  }
}

/// Does the body provably never read parameter \p A? Its only uses are
/// stores of it into stack slots (clang's `%a.addr` before SROA) that are
/// only ever written: no load, no address taken, no call. Debug info
/// (dbg.declare, debug records) is no read; lifetime markers are none.
bool neverRead(Argument &A) {
  for (User *U : A.users()) {
    auto *S = dyn_cast<StoreInst>(U);
    if (!S || S->getValueOperand() != &A || S->isVolatile())
      return false;
    auto *Slot = dyn_cast<AllocaInst>(S->getPointerOperand());
    if (!Slot)
      return false;
    for (User *SU : Slot->users()) {
      if (auto *SI = dyn_cast<StoreInst>(SU);
          SI && SI->getPointerOperand() == Slot && SI->getValueOperand() != Slot &&
          !SI->isVolatile())
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(SU);
          II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      return false;
    }
  }
  return true;
}

/// Whether E reads a value an entry program saved (FetchExpr::EntrySlot).
bool hasEntrySlot(const FetchExpr &E);

/// Emits the prologue of one site into a new wrapper function.
class WrapperBuilder {
public:
  WrapperBuilder(Module &M, Function &Body, const SitePlan &Site,
                 const ArchABI &ABI, CoreRelocations *Core = nullptr)
      : M(M), Body(Body), Site(Site), ABI(ABI), Ctx(M.getContext()),
        B(Ctx), Core(Core) {}

  /// A return probe with `@entry(...)` values (EntryPairing.h): with
  /// Saves, this builds the entry program that saves them; without, the
  /// return program that takes them.
  void setEntry(const EntryMaps *Maps, bool Saves) {
    Entry = Maps;
    SavesEntry = Saves;
  }

  /// In a session program (EntryPairing.cpp): the entry run keeps the
  /// frame in the session cookie, the return run reads it from there.
  void setSession() { Session = true; }

  Function *build(Function *Wrapper) {
    return buildAt(Wrapper, BasicBlock::Create(Ctx, "entry", Wrapper));
  }

  /// Builds the prologue from \p EntryBB on (a session program's half).
  Function *buildAt(Function *Wrapper, BasicBlock *EntryBB) {
    B.SetInsertPoint(EntryBB);
    if (DILocation *L = debugLocation(Wrapper))
      B.SetCurrentDebugLocation(L);
    CtxArg = Wrapper->getArg(0);
    CtxArg->setName("ctx");

    if (Entry) {
      EntryVals = entryRecord();
      if (SavesEntry) {
        saveEntryValues();
        B.CreateRet(ConstantInt::get(Wrapper->getReturnType(), 0));
        return Wrapper;
      }
      EntryMissed = emitEntryTake(B, *Entry, EntryVals, entryFrame());
    }

    if (Site.Record) {
      emitRecord();
      B.CreateRet(B.CreateCall(&Body, {CtxArg}));
      return Wrapper;
    }
    if (EntryMissed && llvm::any_of(Site.Args, [](const ArgPlan &A) {
          return A.Expr->Kind == FetchExpr::EntrySlot;
        })) {
      // No value is made up for a missed `@entry(...)`: the body is not
      // called. (A DW_OP_entry_value inside a location is 0 then, as a
      // faulted read is.)
      BasicBlock *Skip = BasicBlock::Create(Ctx, "entry.skip", Wrapper);
      BasicBlock *Go = BasicBlock::Create(Ctx, "entry.go", Wrapper);
      B.CreateCondBr(EntryMissed, Skip, Go);
      B.SetInsertPoint(Skip);
      B.CreateRet(ConstantInt::get(Wrapper->getReturnType(), 0));
      B.SetInsertPoint(Go);
    }
    SmallVector<Value *, 16> Args{CtxArg};
    // An argument that is a memory read is loaded from its stack slot only
    // after all reads: the value then goes straight into its argument
    // register instead of being kept in a callee-saved one across the
    // other helper calls.
    SmallVector<std::pair<unsigned, AllocaInst *>, 8> Late;
    for (unsigned I = 0; I < Site.Args.size(); ++I) {
      const ArgPlan &A = Site.Args[I];
      // A value the body never reads is not fetched: its reads are helper
      // calls, which no later pass may delete.
      if (neverRead(*Body.getArg(I + 1))) {
        Args.push_back(Constant::getNullValue(Body.getArg(I + 1)->getType()));
        continue;
      }
      if (A.Type.Kind == ValueType::Aggregate) {
        Args.push_back(copyAggregate(*A.Expr, A.Type, A.Name));
        continue;
      }
      if (A.Expr->Kind == FetchExpr::Deref && A.Type.Kind != ValueType::String) {
        Late.push_back({I, readToSlot(eval(*A.Expr->Operand), A.Expr->Size)});
        Args.push_back(nullptr);
        continue;
      }
      Args.push_back(bindArg(I, eval(*A.Expr)));
    }
    for (auto [I, Slot] : Late)
      Args[I + 1] = bindArg(
          I, B.CreateZExtOrTrunc(B.CreateLoad(Slot->getAllocatedType(), Slot),
                                 i64()));
    CallInst *Call = B.CreateCall(&Body, Args);
    if (Body.getReturnType()->isVoidTy())
      B.CreateRet(ConstantInt::get(Wrapper->getReturnType(), 0));
    else
      B.CreateRet(Call);
    return Wrapper;
  }

private:
  Module &M;
  Function &Body;
  const SitePlan &Site;
  const ArchABI &ABI;
  LLVMContext &Ctx;
  IRBuilder<> B;
  Value *CtxArg = nullptr;
  /// i1: some read of the argument being built faulted (records report it).
  Value *Fault = nullptr;
  /// The 64-bit value of each register loaded so far, by index.
  DenseMap<unsigned, Value *> RegCache;
  /// Where CO-RE accesses (FetchExpr::Core) become relocations.
  CoreRelocations *Core;
  /// `@entry(...)`: the maps, whether this is the saving entry program,
  /// the record (fault word, then one word per value) and, in the return
  /// program, the i1 "the entry was missed".
  const EntryMaps *Entry = nullptr;
  bool SavesEntry = false;
  bool Session = false;
  AllocaInst *EntryVals = nullptr;
  Value *EntryMissed = nullptr;

  AllocaInst *entryRecord() {
    IRBuilderBase::InsertPointGuard G(B);
    BasicBlock &EB = B.GetInsertBlock()->getParent()->getEntryBlock();
    B.SetInsertPoint(&EB, EB.getFirstInsertionPt());
    AllocaInst *A = B.CreateAlloca(ArrayType::get(i64(), Entry->Words),
                                   nullptr, "entry.rec");
    A->setAlignment(Align(8));
    return A;
  }

  Value *entryWord(unsigned I) {
    return B.CreateConstInBoundsGEP2_64(EntryVals->getAllocatedType(),
                                        EntryVals, 0, I);
  }

  /// The entry program: every value with the normal prologue machinery,
  /// then saved per task and depth.
  void saveEntryValues() {
    Value *Faults = B.getInt64(0);
    for (unsigned I = 0; I < Site.Args.size(); ++I) {
      const ArgPlan &A = Site.Args[I];
      Fault = nullptr;
      Value *V = convert(eval(*A.Expr), A.Type, A.UserString, i64(), A.Name);
      B.CreateStore(V, entryWord(I + 1));
      if (Fault)
        Faults = B.CreateOr(Faults, B.CreateShl(B.CreateZExt(Fault, i64()), I));
    }
    B.CreateStore(Faults, entryWord(0));
    emitEntrySave(B, *Entry, EntryVals, entryFrame());
  }

  bool tracksFaults() const { return Site.Record || SavesEntry; }

  /// The key of one call for its entry and return programs: the stack
  /// pointer at the entry (at the return, the popped return address added
  /// back); null for trampolines, which pair by call depth.
  Value *entryFrame() {
    // A session program: the entry's stack pointer, kept in the call's
    // cookie for its return run (EntryPairing.cpp).
    if (Session) {
      Value *Cookie = emitSessionCall(B, SessionKfunc::Cookie);
      if (!SavesEntry)
        return B.CreateLoad(i64(), Cookie, "entry.sp");
      Value *SP = eval(*FetchExpr::reg(ABI.SPReg));
      B.CreateStore(SP, Cookie);
      return SP;
    }
    if (Site.Kind == "fentry" || Site.Kind == "fexit")
      return nullptr;
    // A site inside the function: its plan computes the entry's stack
    // pointer from the CFA.
    if (Site.EntryFrame && !SavesEntry)
      return eval(*Site.EntryFrame);
    Value *SP = eval(*FetchExpr::reg(ABI.SPReg));
    if (SavesEntry || !ABI.ReturnAddressBytes)
      return SP;
    return B.CreateSub(SP, B.getInt64(ABI.ReturnAddressBytes), "entry.sp");
  }

  /// A CO-RE bitfield (FetchExpr::Core), read as libbpf's
  /// BPF_CORE_READ_BITFIELD_PROBED reads one: the relocated number of bytes
  /// at the relocated offset into a zeroed u64, shifted left and right by
  /// relocated amounts. Null after a diagnostic.
  Value *coreBitfield(const FetchExpr &E) {
    const FetchExpr *Word = E.Operand.get();
    const FetchExpr *At = Word->Kind == FetchExpr::Deref ? Word->Operand.get()
                                                         : nullptr;
    if (!At || At->Kind != FetchExpr::Add || !At->Core.empty()) {
      diagnose(M, "probe '" + Site.Program + "': a CO-RE bitfield that is "
                  "not a read at a structure's offset");
      Core = nullptr;
      return nullptr;
    }
    Value *Base = eval(*At->Operand);
    auto R = Core->bitfield(B, E.Core, At->Value, Word->Size, E.BitOffset,
                            E.BitSize);
    if (!R) {
      diagnose(M, "probe '" + Site.Program + "': " +
                      toString(R.takeError()));
      Core = nullptr;
      return nullptr;
    }
    AllocaInst *Slot;
    {
      IRBuilderBase::InsertPointGuard G(B);
      BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
      B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
      Slot = B.CreateAlloca(i64(), nullptr, "bits");
      Slot->setAlignment(Align(8));
    }
    B.CreateStore(B.getInt64(0), Slot);
    uint64_t Helper = Site.Space == AddrSpace::User ? HelperProbeReadUser
                                                    : HelperProbeReadKernel;
    Value *Ret = callHelper(
        Helper, i64(),
        {Slot, B.CreateTrunc(R->ByteSize, B.getInt32Ty()),
         B.CreateIntToPtr(B.CreateAdd(Base, R->ByteOffset),
                          PointerType::getUnqual(Ctx))});
    noteFault(Ret);
    RegCache.clear();
    Value *V = B.CreateShl(B.CreateLoad(i64(), Slot), R->LShift);
    return E.SignExtend ? B.CreateAShr(V, R->RShift)
                        : B.CreateLShr(V, R->RShift);
  }

  /// The byte offset of an Add: a CO-RE relocation when it is one.
  Value *addend(const FetchExpr &E) {
    if (!E.Core.empty() && Core) {
      auto Off = Core->offset(B, E.Core, E.Value);
      if (Off)
        return *Off;
      diagnose(M, "probe '" + Site.Program + "': " +
                      toString(Off.takeError()));
      Core = nullptr; // one error per site
    }
    return ConstantInt::get(i64(), E.Value, true);
  }

  /// The body's argument I from its 64-bit value.
  Value *bindArg(unsigned I, Value *V) {
    const ArgPlan &A = Site.Args[I];
    if (A.Type.Kind == ValueType::String && A.Length) {
      AllocaInst *Buf;
      {
        IRBuilderBase::InsertPointGuard G(B);
        BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
        B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
        Buf = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), A.Type.Size),
                             nullptr, A.Name + ".str");
        Buf->setAlignment(Align(8));
      }
      copyCountedString(Buf, V, eval(*A.Length), A.Type, A.UserString);
      return Buf;
    }
    Value *Arg = convert(V, A.Type, A.UserString,
                         Body.getArg(I + 1)->getType(), A.Name);
    if (auto *Inst = dyn_cast<Instruction>(Arg); Inst && !Inst->hasName())
      Inst->setName(A.Name);
    return Arg;
  }

  void noteFault(Value *HelperRet) {
    if (!tracksFaults())
      return; // bodies get 0 for a faulted read (DESIGN.md section 5)
    noteFaultIf(B.CreateICmpSLT(HelperRet, B.getInt64(0)));
  }

  /// F (i1): the value being built is not available (a read faulted, a
  /// division by zero).
  void noteFaultIf(Value *F) {
    if (!tracksFaults())
      return;
    Fault = Fault ? B.CreateOr(Fault, F) : F;
  }

  DILocation *debugLocation(Function *Wrapper) {
    DISubprogram *SP = Wrapper->getSubprogram();
    return SP ? DILocation::get(Ctx, SP->getLine(), 0, SP) : nullptr;
  }

  Type *i64() { return B.getInt64Ty(); }

  /// A 64-bit value for a fetch expression.
  Value *eval(const FetchExpr &E) {
    switch (E.Kind) {
    case FetchExpr::Reg: {
      // Each register is loaded once where every later use sees it. The
      // load is volatile: LLVM would otherwise merge the loads of two
      // paths of a select into one load through a phi of pointers, and the
      // verifier accepts context reads only at a constant offset from ctx.
      if (Value *Cached = RegCache.lookup(E.RegIdx))
        return Cached;
      const RegInfo &R = ABI.reg(E.RegIdx);
      Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), CtxArg,
                                              R.PtRegsOffset, "");
      LoadInst *L = B.CreateLoad(B.getIntNTy(R.Size * 8), P, R.Name);
      L->setVolatile(true);
      Value *V = B.CreateZExtOrTrunc(L, i64());
      RegCache[E.RegIdx] = V;
      return V;
    }
    case FetchExpr::CtxSlot: {
      // A BPF trampoline's context is an array of 64-bit slots (the
      // verifier's btf_ctx_access allows exactly these loads).
      Value *P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), CtxArg,
                                              E.Value * 8, "");
      LoadInst *L = B.CreateLoad(i64(), P,
                                 E.TrampolineRet ? "retval" : "arg");
      L->setVolatile(true);
      return L;
    }
    case FetchExpr::Const:
      return ConstantInt::get(i64(), E.Value, /*IsSigned=*/true);
    case FetchExpr::EntrySlot: {
      // The value the entry program saved (validate() allows this only
      // in a return program with an entry program, as a whole argument).
      if (!EntryVals || SavesEntry)
        return ConstantInt::get(i64(), 0);
      // Its read faulted at the entry, or the entry was missed: no value
      // (a whole `@entry(...)` argument says <missed> in a record).
      if (tracksFaults())
        noteFaultIf(B.CreateOr(
            EntryMissed,
            B.CreateICmpNE(B.CreateAnd(B.CreateLoad(i64(), entryWord(0)),
                                       B.getInt64(1ull << E.Value)),
                           B.getInt64(0))));
      return B.CreateLoad(i64(), entryWord(E.Value + 1), "entry.val");
    }
    case FetchExpr::Add:
      return B.CreateAdd(eval(*E.Operand), addend(E));
    case FetchExpr::Deref:
      return B.CreateZExtOrTrunc(read(eval(*E.Operand), E.Size), i64());
    case FetchExpr::Pieces: {
      // A scalar in pieces (a 64-bit value in a 32-bit register pair): the
      // low bytes of each piece, placed at its offset in memory order.
      Value *V = ConstantInt::get(i64(), 0);
      unsigned Off = 0;
      for (size_t I = 0; I < E.Parts.size(); ++I) {
        unsigned Sz = E.PartSizes[I];
        Value *P = eval(*E.Parts[I]);
        if (Sz < 8)
          P = B.CreateAnd(P, (1ull << (Sz * 8)) - 1);
        unsigned Shift = ABI.LittleEndian ? Off : E.Size - Off - Sz;
        if (Shift && Shift < 8)
          P = B.CreateShl(P, Shift * 8);
        V = B.CreateOr(V, P);
        Off += Sz;
      }
      return V;
    }
    case FetchExpr::Bitfield: {
      if (!E.Core.empty() && Core)
        if (Value *V = coreBitfield(E))
          return V;
      // Move the field to the top of the word, then shift it down,
      // arithmetically for signed fields.
      Value *V = eval(*E.Operand);
      unsigned Top = 64 - E.BitOffset - E.BitSize;
      if (Top)
        V = B.CreateShl(V, Top);
      unsigned Down = 64 - E.BitSize;
      if (!Down)
        return V;
      return E.SignExtend ? B.CreateAShr(V, Down) : B.CreateLShr(V, Down);
    }
    case FetchExpr::Unary: {
      Value *V = eval(*E.Parts[0]);
      return E.Op == FetchExpr::Neg ? B.CreateNeg(V) : B.CreateNot(V);
    }
    case FetchExpr::Binary: {
      // Left operand first (C++ leaves argument order unspecified).
      Value *L = eval(*E.Parts[0]);
      Value *R = eval(*E.Parts[1]);
      return evalBinary(E.Op, L, R);
    }
    case FetchExpr::Select:
      return evalSelect(E);
    }
    return ConstantInt::get(i64(), 0);
  }

  /// A memory read, or a value an entry program saved (whose missed entry
  /// counts only on the path that takes it).
  static bool hasDeref(const FetchExpr &E) {
    return E.countDerefs() != 0 || hasEntrySlot(E);
  }

  /// DW_OP_bra's two paths. Arms that read no memory become a select;
  /// arms that do become a forward branch and a phi, so only the taken
  /// path's reads run (and count as faults).
  Value *evalSelect(const FetchExpr &E) {
    Value *C = B.CreateICmpNE(eval(*E.Parts[0]), B.getInt64(0));
    if (!hasDeref(*E.Parts[1]) && !hasDeref(*E.Parts[2])) {
      Value *T = eval(*E.Parts[1]);
      Value *F = eval(*E.Parts[2]);
      return B.CreateSelect(C, T, F);
    }
    Function *F = B.GetInsertBlock()->getParent();
    BasicBlock *Then = BasicBlock::Create(Ctx, "then", F);
    BasicBlock *Else = BasicBlock::Create(Ctx, "else", F);
    BasicBlock *Join = BasicBlock::Create(Ctx, "join", F);
    B.CreateCondBr(C, Then, Else);
    Value *FaultBefore = Fault;
    DenseMap<unsigned, Value *> CacheBefore = RegCache;
    auto Arm = [&](BasicBlock *BB, const FetchExpr &X, Value *&FaultOut) {
      B.SetInsertPoint(BB);
      Fault = FaultBefore;
      RegCache = CacheBefore; // loads in one arm do not dominate the other
      Value *V = eval(X);
      FaultOut = Fault ? Fault : B.getFalse();
      BB = B.GetInsertBlock();
      B.CreateBr(Join);
      return std::make_pair(V, BB);
    };
    Value *FT, *FE;
    auto [VT, BT] = Arm(Then, *E.Parts[1], FT);
    auto [VE, BE] = Arm(Else, *E.Parts[2], FE);
    B.SetInsertPoint(Join);
    RegCache = CacheBefore;
    PHINode *P = B.CreatePHI(i64(), 2);
    P->addIncoming(VT, BT);
    P->addIncoming(VE, BE);
    Fault = FaultBefore;
    if (FT != FE) {
      PHINode *PF = B.CreatePHI(B.getInt1Ty(), 2);
      PF->addIncoming(FT, BT);
      PF->addIncoming(FE, BE);
      Fault = PF;
    }
    return P;
  }

  /// |V| and whether V is negative, for signed division done unsigned
  /// (BPF before v4 has no signed division).
  std::pair<Value *, Value *> absAndSign(Value *V) {
    Value *Neg = B.CreateICmpSLT(V, B.getInt64(0));
    return {B.CreateSelect(Neg, B.CreateNeg(V), V), Neg};
  }

  /// Division and remainder: a zero divisor gives 0 and counts as a
  /// fault (docs/how-it-works.md); LLVM's udiv by zero would be undefined.
  Value *evalDivision(FetchExpr::OpTy Op, Value *L, Value *R) {
    auto *RC = dyn_cast<ConstantInt>(R);
    Value *Zero = nullptr;
    if (!RC || RC->isZero()) {
      Zero = B.CreateICmpEQ(R, B.getInt64(0));
      R = B.CreateSelect(Zero, B.getInt64(1), R);
    }
    Value *V;
    if (Op == FetchExpr::DivU) {
      V = B.CreateUDiv(L, R);
    } else if (Op == FetchExpr::ModU) {
      V = B.CreateURem(L, R);
    } else {
      auto [AL, NL] = absAndSign(L);
      auto [AR, NR] = absAndSign(R);
      if (Op == FetchExpr::DivS) {
        Value *Q = B.CreateUDiv(AL, AR);
        V = B.CreateSelect(B.CreateXor(NL, NR), B.CreateNeg(Q), Q);
      } else {
        Value *M = B.CreateURem(AL, AR);
        V = B.CreateSelect(NL, B.CreateNeg(M), M);
      }
    }
    if (!Zero)
      return V;
    noteFaultIf(Zero);
    return B.CreateSelect(Zero, B.getInt64(0), V);
  }

  /// Shifts by 64 or more give 0 (an arithmetic shift right: the sign),
  /// where LLVM would give poison.
  Value *evalShift(FetchExpr::OpTy Op, Value *L, Value *R) {
    if (auto *RC = dyn_cast<ConstantInt>(R)) {
      uint64_t N = RC->getZExtValue();
      if (Op == FetchExpr::ShrA)
        return B.CreateAShr(L, std::min<uint64_t>(N, 63));
      if (N >= 64)
        return B.getInt64(0);
      return Op == FetchExpr::Shl ? B.CreateShl(L, N) : B.CreateLShr(L, N);
    }
    Value *Big = B.CreateICmpUGE(R, B.getInt64(64));
    if (Op == FetchExpr::ShrA)
      return B.CreateAShr(L, B.CreateSelect(Big, B.getInt64(63), R));
    Value *Safe = B.CreateSelect(Big, B.getInt64(0), R);
    Value *V = Op == FetchExpr::Shl ? B.CreateShl(L, Safe)
                                    : B.CreateLShr(L, Safe);
    return B.CreateSelect(Big, B.getInt64(0), V);
  }

  Value *evalBinary(FetchExpr::OpTy Op, Value *L, Value *R) {
    auto Cmp = [&](CmpInst::Predicate P) {
      return B.CreateZExt(B.CreateICmp(P, L, R), i64());
    };
    switch (Op) {
    case FetchExpr::Plus: return B.CreateAdd(L, R);
    case FetchExpr::Minus: return B.CreateSub(L, R);
    case FetchExpr::Mul: return B.CreateMul(L, R);
    case FetchExpr::DivS:
    case FetchExpr::DivU:
    case FetchExpr::ModS:
    case FetchExpr::ModU:
      return evalDivision(Op, L, R);
    case FetchExpr::And: return B.CreateAnd(L, R);
    case FetchExpr::Or: return B.CreateOr(L, R);
    case FetchExpr::Xor: return B.CreateXor(L, R);
    case FetchExpr::Shl:
    case FetchExpr::ShrL:
    case FetchExpr::ShrA:
      return evalShift(Op, L, R);
    case FetchExpr::Eq: return Cmp(CmpInst::ICMP_EQ);
    case FetchExpr::Ne: return Cmp(CmpInst::ICMP_NE);
    case FetchExpr::LtS: return Cmp(CmpInst::ICMP_SLT);
    case FetchExpr::GtS: return Cmp(CmpInst::ICMP_SGT);
    case FetchExpr::LeS: return Cmp(CmpInst::ICMP_SLE);
    case FetchExpr::GeS: return Cmp(CmpInst::ICMP_SGE);
    case FetchExpr::LtU: return Cmp(CmpInst::ICMP_ULT);
    case FetchExpr::GtU: return Cmp(CmpInst::ICMP_UGT);
    case FetchExpr::LeU: return Cmp(CmpInst::ICMP_ULE);
    case FetchExpr::GeU: return Cmp(CmpInst::ICMP_UGE);
    case FetchExpr::Neg:
    case FetchExpr::Not:
      break;
    }
    return B.getInt64(0);
  }

  /// An aggregate passed by value, copied to a zeroed stack buffer whose
  /// address the body receives: register pieces are stored (their low
  /// bytes, in the target's byte order), memory is read with one helper
  /// call per contiguous piece.
  Value *copyAggregate(const FetchExpr &E, const ValueType &T,
                       StringRef Name) {
    AllocaInst *Buf;
    {
      IRBuilderBase::InsertPointGuard G(B);
      BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
      B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
      Buf = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), T.Size), nullptr,
                           Name + ".val");
      Buf->setAlignment(Align(8));
    }
    // Every byte is written: a register piece by a store, a memory piece
    // by the helper, which zeroes its destination when the read faults.
    fillAggregate(E, Buf, 0, T.Size);
    return Buf;
  }

  void fillAggregate(const FetchExpr &E, Value *Buf, unsigned Off,
                     unsigned Size) {
    if (E.Kind == FetchExpr::Pieces) {
      for (size_t I = 0; I < E.Parts.size(); ++I) {
        fillAggregate(*E.Parts[I], Buf, Off, E.PartSizes[I]);
        Off += E.PartSizes[I];
      }
      return;
    }
    Value *Dst = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Buf, Off);
    if (E.Kind == FetchExpr::Deref) {
      uint64_t Helper = Site.Space == AddrSpace::User ? HelperProbeReadUser
                                                      : HelperProbeReadKernel;
      callHelper(Helper, i64(),
                 {Dst, B.getInt32(Size),
                  B.CreateIntToPtr(eval(*E.Operand),
                                   PointerType::getUnqual(Ctx))});
      return;
    }
    Value *V = B.CreateTrunc(eval(E), B.getIntNTy(std::min(Size, 8u) * 8));
    B.CreateAlignedStore(V, Dst, Align(1));
  }

  /// Size bytes of memory at Addr through bpf_probe_read_{user,kernel},
  /// into a zeroed stack slot.
  Value *read(Value *Addr, unsigned Size) {
    AllocaInst *Slot = readToSlot(Addr, Size);
    return B.CreateLoad(Slot->getAllocatedType(), Slot);
  }

  /// The stack slot that Size bytes at Addr are read into.
  AllocaInst *readToSlot(Value *Addr, unsigned Size) {
    Type *Ty = B.getIntNTy(Size * 8);
    AllocaInst *Slot;
    {
      IRBuilderBase::InsertPointGuard G(B);
      BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
      B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
      Slot = B.CreateAlloca(Ty, nullptr, "slot");
      Slot->setAlignment(Align(8));
    }
    // No zeroing store: bpf_probe_read_{user,kernel} zero the destination
    // when the read faults, and the verifier accepts an uninitialized slot
    // as the helper's destination.
    uint64_t Helper = Site.Space == AddrSpace::User ? HelperProbeReadUser
                                                    : HelperProbeReadKernel;
    Value *Ret = callHelper(Helper, i64(),
                            {Slot, B.getInt32(Size),
                             B.CreateIntToPtr(Addr, PointerType::getUnqual(Ctx))});
    noteFault(Ret);
    // After a call, reloading a register from ctx costs what keeping it in
    // a callee-saved register would, and leaves those for values.
    RegCache.clear();
    return Slot;
  }

  Value *callHelper(uint64_t Id, Type *RetTy, ArrayRef<Value *> Args) {
    SmallVector<Type *, 4> Tys;
    for (Value *A : Args)
      Tys.push_back(A->getType());
    FunctionType *FT = FunctionType::get(RetTy, Tys, false);
    Value *Callee = ConstantExpr::getIntToPtr(ConstantInt::get(i64(), Id),
                                              PointerType::getUnqual(Ctx));
    return B.CreateCall(FT, Callee, Args);
  }

  /// Copies a NUL-terminated string at Addr into Dst (Size bytes, always
  /// terminated; an empty string if the read faults).
  /// Returns the helper's result: negative when the read faulted.
  ///
  /// A kprobe's `:string` is read as the kernel's own `string` fetch reads
  /// it (fetch_store_string): where user and kernel addresses do not
  /// overlap (x86_64: user addresses have the top bit clear), an address in
  /// the user half is read from user memory, so do_sys_openat2's
  /// `filename` shows the path. `:ustring` always reads user memory.
  Value *copyString(Value *Dst, Value *Addr, const ValueType &T,
                    bool UserString) {
    bool User = Site.Space == AddrSpace::User || UserString;
    // The helper writes at least the NUL, and zeroes Dst on a fault.
    Value *Ptr = B.CreateIntToPtr(Addr, PointerType::getUnqual(Ctx));
    auto Copy = [&](bool FromUser) {
      return callHelper(FromUser ? HelperProbeReadUserStr
                                 : HelperProbeReadKernelStr,
                        i64(), {Dst, B.getInt32(T.Size), Ptr});
    };
    if (User || Site.Arch != "x86_64")
      return Copy(User);
    Function *F = B.GetInsertBlock()->getParent();
    BasicBlock *FromUser = BasicBlock::Create(Ctx, "str.user", F);
    BasicBlock *FromKernel = BasicBlock::Create(Ctx, "str.kernel", F);
    BasicBlock *Done = BasicBlock::Create(Ctx, "str.done", F);
    B.CreateCondBr(B.CreateICmpSGE(Addr, ConstantInt::get(Addr->getType(), 0)),
                   FromUser, FromKernel);
    B.SetInsertPoint(FromUser);
    Value *U = Copy(true);
    B.CreateBr(Done);
    B.SetInsertPoint(FromKernel);
    Value *K = Copy(false);
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    PHINode *Ret = B.CreatePHI(i64(), 2);
    Ret->addIncoming(U, FromUser);
    Ret->addIncoming(K, FromKernel);
    return Ret;
  }

  /// Copies the Len bytes at Addr (a pointer-and-length string) into Dst,
  /// at most Size - 1 of them, NUL-terminated: Dst is zeroed first, so the
  /// bytes after the copy (and all of them if the read faults) are NUL.
  Value *copyCountedString(Value *Dst, Value *Addr, Value *Len,
                           const ValueType &T, bool UserString) {
    B.CreateMemSet(Dst, B.getInt8(0), T.Size, MaybeAlign(1));
    Value *Max = B.getInt64(T.Size - 1);
    Value *N = B.CreateSelect(B.CreateICmpUGT(Len, Max), Max, Len);
    bool User = Site.Space == AddrSpace::User || UserString;
    Value *Ptr = B.CreateIntToPtr(Addr, PointerType::getUnqual(Ctx));
    return callHelper(User ? HelperProbeReadUser : HelperProbeReadKernel,
                      i64(), {Dst, B.CreateTrunc(N, B.getInt32Ty()), Ptr});
  }

  /// The default body: one ring-buffer record per hit, laid out as
  /// struct bpfprobe_record_hdr and one slot per argument
  /// (include/bpfprobe/metadata.h).
  void emitRecord() {
    GlobalVariable *Map = M.getNamedGlobal(BPFPROBE_RECORDS_MAP);
    static_assert(sizeof(struct bpfprobe_record_ctx) == BPFPROBE_RECORD_CTX_SIZE,
                  "the record context is the size the metadata says");
    unsigned Size = sizeof(struct bpfprobe_record_hdr) + BPFPROBE_RECORD_CTX_SIZE;
    for (const ArgPlan &A : Site.Args)
      Size += A.Type.Kind != ValueType::String ? 8
              : A.Length ? BPFPROBE_RECORD_COUNTED_STR_LEN
                         : BPFPROBE_RECORD_STR_LEN;
    if (EntryMissed)
      Size += 8; // the missed-entry word (metadata.h)
    PointerType *PtrTy = PointerType::getUnqual(Ctx);
    Function *F = B.GetInsertBlock()->getParent();
    BasicBlock *Fill = BasicBlock::Create(Ctx, "fill", F);
    BasicBlock *Done = BasicBlock::Create(Ctx, "done", F);
    auto CtlField = [&](Value *Ctl, size_t Off) {
      return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctl, Off);
    };
    // The site's entry in the control map (metadata.h, bpfprobe_site_ctl):
    // a hit over the site's limit is skipped before it costs ring space, so
    // a busy site cannot push out a quiet site's first records.
    Value *Ctl = nullptr;
    Value *SubmitFlags = B.getInt64(0);
    if (GlobalVariable *Sites = M.getNamedGlobal(BPFPROBE_SITES_MAP)) {
      AllocaInst *Key;
      {
        IRBuilderBase::InsertPointGuard G(B);
        B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
        Key = B.CreateAlloca(B.getInt32Ty(), nullptr, "site.key");
      }
      B.CreateStore(B.getInt32(recordIdFor(Site.Program)), Key);
      Value *Found = callHelper(HelperMapLookupElem, PtrTy, {Sites, Key});
      BasicBlock *From = B.GetInsertBlock();
      BasicBlock *Check = BasicBlock::Create(Ctx, "site.check", F, Fill);
      BasicBlock *Count = BasicBlock::Create(Ctx, "site.count", F, Fill);
      BasicBlock *Reserve = BasicBlock::Create(Ctx, "reserve", F, Fill);
      B.CreateCondBr(B.CreateIsNull(Found), Reserve, Check);
      B.SetInsertPoint(Check);
      // BPFPROBE_SITE_SCOPED: a hit of a process outside the scope map is
      // counted in hits and filtered, before it is limited or costs ring
      // space (metadata.h).
      // The control struct as the object's header declares it: one from
      // before `filtered` (a copy of bpfprobe.h older than this plugin) has
      // no room for it, and the verifier would refuse the access.
      auto CtlSize = [&]() -> uint64_t {
        SmallVector<DIGlobalVariableExpression *, 1> GVEs;
        Sites->getDebugInfo(GVEs);
        for (DIGlobalVariableExpression *GVE : GVEs) {
          auto *MapTy = dyn_cast_or_null<DICompositeType>(
              GVE->getVariable()->getType());
          for (DINode *E : MapTy ? MapTy->getElements() : DINodeArray())
            if (auto *Member = dyn_cast<DIDerivedType>(E))
              if (Member->getName() == "value")
                if (auto *Ptr = dyn_cast_or_null<DIDerivedType>(Member->getBaseType()))
                  if (DIType *Ctl = Ptr->getBaseType())
                    return Ctl->getSizeInBits() / 8;
        }
        return sizeof(struct bpfprobe_site_ctl); // no debug info: ours
      };
      bool HasFiltered = CtlSize() >= offsetof(struct bpfprobe_site_ctl, filtered) +
                                          sizeof(uint64_t);
      GlobalVariable *Scope =
          HasFiltered ? M.getNamedGlobal(BPFPROBE_SCOPE_MAP) : nullptr;
      if (Scope) {
        BasicBlock *InScope = BasicBlock::Create(Ctx, "scope.check", F, Fill);
        BasicBlock *Filtered = BasicBlock::Create(Ctx, "scope.filtered", F, Fill);
        BasicBlock *Limited = BasicBlock::Create(Ctx, "site.limit", F, Fill);
        AllocaInst *Tgid;
        {
          IRBuilderBase::InsertPointGuard G(B);
          B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
          Tgid = B.CreateAlloca(B.getInt32Ty(), nullptr, "scope.key");
        }
        Value *Flags = B.CreateLoad(
            i64(), CtlField(Found, offsetof(struct bpfprobe_site_ctl, flags)));
        B.CreateCondBr(
            B.CreateICmpNE(B.CreateAnd(Flags, B.getInt64(BPFPROBE_SITE_SCOPED)),
                           B.getInt64(0)),
            InScope, Limited);
        B.SetInsertPoint(InScope);
        Value *PidTgid = callHelper(HelperGetCurrentPidTgid, i64(), {});
        B.CreateStore(B.CreateTrunc(B.CreateLShr(PidTgid, 32), B.getInt32Ty()),
                      Tgid);
        Value *Member = callHelper(HelperMapLookupElem, PtrTy, {Scope, Tgid});
        B.CreateCondBr(B.CreateIsNull(Member), Filtered, Limited);
        B.SetInsertPoint(Filtered);
        for (size_t Off : {offsetof(struct bpfprobe_site_ctl, hits),
                           offsetof(struct bpfprobe_site_ctl, filtered)})
          B.CreateAtomicRMW(AtomicRMWInst::Add, CtlField(Found, Off),
                            B.getInt64(1), MaybeAlign(8),
                            AtomicOrdering::Monotonic);
        B.CreateBr(Done);
        B.SetInsertPoint(Limited);
      }
      // The limit counts the hits in scope: hits - filtered.
      Value *Limit = B.CreateLoad(
          i64(), CtlField(Found, offsetof(struct bpfprobe_site_ctl, limit)));
      Value *Hits = B.CreateLoad(
          i64(), CtlField(Found, offsetof(struct bpfprobe_site_ctl, hits)));
      if (HasFiltered)
        Hits = B.CreateSub(
            Hits, B.CreateLoad(i64(), CtlField(Found, offsetof(struct bpfprobe_site_ctl,
                                                               filtered))));
      Value *Over = B.CreateAnd(B.CreateICmpNE(Limit, B.getInt64(0)),
                                B.CreateICmpUGE(Hits, Limit));
      B.CreateCondBr(Over, Done, Count);
      B.SetInsertPoint(Count);
      B.CreateAtomicRMW(AtomicRMWInst::Add,
                        CtlField(Found, offsetof(struct bpfprobe_site_ctl, hits)),
                        B.getInt64(1), MaybeAlign(8), AtomicOrdering::Monotonic);
      Value *Flags = B.CreateLoad(
          i64(), CtlField(Found, offsetof(struct bpfprobe_site_ctl, flags)));
      Value *Sf = B.CreateLoad(
          i64(),
          CtlField(Found, offsetof(struct bpfprobe_site_ctl, submit_flags)));
      BasicBlock *CountOnly = Done;
      GlobalVariable *Hist = M.getNamedGlobal(BPFPROBE_HIST_MAP);
      if (Hist && llvm::any_of(Site.Args, [](const ArgPlan &A) {
            return A.Type.Kind != ValueType::String &&
                   A.Type.Kind != ValueType::Aggregate;
          }))
        CountOnly = BasicBlock::Create(Ctx, "hist.check", F, Fill);
      B.CreateCondBr(
          B.CreateICmpNE(B.CreateAnd(Flags, B.getInt64(BPFPROBE_SITE_COUNT_ONLY)),
                         B.getInt64(0)),
          CountOnly, Reserve);
      if (CountOnly != Done) {
        B.SetInsertPoint(CountOnly);
        emitHist(Hist, Found, Flags, Done, Fill);
      }
      B.SetInsertPoint(Reserve);
      PHINode *CtlPhi = B.CreatePHI(PtrTy, 2, "site.ctl");
      CtlPhi->addIncoming(ConstantPointerNull::get(PtrTy), From);
      CtlPhi->addIncoming(Found, Count);
      PHINode *SfPhi = B.CreatePHI(i64(), 2, "submit.flags");
      SfPhi->addIncoming(B.getInt64(0), From);
      SfPhi->addIncoming(Sf, Count);
      Ctl = CtlPhi;
      SubmitFlags = SfPhi;
    }
    Value *Rec = callHelper(HelperRingbufReserve, PtrTy,
                            {Map, B.getInt64(Size), B.getInt64(0)});
    GlobalVariable *Lost = M.getNamedGlobal("bpfprobe_lost");
    if (Ctl) {
      // No room: count the loss on the site's own entry when it has one.
      BasicBlock *Full = BasicBlock::Create(Ctx, "full", F, Fill);
      B.CreateCondBr(B.CreateIsNull(Rec), Full, Fill);
      B.SetInsertPoint(Full);
      BasicBlock *SiteLost = BasicBlock::Create(Ctx, "site.lost", F, Fill);
      BasicBlock *MapLost = BasicBlock::Create(Ctx, "map.lost", F, Fill);
      B.CreateCondBr(B.CreateIsNull(Ctl), MapLost, SiteLost);
      B.SetInsertPoint(SiteLost);
      B.CreateAtomicRMW(AtomicRMWInst::Add,
                        CtlField(Ctl, offsetof(struct bpfprobe_site_ctl, lost)),
                        B.getInt64(1), MaybeAlign(8), AtomicOrdering::Monotonic);
      B.CreateBr(Done);
      B.SetInsertPoint(MapLost);
      if (Lost)
        emitMapLost(Lost, Fill, Done);
      else
        B.CreateBr(Done);
    } else if (Lost) {
      BasicBlock *Full = BasicBlock::Create(Ctx, "full", F, Fill);
      B.CreateCondBr(B.CreateIsNull(Rec), Full, Fill);
      B.SetInsertPoint(Full);
      emitMapLost(Lost, Fill, Done);
    } else {
      B.CreateCondBr(B.CreateIsNull(Rec), Done, Fill);
    }
    emitFill(Rec, SubmitFlags, Fill, Done);
  }

  /// --hist: with BPFPROBE_SITE_HIST set, adds one to the log2 bucket of
  /// the argument the site's control entry names (metadata.h). Each
  /// argument's value is computed on its own path; register loads are not
  /// shared with the record path, which these paths do not dominate.
  void emitHist(GlobalVariable *Hist, Value *Ctl, Value *Flags,
                BasicBlock *Done, BasicBlock *Before) {
    Function *F = B.GetInsertBlock()->getParent();
    PointerType *PtrTy = PointerType::getUnqual(Ctx);
    BasicBlock *Pick = BasicBlock::Create(Ctx, "hist.pick", F, Before);
    B.CreateCondBr(
        B.CreateICmpNE(B.CreateAnd(Flags, B.getInt64(BPFPROBE_SITE_HIST)),
                       B.getInt64(0)),
        Pick, Done);
    B.SetInsertPoint(Pick);
    Value *Which = B.CreateLoad(
        i64(), B.CreateConstInBoundsGEP1_64(
                   B.getInt8Ty(), Ctl, offsetof(struct bpfprobe_site_ctl, hist_arg)));
    // Every numeric argument is computed, then one is selected by value:
    // a branch per argument would let SimplifyCFG merge the arms' context
    // loads into one load through a phi of offsets, which the verifier
    // refuses (see eval()).
    RegCache.clear();
    Value *V = nullptr;
    for (unsigned I = 0; I < Site.Args.size(); ++I) {
      const ArgPlan &A = Site.Args[I];
      if (A.Type.Kind == ValueType::String || A.Type.Kind == ValueType::Aggregate)
        continue;
      Fault = nullptr;
      Value *X = convert(eval(*A.Expr), A.Type, A.UserString, i64(), A.Name);
      V = V ? B.CreateSelect(B.CreateICmpEQ(Which, B.getInt64(I)), X, V) : X;
    }
    RegCache.clear();
    Fault = nullptr;
    BasicBlock *Bucket = BasicBlock::Create(Ctx, "hist.bucket", F, Before);
    B.CreateBr(Bucket);
    // Bucket: 0 negative, 1 zero, else 2 + floor(log2 v).
    B.SetInsertPoint(Bucket);
    Function *Ctlz = intrinsicDecl(M, Intrinsic::ctlz, {i64()});
    Value *Log = B.CreateSub(B.getInt64(63), B.CreateCall(Ctlz, {V, B.getTrue()}));
    Value *Idx = B.CreateSelect(
        B.CreateICmpSLT(V, B.getInt64(0)), B.getInt64(0),
        B.CreateSelect(B.CreateICmpEQ(V, B.getInt64(0)), B.getInt64(1),
                       B.CreateAdd(Log, B.getInt64(2))));
    AllocaInst *Key, *One;
    {
      IRBuilderBase::InsertPointGuard G2(B);
      B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
      Key = B.CreateAlloca(i64(), nullptr, "hist.key");
      One = B.CreateAlloca(i64(), nullptr, "hist.one");
    }
    B.CreateStore(B.CreateOr(B.getInt64(uint64_t(recordIdFor(Site.Program)) << 32),
                             Idx),
                  Key);
    Value *Slot = callHelper(HelperMapLookupElem, PtrTy, {Hist, Key});
    BasicBlock *Add = BasicBlock::Create(Ctx, "hist.add", F, Before);
    BasicBlock *Insert = BasicBlock::Create(Ctx, "hist.insert", F, Before);
    B.CreateCondBr(B.CreateIsNull(Slot), Insert, Add);
    B.SetInsertPoint(Add);
    B.CreateAtomicRMW(AtomicRMWInst::Add, Slot, B.getInt64(1), MaybeAlign(8),
                      AtomicOrdering::Monotonic);
    B.CreateBr(Done);
    B.SetInsertPoint(Insert);
    // A racing CPU may insert first: then this hit is not counted (rare,
    // once per bucket), as BPF_NOEXIST keeps the other's count.
    B.CreateStore(B.getInt64(1), One);
    callHelper(HelperMapUpdateElem, i64(), {Hist, Key, One, B.getInt64(1)});
    B.CreateBr(Done);
  }

  /// Adds one to key 0 of the bpfprobe_lost map (a record without room).
  void emitMapLost(GlobalVariable *Lost, BasicBlock *Fill, BasicBlock *Done) {
    Function *F = B.GetInsertBlock()->getParent();
    PointerType *PtrTy = PointerType::getUnqual(Ctx);
    {
      AllocaInst *Key;
      {
        IRBuilderBase::InsertPointGuard G(B);
        B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
        Key = B.CreateAlloca(B.getInt32Ty(), nullptr, "lost.key");
      }
      B.CreateStore(B.getInt32(0), Key);
      Value *Slot = callHelper(HelperMapLookupElem, PtrTy, {Lost, Key});
      BasicBlock *Count = BasicBlock::Create(Ctx, "count", F, Fill);
      B.CreateCondBr(B.CreateIsNull(Slot), Done, Count);
      B.SetInsertPoint(Count);
      B.CreateAtomicRMW(AtomicRMWInst::Add, Slot, B.getInt64(1), MaybeAlign(8),
                        AtomicOrdering::Monotonic);
      B.CreateBr(Done);
    }
  }

  /// Fills and submits the reserved record \p Rec.
  void emitFill(Value *Rec, Value *SubmitFlags, BasicBlock *Fill,
                BasicBlock *Done) {
    B.SetInsertPoint(Fill);
    auto At = [&](unsigned Off) {
      return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, Off);
    };
    Value *PidTgid = callHelper(HelperGetCurrentPidTgid, i64(), {});
    B.CreateStore(B.getInt32(recordIdFor(Site.Program)), At(0));
    B.CreateStore(B.CreateTrunc(B.CreateLShr(PidTgid, 32), B.getInt32Ty()),
                  At(4));
    B.CreateStore(B.CreateTrunc(PidTgid, B.getInt32Ty()), At(8));
    B.CreateStore(B.getInt32(Site.Args.size() | BPFPROBE_RECORD_NARGS_CTX),
                  At(12));
    // The hit's context, after the header (struct bpfprobe_record_ctx; the
    // metadata's record_context key says it is there).
    constexpr uint64_t HelperKtimeGetNs = 5;
    constexpr uint64_t HelperGetSmpProcessorId = 8;
    constexpr uint64_t HelperGetCurrentComm = 16;
    unsigned CtxOff = sizeof(struct bpfprobe_record_hdr);
    B.CreateStore(callHelper(HelperKtimeGetNs, i64(), {}),
                  At(CtxOff + offsetof(struct bpfprobe_record_ctx, time_ns)));
    B.CreateStore(B.CreateTrunc(callHelper(HelperGetSmpProcessorId, i64(), {}),
                                B.getInt32Ty()),
                  At(CtxOff + offsetof(struct bpfprobe_record_ctx, cpu)));
    B.CreateStore(B.getInt32(0),
                  At(CtxOff + offsetof(struct bpfprobe_record_ctx, reserved)));
    constexpr unsigned CommLen = sizeof(((struct bpfprobe_record_ctx *)nullptr)->comm);
    Value *Comm = At(CtxOff + offsetof(struct bpfprobe_record_ctx, comm));
    // Zeroed first: the helper leaves the bytes as they were on failure.
    B.CreateMemSet(Comm, B.getInt8(0), CommLen, MaybeAlign(1));
    callHelper(HelperGetCurrentComm, i64(), {Comm, B.getInt32(CommLen)});
    // Bit I of the faults word: a read for argument I faulted.
    Value *Faults = B.getInt64(0);
    unsigned Off = sizeof(struct bpfprobe_record_hdr) + BPFPROBE_RECORD_CTX_SIZE;
    for (unsigned I = 0; I < Site.Args.size(); ++I) {
      const ArgPlan &A = Site.Args[I];
      Fault = nullptr;
      Value *V = eval(*A.Expr);
      if (A.Type.Kind == ValueType::String && A.Length) {
        Value *Len = eval(*A.Length);
        ValueType T = A.Type;
        T.Size = std::min<unsigned>(T.Size, BPFPROBE_RECORD_STR_LEN);
        noteFault(copyCountedString(At(Off), V, Len, T, A.UserString));
        // The whole length beside the bytes (metadata.h): a reader tells
        // a truncated string by it.
        B.CreateStore(Len, At(Off + BPFPROBE_RECORD_STR_LEN));
        Off += BPFPROBE_RECORD_COUNTED_STR_LEN;
      } else if (A.Type.Kind == ValueType::String) {
        noteFault(copyString(At(Off), V, A.Type, A.UserString));
        Off += BPFPROBE_RECORD_STR_LEN;
      } else {
        B.CreateStore(convert(V, A.Type, A.UserString, i64(), A.Name),
                      At(Off));
        Off += 8;
      }
      if (Fault && I < BPFPROBE_RECORD_MAX_ARGS)
        Faults = B.CreateOr(Faults, B.CreateShl(B.CreateZExt(Fault, i64()), I));
    }
    B.CreateStore(Faults, At(offsetof(struct bpfprobe_record_hdr, faults)));
    if (EntryMissed) {
      // Bit I: argument I is an entry value whose entry was not seen.
      uint64_t Mask = 0;
      for (unsigned I = 0; I < Site.Args.size() && I < 64; ++I)
        if (Site.Args[I].Expr->Kind == FetchExpr::EntrySlot)
          Mask |= 1ull << I;
      B.CreateStore(B.CreateSelect(EntryMissed, B.getInt64(Mask),
                                   B.getInt64(0)),
                    At(Off));
    }
    callHelper(HelperRingbufSubmit, B.getVoidTy(), {Rec, SubmitFlags});
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
  }

  /// Narrows the 64-bit value to its type, then extends it per the type's
  /// signedness to the body parameter's IR type. Strings are copied to the
  /// stack and passed by address.
  Value *convert(Value *V, const ValueType &T, bool UserString, Type *ParamTy,
                 StringRef Name) {
    if (T.Kind == ValueType::String) {
      AllocaInst *Buf;
      {
        IRBuilderBase::InsertPointGuard G(B);
        BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
        B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
        Buf = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), T.Size), nullptr,
                             Name + ".str");
        Buf->setAlignment(Align(8));
      }
      copyString(Buf, V, T, UserString);
      return Buf;
    }
    V = B.CreateTrunc(V, B.getIntNTy(T.Size * 8));
    if (T.Kind == ValueType::Bool)
      V = B.CreateZExt(B.CreateICmpNE(V, ConstantInt::get(V->getType(), 0)),
                       V->getType());
    if (ParamTy->isPointerTy())
      return B.CreateIntToPtr(B.CreateZExtOrTrunc(V, i64()), ParamTy, Name);
    unsigned Bits = ParamTy->getIntegerBitWidth();
    if (Bits == 1)
      return B.CreateICmpNE(V, ConstantInt::get(V->getType(), 0), Name);
    if (T.Signed && T.Kind == ValueType::Int)
      return B.CreateSExtOrTrunc(V, ParamTy, Name);
    return B.CreateZExtOrTrunc(V, ParamTy, Name);
  }
};

/// A DISubprogram for the wrapper: `int name(struct pt_regs *ctx)`, so the
/// BTF func info of the program has a prototype with a named argument.
/// With \p CtxTag (a site's static subprogram in a dispatcher,
/// SiteDispatch.cpp) the function is static in BTF too, so the verifier
/// walks it in its caller's state (a global one is checked alone, by its
/// BTF prototype, and `void *ctx` is no context there before Linux 6.8),
/// and `ctx` carries `btf_decl_tag("arg:ctx")` for kernels that check a
/// static subprogram's arguments by BTF as well.
void attachDebugInfo(Module &M, Function &Body, Function &Wrapper,
                     bool CtxTag = false) {
  DISubprogram *SP = Body.getSubprogram();
  if (!SP)
    return;
  DIBuilder DIB(M, /*AllowUnresolved=*/false, SP->getUnit());
  DITypeRefArray BodyTypes = SP->getType()->getTypeArray();
  Metadata *RetTy = BodyTypes.size() ? BodyTypes[0] : nullptr;
  DIType *CtxTy = BodyTypes.size() > 1 ? BodyTypes[1] : nullptr;
  DISubroutineType *FT = DIB.createSubroutineType(
      DIB.getOrCreateTypeArray({RetTy, CtxTy}));
  DISubprogram *WSP = DIB.createFunction(
      SP->getFile(), Wrapper.getName(), StringRef(), SP->getFile(),
      SP->getLine(), FT, SP->getScopeLine(),
      DINode::FlagPrototyped | DINode::FlagAllCallsDescribed,
      CtxTag ? DISubprogram::SPFlagDefinition | DISubprogram::SPFlagLocalToUnit
             : DISubprogram::SPFlagDefinition);
  DINodeArray Tags;
  if (CtxTag) {
    LLVMContext &C = M.getContext();
    Tags = DIB.getOrCreateArray({MDNode::get(
        C, {MDString::get(C, "btf_decl_tag"), MDString::get(C, "arg:ctx")})});
  }
  DIB.createParameterVariable(WSP, "ctx", 1, SP->getFile(), SP->getLine(),
                              CtxTy, /*AlwaysPreserve=*/true,
                              DINode::FlagZero, Tags);
  Wrapper.setSubprogram(WSP);
  // Only this subprogram: DIBuilder::finalize() would reset the lists of
  // the compile unit the front end filled.
  DIB.finalizeSubprogram(WSP);
}

bool hasEntrySlot(const FetchExpr &E) {
  if (E.Kind == FetchExpr::EntrySlot)
    return true;
  if (E.Operand && hasEntrySlot(*E.Operand))
    return true;
  return llvm::any_of(E.Parts, [](const auto &P) { return hasEntrySlot(*P); });
}

/// The entry program of a site with entry values (`@entry(...)` in a
/// return probe, DW_OP_entry_value read at the entry): the
/// same function and build, the entry kind and section, and as arguments
/// the entry-time expressions, in slot order.
SitePlan entrySitePlan(const SitePlan &Site) {
  SitePlan ES;
  ES.Program = Site.EntryProgram;
  ES.Body = Site.Body;
  ES.Section = Site.EntrySection;
  ES.Kind = Site.EntryKind;
  ES.Target = Site.Target;
  ES.Symbol = Site.Symbol;
  // The function's entry (a DW_OP_entry_value site is inside it).
  ES.Offset = 0;
  ES.Address = Site.Address >= Site.Offset ? Site.Address - Site.Offset : 0;
  ES.SymbolSize = Site.SymbolSize;
  ES.Arch = Site.Arch;
  ES.BuildId = Site.BuildId;
  ES.Source = Site.Source;
  ES.Spec = Site.Spec;
  ES.Space = Site.Space;
  ES.EntryOf = Site.Program;
  // Each slot: a whole `@entry(...)` argument keeps its type; a register a
  // DW_OP_entry_value names inside a location is saved whole.
  std::vector<ArgPlan> BySlot;
  std::function<void(const ArgPlan &, const FetchExpr &)> Walk =
      [&](const ArgPlan &A, const FetchExpr &E) {
        if (E.Kind != FetchExpr::EntrySlot) {
          if (E.Operand)
            Walk(A, *E.Operand);
          for (const auto &P : E.Parts)
            Walk(A, *P);
          return;
        }
        if (BySlot.size() <= size_t(E.Value))
          BySlot.resize(E.Value + 1);
        ArgPlan &P = BySlot[E.Value];
        P.Name = A.Name;
        P.Text = A.Text;
        if (&E == A.Expr.get()) {
          P.CType = A.CType;
          P.Type = A.Type;
        } else {
          P.Name += "_entry" + std::to_string(E.Value);
          P.Type.Kind = ValueType::Int;
          P.Type.Size = 8;
        }
        P.Expr = E.Operand->clone();
      };
  for (const ArgPlan &A : Site.Args) {
    Walk(A, *A.Expr);
    if (A.Length)
      Walk(A, *A.Length);
  }
  ES.Args = std::move(BySlot);
  return ES;
}

/// The plan arrived as text: check it (FetchPlan.h validate()) before
/// lowering, as a bitcode reader checks its records.
bool checkPlan(Module &M, Function &F, const SitePlan &Site) {
  const ArchABI *ABI = lookupArch(Site.Arch);
  if (!ABI) {
    diagnose(M, "unknown architecture '" + Site.Arch + "' in the plan of '" +
                    F.getName() + "'");
    return false;
  }
  if (Error E = validate(Site, *ABI)) {
    diagnose(M, "invalid fetch plan for probe '" + Site.Program +
                    "': " + toString(std::move(E)));
    return false;
  }
  return true;
}

bool checkSignature(Module &M, Function &F, const SitePlan &Site) {
  if (Site.Record) {
    if (!M.getNamedGlobal(BPFPROBE_RECORDS_MAP)) {
      diagnose(M, "recording probe '" + F.getName() + "' needs the '" +
                      BPFPROBE_RECORDS_MAP +
                      "' ring buffer map: declare the probe with "
                      "BPF_PROBE_RECORD from <bpfprobe/bpfprobe.h>");
      return false;
    }
    if (F.arg_size() != 1) {
      diagnose(M, "recording probe '" + F.getName() +
                      "' must take only the context");
      return false;
    }
    return true;
  }
  if (F.arg_size() != Site.Args.size() + 1 ||
      !F.getArg(0)->getType()->isPointerTy()) {
    diagnose(M, "probe body '" + F.getName() + "' takes " +
                    Twine(F.arg_size()) + " parameters; its plan needs " +
                    Twine(Site.Args.size() + 1) + " (context first)");
    return false;
  }
  for (unsigned I = 0; I < Site.Args.size(); ++I) {
    Type *T = F.getArg(I + 1)->getType();
    if (!T->isPointerTy() && !T->isIntegerTy()) {
      diagnose(M, "parameter " + Twine(I + 2) + " of '" + F.getName() +
                      "' is not an integer or pointer in IR");
      return false;
    }
  }
  if (!F.getReturnType()->isIntegerTy() && !F.getReturnType()->isVoidTy()) {
    diagnose(M, "probe body '" + F.getName() + "' must return an integer");
    return false;
  }
  return true;
}

} // namespace

PreservedAnalyses WrapperPass::run(Module &M, ModuleAnalysisManager &) {
  bool Failed = false;
  std::vector<AnnotatedBody> Bodies = takePlans(M, Issued.get(), EntryPairingMapOnly, Failed);
  if (Bodies.empty())
    return Failed ? PreservedAnalyses::none() : PreservedAnalyses::all();

  foldHelperPointerLoads(M);

  std::string Meta;
  SmallVector<GlobalValue *, 8> Wrappers;
  CoreRelocations Core(M);
  for (AnnotatedBody &AB : Bodies) {
    Function &F = *AB.F;
    bool OK = true;
    for (const SitePlan &S : AB.Sites)
      OK &= checkPlan(M, F, S) && checkSignature(M, F, S);
    if (!OK)
      continue;
    std::string Name = F.getName().str();
    Core.setUnoptimized(F.hasFnAttribute(Attribute::OptimizeNone));
    F.setName("__bpfprobe_body_" + Name);
    F.setLinkage(GlobalValue::InternalLinkage);
    F.setSection("");
    F.removeFnAttr(Attribute::NoInline);
    F.removeFnAttr(Attribute::OptimizeNone);
    F.addFnAttr(Attribute::AlwaysInline);
    dropFromUsedLists(M, &F);

    // Copies of one site share a program (SiteDispatch.cpp): each copy's
    // code becomes a static subprogram, called by cookie.
    assignDispatchers(AB.Sites);
    MapVector<StringRef, std::pair<StringRef, SmallVector<Function *, 8>>>
        Dispatchers;
    for (const SitePlan &Site : AB.Sites) {
      const ArchABI *ABI = lookupArch(Site.Arch);
      if (!ABI) {
        diagnose(M, "unknown architecture '" + Site.Arch + "' in plan");
        continue;
      }
      if (M.getFunction(Site.Program)) {
        diagnose(M, "cannot create probe program '" + Site.Program +
                        "': the name is taken");
        continue;
      }
      Type *RetTy = F.getReturnType()->isVoidTy() ? Type::getInt32Ty(M.getContext())
                                                  : F.getReturnType();
      FunctionType *WT = FunctionType::get(
          RetTy, {PointerType::getUnqual(M.getContext())}, false);
      auto MakeWrapper = [&](const SitePlan &S) {
        bool Shared = !S.Dispatcher.empty();
        Function *W = Function::Create(
            WT, Shared ? GlobalValue::InternalLinkage
                       : GlobalValue::ExternalLinkage,
            S.Program, M);
        if (!Shared)
          W->setSection(S.Section);
        // Target and frame attributes of the body, not its inlining ones.
        W->setAttributes(AttributeList::get(
            M.getContext(), AttributeList::FunctionIndex,
            AttrBuilder(M.getContext(), F.getAttributes().getFnAttrs())));
        W->removeFnAttr(Attribute::AlwaysInline);
        attachDebugInfo(M, F, *W, /*CtxTag=*/Shared);
        if (Shared) {
          W->addFnAttr(Attribute::NoInline);
          auto &D = Dispatchers[S.Dispatcher];
          if (D.second.empty())
            D.first = S.Section;
          D.second.push_back(W);
        }
        // Used (for a shared copy too: interprocedural constant
        // propagation would otherwise take its constant result into the
        // dispatcher and leave R0 unset at its exit, which the verifier
        // refuses).
        Wrappers.push_back(W);
        Meta += formatMetadataRecord(S, *ABI);
        return W;
      };
      // `@entry(...)`: the entry program that saves the values comes
      // first (EntryPairing.cpp).
      std::optional<EntryMaps> Maps;
      if (!Site.EntryProgram.empty()) {
        if (M.getFunction(Site.EntryProgram)) {
          diagnose(M, "cannot create probe program '" + Site.EntryProgram +
                          "': the name is taken");
          continue;
        }
        SitePlan ES = entrySitePlan(Site);
        auto Made = createEntryMaps(M, Site.Program, ES.Args.size() + 1,
                                    /*ByDepth=*/Site.Kind == "fexit");
        if (!Made) {
          diagnose(M, toString(Made.takeError()));
          continue;
        }
        Maps = *Made;
        WrapperBuilder EB(M, F, ES, *ABI, &Core);
        EB.setEntry(&*Maps, /*Saves=*/true);
        EB.build(MakeWrapper(ES));
      }
      WrapperBuilder WB(M, F, Site, *ABI, &Core);
      if (Maps)
        WB.setEntry(&*Maps, /*Saves=*/false);
      WB.build(MakeWrapper(Site));
      // A return probe's session program, loaded instead of the pair when
      // the kernel has session programs (EntryPairing.cpp). Not a site of
      // the metadata: the return site names it.
      if (Maps && !Site.SessionProgram.empty()) {
        if (M.getFunction(Site.SessionProgram)) {
          diagnose(M, "cannot create probe program '" + Site.SessionProgram +
                          "': the name is taken");
          continue;
        }
        Function *SW = Function::Create(WT, GlobalValue::ExternalLinkage,
                                        Site.SessionProgram, M);
        SW->setSection(Site.Space == AddrSpace::User ? "?uprobe" : "?kprobe");
        SW->setAttributes(AttributeList::get(
            M.getContext(), AttributeList::FunctionIndex,
            AttrBuilder(M.getContext(), F.getAttributes().getFnAttrs())));
        SW->removeFnAttr(Attribute::AlwaysInline);
        attachDebugInfo(M, F, *SW);
        Wrappers.push_back(SW);
        IRBuilder<> SB(BasicBlock::Create(M.getContext(), "entry", SW));
        if (DISubprogram *SP = SW->getSubprogram())
          SB.SetCurrentDebugLocation(
              DILocation::get(M.getContext(), SP->getLine(), 0, SP));
        BasicBlock *AtEntry =
            BasicBlock::Create(M.getContext(), "session.entry", SW);
        BasicBlock *AtReturn =
            BasicBlock::Create(M.getContext(), "session.return", SW);
        SB.CreateCondBr(emitSessionCall(SB, SessionKfunc::IsReturn), AtReturn,
                        AtEntry);
        SitePlan ES = entrySitePlan(Site);
        WrapperBuilder SE(M, F, ES, *ABI, &Core);
        SE.setEntry(&*Maps, /*Saves=*/true);
        SE.setSession();
        SE.buildAt(SW, AtEntry);
        WrapperBuilder SR(M, F, Site, *ABI, &Core);
        SR.setEntry(&*Maps, /*Saves=*/false);
        SR.setSession();
        SR.buildAt(SW, AtReturn);
      }
    }
    for (auto &[Name, D] : Dispatchers) {
      if (M.getFunction(Name)) {
        diagnose(M, "cannot create probe program '" + Name +
                        "': the name is taken");
        continue;
      }
      Wrappers.push_back(buildDispatcher(M, Name, D.first, D.second, F));
    }
  }

  if (Error E = Core.finalize())
    diagnose(M, toString(std::move(E)));
  if (!Meta.empty()) {
    Constant *Init = ConstantDataArray::getString(M.getContext(), Meta,
                                                  /*AddNull=*/false);
    auto *GV = new GlobalVariable(M, Init->getType(), true,
                                  GlobalValue::PrivateLinkage, Init,
                                  "__bpfprobe_metadata");
    GV->setSection(BPFPROBE_METADATA_SECTION);
    GV->setAlignment(Align(1));
    appendToCompilerUsed(M, {GV});
  }
  // llvm.compiler.used, as SEC()'s `used` gives: llvm.used would mark each
  // wrapper SHF_GNU_RETAIN in a section of its own, and two programs in
  // same-named sections confuse libbpf's per-section BTF func info.
  if (!Wrappers.empty())
    appendToCompilerUsed(M, Wrappers);
  return PreservedAnalyses::none();
}

} // namespace bpfprobe
