//===- EntryValue.cpp - DW_OP_entry_value through the callers' call sites -===//
//
/// \file
/// Resolves DW_OP_entry_value(DW_OP_regN) -- "the value register N had on
/// entry to this function" -- as gdb does (gdb/dwarf2/loc.c,
/// dwarf_expr_reg_to_entry_parameter): the caller's DW_TAG_call_site at the
/// return address has a DW_TAG_call_site_parameter for register N, whose
/// DW_AT_call_value, evaluated in the caller's frame, is the value.
///
/// At a probe inside the callee F, the prologue cannot know statically
/// which caller it is in, so the plan is a select on the return address:
///
///   RA == ret_1 ? call_value_1 : RA == ret_2 ? call_value_2 : <fault>
///
/// - RA is read by F's call frame information at the probe's PC (x86-64:
///   the word at CFA-8); in a PIE it is compared relative to %ip.
/// - Each call_value is evaluated in the caller's frame: its registers are
///   the caller's as the CFI unwinds them at the probe (a register F has
///   saved is read from its stack slot, the stack pointer is the CFA, one
///   the CFI does not mention is the current one -- gdb's rule; gcc names
///   a call-clobbered register in a call value only when -fipa-ra tells
///   it the callee preserves it); a register with another rule gives no
///   value at that call site. DW_OP_fbreg and DW_OP_call_frame_cfa use the
///   caller's frame base and CFA at the call, computed from those
///   registers.
/// - Candidates are the direct, non-tail call sites whose
///   DW_AT_call_origin is F (the DIE itself, its abstract origin or
///   specification, or a declaration whose symbol is F's entry address)
///   and, on x86-64, whose call instruction (the `call rel32` before the
///   return address, read from the binary) goes to F's entry: gdb's check
///   of the call site's target against the frame's function, so a clone
///   sharing F's abstract origin never qualifies (other architectures rely
///   on the DWARF match). A return address that matches none of them (an
///   indirect call, a caller without call-site information, a tail call
///   into F) makes the value a fault -- a read of address 0 -- never a
///   guess. Calls through a pointer are not candidates: nothing proves
///   that such a call entered F rather than code without call-site
///   information that then jumped to F (gdb trusts DW_AT_call_target,
///   evaluated from a register the call clobbered).
/// - As gdb (func_verify_no_selftailcall), a function that can reach
///   itself through a chain of tail calls, or reach a tail call through a
///   pointer, is refused: its return address may belong to an earlier
///   activation than the one the probe is in.
/// - In an inlined subroutine, DW_OP_entry_value is the entry of the
///   concrete function it is inlined into (the only one with an entry).
///   gdb 13 evaluates it in the inline frame instead: it prints
///   <optimized out> there, or, when the pc is also the return address of
///   a call, a call value of that unrelated call; its next frame shows the
///   value this file computes, as `item@entry=`.
///
/// Limits: a DW_AT_call_value that is itself an entry value is followed
/// one caller further (MaxCallerDepth), not more; registers only
/// (DW_OP_entry_value of a dereferenced DW_OP_bregN, DW_AT_call_data_value,
/// is refused); user-space probes only (a kernel's return addresses move
/// with KASLR); on a binary with more than MaxScannedUnits compilation
/// units only F's own unit is searched for call sites (a call from another
/// unit then faults). Each comparison reads the return address again, so a
/// function with many callers can exceed the prologue's stack budget
/// (refused with that message). A uretprobe on the same function (or on a
/// caller the select reads the return address of), by any tool, replaces
/// that return address on the stack with the kernel's trampoline: the
/// value is then a fault.
///
/// Where no call site gives the value (or the return address matches none),
/// a kprobe or uprobe site reads it from an entry program instead
/// (LocationContext::EntryProgram): a second program at F's entry saves
/// the register, keyed by the task and the frame (the stack pointer at the
/// entry; at the probe the CFA less the return address), and the probe
/// takes it (plugin/EntryPairing.cpp). Recursion pairs each activation
/// with its own entry (frames differ); a hit whose entry was not seen (the
/// probes attached while the task was inside F, or the record was
/// evicted) has no value at that hit -- a record says <missed>, a body is
/// not called -- never another activation's. At F's entry itself the
/// register still holds the value.
//===----------------------------------------------------------------------===//

