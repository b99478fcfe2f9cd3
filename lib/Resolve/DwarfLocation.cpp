//===- DwarfLocation.cpp - DWARF location expressions to fetch trees -----===//
//
/// \file
/// Evaluates a DWARF location expression symbolically at one PC: instead of
/// computing a number, each DW_OP builds a FetchExpr that the BPF prologue
/// will compute at run time from pt_regs and memory. Every operation whose
/// value is computable from registers and memory at the probe is supported:
/// registers (reg*, regx, breg*, bregx, fbreg, call_frame_cfa, regval_type),
/// literals and addresses, the stack operations, arithmetic, logic, shifts
/// and comparisons, bra/skip (forward only: both paths are evaluated and
/// joined by a select), deref/deref_size/deref_type, the integer typed
/// operations (convert, reinterpret, const_type), stack_value,
/// implicit_value, implicit_pointer, piece and bit_piece, and
/// entry_value of a register through the callers' call sites
/// (EntryValue.cpp). TLS, floating-point base types, loops and entry
/// values no call site gives are errors that name the operation: a value
/// we cannot prove is never guessed. Location lists are read as gdb reads
/// them (findLocationAt).
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfIndex.h"
#include "Resolve/DwarfInternal.h"
#include "Resolve/LLVMCompat.h"
#include "Support/Error.h"
#include "Target/ArchABI.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

char UnreadableLocationError::ID = 0;

static std::string opName(uint8_t Op) {
  StringRef N = dwarf::OperationEncodingString(Op);
  return N.empty() ? "DW_OP_0x" + utohexstr(Op) : N.str();
}

/// A register of the probe's frame, or of the frame the expression is
/// evaluated in (a caller's, for DW_OP_entry_value).
static Expected<std::unique_ptr<FetchExpr>>
regValue(unsigned DwarfReg, const LocationContext &Ctx) {
  if (Ctx.FrameRegister)
    return Ctx.FrameRegister(DwarfReg);
  const ArchABI &ABI = *Ctx.ABI;
  int Idx = ABI.findDwarfReg(DwarfReg);
  if (Idx < 0)
    return fail("the value is in DWARF register " + Twine(DwarfReg) +
                ", which struct pt_regs on " + ABI.Name + " does not hold");
  return FetchExpr::reg(Idx);
}

/// Finds the FDE covering PC in one frame section.
static const dwarf::FDE *findFDE(const DWARFDebugFrame &Frames, uint64_t PC) {
  for (const dwarf::FrameEntry &E : Frames.entries())
    if (const auto *F = dyn_cast<dwarf::FDE>(&E))
      if (PC >= F->getInitialLocation() &&
          PC < F->getInitialLocation() + F->getAddressRange())
        return F;
  return nullptr;
}

Expected<UnwindAt> unwindAt(const LocationContext &Ctx) {
  const dwarf::FDE *Fde = nullptr;
  // .debug_frame of the debug file (the kernel has only this), then the
  // binary's .eh_frame (a separate .debug file keeps it as NOBITS).
  for (DWARFContext *C : {Ctx.Dwarf, Ctx.TargetFrames}) {
    if (!C || Fde)
      continue;
    for (bool EH : {false, true}) {
      // The kernel's .debug_frame has ~60k FDEs: find the one wanted from
      // the index rather than parsing them all.
      if (!EH && C == Ctx.Dwarf && Ctx.Index)
        if (std::optional<const dwarf::FDE *> F =
                Ctx.Index->debugFrameFDE(Ctx.PC)) {
          if ((Fde = *F))
            break;
          continue;
        }
      auto Frames = EH ? C->getEHFrame() : C->getDebugFrame();
      if (!Frames) {
        consumeError(Frames.takeError());
        continue;
      }
      if ((Fde = findFDE(**Frames, Ctx.PC)))
        break;
    }
  }
  if (!Fde)
    return fail("no call frame information (.eh_frame or .debug_frame) "
                "covers address 0x" + utohexstr(Ctx.PC) +
                ", so its DW_OP_call_frame_cfa cannot be computed");
  auto Table = unwindTableFor(*Fde);
  if (!Table)
    return fail("cannot read the call frame information at 0x" +
                utohexstr(Ctx.PC) + ": " + toString(Table.takeError()));
  const dwarf::UnwindRow *Row = nullptr;
  for (const dwarf::UnwindRow &R : *Table)
    if (R.hasAddress() && R.getAddress() <= Ctx.PC)
      Row = &R;
  if (!Row)
    return fail("no unwind row covers address 0x" + utohexstr(Ctx.PC));
  const dwarf::UnwindLocation &CFA = Row->getCFAValue();
  if (CFA.getLocation() != dwarf::UnwindLocation::RegPlusOffset)
    return fail("the CFA at 0x" + utohexstr(Ctx.PC) +
                " is not a register plus an offset (a DWARF expression "
                "rule), which is not supported");
  auto Reg = regValue(CFA.getRegister(), Ctx);
  if (!Reg)
    return Reg.takeError();
  UnwindAt U;
  U.CFA = FetchExpr::add(std::move(*Reg), CFA.getOffset());
  dwarf::RegisterLocations Regs = Row->getRegisterLocations();
  U.RuleOf = [Regs](unsigned R) -> std::optional<UnwindAt::Rule> {
    std::optional<dwarf::UnwindLocation> L = Regs.getRegisterLocation(R);
    if (!L)
      return std::nullopt;
    UnwindAt::Rule Out;
    Out.Kind = L->getLocation();
    Out.Offset = L->getOffset();
    // LLVM 19 has no accessor for the dereference flag: compare with the
    // rule "at CFA + offset" (offset(N) in the CFI).
    Out.Deref = L->getLocation() == dwarf::UnwindLocation::CFAPlusOffset &&
                *L == dwarf::UnwindLocation::createAtCFAPlusOffset(
                          L->getOffset());
    if (L->getLocation() == dwarf::UnwindLocation::RegPlusOffset)
      Out.Reg = L->getRegister();
    return Out;
  };
  if (const dwarf::CIE *Cie = Fde->getLinkedCIE())
    U.ReturnAddressReg = Cie->getReturnAddressRegister();
  return std::move(U);
}

Expected<std::unique_ptr<FetchExpr>> cfaAt(const LocationContext &Ctx) {
  auto U = unwindAt(Ctx);
  if (!U)
    return U.takeError();
  return std::move(U->CFA);
}

std::optional<uint64_t> functionEntry(DWARFDie Subprogram) {
  if (!Subprogram)
    return std::nullopt;
  if (auto Low = dwarf::toAddress(Subprogram.find(dwarf::DW_AT_low_pc)))
    return *Low;
  if (auto R = Subprogram.getAddressRanges()) {
    if (!R->empty())
      return R->front().LowPC;
  } else {
    consumeError(R.takeError());
  }
  return std::nullopt;
}

const DWARFLocationExpression *
findLocationAt(ArrayRef<DWARFLocationExpression> Locs, uint64_t PC,
               std::optional<uint64_t> FunctionEntry) {
  for (const DWARFLocationExpression &L : Locs) {
    if (!L.Range)
      return &L;
    // gdb: an empty range at the function's entry pc is the value there
    // (view 0 of the entry address, before its first statement).
    if (L.Range->LowPC == L.Range->HighPC && L.Range->LowPC == PC &&
        FunctionEntry && *FunctionEntry == PC)
      return &L;
    if (PC >= L.Range->LowPC && PC < L.Range->HighPC)
      return &L;
  }
  return nullptr;
}

