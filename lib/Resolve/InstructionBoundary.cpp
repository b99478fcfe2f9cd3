//===- InstructionBoundary.cpp - Is an offset an instruction start? -----===//
//
/// \file
/// See InstructionBoundary.h.
//===----------------------------------------------------------------------===//

#include "Resolve/InstructionBoundary.h"
#include "Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"

#include <mutex>

using namespace llvm;

namespace bpfprobe {

Expected<BoundaryInfo> checkInstructionBoundary(const object::ObjectFile &Obj,
                                                uint64_t FuncAddr,
                                                uint64_t FuncSize,
                                                uint64_t Offset) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllDisassemblers();
  });

  // The function's bytes, from the section that holds them.
  StringRef Bytes;
  for (const object::SectionRef &Sec : Obj.sections()) {
    if (!Sec.isText() || Sec.isVirtual())
      continue;
    uint64_t Start = Sec.getAddress(), Size = Sec.getSize();
    if (FuncAddr < Start || FuncAddr + FuncSize > Start + Size)
      continue;
    auto Contents = Sec.getContents();
    if (!Contents)
      return Contents.takeError();
    Bytes = Contents->substr(FuncAddr - Start, FuncSize);
    break;
  }
  if (Bytes.empty())
    return fail("the instructions of the function at 0x" + utohexstr(FuncAddr) +
                " are not in the binary");

  Triple TT = Obj.makeTriple();
  // LLVM 21 takes the Triple itself and deprecates the string overloads.
#if LLVM_VERSION_MAJOR >= 21
  const Triple &TTArg = TT;
#else
  const std::string &TTArg = TT.getTriple();
#endif
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(TTArg, Err);
  if (!T)
    return fail("no disassembler for " + TT.getTriple() + ": " + Err);
  std::unique_ptr<MCRegisterInfo> MRI(T->createMCRegInfo(TTArg));
  MCTargetOptions Opts;
  std::unique_ptr<MCAsmInfo> MAI(T->createMCAsmInfo(*MRI, TTArg, Opts));
  auto Features = Obj.getFeatures();
  std::unique_ptr<MCSubtargetInfo> STI(T->createMCSubtargetInfo(
      TTArg, "", Features ? Features->getString() : ""));
  if (!Features)
    consumeError(Features.takeError());
  if (!MRI || !MAI || !STI)
    return fail("cannot set up the disassembler for " + TT.getTriple());
  MCContext Ctx(TT, MAI.get(), MRI.get(), STI.get());
  std::unique_ptr<MCDisassembler> Dis(T->createMCDisassembler(*STI, Ctx));
  if (!Dis)
    return fail("no disassembler for " + TT.getTriple());

  BoundaryInfo Info;
  uint64_t At = 0;
  ArrayRef<uint8_t> Code(reinterpret_cast<const uint8_t *>(Bytes.data()),
                         Bytes.size());
  while (At <= Offset && At < Code.size()) {
    MCInst Inst;
    uint64_t Size = 0;
    if (Dis->getInstruction(Inst, Size, Code.slice(At), FuncAddr + At,
                            nulls()) != MCDisassembler::Success ||
        Size == 0)
      return fail("cannot decode the instruction at +0x" + utohexstr(At) +
                  " of the function at 0x" + utohexstr(FuncAddr));
    if (At == Offset) {
      Info.IsBoundary = true;
      Info.Before = At;
      Info.After = At + Size;
      return Info;
    }
    Info.Before = At;
    At += Size;
    Info.After = At;
  }
  return Info;
}

} // namespace bpfprobe
