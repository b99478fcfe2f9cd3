//===- EntryPairing.cpp - Entry values handed to return probes -----------===//
//
/// \file
/// `@entry(expr)` in a return probe is the value of expr at the function's
/// entry. For
/// \code
///   SEC("uretprobe/./srv:handle($retval, @entry(req->id))")
///   int on_ret(struct pt_regs *ctx, long ret, unsigned id) { ... }
/// \endcode
/// the front end resolves `req->id` as a uprobe at `handle`'s entry and
/// the pass emits two programs (the maps are named after the return
/// program):
/// \code
///   SEC("uprobe/./srv:handle") int on_ret__entry(struct pt_regs *ctx) {
///     u64 rec[2] = { faults, id_at_entry };     // the normal prologue
///     u64 tid = bpf_get_current_pid_tgid();
///     u64 *d = bpf_map_lookup_elem(&bpfprobe_depth_on_ret, &tid);
///     u64 depth = d ? *d : 0, key[2] = { tid, depth };
///     bpf_map_update_elem(&bpfprobe_entry_on_ret, key, rec, BPF_ANY);
///     depth++; bpf_map_update_elem(&bpfprobe_depth_on_ret, &tid, &depth, 0);
///     return 0;
///   }
///   SEC("uretprobe/./srv:handle") int on_ret(struct pt_regs *ctx) {
///     u64 rec[2] = {}, tid = bpf_get_current_pid_tgid();
///     u64 *d = bpf_map_lookup_elem(&bpfprobe_depth_on_ret, &tid);
///     if (!d || !*d) goto missed;
///     u64 depth = *d - 1, key[2] = { tid, depth };
///     if (depth) *d = depth; else bpf_map_delete_elem(&..depth.., &tid);
///     u64 *r = bpf_map_lookup_elem(&bpfprobe_entry_on_ret, key);
///     if (!r) goto missed;
///     copy r to rec; bpf_map_delete_elem(&bpfprobe_entry_on_ret, key);
///     return body(ctx, ctx->ax, (unsigned)rec[1]);
///   missed:
///     return 0;        // a body is not called; a record says <missed>
///   }
/// \endcode
/// Pairing is per task (the full pid_tgid) and per call depth: a recursive
/// function's returns take the values of their own entries, innermost
/// first. Both maps are LRU hashes of EntryMapEntries entries, so a task
/// that exits (or longjmps out) in the middle of calls leaves entries that
/// are evicted, never an unbounded map; a depth that returns to 0 is
/// deleted, so a task that finishes its calls leaves nothing.
///
/// A return whose entry was not seen never gets a value made up: with no
/// depth (the probe was attached while the call was in flight, or the depth
/// was evicted) or no record at that depth (evicted), the return is
/// "missed": a recording probe writes its `@entry` slots as missed (the
/// runtime prints `@entry(x)=<missed>`), a probe body is not called.
///
/// Limits, by design:
///  - A return the kernel drops while a deeper call's return is not dropped
///    (kretprobe's maxactive exhausted; uretprobe nesting over 64) leaves
///    the depth one too high: later calls still pair with themselves (each
///    entry and return use the same counter), but an outer return that
///    outlives a dropped inner one takes the inner call's values. Session
///    programs (kprobe.session, uprobe.session) have no such window.
///  - A task id reused after a task exited mid-call starts at the depth the
///    old task left; its first returns pair with its own entries (the depth
///    goes up before it comes down), so values stay right.
//===----------------------------------------------------------------------===//

#include "EntryPairing.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace bpfprobe {

