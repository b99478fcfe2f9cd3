//===- InstructionBoundary.h - Is an offset an instruction start? -*- C++ -*-//
//
/// \file
/// A probe at symbol+offset must land on the first byte of an instruction;
/// a uprobe in the middle of one corrupts the program. This decodes the
/// function with LLVM's disassembler for the binary's architecture.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_INSTRUCTIONBOUNDARY_H
#define BPFPROBE_RESOLVE_INSTRUCTIONBOUNDARY_H

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace bpfprobe {

struct BoundaryInfo {
  bool IsBoundary = false;
  uint64_t Before = 0; ///< the instruction start at or before the offset
  uint64_t After = 0;  ///< the next instruction start after it
};

/// Decodes the function at FuncAddr (FuncSize bytes) of Obj up to Offset.
llvm::Expected<BoundaryInfo>
checkInstructionBoundary(const llvm::object::ObjectFile &Obj, uint64_t FuncAddr,
                         uint64_t FuncSize, uint64_t Offset);

} // namespace bpfprobe

#endif
