//===- CallingConvention.cpp - Resolution without debug info ------------===//
//
/// \file
/// Resolves probes whose arguments are C types (`vfs_write(void *, const
/// char *, long long)`) by the architecture's calling convention at function
/// entry, and register expressions (`%ax`, `$arg2`, `$retval`) anywhere they
/// make sense. The per-architecture facts come from the ArchABI tables;
/// nothing here names a particular architecture.
//===----------------------------------------------------------------------===//

#include "Resolve/Resolver.h"
#include "Resolve/SourceNames.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace bpfprobe {

char ResolveError::ID = 0;

static Hint debugInfoHint() { return {Hint::DebugInfoPath, "", ""}; }
static Hint convHint(StringRef Name) {
  return {Hint::CallConv, Name.str(), ""};
}

/// Fixed-width and POSIX names every kernel and libc program agrees on.
std::optional<ScalarType> wellKnownTypedef(StringRef Name,
                                           const ArchABI &ABI) {
  auto Int = [](unsigned Size, bool Signed) {
    ScalarType T;
    T.Kind = ScalarType::Int;
    T.Size = Size;
    T.Signed = Signed;
    return T;
  };
  StringRef N = Name;
  N.consume_front("__");
  if (N == "u8" || N == "uint8_t") return Int(1, false);
  if (N == "s8" || N == "int8_t") return Int(1, true);
  if (N == "u16" || N == "uint16_t") return Int(2, false);
  if (N == "s16" || N == "int16_t") return Int(2, true);
  if (N == "u32" || N == "uint32_t") return Int(4, false);
  if (N == "s32" || N == "int32_t") return Int(4, true);
  if (N == "u64" || N == "uint64_t") return Int(8, false);
  if (N == "s64" || N == "int64_t") return Int(8, true);
  if (N == "size_t" || N == "uintptr_t" || N == "kernel_size_t")
    return Int(ABI.LongSize, false);
  if (N == "ssize_t" || N == "intptr_t" || N == "ptrdiff_t" ||
      N == "kernel_ssize_t")
    return Int(ABI.LongSize, true);
  if (N == "loff_t" || N == "off64_t")
    return Int(8, true);
  if (N == "size_t" || N == "ssize_t" || N == "uintptr_t" ||
      N == "intptr_t" || N == "ptrdiff_t")
    return std::nullopt; // handled above (with or without "__")
  if (N == "pid_t" || N == "uid_t" || N == "gid_t")
    return Int(4, N == "pid_t");
  return std::nullopt;
}

Expected<std::optional<ScalarType>>
classifyBuiltinCType(const CTypeSpec &T, const ArchABI &ABI) {
  ScalarType Out;
  Out.Text = T.Text;
  if (T.PointerDepth > 0) {
    Out.Kind = ScalarType::Pointer;
    Out.Size = ABI.PointerSize;
    return std::optional<ScalarType>(Out);
  }
  unsigned Longs = 0, Signed = 0, Unsigned = 0, Shorts = 0;
  StringRef Base;
  std::string Other;
  for (size_t I = 0; I < T.Words.size(); ++I) {
    StringRef W = T.Words[I];
    if (W == "const" || W == "volatile" || W == "restrict")
      continue;
    if (W == "long") {
      ++Longs;
    } else if (W == "short") {
      ++Shorts;
    } else if (W == "signed") {
      ++Signed;
    } else if (W == "unsigned") {
      ++Unsigned;
    } else if (W == "struct" || W == "union" || W == "enum") {
      return std::optional<ScalarType>(); // the front end looks the tag up
    } else if (W == "char" || W == "int" || W == "_Bool" || W == "bool" ||
               W == "float" || W == "double" || W == "void" ||
               W == "__int128") {
      if (!Base.empty() && !(Base == "int" || W == "int"))
        return errorAt(T.Range, "invalid type '" + T.Text + "': both '" +
                                    Base + "' and '" + W + "'");
      if (Base.empty() || Base == "int")
        Base = W;
    } else {
      if (!Other.empty())
        return errorAt(T.Range, "invalid type '" + T.Text + "'");
      Other = W.str();
    }
  }
  if (!Other.empty()) {
    if (!Base.empty() || Longs || Shorts || Signed || Unsigned)
      return errorAt(T.Range, "invalid type '" + T.Text + "': '" + Other +
                                  "' is not a type keyword");
    if (auto K = wellKnownTypedef(Other, ABI)) {
      K->Text = T.Text;
      return std::optional<ScalarType>(*K);
    }
    return std::optional<ScalarType>(); // a typedef the front end knows
  }
  if (Signed && Unsigned)
    return errorAt(T.Range,
                   "invalid type '" + T.Text + "': both signed and unsigned");
  if (Longs > 2 || (Longs && Shorts))
    return errorAt(T.Range, "invalid type '" + T.Text + "'");
  bool IsSigned = !Unsigned;
  if (Base == "char") {
    if (Longs || Shorts)
      return errorAt(T.Range, "invalid type '" + T.Text + "'");
    Out.Kind = ScalarType::Int;
    Out.Size = 1;
    // Plain char is the ABI's: signed on x86 and mips, unsigned on arm,
    // aarch64, powerpc, s390x and riscv.
    Out.Signed = Signed ? true : Unsigned ? false : ABI.CharSigned;
  } else if (Base == "_Bool" || Base == "bool") {
    Out.Kind = ScalarType::Bool;
    Out.Size = 1;
  } else if (Base == "float" || Base == "double") {
    Out.Kind = ScalarType::Float;
    Out.Size = Base == "float" ? 4 : (Longs ? ABI.LongDoubleSize : 8);
    Out.Align = Base == "float" ? 4 : Longs ? ABI.LongDoubleAlign : ABI.DoubleAlign;
  } else if (Base == "void") {
    Out.Kind = ScalarType::Void;
  } else if (Base == "__int128") {
    Out.Kind = ScalarType::Int128;
    Out.Size = 16;
    Out.Signed = IsSigned;
  } else {
    Out.Kind = ScalarType::Int;
    Out.Signed = IsSigned;
    Out.Size = Shorts ? 2 : Longs == 2 ? 8 : Longs == 1 ? ABI.LongSize : 4;
    if (Longs == 2)
      Out.Align = ABI.LongLongAlign;
  }
  return std::optional<ScalarType>(Out);
}