/// The frame base of the concrete subprogram at the PC, as a value.
static Expected<std::unique_ptr<FetchExpr>>
frameBase(const LocationContext &Ctx, unsigned Depth) {
  if (!Ctx.Subprogram)
    return fail("DW_OP_fbreg outside a subprogram");
  auto Locs = Ctx.Subprogram.getLocations(dwarf::DW_AT_frame_base);
  if (!Locs)
    return fail("the function has no usable DW_AT_frame_base: " +
                toString(Locs.takeError()));
  if (const DWARFLocationExpression *L =
          findLocationAt(*Locs, Ctx.PC, functionEntry(Ctx.Subprogram))) {
    auto FB = evaluateLocation(L->Expr, Ctx, Depth + 1);
    if (!FB)
      return FB.takeError();
    // Whether DWARF calls it a register location (DW_OP_reg6) or a memory
    // location (DW_OP_call_frame_cfa, DW_OP_breg7 8), the frame base is the
    // number the expression computed.
    if ((FB->Kind == Located::Memory || FB->Kind == Located::Value) && FB->Expr)
      return std::move(FB->Expr);
    return fail("the frame base is not a single value at this address");
  }
  return fail("the frame base is not available at address 0x" +
              utohexstr(Ctx.PC));
}

static Expected<Located> joinLocations(const FetchExpr &Cond, Located Yes,
                                       Located No);

namespace {

/// One entry of the DWARF expression stack: a FetchExpr and its DWARF type.
/// The 64-bit value of E is the value of the type extended per its
/// signedness; the generic type is an unsigned integer of the address size.
struct StackValue {
  std::unique_ptr<FetchExpr> E;
  unsigned Bits = 64;
  bool Signed = false;
  bool Generic = true;

  StackValue copy() const { return {E->clone(), Bits, Signed, Generic}; }
};

/// Everything the evaluation has built at one point of the expression:
/// forked at each DW_OP_bra whose condition is only known at run time.
struct EvalState {
  std::vector<StackValue> Stack;
  std::unique_ptr<FetchExpr> InRegister; ///< set by DW_OP_reg*
  bool IsValue = false;                  ///< DW_OP_stack_value
  bool SawPiece = false;
  Located Result; ///< the pieces so far
  /// DW_OP_implicit_pointer: the location is a pointer with no value.
  DWARFDie PointerTarget;
  int64_t PointerOffset = 0;
  bool IsImplicitPointer = false;
  /// DW_OP_implicit_value wider than a register: its bytes as pieces.
  std::unique_ptr<Located> WideValue;

  EvalState copy() const;
};

Located copyLocated(const Located &L) {
  Located C;
  C.Kind = L.Kind;
  C.Expr = L.Expr ? L.Expr->clone() : nullptr;
  for (const Located::Piece &P : L.Parts) {
    Located::Piece Q;
    Q.Size = P.Size;
    Q.BitSize = P.BitSize;
    Q.BitOffset = P.BitOffset;
    Q.Loc = std::make_unique<Located>(copyLocated(*P.Loc));
    C.Parts.push_back(std::move(Q));
  }
  C.Target = L.Target;
  C.ImplicitOffset = L.ImplicitOffset;
  return C;
}

EvalState EvalState::copy() const {
  EvalState S;
  for (const StackValue &V : Stack)
    S.Stack.push_back(V.copy());
  S.InRegister = InRegister ? InRegister->clone() : nullptr;
  S.IsValue = IsValue;
  S.SawPiece = SawPiece;
  S.Result = copyLocated(Result);
  S.PointerTarget = PointerTarget;
  S.PointerOffset = PointerOffset;
  S.IsImplicitPointer = IsImplicitPointer;
  if (WideValue)
    S.WideValue = std::make_unique<Located>(copyLocated(*WideValue));
  return S;
}

/// One decoded operation: its offsets in the expression, its code and
/// its raw operands (a block operand is the block's offset in the
/// expression).
struct DecodedOp {
  uint64_t Offset;
  uint64_t End;
  uint8_t Code;
  SmallVector<uint64_t, 3> Operands;
  uint64_t raw(unsigned I) const { return I < Operands.size() ? Operands[I] : 0; }
};

/// Limits that keep a hostile or huge expression from exploding: the
/// number of operations evaluated over all forked paths, and the number of
/// run-time DW_OP_bra forks on one path.
constexpr unsigned MaxEvaluatedOps = 2000;
constexpr unsigned MaxBranchForks = 6;

/// Evaluates a DWARF location expression symbolically: each operation
/// builds FetchExpr trees instead of computing numbers. Stack
/// manipulation (dup, over, pick, swap, rot, drop) moves and copies trees;
/// a DW_OP_bra on a run-time condition evaluates both paths to the end of
/// the expression and joins their results with a Select; backward branches
/// (loops) are refused.
/// The operations decodeManually() decodes whatever LLVM's decoder does.
static bool decodedManually(uint8_t Code) {
  switch (Code) {
  case dwarf::DW_OP_implicit_pointer:
  case 0xf2: // DW_OP_GNU_implicit_pointer
  case dwarf::DW_OP_const_type:
  case 0xf4: // DW_OP_GNU_const_type
  case dwarf::DW_OP_regval_type:
  case 0xf5: // DW_OP_GNU_regval_type
  case dwarf::DW_OP_deref_type:
  case 0xf6: // DW_OP_GNU_deref_type
    return true;
  default:
    return false;
  }
}

class LocationEvaluator {
public:
  LocationEvaluator(ArrayRef<uint8_t> Bytes, const LocationContext &Ctx,
                    unsigned Depth)
      : Bytes(Bytes), Ctx(Ctx), ABI(*Ctx.ABI), Depth(Depth) {}

  Expected<Located> run() {
    if (Error E = decode())
      return std::move(E);
    return runFrom(0, EvalState(), 0);
  }

private:
  ArrayRef<uint8_t> Bytes;
  const LocationContext &Ctx;
  const ArchABI &ABI;
  unsigned Depth;
  std::vector<DecodedOp> Ops;
  unsigned Evaluated = 0;

  Error decode();
  Expected<uint64_t> decodeManually(uint64_t Offset,
                                    std::optional<dwarf::DwarfFormat> F);
  Expected<Located> runFrom(size_t Index, EvalState S, unsigned Forks);
  /// Index of the operation at Offset (the end of the expression is
  /// Ops.size()), or an error for a branch into the middle of an operation.
  Expected<size_t> indexAt(uint64_t Offset);
  Expected<Located> branch(size_t Index, EvalState S, unsigned Forks);
  Error step(const DecodedOp &D, EvalState &S);
  Error entryValue(const DecodedOp &D, EvalState &S);
  Error wideImplicitValue(const DecodedOp &D, EvalState &S);
  Error pushLiteral(const DecodedOp &D, EvalState &S, bool &Done);
  Error pushRegister(const DecodedOp &D, EvalState &S, bool &Done);
  Error stackOp(const DecodedOp &D, EvalState &S, bool &Done);
  Error arithmetic(uint8_t Code, EvalState &S, bool &Done);
  Error memoryOp(const DecodedOp &D, EvalState &S, bool &Done);
  Error typedOp(const DecodedOp &D, EvalState &S, bool &Done);
  Error compositionOp(const DecodedOp &D, EvalState &S, bool &Done);
  Expected<Located> finish(EvalState &S);

