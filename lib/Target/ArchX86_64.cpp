//===- ArchX86_64.cpp - x86_64 pt_regs and calling conventions ------------===//
//
/// \file
/// x86_64 as seen by a BPF kprobe/uprobe program.
///
/// struct pt_regs: arch/x86/include/asm/ptrace.h (and the uapi
/// arch/x86/include/uapi/asm/ptrace.h, identical layout), 21 eight-byte
/// slots. DWARF register numbers: System V AMD64 psABI, figure 3.36
/// "DWARF Register Number Mapping". Argument registers: psABI 3.2.3
/// "Parameter Passing" (INTEGER class: rdi, rsi, rdx, rcx, r8, r9); the
/// kernel is built with the same convention. At function entry the return
/// address is at 0(%rsp), so the first stack argument is at 8(%rsp), one
/// eightbyte per INTEGER argument (psABI 3.2.3, figure 3.3).
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo X86_64Regs[] = {
  // Name     pt_regs  size  DWARF  aliases
  {"r15",     0,       8,    15,    "r15"},
  {"r14",     8,       8,    14,    "r14"},
  {"r13",     16,      8,    13,    "r13"},
  {"r12",     24,      8,    12,    "r12"},
  {"bp",      32,      8,    6,     "rbp"},
  {"bx",      40,      8,    3,     "rbx"},
  {"r11",     48,      8,    11,    "r11"},
  {"r10",     56,      8,    10,    "r10"},
  {"r9",      64,      8,    9,     "r9"},
  {"r8",      72,      8,    8,     "r8"},
  {"ax",      80,      8,    0,     "rax"},
  {"cx",      88,      8,    2,     "rcx"},
  {"dx",      96,      8,    1,     "rdx"},
  {"si",      104,     8,    4,     "rsi"},
  {"di",      112,     8,    5,     "rdi"},
  {"orig_ax", 120,     8,    -1,    "orig_rax"},
  {"ip",      128,     8,    16,    "rip"},
  {"cs",      136,     8,    51,    ""},
  {"flags",   144,     8,    49,    "eflags,rflags"},
  {"sp",      152,     8,    7,     "rsp"},
  {"ss",      160,     8,    52,    ""},
};
// clang-format on

enum : unsigned {
  R15, R14, R13, R12, BP, BX, R11, R10, R9, R8, AX, CX, DX, SI, DI,
  ORIG_AX, IP, CS, FLAGS, SP, SS
};

static const unsigned SysVArgs[] = {DI, SI, DX, CX, R8, R9};
static const unsigned SysVRet[] = {AX, DX};

namespace {
/// System V AMD64 psABI 3.2.3: eightbyte classification.
class SysVX86_64Rule final : public ArgRule {
public:
  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     ArrayRef<LayoutLeaf> Leaves) const override {
    // 3.2.3: larger than two eightbytes, or with a long double (class
    // X87): MEMORY. Otherwise each eightbyte is INTEGER unless all its
    // members are float (SSE).
    bool X87 = llvm::any_of(Leaves, [](const LayoutLeaf &L) {
      return L.IsFloat && L.Size > 8;
    });
    if (Size > 16 || X87)
      return ArgPlace::stack(C.takeStack(Size, std::max(8u, Align)), Size);
    unsigned N = divideCeil(Size, 8), IntWords = 0;
    bool SSE = false;
    for (unsigned E = 0; E < N; ++E) {
      bool Int = false, Any = false;
      for (const LayoutLeaf &L : Leaves)
        if (L.Offset < (E + 1) * 8 && L.Offset + L.Size > E * 8) {
          Any = true;
          Int |= !L.IsFloat;
        }
      if (Any && !Int)
        SSE = true;
      else
        ++IntWords;
    }
    // An SSE eightbyte goes to an XMM register (the first such argument
    // always finds one free) unless the INTEGER ones find no general
    // registers: then the whole argument is on the stack.
    if (SSE && IntWords <= C.freeRegs())
      return ArgPlace::refuse("an eightbyte of it is of class SSE (System V "
                              "AMD64 psABI 3.2.3) and travels in an XMM "
                              "register, which struct pt_regs does not hold");
    if (!SSE && N <= C.freeRegs()) {
      C.NextReg += N;
      return C.regPieces(C.NextReg - N, N, Size);
    }
    // "If there are no registers available for any eightbyte of an
    // argument, the whole argument is passed on the stack."
    return ArgPlace::stack(C.takeStack(Size, std::max(8u, Align)), Size);
  }

  AggregateReturn aggregateReturn(unsigned Size,
                                  ArrayRef<LayoutLeaf> Leaves) const override {
    // AMD64 psABI 3.2.3: larger than two eightbytes, or with an unaligned
    // member: MEMORY, and %rax holds the caller's buffer on return.
    bool Unaligned = llvm::any_of(Leaves, [](const LayoutLeaf &L) {
      return L.Size && L.Offset % L.Size;
    });
    if (Size > 16 || Unaligned)
      return {AggregateReturn::InMemory, ""};
    // Eightbytes of only floating-point members are SSE, in %xmm0/%xmm1.
    bool AnyFloat = llvm::any_of(Leaves, [](const LayoutLeaf &L) {
      return L.IsFloat;
    });
    if (AnyFloat)
      return {AggregateReturn::Refused,
              "it is returned in SSE registers (AMD64 psABI 3.2.3), which "
              "struct pt_regs does not hold"};
    if (Size == 0)
      return {AggregateReturn::Refused, "its size is not known"};
    return {AggregateReturn::InRegs, ""};
  }
};
const SysVX86_64Rule SysVRule;
} // namespace

extern const ArchABI ArchX86_64;
const ArchABI ArchX86_64 = {
    /*Name=*/"x86_64",
    /*Aliases=*/"x86,amd64,x86-64",
    /*Reference=*/"arch/x86/include/asm/ptrace.h; System V AMD64 psABI 3.2.3",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/true,
    /*Regs=*/X86_64Regs,
    /*SPReg=*/SP,
    /*IPReg=*/IP,
    /*KernelCC=*/{"sysv", SysVArgs, 8, 8, SysVRet, &SysVRule,
                  "System V AMD64 psABI 3.2.3"},
    /*UserCC=*/{"sysv", SysVArgs, 8, 8, SysVRet, &SysVRule,
                "System V AMD64 psABI 3.2.3"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/true,
    /*CompatOf=*/nullptr,
    /*ReturnAddressBytes=*/8,
};

} // namespace bpfprobe