namespace {

/// BPF helper ids and map types (include/uapi/linux/bpf.h).
constexpr uint64_t HelperMapLookupElem = 1;
constexpr uint64_t HelperMapUpdateElem = 2;
constexpr uint64_t HelperMapDeleteElem = 3;
constexpr uint64_t HelperGetCurrentPidTgid = 14;
constexpr unsigned MapTypeLruHash = 9; // BPF_MAP_TYPE_LRU_HASH

Value *callHelper(IRBuilder<> &B, uint64_t Id, Type *RetTy,
                  ArrayRef<Value *> Args) {
  SmallVector<Type *, 4> Tys;
  for (Value *A : Args)
    Tys.push_back(A->getType());
  FunctionType *FT = FunctionType::get(RetTy, Tys, false);
  Value *Callee = ConstantExpr::getIntToPtr(
      ConstantInt::get(B.getInt64Ty(), Id),
      PointerType::getUnqual(B.getContext()));
  return B.CreateCall(FT, Callee, Args);
}

AllocaInst *entryAlloca(IRBuilder<> &B, Type *Ty, const Twine &Name) {
  IRBuilderBase::InsertPointGuard G(B);
  BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
  B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *A = B.CreateAlloca(Ty, nullptr, Name);
  A->setAlignment(Align(8));
  return A;
}

/// A BTF-defined map, as `struct { __uint(type, T); __uint(max_entries,
/// N); __uint(key_size, K); __uint(value_size, V); } Name SEC(".maps");`
/// would give: each __uint(x, n) is a member `int (*x)[n]`.
Expected<GlobalVariable *> createMap(Module &M, DICompileUnit *CU,
                                     StringRef Name, unsigned MapType,
                                     unsigned MaxEntries, unsigned KeySize,
                                     unsigned ValueSize) {
  if (M.getNamedValue(Name))
    return createStringError(inconvertibleErrorCode(),
                             "cannot create map '" + Name +
                                 "': the name is taken");
  LLVMContext &Ctx = M.getContext();
  DIBuilder DIB(M, /*AllowUnresolved=*/false, CU);
  DIFile *File = CU->getFile();
  DIBasicType *Int = DIB.createBasicType("int", 32, dwarf::DW_ATE_signed);
  SmallVector<Metadata *, 4> Members;
  const std::pair<const char *, unsigned> Fields[] = {
      {"type", MapType}, {"max_entries", MaxEntries}, {"key_size", KeySize},
      {"value_size", ValueSize}};
  uint64_t Off = 0;
  for (auto [FieldName, N] : Fields) {
    DICompositeType *Arr = DIB.createArrayType(
        uint64_t(N) * 32, 32, Int,
        DIB.getOrCreateArray({DIB.getOrCreateSubrange(0, int64_t(N))}));
    DIDerivedType *Ptr = DIB.createPointerType(Arr, 64);
    Members.push_back(DIB.createMemberType(File, FieldName, File, 0, 64, 64,
                                           Off, DINode::FlagZero, Ptr));
    Off += 64;
  }
  DICompositeType *StructTy = DIB.createStructType(
      File, "", File, 0, Off, 64, DINode::FlagZero, nullptr,
      DIB.getOrCreateArray(Members));
  Type *PtrTy = PointerType::getUnqual(Ctx);
  StructType *IRTy = StructType::get(Ctx, {PtrTy, PtrTy, PtrTy, PtrTy});
  auto *GV = new GlobalVariable(M, IRTy, /*isConstant=*/false,
                                GlobalValue::ExternalLinkage,
                                Constant::getNullValue(IRTy), Name);
  GV->setSection(".maps");
  GV->setAlignment(Align(8));
  GV->setDSOLocal(true);
  GV->addDebugInfo(DIB.createGlobalVariableExpression(
      CU, Name, "", File, 0, StructTy, /*IsLocalToUnit=*/false));
  return GV;
}

} // namespace

Expected<EntryMaps> createEntryMaps(Module &M, StringRef Program,
                                    unsigned Words) {
  if (M.debug_compile_units_begin() == M.debug_compile_units_end())
    return createStringError(
        inconvertibleErrorCode(),
        "'@entry(...)' in '" + Program +
            "' needs debug info (-g): its maps are defined in BTF");
  DICompileUnit *CU = *M.debug_compile_units_begin();
  EntryMaps Maps;
  Maps.Words = Words;
  auto V = createMap(M, CU, ("bpfprobe_entry_" + Program).str(),
                     MapTypeLruHash, EntryMapEntries, 16, Words * 8);
  if (!V)
    return V.takeError();
  auto D = createMap(M, CU, ("bpfprobe_depth_" + Program).str(),
                     MapTypeLruHash, EntryMapEntries, 8, 8);
  if (!D)
    return D.takeError();
  Maps.Values = *V;
  Maps.Depth = *D;
  return Maps;
}

void emitEntrySave(IRBuilder<> &B, const EntryMaps &Maps, AllocaInst *Vals) {
  LLVMContext &Ctx = B.getContext();
  Type *I64 = B.getInt64Ty();
  PointerType *PtrTy = PointerType::getUnqual(Ctx);
  Function *F = B.GetInsertBlock()->getParent();
  AllocaInst *Tid = entryAlloca(B, I64, "entry.tid");
  AllocaInst *Key = entryAlloca(B, ArrayType::get(I64, 2), "entry.key");
  AllocaInst *NewDepth = entryAlloca(B, I64, "entry.depth");
  Value *PidTgid = callHelper(B, HelperGetCurrentPidTgid, I64, {});
  B.CreateStore(PidTgid, Tid);
  Value *D = callHelper(B, HelperMapLookupElem, PtrTy, {Maps.Depth, Tid});
  BasicBlock *From = B.GetInsertBlock();
  BasicBlock *Have = BasicBlock::Create(Ctx, "depth.have", F);
  BasicBlock *Save = BasicBlock::Create(Ctx, "entry.save", F);
  B.CreateCondBr(B.CreateIsNull(D), Save, Have);
  B.SetInsertPoint(Have);
  Value *Cur = B.CreateLoad(I64, D, "depth");
  B.CreateBr(Save);
  B.SetInsertPoint(Save);
  PHINode *Depth = B.CreatePHI(I64, 2, "depth");
  Depth->addIncoming(B.getInt64(0), From);
  Depth->addIncoming(Cur, Have);
  B.CreateStore(PidTgid, B.CreateConstInBoundsGEP2_64(Key->getAllocatedType(),
                                                       Key, 0, 0));
  B.CreateStore(Depth, B.CreateConstInBoundsGEP2_64(Key->getAllocatedType(),
                                                     Key, 0, 1));
  callHelper(B, HelperMapUpdateElem, I64,
             {Maps.Values, Key, Vals, B.getInt64(0)});
  B.CreateStore(B.CreateAdd(Depth, B.getInt64(1)), NewDepth);
  callHelper(B, HelperMapUpdateElem, I64,
             {Maps.Depth, Tid, NewDepth, B.getInt64(0)});
}

