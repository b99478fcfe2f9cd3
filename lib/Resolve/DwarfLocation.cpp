//===- DwarfLocation.cpp - DWARF location expressions to fetch trees -----===//
//
/// \file
/// Evaluates a DWARF location expression symbolically at one PC: instead of
/// computing a number, each DW_OP builds a FetchExpr that the BPF prologue
/// will compute at run time from pt_regs and memory. Supported: DW_OP_reg*,
/// regx, breg*, bregx, fbreg (frame base DW_OP_reg*, breg* or
/// call_frame_cfa), call_frame_cfa (the CFA rule of .debug_frame or
/// .eh_frame at the PC), addr, lit*, const*, plus_uconst, plus/minus with a
/// constant, deref, deref_size, stack_value (a *value*: nothing is read),
/// implicit_value up to 8 bytes and piece. Everything else, entry values
/// first of all, is an error that names the operation: a value we cannot
/// prove is never guessed.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfIndex.h"
#include "Resolve/DwarfInternal.h"
#include "Resolve/LLVMCompat.h"
#include "Target/ArchABI.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace bpfprobe {

static Error fail(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

static std::string opName(uint8_t Op) {
  StringRef N = dwarf::OperationEncodingString(Op);
  return N.empty() ? "DW_OP_0x" + utohexstr(Op) : N.str();
}

static Expected<std::unique_ptr<FetchExpr>> regValue(unsigned DwarfReg,
                                                     const ArchABI &ABI) {
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

Expected<std::unique_ptr<FetchExpr>> cfaAt(const LocationContext &Ctx) {
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
  auto Reg = regValue(CFA.getRegister(), *Ctx.ABI);
  if (!Reg)
    return Reg.takeError();
  return FetchExpr::add(std::move(*Reg), CFA.getOffset());
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
  for (const DWARFLocationExpression &L : *Locs) {
    if (L.Range && (Ctx.PC < L.Range->LowPC || Ctx.PC >= L.Range->HighPC))
      continue;
    auto FB = evaluateLocation(L.Expr, Ctx, Depth + 1);
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

Expected<Located> evaluateLocation(ArrayRef<uint8_t> Bytes,
                                   const LocationContext &Ctx,
                                   unsigned Depth) {
  if (Depth > 4)
    return fail("the frame base refers to itself");
  const ArchABI &ABI = *Ctx.ABI;
  DataExtractor Data(StringRef(reinterpret_cast<const char *>(Bytes.data()),
                               Bytes.size()),
                     ABI.LittleEndian, Ctx.AddrSize);
  DWARFExpression Expr(Data, Ctx.AddrSize);

  std::vector<std::unique_ptr<FetchExpr>> Stack;
  // Set by DW_OP_reg*: the value is the register itself.
  std::unique_ptr<FetchExpr> InRegister;
  bool IsValue = false; // DW_OP_stack_value / implicit_value
  Located Result;
  bool SawPiece = false;

  auto pop = [&]() -> Expected<std::unique_ptr<FetchExpr>> {
    if (Stack.empty())
      return fail("malformed DWARF expression: stack underflow");
    auto E = std::move(Stack.back());
    Stack.pop_back();
    return std::move(E);
  };
  // The location described so far, for DW_OP_piece or the end.
  auto current = [&]() -> Located {
    if (InRegister)
      return Located::value(std::move(InRegister));
    if (Stack.empty())
      return Located(); // an empty piece: optimized out
    auto Top = std::move(Stack.back());
    Stack.clear();
    return IsValue ? Located::value(std::move(Top))
                   : Located::memory(std::move(Top));
  };

  for (const DWARFExpression::Operation &Op : Expr) {
    if (Op.isError())
      return fail("malformed DWARF expression");
    uint8_t Code = Op.getCode();
    if (Code >= dwarf::DW_OP_reg0 && Code <= dwarf::DW_OP_reg31) {
      auto R = regValue(Code - dwarf::DW_OP_reg0, ABI);
      if (!R)
        return R.takeError();
      InRegister = std::move(*R);
      continue;
    }
    if (Code >= dwarf::DW_OP_breg0 && Code <= dwarf::DW_OP_breg31) {
      auto R = regValue(Code - dwarf::DW_OP_breg0, ABI);
      if (!R)
        return R.takeError();
      Stack.push_back(FetchExpr::add(std::move(*R),
                                     int64_t(Op.getRawOperand(0))));
      continue;
    }
    if (Code >= dwarf::DW_OP_lit0 && Code <= dwarf::DW_OP_lit31) {
      Stack.push_back(FetchExpr::constant(Code - dwarf::DW_OP_lit0));
      continue;
    }
    switch (Code) {
    case dwarf::DW_OP_regx: {
      auto R = regValue(Op.getRawOperand(0), ABI);
      if (!R)
        return R.takeError();
      InRegister = std::move(*R);
      break;
    }
    case dwarf::DW_OP_bregx: {
      auto R = regValue(Op.getRawOperand(0), ABI);
      if (!R)
        return R.takeError();
      Stack.push_back(FetchExpr::add(std::move(*R),
                                     int64_t(Op.getRawOperand(1))));
      break;
    }
    case dwarf::DW_OP_fbreg: {
      auto FB = frameBase(Ctx, Depth);
      if (!FB)
        return FB.takeError();
      Stack.push_back(
          FetchExpr::add(std::move(*FB), int64_t(Op.getRawOperand(0))));
      break;
    }
    case dwarf::DW_OP_call_frame_cfa: {
      auto CFA = cfaAt(Ctx);
      if (!CFA)
        return CFA.takeError();
      Stack.push_back(std::move(*CFA));
      break;
    }
    case dwarf::DW_OP_addr:
    case dwarf::DW_OP_addrx:
    case dwarf::DW_OP_GNU_addr_index: {
      uint64_t A = Op.getRawOperand(0);
      if (Code != dwarf::DW_OP_addr) {
        // DWARF 5: an index into the unit's .debug_addr.
        auto Item = Ctx.Unit ? Ctx.Unit->getAddrOffsetSectionItem(A)
                             : std::optional<object::SectionedAddress>();
        if (!Item)
          return fail("its DW_OP_addrx index " + Twine(A) +
                      " is not in .debug_addr");
        A = Item->Address;
      }
      if (Ctx.PIE) {
        // Position-independent: the load bias is %ip minus the probe's
        // link-time address (a uprobe sees %ip == the probed address).
        Stack.push_back(FetchExpr::add(FetchExpr::reg(ABI.IPReg),
                                       int64_t(A - Ctx.PC)));
      } else {
        Stack.push_back(FetchExpr::constant(int64_t(A)));
      }
      break;
    }
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
      Stack.push_back(FetchExpr::constant(int64_t(Op.getRawOperand(0))));
      break;
    case dwarf::DW_OP_plus_uconst: {
      auto T = pop();
      if (!T)
        return T.takeError();
      Stack.push_back(FetchExpr::add(std::move(*T), Op.getRawOperand(0)));
      break;
    }
    case dwarf::DW_OP_plus:
    case dwarf::DW_OP_minus: {
      auto B = pop();
      if (!B)
        return B.takeError();
      auto A = pop();
      if (!A)
        return A.takeError();
      int64_t Sign = Code == dwarf::DW_OP_minus ? -1 : 1;
      if ((*B)->Kind == FetchExpr::Const) {
        Stack.push_back(FetchExpr::add(std::move(*A), Sign * (*B)->Value));
      } else if ((*A)->Kind == FetchExpr::Const && Sign > 0) {
        Stack.push_back(FetchExpr::add(std::move(*B), (*A)->Value));
      } else if ((*A)->Kind == FetchExpr::Const &&
                 (*B)->Kind == FetchExpr::Const) {
        Stack.push_back(
            FetchExpr::constant((*A)->Value + Sign * (*B)->Value));
      } else {
        return fail(opName(Code) + " of two run-time values is not "
                                   "supported");
      }
      break;
    }
    case dwarf::DW_OP_deref:
    case dwarf::DW_OP_deref_size: {
      auto T = pop();
      if (!T)
        return T.takeError();
      unsigned Size =
          Code == dwarf::DW_OP_deref ? Ctx.AddrSize : Op.getRawOperand(0);
      if (Size == 0 || Size > 8)
        return fail("DW_OP_deref_size of " + Twine(Size) + " bytes");
      Stack.push_back(FetchExpr::deref(std::move(*T), Size));
      break;
    }
    case dwarf::DW_OP_stack_value:
      IsValue = true;
      break;
    case dwarf::DW_OP_implicit_value: {
      uint64_t Len = Op.getRawOperand(0);
      if (Len > 8)
        return fail("DW_OP_implicit_value of " + Twine(Len) +
                    " bytes is not supported");
      uint64_t V = 0;
      uint64_t Off = Op.getRawOperand(1);
      for (uint64_t I = 0; I < Len; ++I) {
        uint64_t B = Bytes[Off + I];
        V |= ABI.LittleEndian ? B << (8 * I) : B << (8 * (Len - 1 - I));
      }
      Stack.push_back(FetchExpr::constant(int64_t(V)));
      IsValue = true;
      break;
    }
    case dwarf::DW_OP_piece: {
      SawPiece = true;
      Located::Piece P;
      P.Size = Op.getRawOperand(0);
      P.Loc = std::make_unique<Located>(current());
      Result.Parts.push_back(std::move(P));
      IsValue = false;
      break;
    }
    case dwarf::DW_OP_nop:
      break;
    case dwarf::DW_OP_entry_value:
    case dwarf::DW_OP_GNU_entry_value:
      return fail("its location uses DW_OP_entry_value (the value a register "
                  "had on entry to the function), which cannot be read at "
                  "this address");
    default:
      return fail("its location uses " + opName(Code) +
                  ", which bpfprobe cannot turn into a fetch");
    }
  }
  if (!SawPiece)
    return current();
  if (!Stack.empty() || InRegister)
    return fail("malformed DWARF expression: operations after the last "
                "DW_OP_piece");
  Result.Kind = Located::Pieces;
  return std::move(Result);
}

} // namespace bpfprobe