ScalarType scalarTypeForFetchType(const FetchTypeSpec &F, const ArchABI &ABI) {
  ScalarType T;
  switch (F.Kind) {
  case FetchTypeSpec::Unsigned:
  case FetchTypeSpec::Signed:
    T.Kind = ScalarType::Int;
    T.Size = F.Bits / 8;
    T.Signed = F.Kind == FetchTypeSpec::Signed;
    T.Text = (T.Signed ? "s" : "u") + std::to_string(F.Bits);
    break;
  case FetchTypeSpec::Hex:
    T.Kind = ScalarType::Int;
    T.Size = F.Bits / 8;
    T.Text = "x" + std::to_string(F.Bits);
    break;
  case FetchTypeSpec::String:
  case FetchTypeSpec::UString:
    T.Kind = ScalarType::Pointer;
    T.Size = ABI.PointerSize;
    T.Text = F.Kind == FetchTypeSpec::String ? "string" : "ustring";
    break;
  }
  return T;
}

std::optional<TextRange> partNeedingDebugInfo(const SpecExpr &E) {
  switch (E.Kind) {
  case SpecExpr::ArgN:
  case SpecExpr::RetVal:
  case SpecExpr::Reg:
    return std::nullopt;
  case SpecExpr::Ident:
  case SpecExpr::Global:
    return E.Range;
  case SpecExpr::Arrow:
  case SpecExpr::Dot:
  case SpecExpr::Index:
  case SpecExpr::Deref:
  case SpecExpr::Method:
    if (auto R = partNeedingDebugInfo(*E.Base))
      return R;
    // A member or element of a register value needs its type from DWARF.
    return E.Range;
  }
  return E.Range;
}

Expected<ValueType> valueTypeFor(const ScalarType &T, const ArchABI &ABI,
                                 TextRange Range) {
  ValueType V;
  switch (T.Kind) {
  case ScalarType::Int:
    V.Kind = ValueType::Int;
    break;
  case ScalarType::Bool:
    V.Kind = ValueType::Bool;
    break;
  case ScalarType::Pointer:
    V.Kind = ValueType::Pointer;
    break;
  case ScalarType::Float:
    return errorAt(Range, "cannot fetch '" + T.Text +
                              "': floating-point arguments are passed in FP "
                              "registers, which struct pt_regs does not hold");
  case ScalarType::Int128:
    return errorAt(Range, "cannot fetch '" + T.Text +
                              "': 128-bit integers are not supported by the "
                              "calling-convention mode; fetch the halves "
                              "with two register arguments");
  case ScalarType::Aggregate:
    if (T.Size == 0)
      return errorAt(Range, "cannot fetch '" + T.Text +
                                "' by value: its size is not known here");
    V.Kind = ValueType::Aggregate;
    V.Size = T.Size;
    return V;
  case ScalarType::Void:
    return errorAt(Range, "'void' is not an argument type; did you mean "
                          "'void *'?");
  }
  if (T.Size == 0 || T.Size > 8 || (T.Size & (T.Size - 1)))
    return errorAt(Range, "cannot fetch '" + T.Text + "': values of " +
                              Twine(T.Size) + " bytes are not scalars");
  V.Size = T.Size;
  V.Signed = T.Signed;
  return V;
}

Expected<ScalarType> scalarTypeFor(const CTypeDesc &T, const ArchABI &ABI) {
  auto L = layoutType(T, ABI);
  if (!L)
    return L.takeError();
  ScalarType S;
  S.Size = L->Size;
  S.Align = L->Align;
  S.Signed = L->Signed;
  switch (T.Kind) {
  case CTypeDesc::Record:
  case CTypeDesc::Union:
  case CTypeDesc::Array:
    S.Kind = ScalarType::Aggregate;
    S.Leaves = std::move(L->Leaves);
    break;
  case CTypeDesc::Bool:
    S.Kind = ScalarType::Bool;
    break;
  case CTypeDesc::Pointer:
    S.Kind = ScalarType::Pointer;
    break;
  case CTypeDesc::Float:
  case CTypeDesc::Double:
  case CTypeDesc::LongDouble:
    S.Kind = ScalarType::Float;
    break;
  case CTypeDesc::Int128:
    S.Kind = ScalarType::Int128;
    break;
  default:
    S.Kind = ScalarType::Int;
    break;
  }
  return S;
}