#include "Resolve/DwarfIndex.h"
#include "Resolve/DwarfInternal.h"
#include "Support/Error.h"
#include "Target/ArchABI.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ObjectFile.h"

#include <functional>
#include <map>
#include <set>

using namespace llvm;

namespace bpfprobe {

/// Above this many units only the callee's own unit is searched.
constexpr size_t MaxScannedUnits = 2000;
/// Call values that are entry values themselves are followed this many
/// calls up.
constexpr unsigned MaxCallerDepth = 2;
/// At most this many callers become branches of the select.
constexpr size_t MaxCallers = 24;

namespace {

/// One call site that calls F and gives the value of the register.
struct Caller {
  uint64_t ReturnPC;
  std::unique_ptr<FetchExpr> Value;
};

} // namespace

/// The concrete subprogram a DIE is in (through inlined subroutines).
static DWARFDie enclosingSubprogram(DWARFDie D) {
  for (DWARFDie P = D.getParent(); P; P = P.getParent())
    if (P.getTag() == dwarf::DW_TAG_subprogram)
      return P;
  return DWARFDie();
}

static bool isCallSite(dwarf::Tag T) {
  return T == dwarf::DW_TAG_call_site || T == dwarf::DW_TAG_GNU_call_site;
}

/// Whether the call site's target is F (entry address Entry).
static bool targetsFunction(DWARFDie Site, DWARFDie F, uint64_t Entry,
                            const LocationContext &Ctx) {
  DWARFDie O = Site.getAttributeValueAsReferencedDie(dwarf::DW_AT_call_origin);
  if (!O)
    O = Site.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
  if (!O)
    return false; // an indirect call (DW_AT_call_target): unknown target
  auto Same = [](DWARFDie A, DWARFDie B) {
    return A && B && A.getOffset() == B.getOffset() &&
           A.getDwarfUnit() == B.getDwarfUnit();
  };
  for (DWARFDie X :
       {F, F.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin),
        F.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification)})
    if (Same(O, X))
      return true;
  if (auto Low = dwarf::toAddress(O.find(dwarf::DW_AT_low_pc)))
    return *Low == Entry;
  // A declaration (a function of another unit): its symbol's address.
  if (!dwarf::toUnsigned(O.find(dwarf::DW_AT_declaration)) ||
      !Ctx.FunctionAddress)
    return false;
  const char *Name = O.getName(DINameKind::LinkageName);
  if (!Name)
    return false;
  std::optional<uint64_t> A = Ctx.FunctionAddress(Name);
  return A && *A == Entry;
}

/// Where the call instruction that returns to ReturnPC goes, read from
/// the binary's code: x86-64's direct `call rel32` (e8) only. nullopt for
/// anything else (an indirect call, a PLT stub is a different address, an
/// architecture this does not decode).
static std::optional<uint64_t> directCallTarget(const LocationContext &Ctx,
                                                uint64_t ReturnPC) {
  if (!Ctx.Target || StringRef(Ctx.ABI->Name) != "x86_64" || ReturnPC < 5)
    return std::nullopt;
  uint64_t At = ReturnPC - 5;
  for (const object::SectionRef &Sec : Ctx.Target->sections()) {
    if (!Sec.isText() || At < Sec.getAddress() ||
        ReturnPC > Sec.getAddress() + Sec.getSize())
      continue;
    Expected<StringRef> Data = Sec.getContents();
    if (!Data) {
      consumeError(Data.takeError());
      return std::nullopt;
    }
    // A section without contents (SHT_NOBITS in a debug-only file) or
    // shorter than its header says has no call to read.
    if (At - Sec.getAddress() + 5 > Data->size())
      return std::nullopt;
    const uint8_t *P = reinterpret_cast<const uint8_t *>(Data->data()) +
                       (At - Sec.getAddress());
    if (P[0] != 0xe8)
      return std::nullopt;
    int32_t Rel = int32_t(uint32_t(P[1]) | uint32_t(P[2]) << 8 |
                          uint32_t(P[3]) << 16 | uint32_t(P[4]) << 24);
    return ReturnPC + int64_t(Rel);
  }
  return std::nullopt;
}