Value *emitEntryTake(IRBuilder<> &B, const EntryMaps &Maps,
                     AllocaInst *Vals) {
  LLVMContext &Ctx = B.getContext();
  Type *I64 = B.getInt64Ty();
  PointerType *PtrTy = PointerType::getUnqual(Ctx);
  Function *F = B.GetInsertBlock()->getParent();
  Type *RecTy = Vals->getAllocatedType();
  AllocaInst *Tid = entryAlloca(B, I64, "ret.tid");
  AllocaInst *Key = entryAlloca(B, ArrayType::get(I64, 2), "ret.key");
  for (unsigned I = 0; I < Maps.Words; ++I)
    B.CreateStore(B.getInt64(0), B.CreateConstInBoundsGEP2_64(RecTy, Vals, 0, I));
  Value *PidTgid = callHelper(B, HelperGetCurrentPidTgid, I64, {});
  B.CreateStore(PidTgid, Tid);
  Value *D = callHelper(B, HelperMapLookupElem, PtrTy, {Maps.Depth, Tid});

  BasicBlock *Check = BasicBlock::Create(Ctx, "depth.check", F);
  BasicBlock *Pop = BasicBlock::Create(Ctx, "depth.pop", F);
  BasicBlock *Last = BasicBlock::Create(Ctx, "depth.last", F);
  BasicBlock *Inner = BasicBlock::Create(Ctx, "depth.inner", F);
  BasicBlock *Look = BasicBlock::Create(Ctx, "entry.look", F);
  BasicBlock *Copy = BasicBlock::Create(Ctx, "entry.copy", F);
  BasicBlock *Missed = BasicBlock::Create(Ctx, "entry.missed", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "entry.done", F);

  B.CreateCondBr(B.CreateIsNull(D), Missed, Check);
  B.SetInsertPoint(Check);
  Value *Cur = B.CreateLoad(I64, D, "depth");
  B.CreateCondBr(B.CreateICmpEQ(Cur, B.getInt64(0)), Missed, Pop);
  B.SetInsertPoint(Pop);
  Value *Depth = B.CreateSub(Cur, B.getInt64(1), "depth");
  B.CreateStore(PidTgid, B.CreateConstInBoundsGEP2_64(Key->getAllocatedType(),
                                                       Key, 0, 0));
  B.CreateStore(Depth, B.CreateConstInBoundsGEP2_64(Key->getAllocatedType(),
                                                     Key, 0, 1));
  B.CreateCondBr(B.CreateICmpEQ(Depth, B.getInt64(0)), Last, Inner);
  B.SetInsertPoint(Last);
  callHelper(B, HelperMapDeleteElem, I64, {Maps.Depth, Tid});
  B.CreateBr(Look);
  B.SetInsertPoint(Inner);
  B.CreateStore(Depth, D);
  B.CreateBr(Look);
  B.SetInsertPoint(Look);
  Value *R = callHelper(B, HelperMapLookupElem, PtrTy, {Maps.Values, Key});
  B.CreateCondBr(B.CreateIsNull(R), Missed, Copy);
  B.SetInsertPoint(Copy);
  for (unsigned I = 0; I < Maps.Words; ++I)
    B.CreateStore(
        B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(I64, R, I)),
        B.CreateConstInBoundsGEP2_64(RecTy, Vals, 0, I));
  callHelper(B, HelperMapDeleteElem, I64, {Maps.Values, Key});
  B.CreateBr(Done);
  B.SetInsertPoint(Missed);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *IsMissed = B.CreatePHI(B.getInt1Ty(), 2, "entry.missed");
  IsMissed->addIncoming(B.getFalse(), Copy);
  IsMissed->addIncoming(B.getTrue(), Missed);
  return IsMissed;
}

} // namespace bpfprobe
