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
#include "Target/ArchABI.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace bpfprobe {

char ResolveError::ID = 0;

static Error errorAt(TextRange R, const Twine &Msg) {
  return make_error<ResolveError>(R, Msg.str());
}

/// Fixed-width and POSIX names every kernel and libc program agrees on.
static std::optional<ScalarType> wellKnownTypedef(StringRef Name,
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
    // Plain char is signed on x86; the ABI table does not vary this yet.
    Out.Signed = IsSigned;
  } else if (Base == "_Bool" || Base == "bool") {
    Out.Kind = ScalarType::Bool;
    Out.Size = 1;
  } else if (Base == "float" || Base == "double") {
    Out.Kind = ScalarType::Float;
    Out.Size = Base == "float" ? 4 : (Longs ? 16 : 8);
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
    return errorAt(Range,
                   "cannot fetch '" + T.Text +
                       "' by value: structs and unions passed by value need "
                       "debug info; declare the parameter as a pointer type");
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

namespace {
/// Hands out argument locations in order, by one calling convention.
class ArgAllocator {
public:
  ArgAllocator(const ArchABI &ABI, const CallingConv &CC) : ABI(ABI), CC(CC) {}

  /// Location of the next argument of Size bytes (<= a register).
  std::unique_ptr<FetchExpr> next(unsigned Size) {
    if (NextReg < CC.ArgRegs.size())
      return FetchExpr::reg(CC.ArgRegs[NextReg++]);
    unsigned Off = CC.StackArgOffset + NextStack * CC.StackSlotSize;
    ++NextStack;
    return FetchExpr::deref(FetchExpr::add(FetchExpr::reg(ABI.SPReg), Off),
                            Size);
  }

private:
  const ArchABI &ABI;
  const CallingConv &CC;
  unsigned NextReg = 0;
  unsigned NextStack = 0;
};
} // namespace

Expected<SitePlan> resolveWithoutDebugInfo(const ProbeSpec &Spec,
                                           ArrayRef<ArgInput> Inputs,
                                           const ArchABI &ABI) {
  SitePlan Site;
  Site.Kind = probeKindName(Spec.Kind).str();
  Site.Target = Spec.Binary;
  Site.Symbol = Spec.Place.Symbol;
  Site.Offset = Spec.Place.Offset;
  Site.Arch = ABI.Name;
  Site.Source = "cc";
  Site.Spec = Spec.Text;
  Site.Section = Spec.sectionName();
  Site.Space = isUserProbe(Spec.Kind) ? AddrSpace::User : AddrSpace::Kernel;

  if (Spec.Place.Form != ProbePlace::SymbolOffset) {
    TextRange R = Spec.Place.Form == ProbePlace::SymbolRelLine
                      ? Spec.Place.LineRange
                      : Spec.Place.FileRange;
    return errorAt(R, "source-line probes need debug info: pass "
                      "-fplugin-arg-bpfprobe-debuginfo=PATH");
  }

  const CallingConv &CC = ABI.conv(isUserProbe(Spec.Kind));
  ArgAllocator Alloc(ABI, CC);
  bool AtEntry = Spec.Place.Offset == 0 && !isReturnProbe(Spec.Kind);
  std::string Where = Spec.Place.Symbol;
  if (Spec.Place.Offset)
    Where += "+" + std::to_string(Spec.Place.Offset);

  // $argN is by position; compute the location of every position first so
  // that "$arg8" knows where the stack starts.
  auto ArgLocation = [&](unsigned N, unsigned Size) {
    ArgAllocator A(ABI, CC);
    std::unique_ptr<FetchExpr> E;
    for (unsigned I = 1; I <= N; ++I)
      E = A.next(Size);
    return E;
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
                           "; fetch names with debug info: pass "
                           "-fplugin-arg-bpfprobe-debuginfo=PATH");
      auto VT = valueTypeFor(In.Type, ABI, Arg.Range);
      if (!VT)
        return VT.takeError();
      P.Type = *VT;
      P.Expr = Alloc.next(P.Type.Size);
      Site.Args.push_back(std::move(P));
      continue;
    }

    const SpecExpr &E = *Arg.Expr;
    if (auto R = partNeedingDebugInfo(E))
      return errorAt(*R, "'" + Spec.Text.substr(R->Begin, R->End - R->Begin) +
                             "' needs debug info: pass "
                             "-fplugin-arg-bpfprobe-debuginfo=PATH");
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
      int R = ABI.findReg(E.Name);
      if (R < 0)
        return errorAt(E.NameRange, "unknown register '%" + E.Name + "' on " +
                                        ABI.Name + "; registers: " +
                                        ABI.regNames());
      P.Expr = FetchExpr::reg(R);
      break;
    }
    case SpecExpr::ArgN:
      if (isReturnProbe(Spec.Kind))
        return errorAt(E.Range, "'$arg" + Twine(E.Number) +
                                    "' is not available in a return probe: "
                                    "argument registers are clobbered at "
                                    "return");
      if (!AtEntry)
        return errorAt(E.Range, "'$arg" + Twine(E.Number) +
                                    "' is only known at function entry, not "
                                    "at " + Where);
      P.Expr = ArgLocation(E.Number, P.Type.Size);
      break;
    case SpecExpr::RetVal:
      if (!isReturnProbe(Spec.Kind))
        return errorAt(E.Range, "'$retval' is only available in kretprobe "
                                "and uretprobe probes");
      P.Expr = FetchExpr::reg(CC.RetRegs[0]);
      break;
    default:
      return errorAt(E.Range, "unsupported expression");
    }
    Site.Args.push_back(std::move(P));
  }
  if (Site.stackBytes() > PrologueStackBudget)
    return errorAt(Spec.ArgListRange,
                   "the prologue needs " + Twine(Site.stackBytes()) +
                       " bytes of BPF stack, more than its budget of " +
                       Twine(PrologueStackBudget));
  return std::move(Site);
}

} // namespace bpfprobe
