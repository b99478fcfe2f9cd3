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
    /*KernelCC=*/{"sysv", SysVArgs, 8, 8, SysVRet, ArgRule::SysVX86_64,
                  "System V AMD64 psABI 3.2.3"},
    /*UserCC=*/{"sysv", SysVArgs, 8, 8, SysVRet, ArgRule::SysVX86_64,
                "System V AMD64 psABI 3.2.3"},
    /*DoubleAlign=*/8,
    /*LongDoubleSize=*/16,
    /*LongDoubleAlign=*/16,
    /*CharSigned=*/true,
    /*CompatOf=*/nullptr,
    /*ReturnAddressBytes=*/8,
};

} // namespace bpfprobe