  StackValue generic(std::unique_ptr<FetchExpr> E) const {
    return {std::move(E), Ctx.AddrSize * 8u, false, true};
  }
  Expected<StackValue> pop(EvalState &S) {
    if (S.Stack.empty())
      return fail("malformed DWARF expression: stack underflow");
    StackValue V = std::move(S.Stack.back());
    S.Stack.pop_back();
    return std::move(V);
  }
  Expected<StackValue> baseType(uint64_t CUOffset, StringRef OpName);
  Expected<std::unique_ptr<FetchExpr>> blockConstant(uint64_t Off,
                                                     uint64_t Len,
                                                     StringRef OpName);
};

Error LocationEvaluator::decode() {
  std::optional<dwarf::DwarfFormat> Format;
  if (Ctx.Unit)
    Format = Ctx.Unit->getFormParams().Format;
  // LLVM's decoder stops at an operation it cannot decode; those are
  // decoded here (decodeManually) and the rest resumed after them.
  uint64_t Base = 0;
  while (Base < Bytes.size()) {
    ArrayRef<uint8_t> Rest = Bytes.drop_front(Base);
    DataExtractor Data(StringRef(reinterpret_cast<const char *>(Rest.data()),
                                 Rest.size()),
                       ABI.LittleEndian, Ctx.AddrSize);
    DWARFExpression Expr(Data, Ctx.AddrSize, Format);
    uint64_t Cur = Base;
    bool Resume = false;
    for (const DWARFExpression::Operation &Op : Expr) {
      // The operations decodeManually() knows are always decoded there:
      // LLVM 19 refuses some and LLVM 22 decodes them (GCC's DW_OP_GNU_*
      // among them) under their own codes, and the two must read alike.
      if (Op.isError() || decodedManually(Op.getCode())) {
        if (Cur >= Bytes.size())
          return fail("malformed DWARF expression");
        auto End = decodeManually(Cur, Format);
        if (!End)
          return End.takeError();
        Base = *End;
        Resume = true;
        break;
      }
      DecodedOp D{Cur, Base + Op.getEndOffset(), Op.getCode(), {}};
      // LLVM takes a block's length on trust (DW_OP_implicit_value 16 with
      // two bytes left would read past the expression).
      if (D.End > Bytes.size()) {
        if (D.Code == dwarf::DW_OP_implicit_value)
          return fail("malformed DWARF expression: the " +
                      Twine(Op.getRawOperand(0)) + "-byte block of "
                      "DW_OP_implicit_value runs past the end of the "
                      "expression");
        return fail("malformed DWARF expression: " + opName(D.Code) +
                    " runs past the end of the expression");
      }
      D.Operands.append(Op.getRawOperands().begin(), Op.getRawOperands().end());
      // Block operands are offsets in the part decoded.
      if (D.Code == dwarf::DW_OP_implicit_value && D.Operands.size() > 1)
        D.Operands[1] += Base;
      if (D.Code == dwarf::DW_OP_const_type && D.Operands.size() > 2)
        D.Operands[2] += Base;
      // LLVM decodes the block of DW_OP_entry_value as the operations that
      // follow; it is one operand (entryValue reads it), so resume after it.
      if (D.Code == dwarf::DW_OP_entry_value ||
          D.Code == dwarf::DW_OP_GNU_entry_value) {
        DataExtractor::Cursor C(D.Offset + 1);
        DataExtractor Whole(
            StringRef(reinterpret_cast<const char *>(Bytes.data()),
                      Bytes.size()),
            ABI.LittleEndian, Ctx.AddrSize);
        uint64_t Len = Whole.getULEB128(C);
        if (!C || Len > Bytes.size() - C.tell()) {
          consumeError(C.takeError());
          return fail("malformed DWARF expression: the block of " +
                      opName(D.Code) + " runs past the end of the "
                      "expression");
        }
        D.End = C.tell() + Len;
        Ops.push_back(std::move(D));
        Base = Ops.back().End;
        Resume = true;
        break;
      }
      Ops.push_back(std::move(D));
      Cur = Ops.back().End;
    }
    if (!Resume)
      break;
  }
  return Error::success();
}

/// Decodes the operation at Offset that LLVM's decoder refused: those
/// whose operands LLVM 19 does not decode (DW_OP_implicit_pointer,
/// deref_type, const_type), GCC's DWARF 4 spellings of the typed operations
/// (DW_OP_GNU_*, the same operands), and an implicit value whose block runs
/// past the expression (an error). Returns the offset after it.
Expected<uint64_t>
LocationEvaluator::decodeManually(uint64_t Offset,
                                  std::optional<dwarf::DwarfFormat> F) {
  uint8_t Code = Bytes[Offset];
  DataExtractor Data(StringRef(reinterpret_cast<const char *>(Bytes.data()),
                               Bytes.size()),
                     ABI.LittleEndian, Ctx.AddrSize);
  DataExtractor::Cursor C(Offset + 1);
  DecodedOp D{Offset, 0, Code, {}};
  switch (Code) {
  case dwarf::DW_OP_implicit_pointer:
  case 0xf2: // DW_OP_GNU_implicit_pointer
    D.Code = dwarf::DW_OP_implicit_pointer;
    D.Operands.push_back(Data.getUnsigned(C, F == dwarf::DWARF64 ? 8 : 4));
    D.Operands.push_back(uint64_t(Data.getSLEB128(C)));
    break;
  case dwarf::DW_OP_const_type:
  case 0xf4: { // DW_OP_GNU_const_type
    D.Code = dwarf::DW_OP_const_type;
    D.Operands.push_back(Data.getULEB128(C));
    uint64_t Len = Data.getU8(C);
    D.Operands.push_back(Len);
    D.Operands.push_back(C.tell());
    Data.skip(C, Len);
    break;
  }
  case dwarf::DW_OP_regval_type:
  case 0xf5: // DW_OP_GNU_regval_type
    D.Code = dwarf::DW_OP_regval_type;
    D.Operands.push_back(Data.getULEB128(C));
    D.Operands.push_back(Data.getULEB128(C));
    break;
  case dwarf::DW_OP_deref_type:
  case 0xf6: // DW_OP_GNU_deref_type
    D.Code = dwarf::DW_OP_deref_type;
    D.Operands.push_back(Data.getU8(C));
    D.Operands.push_back(Data.getULEB128(C));
    break;
  case dwarf::DW_OP_convert:
  case 0xf7: // DW_OP_GNU_convert
  case dwarf::DW_OP_reinterpret:
  case 0xf9: // DW_OP_GNU_reinterpret
    D.Code = Code == 0xf7 ? dwarf::DW_OP_convert
             : Code == 0xf9 ? dwarf::DW_OP_reinterpret
                            : Code;
    D.Operands.push_back(Data.getULEB128(C));
    break;
  case dwarf::DW_OP_implicit_value: {
    uint64_t Len = Data.getULEB128(C);
    if (C && (Len > Bytes.size() || C.tell() > Bytes.size() - Len))
      return fail("malformed DWARF expression: the " + Twine(Len) +
                  "-byte block of DW_OP_implicit_value runs past the end of "
                  "the expression");
    D.Operands.push_back(Len);
    D.Operands.push_back(C.tell());
    Data.skip(C, Len);
    break;
  }
  default:
    return fail("malformed DWARF expression");
  }
  if (!C)
    return fail("malformed DWARF expression: " + toString(C.takeError()));
  D.End = C.tell();
  Ops.push_back(std::move(D));
  return Ops.back().End;
}

Expected<size_t> LocationEvaluator::indexAt(uint64_t Offset) {
  if (Offset == Bytes.size())
    return Ops.size();
  for (size_t I = 0; I < Ops.size(); ++I)
    if (Ops[I].Offset == Offset)
      return I;
  return fail("malformed DWARF expression: a branch to offset " +
              Twine(Offset) + ", which is not an operation");
}

Expected<Located> LocationEvaluator::runFrom(size_t Index, EvalState S,
                                             unsigned Forks) {
  while (Index < Ops.size()) {
    if (++Evaluated > MaxEvaluatedOps)
      return fail("its location expression takes more than " +
                  Twine(MaxEvaluatedOps) + " steps to evaluate");
    const DecodedOp &D = Ops[Index];
    uint8_t Code = D.Code;
    if (Code == dwarf::DW_OP_skip || Code == dwarf::DW_OP_bra) {
      if (Code == dwarf::DW_OP_bra)
        return branch(Index, std::move(S), Forks);
      int64_t Rel = int16_t(D.raw(0));
      if (Rel < 0)
        return fail("its location loops (a backward DW_OP_skip), which a "
                    "BPF prologue cannot run");
      auto Next = indexAt(D.End + Rel);
      if (!Next)
        return Next.takeError();
      Index = *Next;
      continue;
    }
    if (Error E = step(D, S))
      return std::move(E);
    ++Index;
  }
  return finish(S);
}

/// DW_OP_bra: pops the condition; a constant one picks the path now, a
/// run-time one evaluates both and joins them with a Select.
Expected<Located> LocationEvaluator::branch(size_t Index, EvalState S,
                                            unsigned Forks) {
  const DecodedOp &D = Ops[Index];
  int64_t Rel = int16_t(D.raw(0));
  if (Rel < 0)
    return fail("its location loops (a backward DW_OP_bra), which a BPF "
                "prologue cannot run");
  auto Cond = pop(S);
  if (!Cond)
    return Cond.takeError();
  auto Taken = indexAt(D.End + Rel);
  if (!Taken)
    return Taken.takeError();
  if (Cond->E->Kind == FetchExpr::Const)
    return runFrom(Cond->E->Value ? *Taken : Index + 1, std::move(S), Forks);
  if (Forks >= MaxBranchForks)
    return fail("its location has more than " + Twine(MaxBranchForks) +
                " run-time branches on one path");
  auto Yes = runFrom(*Taken, S.copy(), Forks + 1);
  if (!Yes)
    return Yes.takeError();
  auto No = runFrom(Index + 1, std::move(S), Forks + 1);
  if (!No)
    return No.takeError();
  return joinLocations(*Cond->E, std::move(*Yes), std::move(*No));
}

Error LocationEvaluator::step(const DecodedOp &D, EvalState &S) {
  bool Done = false;
  uint8_t Code = D.Code;
  if (Error E = pushLiteral(D, S, Done))
    return E;
  if (!Done)
    if (Error E = pushRegister(D, S, Done))
      return E;
  if (!Done)
    if (Error E = stackOp(D, S, Done))
      return E;
  if (!Done)
    if (Error E = arithmetic(Code, S, Done))
      return E;
  if (!Done)
    if (Error E = memoryOp(D, S, Done))
      return E;
  if (!Done)
    if (Error E = typedOp(D, S, Done))
      return E;
  if (!Done)
    if (Error E = compositionOp(D, S, Done))
      return E;
  if (Done)
    return Error::success();
  switch (Code) {
  case dwarf::DW_OP_nop:
    return Error::success();
  case dwarf::DW_OP_entry_value:
  case dwarf::DW_OP_GNU_entry_value:
    return entryValue(D, S);
  default:
    return fail("its location uses " + opName(Code) +
                ", which bpfprobe cannot turn into a fetch");
  }
}

/// DW_OP_entry_value(DW_OP_regN) (and DW_OP_regx): the value the register
/// had on entry to the function, from the callers' call sites
/// (EntryValue.cpp); other entry-value expressions (a dereferenced
/// DW_OP_bregN, DW_AT_call_data_value) are refused. The error says where
/// the value can be read instead.
Error LocationEvaluator::entryValue(const DecodedOp &D, EvalState &S) {
  std::string What = "a value the function had on entry";
  DataExtractor Data(StringRef(reinterpret_cast<const char *>(Bytes.data()),
                               Bytes.size()),
                     ABI.LittleEndian, Ctx.AddrSize);
  DataExtractor::Cursor C(D.Offset + 1);
  uint64_t Len = Data.getULEB128(C);
  uint64_t At = C.tell();
  consumeError(C.takeError());
  std::optional<unsigned> Reg;
  if (Len == 1 && At < Bytes.size() && Bytes[At] >= dwarf::DW_OP_reg0 &&
      Bytes[At] <= dwarf::DW_OP_reg31)
    Reg = Bytes[At] - dwarf::DW_OP_reg0;
  else if (Len >= 2 && At + Len <= Bytes.size() &&
           Bytes[At] == dwarf::DW_OP_regx) {
    DataExtractor::Cursor R(At + 1);
    uint64_t N = Data.getULEB128(R);
    if (R && R.tell() == At + Len)
      Reg = unsigned(N);
    consumeError(R.takeError());
  }
  std::string Reason;
  if (Reg) {
    int Idx = ABI.findDwarfReg(*Reg);
    if (Idx >= 0)
      What = std::string("the value %") + ABI.reg(Idx).Name +
             " had on entry to the function";
    bool OwnFrame = !Ctx.FrameRegister && Ctx.CallerDepth == 0;
    // At the function's entry the register still holds it.
    if (Idx >= 0 && OwnFrame && Ctx.Subprogram &&
        functionEntry(Ctx.Subprogram) == Ctx.PC) {
      S.Stack.push_back(generic(FetchExpr::reg(Idx)));
      return Error::success();
    }
    // Else the callers' call sites, and where they give nothing the value
    // an entry program saved (EntryValue.cpp).
    std::unique_ptr<FetchExpr> Saved;
    if (Idx >= 0 && OwnFrame && Ctx.EntryProgram)
      Saved = FetchExpr::entrySlot(0, FetchExpr::reg(Idx));
    auto V = entryValueFromCallers(Ctx, *Reg, Saved ? Saved->clone() : nullptr);
    if (V) {
      S.Stack.push_back(generic(std::move(*V)));
      return Error::success();
    }
    if (Saved) {
      consumeError(V.takeError());
      S.Stack.push_back(generic(std::move(Saved)));
      return Error::success();
    }
    Reason = toString(V.takeError());
  } else {
    Reason = "bpfprobe reads entry values of registers only";
  }
  std::string Fn;
  if (Ctx.Subprogram)
    if (const char *N = Ctx.Subprogram.getName(DINameKind::ShortName))
      Fn = N;
  return fail("its location is " + What + " (DW_OP_entry_value), " + Reason +
              "; the value is available at the entry" +
              (Fn.empty() ? std::string(" of the function")
                          : " of " + Fn + " (probe '" + Fn + "')") +
              ", or in its caller at the call");
}

/// Literals, constants, addresses: DW_OP_lit*, const*, addr, addrx.
Error LocationEvaluator::pushLiteral(const DecodedOp &D, EvalState &S,
                                     bool &Done) {
  uint8_t Code = D.Code;
  Done = true;
  if (Code >= dwarf::DW_OP_lit0 && Code <= dwarf::DW_OP_lit31) {
    S.Stack.push_back(generic(FetchExpr::constant(Code - dwarf::DW_OP_lit0)));
    return Error::success();
  }
  switch (Code) {
  case dwarf::DW_OP_const1u:
  case dwarf::DW_OP_const2u:
  case dwarf::DW_OP_const4u:
  case dwarf::DW_OP_const8u:
  case dwarf::DW_OP_constu:
  case dwarf::DW_OP_const1s:
  case dwarf::DW_OP_const2s:
  case dwarf::DW_OP_const4s:
  case dwarf::DW_OP_const8s:
  case dwarf::DW_OP_consts:
    S.Stack.push_back(
        generic(FetchExpr::constant(int64_t(D.raw(0)))));
    return Error::success();
  case dwarf::DW_OP_addr:
  case dwarf::DW_OP_addrx:
  case dwarf::DW_OP_GNU_addr_index: {
    uint64_t A = D.raw(0);
    if (Code != dwarf::DW_OP_addr) {
      // DWARF 5: an index into the unit's .debug_addr.
      auto Item = Ctx.Unit ? Ctx.Unit->getAddrOffsetSectionItem(A)
                           : std::optional<object::SectionedAddress>();
      if (!Item)
        return fail("its DW_OP_addrx index " + Twine(A) +
                    " is not in .debug_addr");
      A = Item->Address;
    }
    // Position-independent: the load bias is %ip minus the probe's
    // link-time address (a uprobe sees %ip == the probed address).
    S.Stack.push_back(generic(
        Ctx.PIE ? FetchExpr::add(FetchExpr::reg(ABI.IPReg),
                                 int64_t(A - (Ctx.IPAddress ? Ctx.IPAddress
                                                            : Ctx.PC)))
                : FetchExpr::constant(int64_t(A))));
    return Error::success();
  }
  default:
    Done = false;
    return Error::success();
  }
}

/// Registers and register-relative addresses: DW_OP_reg*, regx, breg*,
/// bregx, fbreg, call_frame_cfa.
Error LocationEvaluator::pushRegister(const DecodedOp &D, EvalState &S,
                                      bool &Done) {
  uint8_t Code = D.Code;
  Done = true;
  if ((Code >= dwarf::DW_OP_reg0 && Code <= dwarf::DW_OP_reg31) ||
      Code == dwarf::DW_OP_regx) {
    auto R = regValue(Code == dwarf::DW_OP_regx ? D.raw(0)
                                                : Code - dwarf::DW_OP_reg0,
                      Ctx);
    if (!R)
      return R.takeError();
    S.InRegister = std::move(*R);
    return Error::success();
  }
  if ((Code >= dwarf::DW_OP_breg0 && Code <= dwarf::DW_OP_breg31) ||
      Code == dwarf::DW_OP_bregx) {
    bool X = Code == dwarf::DW_OP_bregx;
    auto R = regValue(X ? D.raw(0) : Code - dwarf::DW_OP_breg0,
                      Ctx);
    if (!R)
      return R.takeError();
    S.Stack.push_back(generic(
        FetchExpr::add(std::move(*R), int64_t(D.raw(X ? 1 : 0)))));
    return Error::success();
  }
  switch (Code) {
  case dwarf::DW_OP_fbreg: {
    auto FB = frameBase(Ctx, Depth);
    if (!FB)
      return FB.takeError();
    S.Stack.push_back(generic(
        FetchExpr::add(std::move(*FB), int64_t(D.raw(0)))));
    return Error::success();
  }
  case dwarf::DW_OP_call_frame_cfa: {
    auto CFA = cfaAt(Ctx);
    if (!CFA)
      return CFA.takeError();
    S.Stack.push_back(generic(std::move(*CFA)));
    return Error::success();
  }
  default:
    Done = false;
    return Error::success();
  }
}

/// DW_OP_dup, drop, over, pick, swap, rot: they move trees, not values.
Error LocationEvaluator::stackOp(const DecodedOp &D, EvalState &S,
                                 bool &Done) {
  uint8_t Code = D.Code;
  auto &St = S.Stack;
  auto Need = [&](size_t N) -> Error {
    if (St.size() < N)
      return fail("malformed DWARF expression: stack underflow");
    return Error::success();
  };
  Done = true;
  switch (Code) {
  case dwarf::DW_OP_dup:
    if (Error E = Need(1))
      return E;
    St.push_back(St.back().copy());
    return Error::success();
  case dwarf::DW_OP_drop:
    if (Error E = Need(1))
      return E;
    St.pop_back();
    return Error::success();
  case dwarf::DW_OP_over:
    if (Error E = Need(2))
      return E;
    St.push_back(St[St.size() - 2].copy());
    return Error::success();
  case dwarf::DW_OP_pick: {
    uint64_t N = D.raw(0);
    if (Error E = Need(N + 1))
      return E;
    St.push_back(St[St.size() - 1 - N].copy());
    return Error::success();
  }
  case dwarf::DW_OP_swap:
    if (Error E = Need(2))
      return E;
    std::swap(St[St.size() - 1], St[St.size() - 2]);
    return Error::success();
  case dwarf::DW_OP_rot: {
    // The top three entries A B C (C on top) become C A B.
    if (Error E = Need(3))
      return E;
    size_t N = St.size();
    std::rotate(St.begin() + (N - 3), St.begin() + (N - 1), St.end());
    return Error::success();
  }
  default:
    Done = false;
    return Error::success();
  }
}

/// The FetchExpr operation of a DWARF arithmetic, logical or comparison
/// operation on operands of a type with the given signedness. DWARF says
/// the generic type divides and compares as signed; DW_OP_mod of the
/// generic type is unsigned (gdb: "DW_OP_mod ... is unsigned").
std::optional<FetchExpr::OpTy> binaryOpFor(uint8_t Code, bool Signed) {
  using F = FetchExpr;
  switch (Code) {
  case dwarf::DW_OP_plus: return F::Plus;
  case dwarf::DW_OP_minus: return F::Minus;
  case dwarf::DW_OP_mul: return F::Mul;
  case dwarf::DW_OP_div: return Signed ? F::DivS : F::DivU;
  case dwarf::DW_OP_mod: return Signed ? F::ModS : F::ModU;
  case dwarf::DW_OP_and: return F::And;
  case dwarf::DW_OP_or: return F::Or;
  case dwarf::DW_OP_xor: return F::Xor;
  case dwarf::DW_OP_shl: return F::Shl;
  case dwarf::DW_OP_shr: return F::ShrL;
  case dwarf::DW_OP_shra: return F::ShrA;
  case dwarf::DW_OP_eq: return F::Eq;
  case dwarf::DW_OP_ne: return F::Ne;
  case dwarf::DW_OP_lt: return Signed ? F::LtS : F::LtU;
  case dwarf::DW_OP_gt: return Signed ? F::GtS : F::GtU;
  case dwarf::DW_OP_le: return Signed ? F::LeS : F::LeU;
  case dwarf::DW_OP_ge: return Signed ? F::GeS : F::GeU;
  default: return std::nullopt;
  }
}

bool isComparison(uint8_t Code) {
  return Code >= dwarf::DW_OP_eq && Code <= dwarf::DW_OP_ne;
}

/// DW_OP_plus_uconst, neg, not, abs and the binary operations.
Error LocationEvaluator::arithmetic(uint8_t Code, EvalState &S, bool &Done) {
  Done = true;
  if (Code == dwarf::DW_OP_neg || Code == dwarf::DW_OP_not ||
      Code == dwarf::DW_OP_abs) {
    auto V = pop(S);
    if (!V)
      return V.takeError();
    std::unique_ptr<FetchExpr> R;
    if (Code == dwarf::DW_OP_abs) {
      // |x| of a signed (or generic, DWARF: signed) value.
      auto X = FetchExpr::extend(std::move(V->E), V->Bits, true);
      auto IsNeg =
          FetchExpr::binary(FetchExpr::LtS, X->clone(), FetchExpr::constant(0));
      auto Negated = FetchExpr::unary(FetchExpr::Neg, X->clone());
      R = FetchExpr::select(std::move(IsNeg), std::move(Negated), std::move(X));
    } else {
      R = FetchExpr::unary(Code == dwarf::DW_OP_neg ? FetchExpr::Neg
                                                    : FetchExpr::Not,
                           std::move(V->E));
    }
    if (!V->Generic)
      R = FetchExpr::extend(std::move(R), V->Bits, V->Signed);
    S.Stack.push_back({std::move(R), V->Bits, V->Signed, V->Generic});
    return Error::success();
  }
  // Generic operands divide, shift right arithmetically and compare as
  // signed (DWARF 5, 2.5.1.4 and 2.5.1.5), except DW_OP_mod.
  bool GenericSigned = Code != dwarf::DW_OP_mod;
  if (!binaryOpFor(Code, false)) {
    Done = false;
    return Error::success();
  }
  auto B = pop(S);
  if (!B)
    return B.takeError();
  auto A = pop(S);
  if (!A)
    return A.takeError();
  if (A->Generic != B->Generic ||
      (!A->Generic && (A->Bits != B->Bits || A->Signed != B->Signed)))
    return fail("malformed DWARF expression: " + opName(Code) +
                " of operands of different types");
  bool Signed = A->Generic ? GenericSigned : A->Signed;
  FetchExpr::OpTy Op = *binaryOpFor(Code, Signed);
  // Operations whose result depends on the bits above the type's width
  // see the operands extended per the operation's signedness.
  bool Widen = A->Bits < 64 &&
               (Op != FetchExpr::Plus && Op != FetchExpr::Minus &&
                Op != FetchExpr::Mul && Op != FetchExpr::And &&
                Op != FetchExpr::Or && Op != FetchExpr::Xor &&
                Op != FetchExpr::Shl);
  bool ExtSigned = Op == FetchExpr::ShrA ? true : Signed;
  if (Op == FetchExpr::ShrL)
    ExtSigned = false;
  std::unique_ptr<FetchExpr> L = std::move(A->E), R = std::move(B->E);
  if (Widen) {
    L = FetchExpr::extend(std::move(L), A->Bits, ExtSigned);
    if (Op != FetchExpr::Shl && Op != FetchExpr::ShrL && Op != FetchExpr::ShrA)
      R = FetchExpr::extend(std::move(R), A->Bits, ExtSigned);
  }
  auto Res = FetchExpr::binary(Op, std::move(L), std::move(R));
  if (isComparison(Code)) {
    S.Stack.push_back(generic(std::move(Res)));
    return Error::success();
  }
  if (!A->Generic)
    Res = FetchExpr::extend(std::move(Res), A->Bits, A->Signed);
  S.Stack.push_back({std::move(Res), A->Bits, A->Signed, A->Generic});
  return Error::success();
}

/// DW_OP_plus_uconst, deref, deref_size, deref_type.
Error LocationEvaluator::memoryOp(const DecodedOp &D, EvalState &S,
                                  bool &Done) {
  uint8_t Code = D.Code;
  Done = true;
  switch (Code) {
  case dwarf::DW_OP_plus_uconst: {
    auto T = pop(S);
    if (!T)
      return T.takeError();
    T->E = FetchExpr::add(std::move(T->E), D.raw(0));
    if (!T->Generic)
      T->E = FetchExpr::extend(std::move(T->E), T->Bits, T->Signed);
    S.Stack.push_back(std::move(*T));
    return Error::success();
  }
  case dwarf::DW_OP_deref:
  case dwarf::DW_OP_deref_size:
  case dwarf::DW_OP_deref_type: {
    auto T = pop(S);
    if (!T)
      return T.takeError();
    unsigned Size =
        Code == dwarf::DW_OP_deref ? Ctx.AddrSize : D.raw(0);
    if (Code == dwarf::DW_OP_deref_size && Size > Ctx.AddrSize)
      return make_error<UnreadableLocationError>(
          opName(Code) + " of " + Twine(Size) +
              " bytes, wider than an address (DWARF does not allow it; gdb "
              "cannot read it either)",
          inconvertibleErrorCode());
    if (Size != 1 && Size != 2 && Size != 4 && Size != 8)
      return fail(opName(Code) + " of " + Twine(Size) + " bytes");
    StackValue V = generic(FetchExpr::deref(std::move(T->E), Size));
    if (Code == dwarf::DW_OP_deref_type) {
      auto Ty = baseType(D.raw(1), opName(Code));
      if (!Ty)
        return Ty.takeError();
      if (Ty->Bits != Size * 8)
        return fail("malformed DWARF expression: DW_OP_deref_type of " +
                    Twine(Size) + " bytes to a " + Twine(Ty->Bits) +
                    "-bit type");
      V = {FetchExpr::extend(std::move(V.E), Ty->Bits, Ty->Signed), Ty->Bits,
           Ty->Signed, false};
    }
    S.Stack.push_back(std::move(V));
    return Error::success();
  }
  default:
    Done = false;
    return Error::success();
  }
}

/// The integer base type at CUOffset in the unit (0: the generic type).
Expected<StackValue> LocationEvaluator::baseType(uint64_t CUOffset,
                                                 StringRef OpName) {
  if (CUOffset == 0)
    return generic(nullptr);
  DWARFDie T = Ctx.Unit ? Ctx.Unit->getDIEForOffset(Ctx.Unit->getOffset() +
                                                    CUOffset)
                        : DWARFDie();
  if (!T || T.getTag() != dwarf::DW_TAG_base_type)
    return fail("malformed DWARF expression: " + OpName +
                " names no base type");
  uint64_t Size = dwarf::toUnsigned(T.find(dwarf::DW_AT_byte_size), 0);
  uint64_t Enc = dwarf::toUnsigned(T.find(dwarf::DW_AT_encoding), 0);
  bool Signed = Enc == dwarf::DW_ATE_signed || Enc == dwarf::DW_ATE_signed_char;
  bool Integer = Signed || Enc == dwarf::DW_ATE_unsigned ||
                 Enc == dwarf::DW_ATE_unsigned_char ||
                 Enc == dwarf::DW_ATE_boolean;
  if (!Integer)
    return fail("its location computes with a non-integer base type (" +
                OpName + " to '" + typeName(T) + "'), which BPF cannot");
  if (Size == 0 || Size > 8)
    return fail("its location computes with a " + Twine(Size) +
                "-byte integer (" + OpName + "), wider than BPF's registers");
  return StackValue{nullptr, unsigned(Size * 8), Signed, false};
}

/// Len bytes at Off of the expression as a constant, bounds-checked.
Expected<std::unique_ptr<FetchExpr>>
LocationEvaluator::blockConstant(uint64_t Off, uint64_t Len, StringRef OpName) {
  if (Off > Bytes.size() || Len > Bytes.size() - Off)
    return fail("malformed DWARF expression: the " + Twine(Len) +
                "-byte block of " + OpName + " runs past the end of the "
                "expression");
  if (Len > 8)
    return fail(OpName + " of " + Twine(Len) + " bytes is wider than a "
                "register");
  uint64_t V = 0;
  for (uint64_t I = 0; I < Len; ++I) {
    uint64_t B = Bytes[Off + I];
    V |= ABI.LittleEndian ? B << (8 * I) : B << (8 * (Len - 1 - I));
  }
  return FetchExpr::constant(int64_t(V));
}

/// DW_OP_convert, reinterpret, const_type, regval_type for integer base
/// types.
Error LocationEvaluator::typedOp(const DecodedOp &D, EvalState &S,
                                 bool &Done) {
  uint8_t Code = D.Code;
  Done = true;
  switch (Code) {
  case dwarf::DW_OP_convert:
  case dwarf::DW_OP_reinterpret: {
    auto V = pop(S);
    if (!V)
      return V.takeError();
    auto Ty = baseType(D.raw(0), opName(Code));
    if (!Ty)
      return Ty.takeError();
    if (Code == dwarf::DW_OP_reinterpret && Ty->Bits != V->Bits)
      return fail("malformed DWARF expression: DW_OP_reinterpret to a type "
                  "of another size");
    // The 64-bit tree holds the old type's value: truncating to the new
    // width and extending per the new signedness is the conversion.
    Ty->E = FetchExpr::extend(std::move(V->E), Ty->Bits, Ty->Signed);
    S.Stack.push_back(std::move(*Ty));
    return Error::success();
  }
  case dwarf::DW_OP_const_type: {
    auto Ty = baseType(D.raw(0), opName(Code));
    if (!Ty)
      return Ty.takeError();
    uint64_t Len = D.raw(1);
    if (Len * 8 != Ty->Bits)
      return fail("malformed DWARF expression: a " + Twine(Len) +
                  "-byte DW_OP_const_type of a " + Twine(Ty->Bits) +
                  "-bit type");
    auto C = blockConstant(D.raw(2), Len, opName(Code));
    if (!C)
      return C.takeError();
    Ty->E = FetchExpr::extend(std::move(*C), Ty->Bits, Ty->Signed);
    S.Stack.push_back(std::move(*Ty));
    return Error::success();
  }
  case dwarf::DW_OP_regval_type: {
    auto R = regValue(D.raw(0), Ctx);
    if (!R)
      return R.takeError();
    auto Ty = baseType(D.raw(1), opName(Code));
    if (!Ty)
      return Ty.takeError();
    Ty->E = FetchExpr::extend(std::move(*R), Ty->Bits, Ty->Signed);
    S.Stack.push_back(std::move(*Ty));
    return Error::success();
  }
  default:
    Done = false;
    return Error::success();
  }
}

/// DW_OP_implicit_value of more than 8 bytes (a struct constant): pieces
/// of at most 8 bytes, each a constant, in memory order.
Error LocationEvaluator::wideImplicitValue(const DecodedOp &D, EvalState &S) {
  uint64_t Len = D.raw(0), Off = D.raw(1);
  if (Off > Bytes.size() || Len > Bytes.size() - Off)
    return fail("malformed DWARF expression: the " + Twine(Len) +
                "-byte block of DW_OP_implicit_value runs past the end of "
                "the expression");
  if (Len > PrologueStackBudget)
    return fail("DW_OP_implicit_value of " + Twine(Len) +
                " bytes is larger than the prologue's stack budget");
  auto L = std::make_unique<Located>();
  L->Kind = Located::Pieces;
  for (uint64_t At = 0; At < Len; At += 8) {
    uint64_t N = std::min<uint64_t>(8, Len - At);
    auto C = blockConstant(Off + At, N, "DW_OP_implicit_value");
    if (!C)
      return C.takeError();
    Located::Piece P;
    P.Size = N;
    P.BitSize = N * 8;
    P.Loc = std::make_unique<Located>(Located::value(std::move(*C)));
    L->Parts.push_back(std::move(P));
  }
  S.WideValue = std::move(L);
  S.Stack.clear();
  return Error::success();
}

/// The location described so far, for DW_OP_piece or the end.
Located currentLocation(EvalState &S) {
  if (S.WideValue) {
    Located L = std::move(*S.WideValue);
    S.WideValue.reset();
    return L;
  }
  if (S.InRegister)
    return Located::value(std::move(S.InRegister));
  if (S.IsImplicitPointer) {
    Located L;
    L.Kind = Located::ImplicitPointer;
    L.Target = S.PointerTarget;
    L.ImplicitOffset = S.PointerOffset;
    S.IsImplicitPointer = false;
    return L;
  }
  if (S.Stack.empty())
    return Located(); // an empty piece: optimized out
  auto Top = std::move(S.Stack.back().E);
  S.Stack.clear();
  return S.IsValue ? Located::value(std::move(Top))
                   : Located::memory(std::move(Top));
}

/// DW_OP_stack_value, implicit_value, implicit_pointer, piece, bit_piece.
Error LocationEvaluator::compositionOp(const DecodedOp &D, EvalState &S,
                                       bool &Done) {
  uint8_t Code = D.Code;
  Done = true;
  switch (Code) {
  case dwarf::DW_OP_stack_value:
    S.IsValue = true;
    return Error::success();
  case dwarf::DW_OP_implicit_value: {
    if (D.raw(0) > 8)
      return wideImplicitValue(D, S);
    auto C = blockConstant(D.raw(1), D.raw(0),
                           opName(Code));
    if (!C)
      return C.takeError();
    S.Stack.push_back(generic(std::move(*C)));
    S.IsValue = true;
    return Error::success();
  }
  case dwarf::DW_OP_implicit_pointer: {
    // The operand is a .debug_info offset of the variable pointed to: in
    // this unit, or in another one, checked before its DIEs are read.
    uint64_t Off = D.raw(0);
    DWARFDie Target;
    if (Ctx.Unit && Off >= Ctx.Unit->getOffset() &&
        Off < Ctx.Unit->getNextUnitOffset())
      Target = Ctx.Unit->getDIEForOffset(Off);
    else if (Ctx.Unit && Ctx.Index)
      if (DWARFUnit *U = Ctx.Index->readable(
              Ctx.Unit->getContext().getCompileUnitForOffset(Off)))
        Target = U->getDIEForOffset(Off);
    if (!Target)
      return fail("malformed DWARF expression: " + opName(Code) +
                  " to no variable");
    S.IsImplicitPointer = true;
    S.PointerTarget = Target;
    S.PointerOffset = int64_t(D.raw(1));
    return Error::success();
  }
  case dwarf::DW_OP_piece:
  case dwarf::DW_OP_bit_piece: {
    S.SawPiece = true;
    Located::Piece P;
    if (Code == dwarf::DW_OP_piece) {
      P.Size = D.raw(0);
      P.BitSize = P.Size * 8;
    } else {
      P.BitSize = D.raw(0);
      P.BitOffset = D.raw(1);
      P.Size = (P.BitSize + 7) / 8;
    }
    if (P.BitSize == 0 || P.Size > 1 << 16 || P.BitOffset > 1 << 16)
      return fail("malformed DWARF expression: a piece of " +
                  Twine(P.BitSize) + " bits at bit " + Twine(P.BitOffset));
    P.Loc = std::make_unique<Located>(currentLocation(S));
    S.Result.Parts.push_back(std::move(P));
    S.IsValue = false;
    return Error::success();
  }
  default:
    Done = false;
    return Error::success();
  }
}

Expected<Located> LocationEvaluator::finish(EvalState &S) {
  if (!S.SawPiece)
    return currentLocation(S);
  if (!S.Stack.empty() || S.InRegister || S.IsImplicitPointer || S.WideValue)
    return fail("malformed DWARF expression: operations after the last "
                "DW_OP_piece");
  S.Result.Kind = Located::Pieces;
  // A value of at most 8 bytes with pieces that are not whole bytes
  // (DW_OP_bit_piece) is one scalar: the member and copy paths work on it.
  bool BitPieces = llvm::any_of(S.Result.Parts, [](const Located::Piece &P) {
    return P.BitSize % 8 || P.BitOffset % 8;
  });
  uint64_t Bits = 0;
  for (const Located::Piece &P : S.Result.Parts)
    Bits += P.BitSize;
  if (BitPieces && Bits <= 64) {
    auto V = scalarFromPieces(std::move(S.Result), ABI);
    if (!V)
      return V.takeError();
    return Located::value(std::move(*V));
  }
  if (BitPieces)
    return fail("its location has DW_OP_bit_piece parts in a value wider "
                "than 8 bytes, which is not supported");
  return std::move(S.Result);
}

} // namespace