/// The entry address of the function a call site calls: its origin's
/// DW_AT_low_pc, or the symbol of its name; nullopt for an indirect call
/// or a target whose address is not known.
static std::optional<uint64_t> callTarget(DWARFDie Site,
                                          const LocationContext &Ctx) {
  DWARFDie O = Site.getAttributeValueAsReferencedDie(dwarf::DW_AT_call_origin);
  if (!O)
    O = Site.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
  if (!O)
    return std::nullopt;
  if (auto Low = dwarf::toAddress(O.find(dwarf::DW_AT_low_pc)))
    return *Low;
  const char *Name = O.getName(DINameKind::LinkageName);
  if (!Name || !Ctx.FunctionAddress)
    return std::nullopt;
  return Ctx.FunctionAddress(Name);
}

static bool isTailCall(DWARFDie Site) {
  return dwarf::toUnsigned(Site.find(dwarf::DW_AT_call_tail_call))
             .value_or(0) ||
         dwarf::toUnsigned(Site.find(dwarf::DW_AT_GNU_tail_call)).value_or(0);
}

static std::optional<uint64_t> returnPC(DWARFDie Site) {
  if (Site.getTag() == dwarf::DW_TAG_call_site)
    return dwarf::toAddress(Site.find(dwarf::DW_AT_call_return_pc));
  return dwarf::toAddress(Site.find(dwarf::DW_AT_low_pc));
}

/// The DW_AT_call_value of the site's parameter passed in DwarfReg.
static std::optional<ArrayRef<uint8_t>> callValue(DWARFDie Site,
                                                  unsigned DwarfReg) {
  for (DWARFDie P : Site.children()) {
    if (P.getTag() != dwarf::DW_TAG_call_site_parameter &&
        P.getTag() != dwarf::DW_TAG_GNU_call_site_parameter)
      continue;
    auto Loc = P.find(dwarf::DW_AT_location);
    if (!Loc)
      continue;
    auto Block = Loc->getAsBlock();
    if (!Block)
      continue;
    bool Match = false;
    if (Block->size() == 1 && (*Block)[0] >= dwarf::DW_OP_reg0 &&
        (*Block)[0] <= dwarf::DW_OP_reg31)
      Match = unsigned((*Block)[0] - dwarf::DW_OP_reg0) == DwarfReg;
    else if (Block->size() >= 2 && (*Block)[0] == dwarf::DW_OP_regx) {
      uint64_t N = 0;
      unsigned Shift = 0;
      size_t I = 1;
      for (; I < Block->size() && Shift < 64; ++I, Shift += 7) {
        N |= uint64_t((*Block)[I] & 0x7f) << Shift;
        if (!((*Block)[I] & 0x80))
          break;
      }
      Match = I + 1 == Block->size() && N == DwarfReg;
    }
    if (!Match)
      continue;
    auto V = P.find(dwarf::DW_AT_call_value);
    if (!V)
      V = P.find(dwarf::DW_AT_GNU_call_site_value);
    if (!V)
      return std::nullopt;
    if (auto B = V->getAsBlock())
      return *B;
    return std::nullopt;
  }
  return std::nullopt;
}

using RegisterReader =
    std::function<Expected<std::unique_ptr<FetchExpr>>(unsigned DwarfReg)>;

/// A register of the frame the expression is in (the probe's, or a
/// caller's when a call value is itself an entry value).
static Expected<std::unique_ptr<FetchExpr>>
thisFrameRegister(const LocationContext &Ctx, unsigned R) {
  const ArchABI &ABI = *Ctx.ABI;
  if (Ctx.FrameRegister)
    return Ctx.FrameRegister(R);
  int Idx = ABI.findDwarfReg(R);
  if (Idx < 0)
    return fail("DWARF register " + Twine(R) + " is not in struct pt_regs");
  return FetchExpr::reg(Idx);
}