namespace {
/// The element size of a homogeneous floating-point aggregate of at most
/// MaxMembers members (AAPCS64 5.9.5.1, AAPCS 4.3.5, ELFv2 2.2.4.1): every
/// leaf floating-point, all of one size, packed from offset 0 with no
/// padding (the leaves of a union's members share offsets). 0 if T is not
/// one.
static unsigned homogeneousFloatSize(const ScalarType &T, unsigned MaxMembers) {
  if (T.Leaves.empty())
    return 0;
  unsigned E = T.Leaves.front().Size;
  if (E == 0 || T.Size % E)
    return 0;
  for (const LayoutLeaf &L : T.Leaves)
    if (!L.IsFloat || L.Size != E || L.Offset % E)
      return 0;
  unsigned N = T.Size / E;
  if (N > MaxMembers)
    return 0;
  // Every element position holds a leaf.
  for (unsigned I = 0; I < N; ++I)
    if (llvm::none_of(T.Leaves,
                      [&](const LayoutLeaf &L) { return L.Offset == I * E; }))
      return 0;
  return E;
}

/// A structure or union whose only scalar is one floating-point value that
/// fills it ("struct { double d; }"): s390x and the i386 compilers pass it
/// as that value.
static bool isSingleFloat(const ScalarType &T) {
  return T.Leaves.size() == 1 && T.Leaves[0].IsFloat &&
         T.Leaves[0].Offset == 0 && T.Leaves[0].Size == T.Size;
}

/// Hands out argument locations in order, by one calling convention: the
/// registers of CallingConv::ArgRegs, then the stack above the stack
/// pointer at entry, with the rules of CallingConv::Rule for values wider
/// than a register, aggregates, and alignment. Each method names the
/// psABI clause it implements.
class ArgAllocator {
public:
  ArgAllocator(const ArchABI &ABI, const CallingConv &CC)
      : ABI(ABI), CC(CC), W(ABI.PointerSize), NRegs(CC.ArgRegs.size()) {}

  /// The location of the next argument, of type T (an integer, pointer or
  /// aggregate whose ValueType was accepted); or why it cannot be read.
  Expected<std::unique_ptr<FetchExpr>> next(const ScalarType &T,
                                            TextRange Range) {
    this->Range = Range;
    this->Text = T.Text;
    if (T.Kind == ScalarType::Aggregate)
      return aggregate(T);
    IsFloat = T.Kind == ScalarType::Float;
    return scalar(T.Size, T.Align ? T.Align : T.Size);
  }

  /// Whether a floating-point scalar of Size bytes, placed next, travels
  /// like an integer of its size (so its bits can be fetched) rather than
  /// in an FP register: on the i386 stack and in regparm's stack slots, in
  /// arm base-standard core registers, and in MIPS n64's stack slots (the
  /// ninth argument position on: n64 assigns FP registers by position).
  bool floatTravelsAsInteger(unsigned Size) const {
    if (Size != 4 && Size != 8)
      return false;
    switch (CC.Rule) {
    case ArgRule::I386Stack:
    case ArgRule::I386Regparm:
    case ArgRule::AAPCS32:
      return true;
    case ArgRule::MipsN64:
      return Words >= NRegs;
    default:
      return false;
    }
  }

private:
  const ArchABI &ABI;
  const CallingConv &CC;
  const unsigned W;     ///< bytes in an argument register
  const unsigned NRegs; ///< argument registers
  unsigned NextReg = 0; ///< next free argument register
  unsigned StackOff = 0; ///< bytes of stack arguments so far
  unsigned Words = 0;   ///< ELFv2, n64: doublewords so far, registers included
  bool IsFloat = false; ///< the scalar being placed is floating-point
  /// i386 regparm: after a structure of one long double that did not fit,
  /// Clang has no registers left and GCC still has this many (0: the
  /// compilers agree).
  unsigned GccFreeRegs = 0;
  TextRange Range;
  std::string Text;

  /// i386 regparm after the compilers diverged: an argument of N words that
  /// GCC would put in its remaining registers is on the stack for Clang.
  /// One that does not fit there goes to the stack in both, and they agree
  /// again.
  Error checkRegparmDivergence(unsigned N) {
    if (!GccFreeRegs)
      return Error::success();
    if (N <= GccFreeRegs)
      return refuse("with -mregparm=3 after a structure of one long double "
                    "that did not fit in the registers, GCC passes it in a "
                    "register and Clang on the stack; the table cannot know "
                    "which compiler built the code");
    GccFreeRegs = 0;
    return Error::success();
  }

  Error refuse(const Twine &Why, Hint H = {}) {
    return errorAt(Range, "cannot fetch '" + Text + "': " + Why, std::move(H));
  }

