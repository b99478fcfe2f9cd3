//===- ArchI386.cpp - i386 pt_regs and calling conventions ----------------===//
//
/// \file
/// i386 with a 32-bit kernel, as seen by a BPF kprobe/uprobe program.
///
/// struct pt_regs: arch/x86/include/asm/ptrace.h (CONFIG_X86_32 branch) and
/// arch/x86/include/uapi/asm/ptrace.h (`#ifdef __i386__`: ebx, ecx, edx, esi,
/// edi, ebp, eax, xds, xes, xfs, xgs, orig_eax, eip, xcs, eflags, esp, xss),
/// 17 four-byte slots. Register names: arch/x86/kernel/ptrace.c
/// regoffset_table. The table assumes a kernel whose x86_32 entry code saves
/// pt_regs->sp for kernel-mode traps (stack arguments are read through it).
/// DWARF register numbers: System V i386 psABI, "DWARF Register Number
/// Mapping" (eax 0, ecx 1, edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7, eip 8,
/// eflags 9, es 40, cs 41, ss 42, ds 43, fs 44, gs 45).
/// Kernel (kprobe): the kernel is built with -mregparm=3 (arch/x86/Makefile):
/// eax, edx, ecx, then 4-byte stack slots above the return address; a
/// 64-bit value takes two consecutive registers (low half first) or goes to
/// the stack. libbpf's bpf_tracing.h models only this convention.
/// User (uprobe): System V i386 psABI 2.2 (cdecl): every argument on the
/// stack from 4(%esp), each rounded up to 4 bytes, 64-bit values 4-aligned.
/// Return values: eax, and edx for the high half of a 64-bit value.
/// 32-bit user tasks under an x86_64 kernel see the x86_64 pt_regs: use
/// 'ia32-compat' (ArchIA32Compat.cpp) for them.
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo I386Regs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"bx",           0,       4,    3,     "ebx"},
  {"cx",           4,       4,    1,     "ecx"},
  {"dx",           8,       4,    2,     "edx"},
  {"si",           12,      4,    6,     "esi"},
  {"di",           16,      4,    7,     "edi"},
  {"bp",           20,      4,    5,     "ebp"},
  {"ax",           24,      4,    0,     "eax"},
  {"ds",           28,      4,    43,    "xds"},
  {"es",           32,      4,    40,    "xes"},
  {"fs",           36,      4,    44,    "xfs"},
  {"gs",           40,      4,    45,    "xgs"},
  {"orig_ax",      44,      4,    -1,    "orig_eax"},
  {"ip",           48,      4,    8,     "eip"},
  {"cs",           52,      4,    41,    "xcs"},
  {"flags",        56,      4,    9,     "eflags"},
  {"sp",           60,      4,    4,     "esp"},
  {"ss",           64,      4,    42,    "xss"},
};
// clang-format on

enum : unsigned {
  BX, CX, DX, SI, DI, BP, AX, DS, ES, FS, GS, ORIG_AX, IP, CS, FLAGS, SP, SS
};

static const unsigned Regparm3Args[] = {AX, DX, CX};
static const unsigned RetRegs[] = {AX, DX};

// psABI 2.2: each argument in 4-byte units, no extra alignment.
ArgPlace I386CdeclRule::scalar(ArgCursor &C, unsigned Size, unsigned Align,
                               bool IsFloat) const {
  return ArgPlace::stack(C.takeStack(Size, 4), Size, 4);
}

ArgPlace I386CdeclRule::aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                                  ArrayRef<LayoutLeaf> Leaves) const {
  return ArgPlace::stack(C.takeStack(Size, 4), Size);
}

AggregateReturn I386CdeclRule::aggregateReturn(unsigned Size,
                                               ArrayRef<LayoutLeaf> Leaves) const {
  // i386 psABI 2.2: structures and unions are returned in the caller's
  // buffer, whose address the callee returns in %eax.
  return {AggregateReturn::InMemory, ""};
}

const I386CdeclRule I386Cdecl{};