/// The return address at Ctx.PC, by the CFI's rule for its column.
static Expected<std::unique_ptr<FetchExpr>>
returnAddress(const LocationContext &Ctx, const UnwindAt &U) {
  const ArchABI &ABI = *Ctx.ABI;
  std::unique_ptr<FetchExpr> RA;
  std::optional<UnwindAt::Rule> RARule = U.RuleOf(U.ReturnAddressReg);
  if (RARule && RARule->Kind == dwarf::UnwindLocation::CFAPlusOffset &&
      RARule->Deref)
    RA = FetchExpr::deref(FetchExpr::add(U.CFA->clone(), RARule->Offset),
                          ABI.PointerSize);
  else if (!RARule || RARule->Kind == dwarf::UnwindLocation::Same) {
    auto R = thisFrameRegister(Ctx, U.ReturnAddressReg);
    if (!R)
      return R.takeError();
    RA = std::move(*R);
  } else
    return fail("the call frame information at 0x" + utohexstr(Ctx.PC) +
                " does not say where the return address is");
  return std::move(RA);
}

/// The caller's registers at the call, as the CFI unwinds them.
static RegisterReader callerRegisters(const LocationContext &Ctx,
                                      const UnwindAt &U) {
  const ArchABI &ABI = *Ctx.ABI;
  int SPDwarf = ABI.reg(ABI.SPReg).DwarfNum;
  std::shared_ptr<FetchExpr> CFA(U.CFA->clone().release());
  auto RuleOf = U.RuleOf;
  auto Inner = Ctx.FrameRegister;
  return [ABIp = Ctx.ABI, CFA, RuleOf, SPDwarf,
          Inner](unsigned R) -> Expected<std::unique_ptr<FetchExpr>> {
    const ArchABI &ABI = *ABIp;
    if (int(R) == SPDwarf)
      return CFA->clone();
    int Idx = ABI.findDwarfReg(R);
    std::string Name = Idx >= 0 ? std::string("%") + ABI.reg(Idx).Name
                                : "DWARF register " + std::to_string(R);
    std::optional<UnwindAt::Rule> Rule = RuleOf(R);
    if (Rule && Rule->Kind == dwarf::UnwindLocation::CFAPlusOffset &&
        Rule->Deref)
      return FetchExpr::deref(FetchExpr::add(CFA->clone(), Rule->Offset),
                              ABI.PointerSize);
    // Unspecified by the CFI: the same value, as gdb's DWARF unwinder
    // takes it. For a callee-saved register that is exact; a compiler
    // names a call-clobbered one in DW_AT_call_value only when it knows the
    // callee leaves it alone (gcc's -fipa-ra).
    if (!Rule || Rule->Kind == dwarf::UnwindLocation::Same) {
      if (Inner)
        return Inner(R);
      if (Idx >= 0)
        return FetchExpr::reg(Idx);
    }
    return fail("the caller's " + Name + " is not recoverable in the callee");
  };
}

namespace {

/// What the call sites of F say: the callers that give the value, why the
/// first one that does not failed, how many call F, and the tail calls, by
/// the entry of the function that makes them (the entry of the target, or
/// nullopt for an indirect one).
struct CallSiteScan {
  std::vector<Caller> Callers;
  std::string FirstReason;
  size_t Seen = 0;
  std::map<uint64_t, std::vector<std::optional<uint64_t>>> TailCalls;
};

} // namespace