  std::unique_ptr<FetchExpr> reg(unsigned I) {
    return FetchExpr::reg(CC.ArgRegs[I]);
  }
  std::unique_ptr<FetchExpr> stackAddr(unsigned Off) {
    return FetchExpr::add(FetchExpr::reg(ABI.SPReg), CC.StackArgOffset + Off);
  }
  /// A Size-byte value in a stack slot of Slot bytes at Off; right-justified
  /// in its slot on big-endian ABIs.
  std::unique_ptr<FetchExpr> stackValue(unsigned Off, unsigned Size,
                                        unsigned Slot) {
    unsigned Adj = !ABI.LittleEndian && Size < Slot ? Slot - Size : 0;
    return FetchExpr::deref(stackAddr(Off + Adj), Size);
  }
  /// Reserves Size bytes of the stack argument area aligned to Align.
  unsigned takeStack(unsigned Size, unsigned Align) {
    StackOff = alignTo(StackOff, std::max(Align, 1u));
    unsigned Off = StackOff;
    StackOff += alignTo(Size, CC.StackSlotSize);
    return Off;
  }
  /// Size bytes in N registers from First, W bytes each (the last partial).
  std::unique_ptr<FetchExpr> regPieces(unsigned First, unsigned N,
                                       unsigned Size) {
    if (N == 1 && Size == W)
      return reg(First);
    std::vector<std::unique_ptr<FetchExpr>> Parts;
    std::vector<unsigned> Sizes;
    for (unsigned I = 0; I < N; ++I) {
      Parts.push_back(reg(First + I));
      Sizes.push_back(std::min(W, Size - I * W));
    }
    return FetchExpr::pieces(std::move(Parts), std::move(Sizes));
  }
  unsigned freeRegs() const { return NextReg < NRegs ? NRegs - NextReg : 0; }

  /// ELFv2 2.2.3, n64: every argument doubleword has a register (the first
  /// eight) or a stack slot; the stack slot of doubleword N is at
  /// 8*N (ELFv2: the parameter save area shadows the registers) or
  /// 8*(N-8) (n64: no home area).
  unsigned wordStackOff(unsigned Word) const {
    return CC.Rule == ArgRule::PPC64ELFv2 ? 8 * Word : 8 * (Word - NRegs);
  }
  std::unique_ptr<FetchExpr> wordPieces(unsigned Size, unsigned Align) {
    if (Align >= 16)
      Words = alignTo(Words, 2);
    unsigned N = divideCeil(Size, 8);
    std::vector<std::unique_ptr<FetchExpr>> Parts;
    std::vector<unsigned> Sizes;
    for (unsigned I = 0; I < N; ++I) {
      unsigned Wd = Words + I, Sz = std::min(8u, Size - 8 * I);
      if (Wd < NRegs) {
        Parts.push_back(reg(Wd));
        Sizes.push_back(Sz);
        continue;
      }
      // The rest is contiguous memory: one read.
      unsigned Rest = Size - 8 * I;
      Parts.push_back(stackValue(wordStackOff(Wd), Rest, N == 1 ? 8 : Rest));
      Sizes.push_back(Rest);
      break;
    }
    Words += N;
    if (Parts.size() == 1 && Parts[0]->Kind != FetchExpr::Reg)
      return std::move(Parts[0]);
    if (Parts.size() == 1 && Sizes[0] == 8)
      return std::move(Parts[0]);
    return FetchExpr::pieces(std::move(Parts), std::move(Sizes));
  }

  Expected<std::unique_ptr<FetchExpr>> scalar(unsigned Size, unsigned Align) {
    bool Wide = Size > W; // 64-bit on a 32-bit ABI
    switch (CC.Rule) {
    case ArgRule::PPC64ELFv2:
    case ArgRule::MipsN64: {
      // One doubleword: its register, or its stack slot.
      unsigned Wd = Words++;
      if (Wd < NRegs)
        return reg(Wd);
      return stackValue(wordStackOff(Wd), Size, 8);
    }
    case ArgRule::I386Stack:
      // psABI 2.2: each argument in 4-byte units, no extra alignment.
      return stackValue(takeStack(Size, 4), Size, 4);
    case ArgRule::I386Regparm: {
      // GCC (function_arg_advance_32) and Clang (X86_32ABIInfo::
      // updateFreeRegs): an integer or pointer takes the next 1 or 2 of
      // eax, edx, ecx; one that does not fit goes to the stack and leaves
      // no register for later arguments. float and double go to the stack
      // and take no register.
      unsigned N = Wide ? 2 : 1;
      if (!IsFloat) {
        if (Error E = checkRegparmDivergence(N))
          return std::move(E);
        if (N <= freeRegs()) {
          NextReg += N;
          return regPieces(NextReg - N, N, Size);
        }
        NextReg = NRegs;
      }
      return stackValue(takeStack(Size, 4), Size, 4);
    }
    case ArgRule::AAPCS32:
    case ArgRule::AAPCS32VFP:
      if (Wide) {
        // C.3: a double-word-aligned value starts at an even register;
        // C.4: if it does not fit, NCRN = 4 and it goes to the stack,
        // C.6: 8-aligned there.
        NextReg = alignTo(NextReg, 2);
        if (NextReg + 2 <= NRegs) {
          NextReg += 2;
          return regPieces(NextReg - 2, 2, Size);
        }
        NextReg = NRegs;
        return stackValue(takeStack(Size, 8), Size, 8);
      }
      break;
    default:
      if (Wide)
        return refuse("values wider than a register are not handled by " +
                      Twine(CC.RuleRef));
      break;
    }
    if (freeRegs())
      return reg(NextReg++);
    unsigned Slot = std::max(CC.StackSlotSize, unsigned(alignTo(Size, CC.StackSlotSize)));
    return stackValue(takeStack(Slot, std::max(CC.StackSlotSize, Align)), Size,
                      Slot);
  }

  /// A pointer to the caller's copy of an aggregate passed by reference.
  Expected<std::unique_ptr<FetchExpr>> byReference(unsigned Size) {
    auto P = scalar(W, W);
    if (!P)
      return P.takeError();
    return FetchExpr::deref(std::move(*P), Size);
  }

