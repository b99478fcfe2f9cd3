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
/// the pass emits two programs and a map named after the return program:
/// \code
///   SEC("uprobe/./srv:handle") int on_ret__entry(struct pt_regs *ctx) {
///     u64 rec[2] = { faults, id_at_entry };     // the normal prologue
///     u64 key[2] = { bpf_get_current_pid_tgid(), ctx->sp };
///     bpf_map_update_elem(&bpfprobe_entry_on_ret, key, rec, BPF_ANY);
///     return 0;
///   }
///   SEC("uretprobe/./srv:handle") int on_ret(struct pt_regs *ctx) {
///     u64 rec[2] = {};
///     u64 key[2] = { bpf_get_current_pid_tgid(), ctx->sp - 8 };
///     u64 *r = bpf_map_lookup_elem(&bpfprobe_entry_on_ret, key);
///     if (!r) return 0;   // missed: a body is not called; a record
///                          // says <missed>
///     copy r to rec; bpf_map_delete_elem(&bpfprobe_entry_on_ret, key);
///     return body(ctx, ctx->ax, (unsigned)rec[1]);
///   }
/// \endcode
/// Pairing: kprobe/kretprobe and uprobe/uretprobe pairs key a call by its
/// task (the full pid_tgid) and its frame: the stack pointer at the entry,
/// which the return probe sees plus the return address the `ret` popped
/// (ArchABI::ReturnAddressBytes; 0 where the return address is in a link
/// register). Frames of calls in flight on one stack differ, so recursion
/// pairs each return with its own entry, and a return the kernel does not
/// deliver (uretprobe nesting past 64, kretprobe's maxactive exhausted)
/// only leaves a record nobody takes: it cannot shift other calls' values,
/// which a per-task depth counter would. fentry/fexit have no stack pointer
/// in their context; they pair by a per-task call depth (a second LRU hash,
/// pid_tgid to depth): the trampoline runs both programs for every call, so
/// the depth stays in step unless one program is skipped for recursion on
/// its CPU (the kernel counts that as a miss of the program).
///
/// Bounds: the maps are LRU hashes of EntryMapEntries entries, so entries
/// of calls that never return (the task exited or longjmp'd out, the return
/// was not delivered) are evicted, never an unbounded map; an entry a
/// return takes is deleted.
///
/// A return whose entry was not seen never gets a value made up: with no
/// record for its frame (the probes attached while the call was in flight
/// and the return was still delivered, or the map evicted the record) the
/// return is "missed": a recording probe writes its `@entry` slots as
/// missed (the runtime prints `entry_x=<missed>`), a probe body is not
/// called. (A kretprobe or uretprobe attached while a call is in flight
/// does not see that call's return at all: its return address was not
/// redirected at the entry.) The entry program is attached before its
/// return program (it comes first in the metadata), so calls that start
/// in between are seen at the entry and only miss their return.
///
/// Limits: a task that switches stacks (coroutines, sigaltstack) and
/// enters the function again at the very frame address of a call in flight
/// on the other stack overwrites that call's record.
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

/// fentry/fexit pairing: pops the task's depth into key word 1 and
/// branches to Look, or to Missed when the task has no depth.
void emitDepthPop(IRBuilder<> &B, const EntryMaps &Maps, Value *PidTgid,
                  AllocaInst *Key, BasicBlock *Look, BasicBlock *Missed) {
  LLVMContext &Ctx = B.getContext();
  Type *I64 = B.getInt64Ty();
  PointerType *PtrTy = PointerType::getUnqual(Ctx);
  Function *F = B.GetInsertBlock()->getParent();
  AllocaInst *Tid = entryAlloca(B, I64, "ret.tid");
  B.CreateStore(PidTgid, Tid);
  Value *D = callHelper(B, HelperMapLookupElem, PtrTy, {Maps.Depth, Tid});
  BasicBlock *Check = BasicBlock::Create(Ctx, "depth.check", F);
  BasicBlock *Pop = BasicBlock::Create(Ctx, "depth.pop", F);
  BasicBlock *Last = BasicBlock::Create(Ctx, "depth.last", F);
  BasicBlock *Inner = BasicBlock::Create(Ctx, "depth.inner", F);
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
}

} // namespace

Expected<EntryMaps> createEntryMaps(Module &M, StringRef Program,
                                    unsigned Words, bool ByDepth) {
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
  Maps.Values = *V;
  if (!ByDepth)
    return Maps;
  auto D = createMap(M, CU, ("bpfprobe_depth_" + Program).str(),
                     MapTypeLruHash, EntryMapEntries, 8, 8);
  if (!D)
    return D.takeError();
  Maps.Depth = *D;
  return Maps;
}

void emitEntrySave(IRBuilder<> &B, const EntryMaps &Maps, AllocaInst *Vals,
                   Value *Frame) {
  LLVMContext &Ctx = B.getContext();
  Type *I64 = B.getInt64Ty();
  PointerType *PtrTy = PointerType::getUnqual(Ctx);
  Function *F = B.GetInsertBlock()->getParent();
  AllocaInst *Key = entryAlloca(B, ArrayType::get(I64, 2), "entry.key");
  Value *PidTgid = callHelper(B, HelperGetCurrentPidTgid, I64, {});
  if (Frame) {
    B.CreateStore(PidTgid, B.CreateConstInBoundsGEP2_64(
                               Key->getAllocatedType(), Key, 0, 0));
    B.CreateStore(Frame, B.CreateConstInBoundsGEP2_64(Key->getAllocatedType(),
                                                       Key, 0, 1));
    callHelper(B, HelperMapUpdateElem, I64,
               {Maps.Values, Key, Vals, B.getInt64(0)});
    return;
  }
  AllocaInst *Tid = entryAlloca(B, I64, "entry.tid");
  AllocaInst *NewDepth = entryAlloca(B, I64, "entry.depth");
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

Value *emitEntryTake(IRBuilder<> &B, const EntryMaps &Maps, AllocaInst *Vals,
                     Value *Frame) {
  LLVMContext &Ctx = B.getContext();
  Type *I64 = B.getInt64Ty();
  PointerType *PtrTy = PointerType::getUnqual(Ctx);
  Function *F = B.GetInsertBlock()->getParent();
  Type *RecTy = Vals->getAllocatedType();
  AllocaInst *Key = entryAlloca(B, ArrayType::get(I64, 2), "ret.key");
  for (unsigned I = 0; I < Maps.Words; ++I)
    B.CreateStore(B.getInt64(0), B.CreateConstInBoundsGEP2_64(RecTy, Vals, 0, I));
  Value *PidTgid = callHelper(B, HelperGetCurrentPidTgid, I64, {});

  BasicBlock *Look = BasicBlock::Create(Ctx, "entry.look", F);
  BasicBlock *Copy = BasicBlock::Create(Ctx, "entry.copy", F);
  BasicBlock *Missed = BasicBlock::Create(Ctx, "entry.missed", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "entry.done", F);
  if (Frame) {
    B.CreateStore(PidTgid, B.CreateConstInBoundsGEP2_64(
                               Key->getAllocatedType(), Key, 0, 0));
    B.CreateStore(Frame, B.CreateConstInBoundsGEP2_64(Key->getAllocatedType(),
                                                       Key, 0, 1));
    B.CreateBr(Look);
  } else {
    emitDepthPop(B, Maps, PidTgid, Key, Look, Missed);
  }
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