/// Joins the results of the two paths of a DW_OP_bra.
static Expected<Located> joinLocations(const FetchExpr &Cond, Located Yes,
                                Located No) {
  if (Yes.Kind != No.Kind)
    return fail("the two paths of its DW_OP_bra describe different kinds of "
                "location");
  switch (Yes.Kind) {
  case Located::Memory:
  case Located::Value:
    Yes.Expr = FetchExpr::select(Cond.clone(), std::move(Yes.Expr),
                                 std::move(No.Expr));
    return std::move(Yes);
  case Located::Optimized:
    return std::move(Yes);
  case Located::Pieces: {
    if (Yes.Parts.size() != No.Parts.size())
      return fail("the two paths of its DW_OP_bra have different pieces");
    for (size_t I = 0; I < Yes.Parts.size(); ++I) {
      Located::Piece &P = Yes.Parts[I], &Q = No.Parts[I];
      if (P.BitSize != Q.BitSize || P.BitOffset != Q.BitOffset)
        return fail("the two paths of its DW_OP_bra have different pieces");
      auto J = joinLocations(Cond, std::move(*P.Loc), std::move(*Q.Loc));
      if (!J)
        return J.takeError();
      P.Loc = std::make_unique<Located>(std::move(*J));
    }
    return std::move(Yes);
  }
  case Located::ImplicitPointer:
    if (Yes.Target == No.Target && Yes.ImplicitOffset == No.ImplicitOffset)
      return std::move(Yes);
    return fail("the two paths of its DW_OP_bra point to different "
                "variables");
  }
  return fail("malformed DWARF expression");
}

