//===- ArchS390x.cpp - s390x pt_regs and the ELF ABI ----------------------===//
//
/// \file
/// s390x (64-bit, big-endian) as seen by a BPF kprobe/uprobe program.
///
/// The context starts with user_pt_regs (arch/s390/include/uapi/asm/
/// ptrace.h: `unsigned long args[1]; psw_t psw; unsigned long gprs[16];`),
/// "the beginning of the in-kernel pt_regs" (arch/s390/include/asm/ptrace.h);
/// libbpf's bpf_tracing.h casts the context to user_pt_regs. Names follow
/// perf's s390 dwarf-regs ("%r0".."%r15"). DWARF numbers: s390x ELF ABI,
/// "DWARF Definition": r0-r15 0-15.
/// Convention (kernel and user): s390x ELF ABI "Parameter Passing": r2-r6,
/// then the stack from 160(%r15) (past the 160-byte register save area) in
/// 8-byte slots, each value right-justified in its slot (big-endian); ints
/// narrower than 64 bits are extended to 64. Aggregates of 1, 2, 4 or 8
/// bytes are passed like integers of that size; all others by reference (a
/// pointer to a caller-made copy). Return: r2.
//===----------------------------------------------------------------------===//

#include "Target/ArchABI.h"
#include "Target/ArgRule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {

// clang-format off
static const RegInfo S390xRegs[] = {
  // Name          pt_regs  size  DWARF  aliases
  {"args",         0,       8,    -1,    "args0"},
  {"psw.mask",     8,       8,    -1,    "pswmask"},
  {"psw.addr",     16,      8,    -1,    "pswaddr,pc"},
  {"r0",           24,      8,    0,     "gpr0"},
  {"r1",           32,      8,    1,     "gpr1"},
  {"r2",           40,      8,    2,     "gpr2"},
  {"r3",           48,      8,    3,     "gpr3"},
  {"r4",           56,      8,    4,     "gpr4"},
  {"r5",           64,      8,    5,     "gpr5"},
  {"r6",           72,      8,    6,     "gpr6"},
  {"r7",           80,      8,    7,     "gpr7"},
  {"r8",           88,      8,    8,     "gpr8"},
  {"r9",           96,      8,    9,     "gpr9"},
  {"r10",          104,     8,    10,    "gpr10"},
  {"r11",          112,     8,    11,    "gpr11"},
  {"r12",          120,     8,    12,    "gpr12"},
  {"r13",          128,     8,    13,    "gpr13"},
  {"r14",          136,     8,    14,    "gpr14"},
  {"r15",          144,     8,    15,    "gpr15,sp"},
};
// clang-format on

enum : unsigned { ARGS, PSWMASK, PSWADDR, R0, R1, R2, R3, R4, R5, R6, R15 = R0 + 15 };

static const unsigned Args[] = {R2, R3, R4, R5, R6};
static const unsigned RetRegs[] = {R2};

namespace {
/// s390x ELF ABI 1.x, "Parameter Passing".
class S390xRule final : public ArgRule {
public:
  ArgPlace aggregate(ArgCursor &C, unsigned Size, unsigned Align,
                     ArrayRef<LayoutLeaf> Leaves) const override {
    // A structure with exactly one member, a float or double, is passed
    // like that member: in an FP register. Other small aggregates, with
    // floating-point members or not, are passed like integers.
    if (isSingleFloat(Size, Leaves) && (Size == 4 || Size == 8))
      return ArgPlace::refuse("a structure with a single floating-point "
                              "member is passed in an FP register (s390x ELF "
                              "ABI, Parameter Passing), which struct pt_regs "
                              "does not hold");
    if (Size == 1 || Size == 2 || Size == 4 || Size == 8) {
      // Passed as an integer of its size: in the low bytes of a
      // register, or right-justified in a stack slot.
      if (C.freeRegs()) {
        ArgPlace P;
        P.Pieces = true;
        P.Parts.push_back({ArgPart::Reg, C.NextReg++, Size, 0});
        return P;
      }
      return ArgPlace::stack(C.takeStack(8, 8), Size, 8);
    }
    return byReference(C, Size);
  }
};
const S390xRule S390x{};
} // namespace

extern const ArchABI ArchS390x;
const ArchABI ArchS390x = {
    /*Name=*/"s390x",
    /*Aliases=*/"s390,systemz",
    /*Reference=*/"arch/s390/include/uapi/asm/ptrace.h (user_pt_regs); s390x ELF ABI, Parameter Passing",
    /*PointerSize=*/8,
    /*LongSize=*/8,
    /*LongLongAlign=*/8,
    /*LittleEndian=*/false,
    /*Regs=*/S390xRegs,
    /*SPReg=*/R15,
    /*IPReg=*/PSWADDR,
    /*KernelCC=*/{"s390x", Args, 160, 8, RetRegs, &S390x,
                  "s390x ELF ABI, Parameter Passing"},
    /*UserCC=*/{"s390x", Args, 160, 8, RetRegs, &S390x,
                "s390x ELF ABI, Parameter Passing"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/8,
    /*CharSigned=*/false,
};

} // namespace bpfprobe
