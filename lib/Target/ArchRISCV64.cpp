//===- ArchRISCV64.cpp - riscv64 pt_regs and the lp64 convention ----------===//
//
/// \file
/// 64-bit RISC-V as seen by a BPF kprobe/uprobe program.
///
/// The context starts like struct user_regs_struct (arch/riscv/include/uapi/
/// asm/ptrace.h: pc, ra, sp, gp, tp, t0-t2, s0, s1, a0-a7, s2-s11, t3-t6),
/// the layout of the start of the kernel's struct pt_regs (arch/riscv/
/// include/asm/ptrace.h, where the first slot is called epc); libbpf's
/// bpf_tracing.h casts the context to user_regs_struct. Names:
/// arch/riscv/kernel/ptrace.c regoffset_table ("epc", "ra", ..., "t6").
/// DWARF numbers: RISC-V ELF psABI "DWARF Register Numbers": x0-x31 0-31
/// (the pc has none).
/// Convention (kernel and user): RISC-V psABI "Integer Calling Convention":
/// a0-a7, then the stack from 0(sp) in XLEN-sized units; scalars of 2*XLEN
/// in an aligned register pair; aggregates up to 2*XLEN in up to two
/// registers, the second half on the stack when only a7 is left; larger ones
/// by reference. Return: a0 (a1).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo RISCV64Regs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"epc",          0,       8,    -1,    "pc"},
  {"ra",           8,       8,    1,     "x1"},
  {"sp",           16,      8,    2,     "x2"},
  {"gp",           24,      8,    3,     "x3"},
  {"tp",           32,      8,    4,     "x4"},
  {"t0",           40,      8,    5,     "x5"},
  {"t1",           48,      8,    6,     "x6"},
  {"t2",           56,      8,    7,     "x7"},
  {"s0",           64,      8,    8,     "x8,fp"},
  {"s1",           72,      8,    9,     "x9"},
  {"a0",           80,      8,    10,    "x10"},
  {"a1",           88,      8,    11,    "x11"},
  {"a2",           96,      8,    12,    "x12"},
  {"a3",           104,     8,    13,    "x13"},
  {"a4",           112,     8,    14,    "x14"},
  {"a5",           120,     8,    15,    "x15"},
  {"a6",           128,     8,    16,    "x16"},
  {"a7",           136,     8,    17,    "x17"},
  {"s2",           144,     8,    18,    "x18"},
  {"s3",           152,     8,    19,    "x19"},
  {"s4",           160,     8,    20,    "x20"},
  {"s5",           168,     8,    21,    "x21"},
  {"s6",           176,     8,    22,    "x22"},
  {"s7",           184,     8,    23,    "x23"},
  {"s8",           192,     8,    24,    "x24"},
  {"s9",           200,     8,    25,    "x25"},
  {"s10",          208,     8,    26,    "x26"},
  {"s11",          216,     8,    27,    "x27"},
  {"t3",           224,     8,    28,    "x28"},
  {"t4",           232,     8,    29,    "x29"},
  {"t5",           240,     8,    30,    "x30"},
  {"t6",           248,     8,    31,    "x31"},
};
// clang-format on

enum : unsigned {
  EPC, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6, A7
};

static const unsigned Args[] = {A0, A1, A2, A3, A4, A5, A6, A7};
static const unsigned RetRegs[] = {A0, A1};

ArgPlace RiscvLP64Rule::aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                                  ArrayRef<LayoutLeaf> Leaves) const {
  // Hardware floating-point convention: a structure that flattens
  // (through nested structures and arrays, never unions) to one
  // floating-point value, two, or one and one integer is passed in FP
  // registers (the first such argument always finds them free), the
  // mixed one only while an integer register is also free; anything
  // else by the integer convention.
  unsigned W = C.W;
  bool HasFloat = llvm::any_of(Leaves, [](const LayoutLeaf &L) {
    return L.IsFloat;
  });
  bool Union = llvm::any_of(Leaves, [](const LayoutLeaf &L) {
    return L.InUnion;
  });
  if (HasFloat && !Union && Leaves.size() <= 2 &&
      llvm::all_of(Leaves, [&](const LayoutLeaf &L) { return L.Size <= W; })) {
    bool Mixed = Leaves.size() == 2 && Leaves[0].IsFloat != Leaves[1].IsFloat;
    if (!Mixed || C.freeRegs())
      return ArgPlace::refuse(Twine("it is passed in FP registers by the "
                                    "hardware floating-point convention (") +
                              C.CC.RuleRef +
                              "), which struct pt_regs does not hold");
  }
  if (Size > 2 * W) // by reference
    return byReference(C, Size);
  unsigned N = divideCeil(Size, W);
  // (Only variadic arguments with 2*XLEN alignment take an aligned,
  // even-numbered pair; named ones take the next registers.)
  if (N <= C.freeRegs()) {
    C.NextReg += N;
    return C.regPieces(C.NextReg - N, N, Size);
  }
  if (N == 2 && C.freeRegs() == 1) {
    // The first half in the last register, the second on the stack.
    ArgPlace P;
    P.Pieces = true;
    P.Parts.push_back({ArgPart::Reg, C.NextReg, W, 0});
    P.Parts.push_back({ArgPart::Stack, C.takeStack(Size - W, W), Size - W, 0});
    C.NextReg = C.NRegs;
    return P;
  }
  C.NextReg = C.NRegs;
  return ArgPlace::stack(C.takeStack(Size, std::max(W, Align)), Size);
}

const RiscvLP64Rule RiscvLP64{};

extern const ArchABI ArchRISCV64;
const ArchABI ArchRISCV64 = {
    /*Name=*/"riscv64",
    /*Aliases=*/"riscv,rv64",
    /*Reference=*/"arch/riscv/include/uapi/asm/ptrace.h (struct user_regs_struct); RISC-V psABI integer calling convention",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/RISCV64Regs,
    /*SPReg=*/SP,
    /*IPReg=*/EPC,
    /*KernelCC=*/{"lp64", Args, 0, 8, RetRegs, &RiscvLP64,
                  "RISC-V psABI, integer calling convention"},
    /*UserCC=*/{"lp64", Args, 0, 8, RetRegs, &RiscvLP64,
                "RISC-V psABI, integer calling convention"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/false,
};

} // namespace bpfprobe