  Expected<std::unique_ptr<FetchExpr>> aggregate(const ScalarType &T) {
    unsigned Size = T.Size, Align = std::max(T.Align, 1u);
    bool HasFloat = llvm::any_of(T.Leaves, [](const LayoutLeaf &L) {
      return L.IsFloat;
    });
    switch (CC.Rule) {
    case ArgRule::SysVX86_64: {
      // 3.2.3: larger than two eightbytes, or with a long double (class
      // X87): MEMORY. Otherwise each eightbyte is INTEGER unless all its
      // members are float (SSE).
      bool X87 = llvm::any_of(T.Leaves, [](const LayoutLeaf &L) {
        return L.IsFloat && L.Size > 8;
      });
      if (Size > 16 || X87)
        return FetchExpr::deref(stackAddr(takeStack(Size, std::max(8u, Align))),
                                Size);
      unsigned N = divideCeil(Size, 8), IntWords = 0;
      bool SSE = false;
      for (unsigned E = 0; E < N; ++E) {
        bool Int = false, Any = false;
        for (const LayoutLeaf &L : T.Leaves)
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
      if (SSE && IntWords <= freeRegs())
        return refuse("an eightbyte of it is of class SSE (System V AMD64 "
                      "psABI 3.2.3) and travels in an XMM register, which "
                      "struct pt_regs does not hold");
      if (!SSE && N <= freeRegs()) {
        NextReg += N;
        return regPieces(NextReg - N, N, Size);
      }
      // "If there are no registers available for any eightbyte of an
      // argument, the whole argument is passed on the stack."
      return FetchExpr::deref(stackAddr(takeStack(Size, std::max(8u, Align))),
                              Size);
    }
    case ArgRule::AAPCS64: {
      // C.2: a homogeneous floating-point aggregate goes to SIMD registers
      // (the first one always does: an earlier floating-point argument
      // would have been refused). Other aggregates with floating-point
      // members are passed like integers (C.9-C.13).
      if (homogeneousFloatSize(T, 4))
        return refuse("it is a homogeneous floating-point aggregate, passed "
                      "in SIMD registers (AAPCS64 5.9.5, 6.8.2 C.2), which "
                      "struct pt_regs does not hold");
      if (Size > 16) // B.4: copied to memory, passed by reference
        return byReference(Size);
      unsigned N = divideCeil(Size, 8);
      if (Align >= 16) // C.10
        NextReg = alignTo(NextReg, 2);
      if (N <= freeRegs()) { // C.12
        NextReg += N;
        return regPieces(NextReg - N, N, Size);
      }
      NextReg = NRegs; // C.13
      return FetchExpr::deref(stackAddr(takeStack(Size, std::max(8u, Align))),
                              Size);
    }
    case ArgRule::AAPCS32:
    case ArgRule::AAPCS32VFP: {
      // VFP variant: a homogeneous aggregate of up to four floats or
      // doubles is a VFP co-processor register candidate (6.1.2.1), passed
      // in s0-s15/d0-d7. Base standard: floats in aggregates are in core
      // registers too, and so are other aggregates in both.
      if (CC.Rule == ArgRule::AAPCS32VFP) {
        unsigned E = homogeneousFloatSize(T, 4);
        if (E == 4 || E == 8)
          return refuse("with the VFP variant of the procedure call standard "
                        "(armhf), a homogeneous floating-point aggregate is "
                        "passed in VFP registers (AAPCS 6.1.2.1, 6.5 C.2), "
                        "which struct pt_regs does not hold; if the program "
                        "is built for the base standard (armel, soft or "
                        "softfp float ABI), ",
                        convHint("aapcs"));
      }
      unsigned N = divideCeil(Size, 4);
      if (Align >= 8) // C.3
        NextReg = alignTo(NextReg, 2);
      if (N <= freeRegs()) {
        NextReg += N;
        return regPieces(NextReg - N, N, Size);
      }
      if (freeRegs() && StackOff == 0) {
        // C.5: split between the remaining core registers and the stack.
        unsigned InRegs = freeRegs() * 4;
        auto Regs = regPieces(NextReg, freeRegs(), InRegs);
        std::vector<std::unique_ptr<FetchExpr>> Parts;
        std::vector<unsigned> Sizes;
        if (Regs->Kind == FetchExpr::Pieces) {
          for (size_t I = 0; I < Regs->Parts.size(); ++I) {
            Parts.push_back(std::move(Regs->Parts[I]));
            Sizes.push_back(Regs->PartSizes[I]);
          }
        } else {
          Parts.push_back(std::move(Regs));
          Sizes.push_back(InRegs);
        }
        Parts.push_back(FetchExpr::deref(stackAddr(takeStack(Size - InRegs, 4)),
                                         Size - InRegs));
        Sizes.push_back(Size - InRegs);
        NextReg = NRegs;
        return FetchExpr::pieces(std::move(Parts), std::move(Sizes));
      }
      NextReg = NRegs; // C.4
      return FetchExpr::deref(
          stackAddr(takeStack(Size, Align >= 8 ? 8 : 4)), Size);
    }
    case ArgRule::RiscvLP64:
    case ArgRule::LoongArchLP64: {
      // Hardware floating-point convention: a structure that flattens
      // (through nested structures and arrays, never unions) to one
      // floating-point value, two, or one and one integer is passed in FP
      // registers (the first such argument always finds them free), the
      // mixed one only while an integer register is also free; anything
      // else by the integer convention.
      bool Union = llvm::any_of(T.Leaves, [](const LayoutLeaf &L) {
        return L.InUnion;
      });
      if (HasFloat && !Union && T.Leaves.size() <= 2 &&
          llvm::all_of(T.Leaves, [&](const LayoutLeaf &L) {
            return L.Size <= W;
          })) {
        bool Mixed = T.Leaves.size() == 2 &&
                     T.Leaves[0].IsFloat != T.Leaves[1].IsFloat;
        if (!Mixed || freeRegs())
          return refuse(Twine("it is passed in FP registers by the hardware "
                              "floating-point convention (") +
                        CC.RuleRef + "), which struct pt_regs does not hold");
      }
      if (Size > 2 * W) // by reference
        return byReference(Size);
      unsigned N = divideCeil(Size, W);
      // (Only variadic arguments with 2*XLEN alignment take an aligned,
      // even-numbered pair; named ones take the next registers.)
      if (N <= freeRegs()) {
        NextReg += N;
        return regPieces(NextReg - N, N, Size);
      }
      if (N == 2 && freeRegs() == 1) {
        // The first half in the last register, the second on the stack.
        std::vector<std::unique_ptr<FetchExpr>> Parts;
        Parts.push_back(reg(NextReg));
        Parts.push_back(FetchExpr::deref(stackAddr(takeStack(Size - W, W)),
                                         Size - W));
        NextReg = NRegs;
        return FetchExpr::pieces(std::move(Parts), {W, Size - W});
      }
      NextReg = NRegs;
      return FetchExpr::deref(stackAddr(takeStack(Size, std::max(W, Align))),
                              Size);
    }
    case ArgRule::S390x: {
      // A structure with exactly one member, a float or double, is passed
      // like that member: in an FP register. Other small aggregates, with
      // floating-point members or not, are passed like integers.
      if (isSingleFloat(T) && (Size == 4 || Size == 8))
        return refuse("a structure with a single floating-point member is "
                      "passed in an FP register (s390x ELF ABI, Parameter "
                      "Passing), which struct pt_regs does not hold");
      if (Size == 1 || Size == 2 || Size == 4 || Size == 8) {
        // Passed as an integer of its size: in the low bytes of a
        // register, or right-justified in a stack slot.
        if (freeRegs()) {
          std::vector<std::unique_ptr<FetchExpr>> Parts;
          Parts.push_back(reg(NextReg++));
          return FetchExpr::pieces(std::move(Parts), {Size});
        }
        return stackValue(takeStack(8, 8), Size, 8);
      }
      return byReference(Size);
    }
    case ArgRule::PPC64ELFv2: {
      // 2.2.4.1: a homogeneous aggregate of up to eight floats or doubles
      // goes to FP registers (the first one always finds them free); other
      // aggregates occupy doublewords like integers.
      unsigned E = homogeneousFloatSize(T, 8);
      bool Wide = llvm::any_of(T.Leaves, [](const LayoutLeaf &L) {
        return L.IsFloat && L.Size > 8;
      });
      if (E || Wide)
        return refuse("it is a homogeneous floating-point aggregate, passed "
                      "in FP registers (64-bit ELF V2 ABI 2.2.4.1), which "
                      "struct pt_regs does not hold");
      return wordPieces(Size, Align);
    }
    case ArgRule::MipsN64: {
      // A doubleword of a structure that is one of its own double members
      // goes to the FP register of its argument position while one is left
      // (the first eight doublewords); the rest, float and long double
      // members, doubles in nested structures or arrays, and unions,
      // occupies doublewords like integers (GCC mips_function_arg: direct
      // FIELD_DECLs of a RECORD_TYPE; Clang MipsABIInfo::HandleAggregates).
      unsigned Start = Align >= 16 ? unsigned(alignTo(Words, 2)) : Words;
      for (const LayoutLeaf &L : T.Leaves)
        if (L.IsFloat && L.Direct && L.Size == 8 && L.Offset % 8 == 0 &&
            Start + L.Offset / 8 < NRegs)
          return refuse("a doubleword of it that is a double is passed in an "
                        "FP register (MIPS n64 ABI, chapter 3), which struct "
                        "pt_regs does not hold");
      return wordPieces(Size, Align);
    }
    case ArgRule::I386Stack:
      return FetchExpr::deref(stackAddr(takeStack(Size, 4)), Size);
    case ArgRule::I386Regparm: {
      // Like an integer of its size (GCC: an integer or BLKmode mode; Clang:
      // class Integer), except a structure whose one member is a float or
      // double (GCC: SFmode/DFmode; Clang: class Float), which goes to the
      // stack and takes no register. One that does not fit in the free
      // registers leaves none for later arguments.
      unsigned N = divideCeil(Size, 4);
      if (isSingleFloat(T) && Size > 8) {
        // A structure of one long double: GCC (XFmode) passes it on the
        // stack and keeps the registers; Clang (class Integer) passes it
        // in registers if it fits, else on the stack and keeps none.
        if (N <= freeRegs())
          return refuse("with -mregparm=3, GCC passes a structure of one "
                        "long double on the stack and Clang in registers; "
                        "the table cannot know which compiler built the code");
        if (freeRegs())
          GccFreeRegs = freeRegs(); // the compilers diverge after it
        NextReg = NRegs;
        return FetchExpr::deref(stackAddr(takeStack(Size, 4)), Size);
      }
      if (!isSingleFloat(T)) {
        if (Error E = checkRegparmDivergence(N))
          return std::move(E);
        if (N <= freeRegs()) {
          NextReg += N;
          return regPieces(NextReg - N, N, Size);
        }
        NextReg = NRegs;
      }
      return FetchExpr::deref(stackAddr(takeStack(Size, 4)), Size);
    }
    }
    return refuse("unknown calling convention rule");
  }
};
} // namespace

Expected<SitePlan> resolveWithoutDebugInfo(const ProbeSpec &Spec,
                                           ArrayRef<ArgInput> Inputs,
                                           const ArchABI &ABI,
                                           StringRef ConvName) {
  SitePlan Site = sitePlanAtSymbol(Spec, ABI, "cc");

  if (Spec.Place.Form != ProbePlace::SymbolOffset) {
    TextRange R = Spec.Place.Form == ProbePlace::SymbolRelLine
                      ? Spec.Place.LineRange
                      : Spec.Place.FileRange;
    return errorAt(R, "source-line probes need debug info: ",
                   debugInfoHint());
  }

  if (Spec.Place.SourceName)
    return errorAt(Spec.Place.SymbolRange,
                   "a C++ or Rust source name is matched on the binary's "
                   "demangled symbols, which needs it opened with its debug "
                   "info; without debug info write the mangled symbol ('" +
                       Spec.Place.Symbol + "' as in `nm`): ",
                   debugInfoHint());
  if (Error E = checkItaniumSignature(Spec, Inputs))
    return std::move(E);

  if (ABI.CompatOf && !isUserProbe(Spec.Kind))
    return errorAt(Spec.Place.SymbolRange,
                   Twine("'") + ABI.Name + "' describes 32-bit user tasks "
                       "under a 64-bit kernel; kernel probes there use '" +
                       ABI.CompatOf + "'");
  const CallingConv *CCP = &ABI.conv(isUserProbe(Spec.Kind));
  if (!ConvName.empty()) {
    CCP = ABI.findConv(ConvName);
    if (!CCP)
      return errorAt(Spec.Place.SymbolRange,
                     "unknown calling convention '" + ConvName + "' for " +
                         ABI.Name + "; known: kernel, user, " +
                         ABI.convNames());
  }
  const CallingConv &CC = *CCP;
  ArgAllocator Alloc(ABI, CC);
  bool AtEntry = Spec.Place.Offset == 0 && !isReturnProbe(Spec.Kind);
  std::string Where = Spec.Place.Symbol;
  if (Spec.Place.Offset)
    Where += "+" + std::to_string(Spec.Place.Offset);

  // $argN is by position, counting register-sized arguments (the kernel's
  // regs_get_kernel_argument() does the same); "$arg8" reads the stack.
  auto ArgLocation = [&](unsigned N, unsigned Size,
                         TextRange R) -> Expected<std::unique_ptr<FetchExpr>> {
    ArgAllocator A(ABI, CC);
    ScalarType Word;
    Word.Kind = ScalarType::Int;
    Word.Size = ABI.PointerSize;
    Word.Text = "$arg";
    for (unsigned I = 1; I < N; ++I)
      if (auto E = A.next(Word, R); !E)
        return E.takeError();
    Word.Size = Size;
    return A.next(Word, R);
  };

  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ProbeArg &Arg = Spec.Args[I];
    const ArgInput &In = Inputs[I];
    ArgPlan P;
    P.Name = In.ParamName;
    P.Text = Arg.Text;
    P.CType = In.Type.Text;

    if (Arg.Form == ProbeArg::CType) {
      if (isReturnProbe(Spec.Kind))
        return errorAt(Arg.Range,
                       "a return probe cannot fetch arguments by the calling "
                       "convention: argument registers are clobbered at "
                       "return; use '$retval' for the return value");
      if (!AtEntry)
        return errorAt(Arg.Range,
                       "arguments by type are only known at function entry, "
                       "not at " + Where +
                           "; fetch names with debug info: ",
                       debugInfoHint());
      // Floating-point arguments: where the ABI passes them like integers
      // (on the i386 stack, in arm base-standard core registers, in n64's
      // stack slots) their bits are fetched as an unsigned integer, shown
      // in hex; elsewhere they are in FP registers and refused by name.
      bool FloatBits = In.Type.Kind == ScalarType::Float &&
                       Alloc.floatTravelsAsInteger(In.Type.Size);
      if (In.Type.Kind == ScalarType::Float && !FloatBits) {
        if (In.Type.Size != 4 && In.Type.Size != 8)
          return errorAt(Arg.Range,
                         "cannot fetch '" + In.Type.Text + "': only 32- and "
                             "64-bit floating-point values are fetched (as "
                             "their bits)");
        if (CC.Rule == ArgRule::AAPCS32VFP)
          return errorAt(Arg.Range,
                         "cannot fetch '" + In.Type.Text +
                             "': with the VFP variant of the procedure call "
                             "standard (armhf) it is passed in a VFP register "
                             "(AAPCS 6.1.2, 6.5 C.1), which struct pt_regs "
                             "does not hold; if the program is built for the "
                             "base standard (armel, soft or softfp float "
                             "ABI), ",
                         convHint("aapcs"));
        return errorAt(Arg.Range,
                       "cannot fetch '" + In.Type.Text +
                           "': floating-point arguments are passed in FP "
                           "registers (" + CC.RuleRef +
                           "), which struct pt_regs does not hold");
      }
      ScalarType LocType = In.Type;
      if (FloatBits) {
        P.Type.Kind = ValueType::Pointer; // the bits, printed as hex
        P.Type.Size = In.Type.Size;
        P.Type.Signed = false;
      } else {
        auto VT = valueTypeFor(In.Type, ABI, Arg.Range);
        if (!VT)
          return VT.takeError();
        P.Type = *VT;
      }
      auto Loc = Alloc.next(LocType, Arg.Range);
      if (!Loc)
        return Loc.takeError();
      P.Expr = std::move(*Loc);
      Site.Args.push_back(std::move(P));
      continue;
    }

    const SpecExpr &E = *Arg.Expr;
    if (auto R = partNeedingDebugInfo(E))
      return errorAt(*R, "'" + Spec.Text.substr(R->Begin, R->End - R->Begin) +
                             "' needs debug info: ",
                     debugInfoHint());
    // Where the return value is, before whether its type can be fetched:
    // the answer (or refusal) is the DWARF resolver's too.
    std::optional<ReturnLocation> Ret;
    if (E.Kind == SpecExpr::RetVal) {
      if (Error Err = checkRetvalPlace(Spec, E))
        return std::move(Err);
      auto L = returnValueLocation(In.Type, ABI, CC, E.Range);
      if (!L)
        return L.takeError();
      Ret = std::move(*L);
    }
    auto VT = valueTypeFor(In.Type, ABI, Arg.Range);
    if (!VT)
      return VT.takeError();
    P.Type = *VT;
    if (Arg.FetchType && Arg.FetchType->Kind == FetchTypeSpec::Hex)
      P.Type.Kind = ValueType::Pointer; // printed as hex
    if (Arg.FetchType && (Arg.FetchType->Kind == FetchTypeSpec::String ||
                          Arg.FetchType->Kind == FetchTypeSpec::UString)) {
      // The value is the string's address; the prologue copies up to
      // StringFetchSize bytes of it.
      P.Type.Kind = ValueType::String;
      P.Type.Size = StringFetchSize;
      // In a uprobe every read is of user memory; ":ustring" matters in
      // kprobes.
      P.Type.UserString = Arg.FetchType->Kind == FetchTypeSpec::UString &&
                          !isUserProbe(Spec.Kind);
    }
    switch (E.Kind) {
    case SpecExpr::Reg: {
      auto R = registerOf(E, ABI);
      if (!R)
        return R.takeError();
      P.Expr = FetchExpr::reg(*R);
      break;
    }
    case SpecExpr::ArgN:
      if (Error Err = checkArgPlace(Spec, E))
        return std::move(Err);
      if (!AtEntry)
        return errorAt(E.Range, "'$arg" + Twine(E.Number) +
                                    "' is only known at function entry, not "
                                    "at " + Where);
    {
      unsigned Size =
          P.Type.Kind == ValueType::String ? ABI.PointerSize : P.Type.Size;
      if (Size > ABI.PointerSize)
        return errorAt(E.Range,
                       "'$arg" + Twine(E.Number) + "' is one " +
                           Twine(ABI.PointerSize * 8) + "-bit argument slot on " +
                           ABI.Name + ", too narrow for a " + Twine(Size * 8) +
                           "-bit value; fetch wider arguments by their C types "
                           "(calling-convention mode)");
      auto Loc = ArgLocation(E.Number, Size, E.Range);
      if (!Loc)
        return Loc.takeError();
      P.Expr = std::move(*Loc);
      break;
    }
    case SpecExpr::RetVal:
      P.Expr = Ret->Kind == ReturnLocation::InMemory
                   ? FetchExpr::deref(std::move(Ret->Expr), P.Type.Size)
                   : std::move(Ret->Expr);
      break;
    default:
      return errorAt(E.Range, "unsupported expression");
    }
    Site.Args.push_back(std::move(P));
  }
  if (Error E = checkStackBudget(Site, Spec))
    return std::move(E);
  return std::move(Site);
}

} // namespace bpfprobe

namespace bpfprobe {

Expected<std::vector<std::unique_ptr<FetchExpr>>>
entryArgumentLocations(ArrayRef<ScalarType> Params, const ArchABI &ABI,
                       const CallingConv &CC, ArrayRef<TextRange> Ranges) {
  ArgAllocator Alloc(ABI, CC);
  std::vector<std::unique_ptr<FetchExpr>> Out;
  for (size_t I = 0; I < Params.size(); ++I) {
    TextRange R = I < Ranges.size() ? Ranges[I] : TextRange{};
    if (Params[I].Kind == ScalarType::Float &&
        !Alloc.floatTravelsAsInteger(Params[I].Size))
      return errorAt(R, "cannot fetch '" + Params[I].Text +
                            "': floating-point arguments are passed in FP "
                            "registers (" + CC.RuleRef +
                            "), which struct pt_regs does not hold");
    auto Loc = Alloc.next(Params[I], R);
    if (!Loc)
      return Loc.takeError();
    Out.push_back(std::move(*Loc));
  }
  return std::move(Out);
}

} // namespace bpfprobe