namespace {
/// GCC/Clang -mregparm=3 (the i386 kernel): eax, edx, ecx, then the stack.
class I386RegparmRule final : public ArgRule {
public:
  ArgPlace scalar(ArgCursor &C, unsigned Size, unsigned Align,
                  bool IsFloat) const override {
    // GCC (function_arg_advance_32) and Clang (X86_32ABIInfo::
    // updateFreeRegs): an integer or pointer takes the next 1 or 2 of
    // eax, edx, ecx; one that does not fit goes to the stack and leaves
    // no register for later arguments. float and double go to the stack
    // and take no register.
    unsigned N = Size > C.W ? 2 : 1;
    if (!IsFloat) {
      if (auto Refused = divergence(C, N))
        return std::move(*Refused);
      if (N <= C.freeRegs()) {
        C.NextReg += N;
        return C.regPieces(C.NextReg - N, N, Size);
      }
      C.NextReg = C.NRegs;
    }
    return ArgPlace::stack(C.takeStack(Size, 4), Size, 4);
  }

  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     ArrayRef<LayoutLeaf> Leaves) const override {
    // Like an integer of its size (GCC: an integer or BLKmode mode; Clang:
    // class Integer), except a structure whose one member is a float or
    // double (GCC: SFmode/DFmode; Clang: class Float), which goes to the
    // stack and takes no register. One that does not fit in the free
    // registers leaves none for later arguments.
    unsigned N = divideCeil(Size, 4);
    bool SingleFloat = isSingleFloat(Size, Leaves);
    if (SingleFloat && Size > 8) {
      // A structure of one long double: GCC (XFmode) passes it on the
      // stack and keeps the registers; Clang (class Integer) passes it
      // in registers if it fits, else on the stack and keeps none.
      if (N <= C.freeRegs())
        return ArgPlace::refuse(
            "with -mregparm=3, GCC passes a structure of one long double on "
            "the stack and Clang in registers; the table cannot know which "
            "compiler built the code");
      if (C.freeRegs())
        C.GccFreeRegs = C.freeRegs(); // the compilers diverge after it
      C.NextReg = C.NRegs;
      return ArgPlace::stack(C.takeStack(Size, 4), Size);
    }
    if (!SingleFloat) {
      if (auto Refused = divergence(C, N))
        return std::move(*Refused);
      if (N <= C.freeRegs()) {
        C.NextReg += N;
        return C.regPieces(C.NextReg - N, N, Size);
      }
      C.NextReg = C.NRegs;
    }
    return ArgPlace::stack(C.takeStack(Size, 4), Size);
  }

  bool floatTravelsAsInteger(const ArgCursor &C, unsigned Size) const override {
    return true;
  }

private:
  /// After the compilers diverged: an argument of N words that GCC would
  /// put in its remaining registers is on the stack for Clang. One that
  /// does not fit there goes to the stack in both, and they agree again.
  static std::optional<ArgPlace> divergence(ArgCursor &C, unsigned N) {
    if (!C.GccFreeRegs)
      return std::nullopt;
    if (N <= C.GccFreeRegs)
      return ArgPlace::refuse("with -mregparm=3 after a structure of one "
                              "long double that did not fit in the "
                              "registers, GCC passes it in a register and "
                              "Clang on the stack; the table cannot know "
                              "which compiler built the code");
    C.GccFreeRegs = 0;
    return std::nullopt;
  }
};
const I386RegparmRule I386Regparm{};
} // namespace

extern const ArchABI ArchI386;
const ArchABI ArchI386 = {
    /*Name=*/"i386",
    /*Aliases=*/"i686,i586,i486,x86_32,ia32",
    /*Reference=*/"arch/x86/include/asm/ptrace.h (x86_32); System V i386 psABI 2.2; gcc -mregparm=3",
    /*PointerSize=*/4,
    /*LongSize=*/4,
    /*LongLongAlign=*/4,
    /*LittleEndian=*/true,
    /*Regs=*/I386Regs,
    /*SPReg=*/SP,
    /*IPReg=*/IP,
    /*KernelCC=*/{"regparm3", Regparm3Args, 4, 4, RetRegs, &I386Regparm,
                  "i386 kernel, -mregparm=3: eax, edx, ecx, then the stack"},
    /*UserCC=*/{"cdecl", {}, 4, 4, RetRegs, &I386Cdecl,
                "System V i386 psABI 2.2: all arguments on the stack"},
    /*DoubleAlign=*/4,
    /*LongDoubleSize=*/12,
    /*LongDoubleAlign=*/4,
    /*CharSigned=*/true,
    /*CompatOf=*/nullptr,
    /*ReturnAddressBytes=*/4,
};

} // namespace bpfprobe
