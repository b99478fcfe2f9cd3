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
#include "Target/ArgRule.h"

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
std::optional<ValueType> wellKnownTypedef(StringRef Name,
                                           const ArchABI &ABI) {
  auto Int = [](unsigned Size, bool Signed) {
    ValueType T;
    T.Kind = ValueType::Int;
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

void decideArgForms(ProbeSpec &Spec, const ArchABI &ABI,
                    function_ref<bool(StringRef)> IsDeclaredType) {
  bool OthersAreTypes = llvm::any_of(
      Spec.Args, [](const ProbeArg &A) { return A.Form == ProbeArg::CType; });
  for (ProbeArg &Arg : Spec.Args) {
    if (Arg.Form != ProbeArg::IdentOrType)
      continue;
    StringRef Name = Arg.Type.Words.front();
    bool IsType = OthersAreTypes || wellKnownTypedef(Name, ABI).has_value() ||
                  IsDeclaredType(Name);
    Arg.Form = IsType ? ProbeArg::CType : ProbeArg::Expression;
  }
}

Expected<std::optional<ValueType>>
classifyBuiltinCType(const CTypeSyntax &T, const ArchABI &ABI) {
  ValueType Out;
  Out.Text = T.Text;
  if (T.PointerDepth > 0) {
    Out.Kind = ValueType::Pointer;
    Out.Size = ABI.PointerSize;
    return std::optional<ValueType>(Out);
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
      return std::optional<ValueType>(); // the front end looks the tag up
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
      return std::optional<ValueType>(*K);
    }
    return std::optional<ValueType>(); // a typedef the front end knows
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
    Out.Kind = ValueType::Int;
    Out.Size = 1;
    // Plain char is the ABI's: signed on x86 and mips, unsigned on arm,
    // aarch64, powerpc, s390x and riscv.
    Out.Signed = Signed ? true : Unsigned ? false : ABI.CharSigned;
  } else if (Base == "_Bool" || Base == "bool") {
    Out.Kind = ValueType::Bool;
    Out.Size = 1;
  } else if (Base == "float" || Base == "double") {
    Out.Kind = ValueType::Float;
    Out.Size = Base == "float" ? 4 : (Longs ? ABI.LongDoubleSize : 8);
    Out.Align = Base == "float" ? 4 : Longs ? ABI.LongDoubleAlign : ABI.DoubleAlign;
  } else if (Base == "void") {
    Out.Kind = ValueType::Void;
  } else if (Base == "__int128") {
    Out.Kind = ValueType::Int128;
    Out.Size = 16;
    Out.Signed = IsSigned;
  } else {
    Out.Kind = ValueType::Int;
    Out.Signed = IsSigned;
    Out.Size = Shorts ? 2 : Longs == 2 ? 8 : Longs == 1 ? ABI.LongSize : 4;
    if (Longs == 2)
      Out.Align = ABI.LongLongAlign;
  }
  return std::optional<ValueType>(Out);
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

Expected<ValueType> fetchedType(const ValueType &T, const ArchABI &ABI,
                                TextRange Range) {
  ValueType V;
  V.Kind = T.Kind;
  switch (T.Kind) {
  case ValueType::Int:
  case ValueType::Bool:
  case ValueType::Pointer:
    break;
  case ValueType::Float:
    return errorAt(Range, "cannot fetch '" + T.Text +
                              "': floating-point arguments are passed in FP "
                              "registers, which struct pt_regs does not hold");
  case ValueType::Int128:
    return errorAt(Range, "cannot fetch '" + T.Text +
                              "': 128-bit integers are not supported by the "
                              "calling-convention mode; fetch the halves "
                              "with two register arguments");
  case ValueType::String:
  case ValueType::Aggregate:
    if (T.Size == 0)
      return errorAt(Range, "cannot fetch '" + T.Text +
                                "' by value: its size is not known here");
    V.Size = T.Size;
    return V;
  case ValueType::Void:
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
/// Hands out argument locations in order, by one calling convention: the
/// registers of CallingConv::ArgRegs, then the stack above the stack
/// pointer at entry. Where each argument goes is the convention's psABI
/// rule's to say (CallingConv::Rule, beside the architecture's table); this
/// class turns the places it names into fetch expressions.
class ArgAllocator {
public:
  ArgAllocator(const ArchABI &ABI, const CallingConv &CC)
      : ABI(ABI), CC(CC), Cursor(ABI, CC) {}

  /// The location of the next argument, of type T (an integer, pointer or
  /// aggregate whose ValueType was accepted); or why it cannot be read.
  Expected<std::unique_ptr<FetchExpr>> next(const ValueType &T,
                                            TextRange Range) {
    ArgPlace P =
        T.Kind == ValueType::Aggregate
            ? CC.Rule->aggregate(Cursor, T.Size, std::max(T.Align, 1u),
                                 T.Leaves)
            : CC.Rule->scalar(Cursor, T.Size, T.Align ? T.Align : T.Size,
                              T.Kind == ValueType::Float);
    if (P.refused())
      return errorAt(Range, "cannot fetch '" + T.Text + "': " + P.Refusal,
                     P.TryConv ? convHint(P.TryConv) : Hint{});
    return expr(P);
  }

  /// Whether a floating-point scalar of Size bytes, placed next, travels
  /// like an integer of its size (so its bits can be fetched) rather than
  /// in an FP register.
  bool floatTravelsAsInteger(unsigned Size) const {
    return (Size == 4 || Size == 8) &&
           CC.Rule->floatTravelsAsInteger(Cursor, Size);
  }

private:
  const ArchABI &ABI;
  const CallingConv &CC;
  ArgCursor Cursor;

  /// A register, or a value in the stack argument area (right-justified in
  /// its slot on big-endian ABIs).
  std::unique_ptr<FetchExpr> part(const ArgPart &P) const {
    if (P.Kind == ArgPart::Reg)
      return FetchExpr::reg(CC.ArgRegs[P.Index]);
    unsigned Adj = !ABI.LittleEndian && P.Size < P.Slot ? P.Slot - P.Size : 0;
    return FetchExpr::deref(FetchExpr::add(FetchExpr::reg(ABI.SPReg),
                                           CC.StackArgOffset + P.Index + Adj),
                            P.Size);
  }

  std::unique_ptr<FetchExpr> expr(const ArgPlace &P) const {
    std::unique_ptr<FetchExpr> E;
    if (P.Pieces) {
      std::vector<std::unique_ptr<FetchExpr>> Parts;
      std::vector<unsigned> Sizes;
      for (const ArgPart &A : P.Parts) {
        Parts.push_back(part(A));
        Sizes.push_back(A.Size);
      }
      E = FetchExpr::pieces(std::move(Parts), std::move(Sizes));
    } else {
      E = part(P.Parts.front());
    }
    if (P.ByReference)
      E = FetchExpr::deref(std::move(E), P.ByReference);
    return E;
  }
};
} // namespace

/// What the calling-convention mode cannot do at this place at all: source
/// lines, source names, kernel probes with a compat table.
static Error checkPlaceWithoutDebugInfo(const ProbeSpec &Spec,
                                        ArrayRef<ArgInput> Inputs,
                                        const ArchABI &ABI) {
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
    return E;

  if (ABI.CompatOf && !isUserProbe(Spec.Kind))
    return errorAt(Spec.Place.SymbolRange,
                   Twine("'") + ABI.Name + "' describes 32-bit user tasks "
                       "under a 64-bit kernel; kernel probes there use '" +
                       ABI.CompatOf + "'");
  return Error::success();
}

/// The probe kind's default convention, or the one named by ConvName.
static Expected<const CallingConv *>
selectConvention(const ProbeSpec &Spec, const ArchABI &ABI,
                 StringRef ConvName) {
  const CallingConv *CCP = &ABI.conv(isUserProbe(Spec.Kind));
  if (!ConvName.empty()) {
    CCP = ABI.findConv(ConvName);
    if (!CCP)
      return errorAt(Spec.Place.SymbolRange,
                     "unknown calling convention '" + ConvName + "' for " +
                         ABI.Name + "; known: kernel, user, " +
                         ABI.convNames());
  }
  return CCP;
}

namespace {
/// One site planned by the calling convention: the allocator for the
/// arguments by type, in order, and what every argument's plan needs.
struct ConvSite {
  const ProbeSpec &Spec;
  const ArchABI &ABI;
  const CallingConv &CC;
  ArgAllocator Alloc;
  bool AtEntry;
  std::string Where;

  ConvSite(const ProbeSpec &Spec, const ArchABI &ABI, const CallingConv &CC)
      : Spec(Spec), ABI(ABI), CC(CC), Alloc(ABI, CC),
        AtEntry(Spec.Place.Offset == 0 && !isReturnProbe(Spec.Kind)),
        Where(Spec.Place.Symbol) {
    if (Spec.Place.Offset)
      Where += "+" + std::to_string(Spec.Place.Offset);
  }

  Error planByType(const ProbeArg &Arg, const ArgInput &In, ArgPlan &P);
  Error planRegisterExpr(const ProbeArg &Arg, const ArgInput &In, ArgPlan &P);
  Expected<std::unique_ptr<FetchExpr>> argSlot(unsigned N, unsigned Size,
                                               TextRange R);
};
} // namespace

// $argN is by position, counting register-sized arguments (the kernel's
// regs_get_kernel_argument() does the same); "$arg8" reads the stack.
Expected<std::unique_ptr<FetchExpr>>
ConvSite::argSlot(unsigned N, unsigned Size, TextRange R) {
  ArgAllocator A(ABI, CC);
  ValueType Word;
  Word.Kind = ValueType::Int;
  Word.Size = ABI.PointerSize;
  Word.Text = "$arg";
  for (unsigned I = 1; I < N; ++I)
    if (auto E = A.next(Word, R); !E)
      return E.takeError();
  Word.Size = Size;
  return A.next(Word, R);
}

/// An argument given by its C type: the next location of the convention.
Error ConvSite::planByType(const ProbeArg &Arg, const ArgInput &In,
                           ArgPlan &P) {
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
  bool FloatBits = In.Type.Kind == ValueType::Float &&
                   Alloc.floatTravelsAsInteger(In.Type.Size);
  if (In.Type.Kind == ValueType::Float && !FloatBits) {
    if (In.Type.Size != 4 && In.Type.Size != 8)
      return errorAt(Arg.Range,
                     "cannot fetch '" + In.Type.Text + "': only 32- and "
                         "64-bit floating-point values are fetched (as "
                         "their bits)");
    ArgPlace Why = CC.Rule->floatInFPRegister(CC);
    return errorAt(Arg.Range,
                   "cannot fetch '" + In.Type.Text + "': " + Why.Refusal,
                   Why.TryConv ? convHint(Why.TryConv) : Hint{});
  }
  ValueType LocType = In.Type;
  if (FloatBits) {
    P.Type.Kind = ValueType::Pointer; // the bits, printed as hex
    P.Type.Size = In.Type.Size;
    P.Type.Signed = false;
  } else {
    auto VT = fetchedType(In.Type, ABI, Arg.Range);
    if (!VT)
      return VT.takeError();
    P.Type = *VT;
  }
  auto Loc = Alloc.next(LocType, Arg.Range);
  if (!Loc)
    return Loc.takeError();
  P.Expr = std::move(*Loc);
  return Error::success();
}

/// A register, '$argN' or '$retval'.
Error ConvSite::planRegisterExpr(const ProbeArg &Arg, const ArgInput &In,
                                 ArgPlan &P) {
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
      return Err;
    auto L = returnValueLocation(In.Type, ABI, CC, E.Range);
    if (!L)
      return L.takeError();
    Ret = std::move(*L);
  }
  auto VT = fetchedType(In.Type, ABI, Arg.Range);
  if (!VT)
    return VT.takeError();
  P.Type = *VT;
  if (Arg.FetchType && Arg.FetchType->Kind == ValueType::Pointer)
    P.Type.Kind = ValueType::Pointer; // printed as hex
  if (Arg.FetchType && Arg.FetchType->Kind == ValueType::String) {
    // The value is the string's address; the prologue copies up to
    // StringFetchSize bytes of it.
    P.Type.Kind = ValueType::String;
    P.Type.Size = StringFetchSize;
    // In a uprobe every read is of user memory; ":ustring" matters in
    // kprobes.
    P.UserString = Arg.FetchUserString && !isUserProbe(Spec.Kind);
  }
  switch (E.Kind) {
  case SpecExpr::Reg: {
    auto R = registerOf(E, ABI);
    if (!R)
      return R.takeError();
    P.Expr = FetchExpr::reg(*R);
    return Error::success();
  }
  case SpecExpr::ArgN: {
    if (Error Err = checkArgPlace(Spec, E))
      return Err;
    if (!AtEntry)
      return errorAt(E.Range, "'$arg" + Twine(E.Number) +
                                  "' is only known at function entry, not "
                                  "at " + Where);
    unsigned Size =
        P.Type.Kind == ValueType::String ? ABI.PointerSize : P.Type.Size;
    if (Size > ABI.PointerSize)
      return errorAt(E.Range,
                     "'$arg" + Twine(E.Number) + "' is one " +
                         Twine(ABI.PointerSize * 8) + "-bit argument slot on " +
                         ABI.Name + ", too narrow for a " + Twine(Size * 8) +
                         "-bit value; fetch wider arguments by their C types "
                         "(calling-convention mode)");
    auto Loc = argSlot(E.Number, Size, E.Range);
    if (!Loc)
      return Loc.takeError();
    P.Expr = std::move(*Loc);
    return Error::success();
  }
  case SpecExpr::RetVal:
    P.Expr = Ret->Kind == ReturnLocation::InMemory
                 ? FetchExpr::deref(std::move(Ret->Expr), P.Type.Size)
                 : std::move(Ret->Expr);
    return Error::success();
  default:
    return errorAt(E.Range, "unsupported expression");
  }
}

Expected<SitePlan> resolveWithoutDebugInfo(const ProbeSpec &Spec,
                                           ArrayRef<ArgInput> Inputs,
                                           const ArchABI &ABI,
                                           StringRef ConvName) {
  SitePlan Site = sitePlanAtSymbol(Spec, ABI, "cc");
  if (Error E = checkPlaceWithoutDebugInfo(Spec, Inputs, ABI))
    return std::move(E);
  auto CC = selectConvention(Spec, ABI, ConvName);
  if (!CC)
    return CC.takeError();
  ConvSite Conv(Spec, ABI, **CC);

  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ProbeArg &Arg = Spec.Args[I];
    const ArgInput &In = Inputs[I];
    ArgPlan P;
    P.Name = In.ParamName;
    P.Text = Arg.Text;
    P.CType = In.Type.Text;
    if (Error E = Arg.Form == ProbeArg::CType
                      ? Conv.planByType(Arg, In, P)
                      : Conv.planRegisterExpr(Arg, In, P))
      return std::move(E);
    Site.Args.push_back(std::move(P));
  }
  if (Error E = checkStackBudget(Site, Spec))
    return std::move(E);
  return std::move(Site);
}

} // namespace bpfprobe

namespace bpfprobe {

Expected<std::vector<std::unique_ptr<FetchExpr>>>
entryArgumentLocations(ArrayRef<ValueType> Params, const ArchABI &ABI,
                       const CallingConv &CC, ArrayRef<TextRange> Ranges) {
  ArgAllocator Alloc(ABI, CC);
  std::vector<std::unique_ptr<FetchExpr>> Out;
  for (size_t I = 0; I < Params.size(); ++I) {
    TextRange R = I < Ranges.size() ? Ranges[I] : TextRange{};
    if (Params[I].Kind == ValueType::Float &&
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