/// The call sites that call F (entry address Entry), each one's value of
/// DwarfReg evaluated in the caller's frame (CallerRegister).
static Expected<CallSiteScan>
scanCallSites(const LocationContext &Ctx, DWARFDie F, uint64_t Entry,
              unsigned DwarfReg, const RegisterReader &CallerRegister) {
  const ArchABI &ABI = *Ctx.ABI;
  DWARFContext *DC = Ctx.Dwarf;
  std::vector<DWARFUnit *> Units;
  if (DC && Ctx.Index && DC->getNumCompileUnits() <= MaxScannedUnits) {
    // Each unit checked before its DIEs are read (DwarfUnitCheck.h).
    for (const auto &CU : DC->info_section_units())
      if (DWARFUnit *U = Ctx.Index->readable(CU.get()))
        Units.push_back(U);
  } else if (F.getDwarfUnit()) {
    Units.push_back(F.getDwarfUnit());
  }
  CallSiteScan Scan;
  std::vector<Caller> &Callers = Scan.Callers;
  std::string &FirstReason = Scan.FirstReason;
  size_t &Seen = Scan.Seen;
  // Tail calls, by the entry of the function that makes them: the entry
  // of the target, or nullopt for an indirect one.
  std::map<uint64_t, std::vector<std::optional<uint64_t>>> &TailCalls =
      Scan.TailCalls;
  std::function<Error(DWARFDie)> Walk = [&](DWARFDie D) -> Error {
    for (DWARFDie C : D.children()) {
      if (isCallSite(C.getTag()) && isTailCall(C)) {
        if (std::optional<uint64_t> From =
                functionEntry(enclosingSubprogram(C)))
          TailCalls[*From].push_back(callTarget(C, Ctx));
        continue;
      }
      if (isCallSite(C.getTag()) && targetsFunction(C, F, Entry, Ctx)) {
        DWARFDie CallerFn = enclosingSubprogram(C);
        std::optional<uint64_t> Ret = returnPC(C);
        // As gdb checks the call site's target against the function of the
        // frame: the instruction before the return address must call F (a
        // clone sharing F's abstract origin does not qualify).
        if (Ret && StringRef(ABI.Name) == "x86_64" &&
            directCallTarget(Ctx, *Ret) != Entry)
          continue;
        std::optional<ArrayRef<uint8_t>> Value = callValue(C, DwarfReg);
        ++Seen;
        if (!Ret || !Value || !CallerFn) {
          if (FirstReason.empty())
            FirstReason = "a call site gives no value for that register";
          continue;
        }
        // DW_AT_call_value is an expression of the value (gdb appends
        // DW_OP_stack_value), evaluated at the call in the caller's frame.
        std::vector<uint8_t> Expr(Value->begin(), Value->end());
        Expr.push_back(dwarf::DW_OP_stack_value);
        LocationContext CC = Ctx;
        CC.PC = *Ret - 1; // in the call instruction, as gdb's caller frame
        CC.IPAddress = Ctx.IPAddress ? Ctx.IPAddress : Ctx.PC;
        CC.Subprogram = CallerFn;
        CC.Unit = C.getDwarfUnit();
        CC.FrameRegister = CallerRegister;
        CC.CallerDepth = Ctx.CallerDepth + 1;
        auto L = evaluateLocation(Expr, CC);
        if (!L) {
          if (FirstReason.empty())
            FirstReason = "at the call at 0x" + utohexstr(*Ret) + ", " +
                          toString(L.takeError());
          else
            consumeError(L.takeError());
          continue;
        }
        if (L->Kind != Located::Value || !L->Expr) {
          if (FirstReason.empty())
            FirstReason = "a call site's value is not a single value";
          continue;
        }
        Callers.push_back({*Ret, std::move(L->Expr)});
        continue;
      }
      if (Error E = Walk(C))
        return E;
    }
    return Error::success();
  };
  for (DWARFUnit *CU : Units)
    if (Error E = Walk(CU->getUnitDIE(false)))
      return std::move(E);
  return std::move(Scan);
}

/// As gdb (func_verify_no_selftailcall): if F can reach itself through
/// tail calls, its frame may be a later activation than the call its
/// return address names. An indirect tail call on the way may be one.
static Error checkNoSelfTailCall(
    std::map<uint64_t, std::vector<std::optional<uint64_t>>> &TailCalls,
    uint64_t Entry) {
  std::set<uint64_t> Visited{Entry};
  std::vector<uint64_t> Work{Entry};
  while (!Work.empty()) {
    uint64_t Fn = Work.back();
    Work.pop_back();
    for (std::optional<uint64_t> T : TailCalls[Fn]) {
      if (!T)
        return fail("a tail call through a pointer is reachable from it "
                    "by tail calls, so its return address may not "
                    "identify its entry");
      if (*T == Entry)
        return fail("it can call itself through tail calls, so its "
                    "return address does not identify its entry");
      if (Visited.insert(*T).second)
        Work.push_back(*T);
    }
  }
  return Error::success();
}