Expected<std::unique_ptr<FetchExpr>> scalarFromPieces(Located L,
                                                      const ArchABI &ABI) {
  uint64_t Total = 0;
  for (const Located::Piece &P : L.Parts)
    Total += P.BitSize;
  if (Total > 64)
    return fail("the value is in pieces wider than 8 bytes");
  std::unique_ptr<FetchExpr> V;
  uint64_t Pos = 0;
  for (Located::Piece &P : L.Parts) {
    std::unique_ptr<FetchExpr> Bits;
    Located &Loc = *P.Loc;
    if (Loc.Kind == Located::Memory) {
      // The bytes that hold bits BitOffset.. BitOffset+BitSize, read as
      // the smallest load that covers them.
      uint64_t Need = (P.BitOffset % 8 + P.BitSize + 7) / 8;
      unsigned Load = Need <= 1 ? 1 : Need <= 2 ? 2 : Need <= 4 ? 4 : 8;
      if (Need > 8)
        return fail("a memory piece spans more than 8 bytes");
      auto Addr = FetchExpr::add(std::move(Loc.Expr), P.BitOffset / 8);
      unsigned Shift = ABI.LittleEndian
                           ? P.BitOffset % 8
                           : Load * 8 - P.BitOffset % 8 - P.BitSize;
      Bits = FetchExpr::bitfield(FetchExpr::deref(std::move(Addr), Load), Load,
                                 Shift, P.BitSize, false);
    } else if (Loc.Kind == Located::Value) {
      if (P.BitOffset + P.BitSize > 64)
        return fail("a piece beyond the 64 bits of its register");
      Bits = FetchExpr::bitfield(std::move(Loc.Expr), 8, P.BitOffset,
                                 P.BitSize, false);
    } else {
      return fail("part of it is optimized out");
    }
    uint64_t At = ABI.LittleEndian ? Pos : Total - Pos - P.BitSize;
    if (At)
      Bits = FetchExpr::binary(FetchExpr::Shl, std::move(Bits),
                               FetchExpr::constant(int64_t(At)));
    V = V ? FetchExpr::binary(FetchExpr::Or, std::move(V), std::move(Bits))
          : std::move(Bits);
    Pos += P.BitSize;
  }
  if (!V)
    return fail("the value has no pieces");
  return std::move(V);
}

Expected<Located> evaluateLocation(ArrayRef<uint8_t> Bytes,
                                   const LocationContext &Ctx,
                                   unsigned Depth) {
  if (Depth > 4)
    return fail("the frame base refers to itself");
  return LocationEvaluator(Bytes, Ctx, Depth).run();
}

} // namespace bpfprobe