/// The value the return address RA selects among the callers' values; no
/// match gives Otherwise, or a fault.
static std::unique_ptr<FetchExpr>
selectByReturnAddress(const LocationContext &Ctx, std::vector<Caller> &Callers,
                      std::unique_ptr<FetchExpr> RA,
                      std::unique_ptr<FetchExpr> Otherwise) {
  const ArchABI &ABI = *Ctx.ABI;
  // RA == ret_i ? value_i : ... : fault. In a PIE the load bias cancels
  // out: RA - %ip == ret_i - PC.
  std::unique_ptr<FetchExpr> Key =
      Ctx.PIE ? FetchExpr::binary(FetchExpr::Minus, std::move(RA),
                                  FetchExpr::reg(ABI.IPReg))
              : std::move(RA);
  uint64_t IP = Ctx.IPAddress ? Ctx.IPAddress : Ctx.PC;
  // No matching caller: the entry program's value, else a read of address
  // 0, which faults.
  std::unique_ptr<FetchExpr> Out =
      Otherwise ? std::move(Otherwise)
                : FetchExpr::deref(FetchExpr::constant(0), ABI.PointerSize);
  for (auto It = Callers.rbegin(); It != Callers.rend(); ++It) {
    int64_t K = Ctx.PIE ? int64_t(It->ReturnPC - IP) : int64_t(It->ReturnPC);
    Out = FetchExpr::select(
        FetchExpr::binary(FetchExpr::Eq, Key->clone(), FetchExpr::constant(K)),
        std::move(It->Value), std::move(Out));
  }
  return Out;
}

Expected<std::unique_ptr<FetchExpr>>
entryValueFromCallers(const LocationContext &Ctx, unsigned DwarfReg,
                      std::unique_ptr<FetchExpr> Otherwise) {
  if (Ctx.CallerDepth >= MaxCallerDepth)
    return fail("its callers' values are entry values of their own callers, "
                "which bpfprobe follows only " +
                Twine(MaxCallerDepth) + " calls up");
  DWARFDie F = Ctx.Subprogram;
  std::optional<uint64_t> Entry = functionEntry(F);
  if (!F || !Entry)
    return fail("the function's entry address is not in the debug info");
  // At the entry itself the register still holds it.
  if (Ctx.PC == *Entry)
    return thisFrameRegister(Ctx, DwarfReg);
  if (!Ctx.UserSpace)
    return fail("its callers' values are found by return address, which "
                "KASLR moves in a kernel");

  auto U = unwindAt(Ctx);
  if (!U)
    return U.takeError();
  auto RA = returnAddress(Ctx, *U);
  if (!RA)
    return RA.takeError();
  RegisterReader CallerRegister = callerRegisters(Ctx, *U);

  auto Scan = scanCallSites(Ctx, F, *Entry, DwarfReg, CallerRegister);
  if (!Scan)
    return Scan.takeError();
  if (Error E = checkNoSelfTailCall(Scan->TailCalls, *Entry))
    return std::move(E);
  if (Scan->Callers.empty())
    return fail(Scan->Seen ? "no call site of it gives the value (" +
                                 Scan->FirstReason + ")"
                           : std::string("the debug info has no call site "
                                         "that calls it directly"));
  if (Scan->Callers.size() > MaxCallers)
    return fail("it has " + Twine(Scan->Callers.size()) +
                " call sites that give the value, more than the " +
                Twine(MaxCallers) + " a prologue selects among");
  return selectByReturnAddress(Ctx, Scan->Callers, std::move(*RA),
                               std::move(Otherwise));
}

} // namespace bpfprobe
