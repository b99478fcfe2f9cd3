//===- FetchPlan.cpp - Fetch plans: printing and serialization ----------===//
//
/// \file
/// Builds, prints, (de)serializes and validates fetch plans. The printer
/// speaks the kernel's kprobe_events fetch-arg syntax (Documentation/trace/
/// kprobetrace.rst): `%reg`, `+off(addr)`, `\imm`, and type suffixes such
/// as `:s32` and `:x64`, and an extended notation for the arithmetic,
/// comparisons and selects it cannot say (docs/how-it-works.md section 7).
/// The serializer is an escaped key=value text with expressions as
/// S-expressions, so plans survive the trip through IR; validate() checks
/// what arrives before the pass trusts it.
//===----------------------------------------------------------------------===//

#include "Plan/FetchPlan.h"
#include "Support/Error.h"
#include "Support/Text.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <climits>
#include <optional>

using namespace llvm;

namespace bpfprobe {

std::unique_ptr<FetchExpr> FetchExpr::reg(unsigned RegIdx) {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Reg;
  E->RegIdx = RegIdx;
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::constant(int64_t V) {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Const;
  E->Value = V;
  return E;
}

std::unique_ptr<FetchExpr>
FetchExpr::entrySlot(unsigned Slot, std::unique_ptr<FetchExpr> AtEntry) {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = EntrySlot;
  E->Value = Slot;
  E->Operand = std::move(AtEntry);
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::ctxSlot(unsigned Slot, bool Ret) {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = CtxSlot;
  E->Value = Slot;
  E->TrampolineRet = Ret;
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::add(std::unique_ptr<FetchExpr> Op,
                                          int64_t K) {
  if (K == 0)
    return Op;
  if (Op->Kind == Add && Op->Core.empty()) {
    Op->Value += K;
    return Op;
  }
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Add;
  E->Value = K;
  E->Operand = std::move(Op);
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::deref(std::unique_ptr<FetchExpr> Addr,
                                            unsigned Size) {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Deref;
  E->Size = Size;
  E->Operand = std::move(Addr);
  return E;
}

std::unique_ptr<FetchExpr>
FetchExpr::pieces(std::vector<std::unique_ptr<FetchExpr>> Parts,
                  std::vector<unsigned> Sizes) {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Pieces;
  E->Size = 0;
  for (unsigned S : Sizes)
    E->Size += S;
  E->Parts = std::move(Parts);
  E->PartSizes = std::move(Sizes);
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::bitfield(std::unique_ptr<FetchExpr> V,
                                               unsigned Size,
                                               unsigned BitOffset,
                                               unsigned BitSize, bool Signed) {
  // All 64 bits of a 64-bit value: the value itself.
  if (BitOffset == 0 && BitSize == 64)
    return V;
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Bitfield;
  E->Size = Size;
  E->BitOffset = BitOffset;
  E->BitSize = BitSize;
  E->SignExtend = Signed;
  E->Operand = std::move(V);
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::extend(std::unique_ptr<FetchExpr> V,
                                             unsigned Bits, bool Signed) {
  if (Bits >= 64)
    return V;
  if (V->Kind == Const) {
    uint64_t Mask = (uint64_t(1) << Bits) - 1;
    uint64_t X = uint64_t(V->Value) & Mask;
    if (Signed && (X >> (Bits - 1)) & 1)
      X |= ~Mask;
    return constant(int64_t(X));
  }
  // An integer conversion of a conversion: the narrower one decides.
  if (V->Kind == Bitfield && V->BitOffset == 0 && V->Core.empty()) {
    if (V->BitSize < Bits && !V->SignExtend)
      return V; // already zero-extended from fewer bits
    if (V->BitSize == Bits && V->SignExtend == Signed)
      return V;
    if (V->BitSize > Bits)
      return extend(std::move(V->Operand), Bits, Signed);
  }
  return bitfield(std::move(V), 8, 0, Bits, Signed);
}

StringRef fetchOpName(FetchExpr::OpTy Op) {
  switch (Op) {
  case FetchExpr::Neg: return "neg";
  case FetchExpr::Not: return "not";
  case FetchExpr::Plus: return "plus";
  case FetchExpr::Minus: return "minus";
  case FetchExpr::Mul: return "mul";
  case FetchExpr::DivS: return "div_s";
  case FetchExpr::DivU: return "div_u";
  case FetchExpr::ModS: return "mod_s";
  case FetchExpr::ModU: return "mod_u";
  case FetchExpr::And: return "and";
  case FetchExpr::Or: return "or";
  case FetchExpr::Xor: return "xor";
  case FetchExpr::Shl: return "shl";
  case FetchExpr::ShrL: return "shr";
  case FetchExpr::ShrA: return "shra";
  case FetchExpr::Eq: return "eq";
  case FetchExpr::Ne: return "ne";
  case FetchExpr::LtS: return "lt_s";
  case FetchExpr::GtS: return "gt_s";
  case FetchExpr::LeS: return "le_s";
  case FetchExpr::GeS: return "ge_s";
  case FetchExpr::LtU: return "lt_u";
  case FetchExpr::GtU: return "gt_u";
  case FetchExpr::LeU: return "le_u";
  case FetchExpr::GeU: return "ge_u";
  }
  return "";
}

static bool isUnaryOp(FetchExpr::OpTy Op) {
  return Op == FetchExpr::Neg || Op == FetchExpr::Not;
}

static std::optional<FetchExpr::OpTy> opNamed(StringRef Name) {
  for (unsigned I = FetchExpr::Neg; I <= FetchExpr::GeU; ++I)
    if (fetchOpName(FetchExpr::OpTy(I)) == Name)
      return FetchExpr::OpTy(I);
  return std::nullopt;
}

/// Constant folding, with the run-time semantics of the prologue
/// (WrapperPass.cpp): shifts by 64 or more give 0 (an arithmetic shift
/// gives the sign), a division or remainder by zero is not folded (the
/// prologue refuses it at run time).
static std::optional<int64_t> foldBinary(FetchExpr::OpTy Op, int64_t A,
                                         int64_t B) {
  uint64_t UA = A, UB = B;
  switch (Op) {
  case FetchExpr::Plus: return int64_t(UA + UB);
  case FetchExpr::Minus: return int64_t(UA - UB);
  case FetchExpr::Mul: return int64_t(UA * UB);
  case FetchExpr::DivS:
    if (!B)
      return std::nullopt;
    if (A == INT64_MIN && B == -1)
      return A;
    return A / B;
  case FetchExpr::ModS:
    if (!B)
      return std::nullopt;
    if (B == -1)
      return 0;
    return A % B;
  case FetchExpr::DivU:
    if (!B)
      return std::nullopt;
    return int64_t(UA / UB);
  case FetchExpr::ModU:
    if (!B)
      return std::nullopt;
    return int64_t(UA % UB);
  case FetchExpr::And: return int64_t(UA & UB);
  case FetchExpr::Or: return int64_t(UA | UB);
  case FetchExpr::Xor: return int64_t(UA ^ UB);
  case FetchExpr::Shl: return UB >= 64 ? 0 : int64_t(UA << UB);
  case FetchExpr::ShrL: return UB >= 64 ? 0 : int64_t(UA >> UB);
  case FetchExpr::ShrA: return A >> (UB >= 64 ? 63 : UB);
  case FetchExpr::Eq: return A == B;
  case FetchExpr::Ne: return A != B;
  case FetchExpr::LtS: return A < B;
  case FetchExpr::GtS: return A > B;
  case FetchExpr::LeS: return A <= B;
  case FetchExpr::GeS: return A >= B;
  case FetchExpr::LtU: return UA < UB;
  case FetchExpr::GtU: return UA > UB;
  case FetchExpr::LeU: return UA <= UB;
  case FetchExpr::GeU: return UA >= UB;
  case FetchExpr::Neg:
  case FetchExpr::Not:
    break;
  }
  return std::nullopt;
}

std::unique_ptr<FetchExpr> FetchExpr::unary(OpTy Op,
                                            std::unique_ptr<FetchExpr> V) {
  if (V->Kind == Const)
    return constant(Op == Neg ? int64_t(0 - uint64_t(V->Value))
                              : int64_t(~uint64_t(V->Value)));
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Unary;
  E->Op = Op;
  E->Parts.push_back(std::move(V));
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::binary(OpTy Op,
                                             std::unique_ptr<FetchExpr> L,
                                             std::unique_ptr<FetchExpr> R) {
  if (L->Kind == Const && R->Kind == Const)
    if (auto V = foldBinary(Op, L->Value, R->Value))
      return constant(*V);
  // Address arithmetic keeps the kprobe_events form "+k(x)".
  if (Op == Plus && R->Kind == Const)
    return add(std::move(L), R->Value);
  if (Op == Plus && L->Kind == Const)
    return add(std::move(R), L->Value);
  if (Op == Minus && R->Kind == Const && R->Value != INT64_MIN)
    return add(std::move(L), -R->Value);
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Binary;
  E->Op = Op;
  E->Parts.push_back(std::move(L));
  E->Parts.push_back(std::move(R));
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::select(std::unique_ptr<FetchExpr> Cond,
                                             std::unique_ptr<FetchExpr> Then,
                                             std::unique_ptr<FetchExpr> Else) {
  if (Cond->Kind == Const)
    return Cond->Value ? std::move(Then) : std::move(Else);
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Select;
  E->Parts.push_back(std::move(Cond));
  E->Parts.push_back(std::move(Then));
  E->Parts.push_back(std::move(Else));
  return E;
}

std::unique_ptr<FetchExpr> FetchExpr::clone() const {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Kind;
  E->Op = Op;
  E->RegIdx = RegIdx;
  E->Value = Value;
  E->Size = Size;
  E->BitOffset = BitOffset;
  E->BitSize = BitSize;
  E->SignExtend = SignExtend;
  if (Operand)
    E->Operand = Operand->clone();
  for (const auto &P : Parts)
    E->Parts.push_back(P->clone());
  E->PartSizes = PartSizes;
  E->Core = Core;
  E->TrampolineRet = TrampolineRet;
  return E;
}

bool coreAccessIsWellFormed(StringRef Core) {
  if (Core.empty() || Core.size() > 4096)
    return false;
  for (char C : Core)
    if (!(isAlnum(C) || C == '_' || C == '/' || C == '@' || C == ':' ||
          C == '#' || C == ',' || C == '[' || C == '!'))
      return false;
  return Core.front() == 's' || Core.front() == 'u';
}

unsigned FetchExpr::countDerefs() const {
  unsigned N = (Kind == Deref) + (Operand ? Operand->countDerefs() : 0);
  for (const auto &P : Parts)
    N += P->countDerefs();
  return N;
}

unsigned FetchExpr::countNodes() const {
  unsigned N = 1 + (Operand ? Operand->countNodes() : 0);
  for (const auto &P : Parts)
    N += P->countNodes();
  return N;
}

/// kprobe_events can read memory at a register or immediate plus an
/// offset, nested, and take a bitfield of the final value.
static bool representableValue(const FetchExpr &E) {
  switch (E.Kind) {
  case FetchExpr::Reg:
  case FetchExpr::CtxSlot:
  case FetchExpr::Const:
    return true;
  case FetchExpr::Deref: {
    const FetchExpr *Base = E.Operand.get();
    if (Base->Kind == FetchExpr::Add)
      Base = Base->Operand.get();
    return representableValue(*Base);
  }
  default:
    return false;
  }
}

bool FetchExpr::isKprobeRepresentable() const {
  if (Kind == Bitfield)
    return representableValue(*Operand);
  return representableValue(*this);
}

bool isKprobeRepresentable(const SitePlan &Site) {
  return llvm::all_of(Site.Args, [](const ArgPlan &A) {
    if (!A.Expr)
      return false;
    // A pointer-and-length string has no kprobe_events form.
    if (A.Length)
      return false;
    // kprobe_events has no floating-point type.
    if (A.Type.Kind == ValueType::Float)
      return false;
    // A string is read at its address: "+0(addr):string".
    if (A.Type.Kind == ValueType::String) {
      const FetchExpr *Base = A.Expr.get();
      if (Base->Kind == FetchExpr::Add)
        Base = Base->Operand.get();
      return representableValue(*Base);
    }
    return A.Expr->isKprobeRepresentable();
  });
}

std::string kprobeTypeName(const ValueType &T, bool UserString) {
  switch (T.Kind) {
  case ValueType::String:
    return UserString ? "ustring" : "string";
  case ValueType::Pointer:
    return "x" + std::to_string(T.Size * 8);
  case ValueType::Bool:
    return "u" + std::to_string(T.Size * 8);
  case ValueType::Int:
    return (T.Signed ? "s" : "u") + std::to_string(T.Size * 8);
  case ValueType::Aggregate:
    return "x8[" + std::to_string(T.Size) + "]";
  case ValueType::Float:
    return "f" + std::to_string(T.Size * 8);
  default: // not in plans (validateArg)
    break;
  }
  return "u64";
}

ArgPlan ArgPlan::clone() const {
  ArgPlan A;
  A.Name = Name;
  A.Text = Text;
  A.CType = CType;
  A.Expr = Expr ? Expr->clone() : nullptr;
  A.Type = Type;
  A.UserString = UserString;
  A.Length = Length ? Length->clone() : nullptr;
  return A;
}

unsigned SitePlan::stackBytes() const {
  // Each memory read lands in its own 8-byte-aligned stack slot; strings
  // need their buffer.
  unsigned Bytes = 0;
  bool Entry = false;
  for (const ArgPlan &A : Args) {
    std::function<void(const FetchExpr &)> Walk = [&](const FetchExpr &E) {
      if (E.Kind == FetchExpr::EntrySlot) {
        // A word of the saved record (the entry program reads Operand).
        Bytes += 8 + (Entry ? 0 : 8); // and the record's fault word
        Entry = true;
        return;
      }
      if (E.Kind == FetchExpr::Deref)
        Bytes += alignTo(E.Size, 8);
      if (E.Operand)
        Walk(*E.Operand);
      for (const auto &P : E.Parts)
        Walk(*P);
    };
    if (A.Expr)
      Walk(*A.Expr);
    if (A.Type.Kind == ValueType::String || A.Type.Kind == ValueType::Aggregate)
      Bytes += alignTo(A.Type.Size, 8);
  }
  return Bytes;
}

//===----------------------------------------------------------------------===//
// kprobe_events printing
//===----------------------------------------------------------------------===//

static std::string formatAddr(const FetchExpr &E, const ArchABI &ABI,
                              AddrSpace Space);

/// The extended notation's spelling of a Unary or Binary operation.
static StringRef opSymbol(FetchExpr::OpTy Op) {
  switch (Op) {
  case FetchExpr::Neg: return "-";
  case FetchExpr::Not: return "~";
  case FetchExpr::Plus: return "+";
  case FetchExpr::Minus: return "-";
  case FetchExpr::Mul: return "*";
  case FetchExpr::DivS: return "/s";
  case FetchExpr::DivU: return "/u";
  case FetchExpr::ModS: return "%s";
  case FetchExpr::ModU: return "%u";
  case FetchExpr::And: return "&";
  case FetchExpr::Or: return "|";
  case FetchExpr::Xor: return "^";
  case FetchExpr::Shl: return "<<";
  case FetchExpr::ShrL: return ">>u";
  case FetchExpr::ShrA: return ">>s";
  case FetchExpr::Eq: return "==";
  case FetchExpr::Ne: return "!=";
  case FetchExpr::LtS: return "<s";
  case FetchExpr::GtS: return ">s";
  case FetchExpr::LeS: return "<=s";
  case FetchExpr::GeS: return ">=s";
  case FetchExpr::LtU: return "<u";
  case FetchExpr::GtU: return ">u";
  case FetchExpr::LeU: return "<=u";
  case FetchExpr::GeU: return ">=u";
  }
  return "?";
}

/// Prints a value-producing expression: kprobe_events syntax for what it
/// can say, the extended notation (docs/how-it-works.md) for the rest.
static std::string formatValue(const FetchExpr &E, const ArchABI &ABI,
                               AddrSpace Space) {
  switch (E.Kind) {
  case FetchExpr::Reg:
    if (E.RegIdx >= ABI.Regs.size())
      return "%?";
    return std::string("%") + ABI.reg(E.RegIdx).Name;
  case FetchExpr::EntrySlot:
    return "@entry(" + (E.Operand ? formatValue(*E.Operand, ABI, Space)
                                  : std::string("?")) + ")";
  case FetchExpr::CtxSlot:
    // The fprobe events' names (Documentation/trace/fprobetrace.rst).
    return E.TrampolineRet ? "$retval" : "$arg" + std::to_string(E.Value + 1);
  case FetchExpr::Const:
    return "\\" + std::to_string(E.Value);
  case FetchExpr::Add:
    // kprobe_events has no arithmetic on values; show it as perf does for
    // address computations, "+k(x)" without the dereference is not valid,
    // so spell the intent.
    return formatValue(*E.Operand, ABI, Space) + (E.Value < 0 ? "" : "+") +
           std::to_string(E.Value);
  case FetchExpr::Deref: {
    std::string S = formatAddr(*E.Operand, ABI, Space);
    // A nested read narrower than a pointer: say how wide.
    return E.Size == ABI.PointerSize ? S
                                     : "(" + S + ":u" +
                                           std::to_string(E.Size * 8) + ")";
  }
  case FetchExpr::Bitfield:
    // Only a whole argument's bitfield has a kprobe_events spelling
    // (formatFetchArg); inside a tree it is an integer conversion.
    if (E.BitOffset == 0)
      return (E.SignExtend ? "sext" : "zext") + std::to_string(E.BitSize) +
             "(" + formatValue(*E.Operand, ABI, Space) + ")";
    return std::string(E.SignExtend ? "sbits" : "bits") +
           std::to_string(E.BitSize) + "@" + std::to_string(E.BitOffset) +
           "(" + formatValue(*E.Operand, ABI, Space) + ")";
  case FetchExpr::Pieces: {
    // Not kprobe_events syntax (it has no multi-register values): the
    // pieces in memory order, "{%r0,%r1}" for r1:r0.
    std::string S = "{";
    for (size_t I = 0; I < E.Parts.size(); ++I) {
      if (I)
        S += ",";
      // A piece in memory is its bytes, whatever their number.
      const FetchExpr &P = *E.Parts[I];
      S += P.Kind == FetchExpr::Deref ? formatAddr(*P.Operand, ABI, Space)
                                      : formatValue(P, ABI, Space);
    }
    return S + "}";
  }
  case FetchExpr::Unary: {
    // "(-%di)", but "(-(-8(%bp)))" where the operand starts with a sign.
    std::string V = formatValue(*E.Parts[0], ABI, Space);
    if (!V.empty() && (V[0] == '-' || V[0] == '+'))
      V = "(" + V + ")";
    return "(" + opSymbol(E.Op).str() + V + ")";
  }
  case FetchExpr::Binary:
    return "(" + formatValue(*E.Parts[0], ABI, Space) + " " +
           opSymbol(E.Op).str() + " " + formatValue(*E.Parts[1], ABI, Space) +
           ")";
  case FetchExpr::Select:
    return "(" + formatValue(*E.Parts[0], ABI, Space) + " ? " +
           formatValue(*E.Parts[1], ABI, Space) + " : " +
           formatValue(*E.Parts[2], ABI, Space) + ")";
  }
  return "?";
}

/// Prints a memory read at the address computed by E: "+off(base)".
static std::string formatAddr(const FetchExpr &E, const ArchABI &ABI,
                              AddrSpace Space) {
  int64_t Off = 0;
  const FetchExpr *Base = &E;
  if (E.Kind == FetchExpr::Add) {
    Off = E.Value;
    Base = E.Operand.get();
  }
  // Kprobes reading user memory use the "+u" form.
  std::string Prefix = Off < 0 ? "" : "+";
  return Prefix + std::to_string(Off) + "(" + formatValue(*Base, ABI, Space) +
         ")";
}

std::string formatFetchArg(const FetchExpr &E, const ValueType &T,
                           bool UserString, const ArchABI &ABI,
                           AddrSpace Space) {
  // A string's expression is its address; kprobe_events reads the string
  // at the address of its last dereference, so `+0(%di):string` is the
  // string %di points to (perf probe prints the same).
  if (T.Kind == ValueType::String)
    return formatAddr(E, ABI, Space) + ":" + kprobeTypeName(T, UserString);
  // A conversion to at least the argument's width changes nothing the
  // type suffix does not already say.
  if (E.Kind == FetchExpr::Bitfield && E.BitOffset == 0 &&
      E.BitSize >= T.Size * 8 && T.Kind != ValueType::Aggregate)
    return formatFetchArg(*E.Operand, T, UserString, ABI, Space);
  if (E.Kind == FetchExpr::Bitfield && E.isKprobeRepresentable())
    return (E.Operand->Kind == FetchExpr::Deref
                ? formatAddr(*E.Operand->Operand, ABI, Space)
                : formatValue(*E.Operand, ABI, Space)) +
           ":b" +
           std::to_string(E.BitSize) + "@" + std::to_string(E.BitOffset) +
           "/" + std::to_string(E.Size * 8);
  // The type suffix says how wide the final read is.
  if (E.Kind == FetchExpr::Deref)
    return formatAddr(*E.Operand, ABI, Space) + ":" +
           kprobeTypeName(T, UserString);
  return formatValue(E, ABI, Space) + ":" + kprobeTypeName(T, UserString);
}

static bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }

std::string kprobeArgName(StringRef Text, unsigned Pos, bool TypeList) {
  std::string Fallback = "arg" + std::to_string(Pos);
  StringRef T = Text.trim();
  if (TypeList)
    return Fallback;
  // `@entry(x)` is "entry_x", apart from a value of x at the return.
  if (T.starts_with("@entry")) {
    StringRef Inner = T.drop_front(6).ltrim();
    size_t Close = Inner.rfind(')');
    if (Inner.starts_with("(") && Close != StringRef::npos)
      return "entry_" + kprobeArgName((Inner.slice(1, Close) +
                                       Inner.substr(Close + 1)).str(),
                                      Pos, false);
  }
  // An explicit ":type" (the last ':' outside brackets; a C name has none).
  StringRef Type;
  size_t Colon = T.rfind(':');
  if (Colon != StringRef::npos && T.find(']', Colon) == StringRef::npos) {
    Type = T.substr(Colon + 1).trim();
    T = T.substr(0, Colon).rtrim();
  }
  // A pseudo-method ("c->ids.size()"): its object's name and the method's
  // ("ids_size").
  if (T.consume_back("()")) {
    size_t Sep = T.find_last_of(".>");
    if (Sep == StringRef::npos)
      return Fallback;
    std::string Object = kprobeArgName(
        T.take_front(Sep + 1 - (T[Sep] == '>' ? 2 : 1)), Pos, false);
    if (Object == Fallback)
      return Fallback;
    return Object + "_" + T.substr(Sep + 1).trim().str();
  }
  // The last member of a chain: the identifier after the last "->" or ".".
  size_t Arrow = T.rfind("->"), Dot = T.rfind('.');
  size_t Member = Arrow == StringRef::npos ? Dot
                  : Dot == StringRef::npos ? Arrow + 1
                                           : std::max(Arrow + 1, Dot);
  bool Chain = Member != StringRef::npos;
  // Otherwise the variable: "*p", "(p)", "@counter" name p, counter;
  // "$arg1", "$retval", "%di", "+8(%sp)" have no name of their own.
  auto IsPrefix = [](char C) { return StringRef("*(&@ ").contains(C); };
  StringRef Rest = Chain ? T.substr(Member + 1) : T.drop_while(IsPrefix);
  std::string Name = Rest.take_while(isIdentChar).str();
  if (Name.empty() || isDigit(Name.front()))
    return Fallback;
  if (!Chain && !Type.empty())
    Name += "_" + Type.str();
  for (char &C : Name)
    if (!isIdentChar(C))
      C = '_';
  return Name;
}

std::string formatKprobeEvent(const SitePlan &Site, const ArchABI &ABI) {
  // fentry and fexit print as fprobe events ("f:", "%return").
  bool Trampoline = Site.Kind == "fentry" || Site.Kind == "fexit";
  std::string S = (Site.Kind == "kretprobe" || Site.Kind == "uretprobe")
                      ? "r:"
                  : Trampoline ? "f:"
                               : "p:";
  S += Site.Program;
  S += ' ';
  if (!Site.Target.empty()) {
    S += Site.Target;
    S += ':';
  }
  S += Site.Symbol;
  if (Site.Offset)
    S += "+" + std::to_string(Site.Offset);
  if (Site.Kind == "fexit")
    S += "%return";
  std::vector<std::string> Used;
  for (const ArgPlan &A : Site.Args) {
    unsigned Pos = Used.size() + 1;
    // A body parameter's name is the user's; otherwise the annotation's text.
    std::string Name = kprobeArgName(
        A.Name.empty() ? A.Text : A.Name, Pos,
        Site.Source == "cc" && A.Name == A.Text);
    if (llvm::is_contained(Used, Name))
      Name += "_" + std::to_string(Pos);
    Used.push_back(Name);
    S += ' ';
    S += Name;
    S += '=';
    S += formatFetchArg(*A.Expr, A.Type, A.UserString, ABI, Site.Space);
    if (A.Length) {
      // Extended notation: a pointer-and-length string, its length in
      // brackets ("+0(+8(%di)):string[+0(%di):u64]").
      ValueType LT;
      LT.Kind = ValueType::Int;
      LT.Size = 8;
      S += "[" + formatFetchArg(*A.Length, LT, false, ABI, Site.Space) + "]";
    }
  }
  return S;
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

namespace {
/// Checks one argument's tree. A tree is read either as a Scalar (a value
/// of at most 8 bytes computed in a 64-bit register) or as Bytes (an
/// aggregate copied to the stack: memory blocks and register pieces).
class ExprValidator {
public:
  ExprValidator(const ArchABI &ABI, std::string &Msg) : ABI(ABI), Msg(Msg) {}

  bool scalar(const FetchExpr &E, unsigned Depth) {
    if (!enter(E, Depth))
      return false;
    switch (E.Kind) {
    case FetchExpr::Reg:
      if (E.RegIdx >= ABI.Regs.size())
        return bad("register index " + Twine(E.RegIdx) + " is not one of the " +
                   Twine(ABI.Regs.size()) + " registers of " + ABI.Name);
      return true;
    case FetchExpr::Const:
      return true;
    case FetchExpr::EntrySlot:
      if (E.Value < 0 || E.Value >= MaxEntryValues)
        return bad("entry value slot " + Twine(E.Value) +
                   " is not one of the " + Twine(MaxEntryValues));
      return operand(E) && scalar(*E.Operand, Depth + 1);
    case FetchExpr::CtxSlot:
      if (E.Value < 0 || E.Value >= MaxTrampolineSlots)
        return bad("trampoline context slot " + Twine(E.Value) +
                   " is not one of the " + Twine(MaxTrampolineSlots));
      return true;
    case FetchExpr::Add:
      return operand(E) && scalar(*E.Operand, Depth + 1);
    case FetchExpr::Deref:
      if (!isScalarSize(E.Size))
        return bad("a memory read of " + Twine(E.Size) +
                   " bytes in a scalar value (expected 1, 2, 4 or 8)");
      return operand(E) && scalar(*E.Operand, Depth + 1);
    case FetchExpr::Bitfield:
      if (!isScalarSize(E.Size))
        return bad("a bitfield of a " + Twine(E.Size) +
                   "-byte value (expected 1, 2, 4 or 8)");
      if (E.BitSize == 0 || E.BitSize > 64 || E.BitOffset >= 64 ||
          E.BitOffset + E.BitSize > E.Size * 8)
        return bad("bits " + Twine(E.BitOffset) + "+" + Twine(E.BitSize) +
                   " are not within a " + Twine(E.Size * 8) + "-bit value");
      return operand(E) && scalar(*E.Operand, Depth + 1);
    case FetchExpr::Pieces: {
      if (!pieceList(E))
        return false;
      if (E.Size > 8)
        return bad("a scalar of " + Twine(E.Size) +
                   " bytes in pieces (at most 8)");
      for (const auto &P : E.Parts)
        if (!scalar(*P, Depth + 1))
          return false;
      return true;
    }
    case FetchExpr::Unary:
    case FetchExpr::Binary:
    case FetchExpr::Select: {
      size_t Want = E.Kind == FetchExpr::Unary    ? 1
                    : E.Kind == FetchExpr::Binary ? 2
                                                  : 3;
      if (E.Parts.size() != Want || E.Operand)
        return bad("an operation with " + Twine(E.Parts.size()) +
                   " operands (expected " + Twine(Want) + ")");
      bool Unary = E.Op == FetchExpr::Neg || E.Op == FetchExpr::Not;
      if (E.Kind != FetchExpr::Select &&
          (E.Op > FetchExpr::GeU || Unary != (E.Kind == FetchExpr::Unary)))
        return bad("unknown operation " + Twine(unsigned(E.Op)));
      for (const auto &P : E.Parts)
        if (!scalar(*P, Depth + 1))
          return false;
      return true;
    }
    }
    return bad("unknown node kind " + Twine(unsigned(E.Kind)));
  }

  /// Size bytes of an aggregate.
  bool bytes(const FetchExpr &E, unsigned Size, unsigned Depth) {
    if (!enter(E, Depth))
      return false;
    if (E.Kind == FetchExpr::Deref) {
      if (E.Size != Size)
        return bad("a " + Twine(Size) + "-byte part read as " +
                   Twine(E.Size) + " bytes");
      return operand(E) && scalar(*E.Operand, Depth + 1);
    }
    if (E.Kind == FetchExpr::Pieces) {
      if (!pieceList(E))
        return false;
      if (E.Size != Size)
        return bad("pieces of " + Twine(E.Size) + " bytes for a " +
                   Twine(Size) + "-byte value");
      for (size_t I = 0; I < E.Parts.size(); ++I)
        if (!bytes(*E.Parts[I], E.PartSizes[I], Depth + 1))
          return false;
      return true;
    }
    if (Size > 8)
      return bad("a " + Twine(Size) + "-byte part held in a register");
    --Nodes; // scalar() counts this node again
    return scalar(E, Depth);
  }

private:
  const ArchABI &ABI;
  std::string &Msg;
  unsigned Nodes = 0;

  static bool isScalarSize(unsigned S) {
    return S == 1 || S == 2 || S == 4 || S == 8;
  }
  bool bad(const Twine &M) {
    Msg = M.str();
    return false;
  }
  bool enter(const FetchExpr &, unsigned Depth) {
    if (Depth > MaxFetchExprDepth)
      return bad("the expression is nested more than " +
                 Twine(MaxFetchExprDepth) + " deep");
    if (++Nodes > MaxFetchExprNodes)
      return bad("the expression has more than " + Twine(MaxFetchExprNodes) +
                 " nodes");
    return true;
  }
  bool operand(const FetchExpr &E) {
    if (!E.Operand || !E.Parts.empty())
      return bad("a node without its operand");
    return true;
  }
  bool pieceList(const FetchExpr &E) {
    if (E.Parts.empty() || E.Parts.size() > 64 ||
        E.Parts.size() != E.PartSizes.size())
      return bad("a value in " + Twine(E.Parts.size()) +
                 " pieces (expected 1 to 64)");
    uint64_t Sum = 0;
    for (unsigned S : E.PartSizes) {
      if (S == 0 || S > PrologueStackBudget)
        return bad("a piece of " + Twine(S) + " bytes");
      Sum += S;
    }
    if (Sum != E.Size)
      return bad("pieces adding up to " + Twine(Sum) + " bytes in a " +
                 Twine(E.Size) + "-byte value");
    return true;
  }
};
} // namespace

Error validateArg(const ArgPlan &A, const ArchABI &ABI) {
  auto Fail = [&](const Twine &Msg) {
    return fail("argument '" + A.Name + "': " + Msg);
  };
  if (!A.Expr)
    return Fail("no fetch expression");
  const ValueType &T = A.Type;
  switch (T.Kind) {
  case ValueType::Int:
  case ValueType::Bool:
  case ValueType::Pointer:
    if (T.Size != 1 && T.Size != 2 && T.Size != 4 && T.Size != 8)
      return Fail("a " + Twine(T.Size) +
                  "-byte scalar (expected 1, 2, 4 or 8 bytes)");
    break;
  case ValueType::Float:
    if (T.Size != 4 && T.Size != 8)
      return Fail("a " + Twine(T.Size) +
                  "-byte floating-point value (expected 4 or 8 bytes)");
    break;
  case ValueType::String:
  case ValueType::Aggregate:
    if (T.Size == 0 || T.Size > PrologueStackBudget)
      return Fail("a " + Twine(T.Size) + "-byte copy (expected 1 to " +
                  Twine(PrologueStackBudget) + ")");
    break;
  default:
    return Fail("unknown value kind " + Twine(unsigned(T.Kind)));
  }
  std::string Msg;
  ExprValidator V(ABI, Msg);
  bool OK = T.Kind == ValueType::Aggregate ? V.bytes(*A.Expr, T.Size, 0)
                                           : V.scalar(*A.Expr, 0);
  if (!OK)
    return Fail(Msg);
  if (A.Length) {
    if (T.Kind != ValueType::String || T.Size < 2)
      return Fail("a length on a value that is not a string");
    if (!V.scalar(*A.Length, 0))
      return Fail("string length: " + Msg);
  }
  return Error::success();
}

Error validate(const SitePlan &Site, const ArchABI &ABI) {
  if (Site.Arch != ABI.Name)
    return fail("the plan is for '" + Site.Arch + "', checked against '" +
                ABI.Name + "'");
  for (const ArgPlan &A : Site.Args)
    if (Error E = validateArg(A, ABI))
      return E;
  // Entry values: whole scalar arguments, slots 0..N-1 once each, and an
  // entry program to save them.
  unsigned Slots = 0;
  uint32_t Seen = 0;
  for (const ArgPlan &A : Site.Args) {
    auto Fail = [&](const Twine &Msg) {
      return createStringError(inconvertibleErrorCode(),
                               "argument '" + A.Name + "': " + Msg);
    };
    std::vector<const FetchExpr *> Found;
    std::function<void(const FetchExpr &)> Walk = [&](const FetchExpr &E) {
      if (E.Kind == FetchExpr::EntrySlot)
        Found.push_back(&E);
      else if (E.Operand)
        Walk(*E.Operand);
      for (const auto &P : E.Parts)
        Walk(*P);
    };
    Walk(*A.Expr);
    if (A.Length)
      Walk(*A.Length);
    if (Found.empty())
      continue;
    if (Site.EntryProgram.empty() || Site.EntrySection.empty() ||
        (Site.EntryKind != "kprobe" && Site.EntryKind != "uprobe" &&
         Site.EntryKind != "fentry"))
      return Fail("an entry value without an entry program");
    if (A.Expr->Kind == FetchExpr::EntrySlot &&
        (A.Type.Kind == ValueType::String ||
         A.Type.Kind == ValueType::Aggregate || A.Length))
      return Fail("an entry value that is not a scalar");
    for (const FetchExpr *E : Found) {
      if (Seen & (1u << E->Value))
        return Fail("entry value slot " + Twine(E->Value) + " used twice");
      Seen |= 1u << E->Value;
      ++Slots;
    }
  }
  if (Site.EntryFrame) {
    std::string Msg;
    ExprValidator V(ABI, Msg);
    if (Site.EntryProgram.empty() || !V.scalar(*Site.EntryFrame, 0))
      return createStringError(inconvertibleErrorCode(),
                               "entry frame: " +
                                   (Msg.empty() ? "without an entry program"
                                                : Msg));
  }
  if (Seen != (Slots == 32 ? ~0u : (1u << Slots) - 1))
    return createStringError(inconvertibleErrorCode(),
                             "entry value slots are not 0 to " +
                                 Twine(Slots) + " - 1");
  if (!Site.EntryProgram.empty() && !Slots)
    return createStringError(inconvertibleErrorCode(),
                             "an entry program without entry values");
  if (Site.stackBytes() > PrologueStackBudget)
    return fail("the prologue needs " + Twine(Site.stackBytes()) +
                " bytes of stack, over the budget of " +
                Twine(PrologueStackBudget));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Serialization
//===----------------------------------------------------------------------===//

static void escapeInto(StringRef V, std::string &Out) {
  raw_string_ostream OS(Out);
  writeEscapedValue(OS, V);
}

static void writeExpr(const FetchExpr &E, std::string &Out) {
  switch (E.Kind) {
  case FetchExpr::Reg:
    Out += "(reg " + std::to_string(E.RegIdx) + ")";
    return;
  case FetchExpr::EntrySlot:
    Out += "(entry " + std::to_string(E.Value) + " ";
    break;
  case FetchExpr::CtxSlot:
    Out += (E.TrampolineRet ? "(ctxret " : "(ctxslot ") +
           std::to_string(E.Value) + ")";
    return;
  case FetchExpr::Const:
    Out += "(const " + std::to_string(E.Value) + ")";
    return;
  case FetchExpr::Add:
    if (!E.Core.empty()) {
      Out += "(coreadd " + std::to_string(E.Value) + " " + E.Core + " ";
      break;
    }
    Out += "(add " + std::to_string(E.Value) + " ";
    break;
  case FetchExpr::Deref:
    Out += "(deref " + std::to_string(E.Size) + " ";
    break;
  case FetchExpr::Bitfield:
    Out += (E.Core.empty() ? "(bitfield " : "(corebitfield ") +
           std::to_string(E.Size) + " " + std::to_string(E.BitOffset) + " " +
           std::to_string(E.BitSize) + " " + std::to_string(E.SignExtend) +
           " ";
    if (!E.Core.empty())
      Out += E.Core + " ";
    break;
  case FetchExpr::Unary:
  case FetchExpr::Binary:
  case FetchExpr::Select:
    Out += "(";
    Out += E.Kind == FetchExpr::Select ? StringRef("select") : fetchOpName(E.Op);
    for (const auto &P : E.Parts) {
      Out += " ";
      writeExpr(*P, Out);
    }
    Out += ")";
    return;
  case FetchExpr::Pieces:
    Out += "(pieces " + std::to_string(E.Parts.size());
    for (size_t I = 0; I < E.Parts.size(); ++I) {
      Out += " " + std::to_string(E.PartSizes[I]) + " ";
      writeExpr(*E.Parts[I], Out);
    }
    Out += ")";
    return;
  }
  writeExpr(*E.Operand, Out);
  Out += ")";
}

namespace {
/// Reads the S-expressions written by writeExpr.
class ExprReader {
public:
  explicit ExprReader(StringRef S) : S(S) {}

  Expected<std::unique_ptr<FetchExpr>> read(unsigned Depth = 0) {
    if (Depth > MaxFetchExprDepth)
      return fail("expression nested too deeply");
    skip();
    if (!S.consume_front("("))
      return fail("expected '('");
    StringRef Op = word();
    auto E = std::make_unique<FetchExpr>();
    if (Op == "reg") {
      E->Kind = FetchExpr::Reg;
      if (number(E->RegIdx))
        return fail("bad register");
    } else if (Op == "ctxslot" || Op == "ctxret") {
      E->Kind = FetchExpr::CtxSlot;
      E->TrampolineRet = Op == "ctxret";
      if (number(E->Value))
        return fail("bad context slot");
    } else if (Op == "const") {
      E->Kind = FetchExpr::Const;
      if (number(E->Value))
        return fail("bad constant");
    } else if (Op == "pieces") {
      unsigned N;
      if (number(N) || N == 0 || N > 64)
        return fail("bad piece count");
      std::vector<std::unique_ptr<FetchExpr>> Parts;
      std::vector<unsigned> Sizes;
      for (unsigned I = 0; I < N; ++I) {
        unsigned Sz;
        if (number(Sz) || Sz == 0 || Sz > 4096)
          return fail("bad piece size");
        auto Sub = read(Depth + 1);
        if (!Sub)
          return Sub.takeError();
        Parts.push_back(std::move(*Sub));
        Sizes.push_back(Sz);
      }
      E = FetchExpr::pieces(std::move(Parts), std::move(Sizes));
    } else if (Op == "select" || opNamed(Op)) {
      unsigned N = 3;
      if (Op == "select") {
        E->Kind = FetchExpr::Select;
      } else {
        E->Op = *opNamed(Op);
        E->Kind = isUnaryOp(E->Op) ? FetchExpr::Unary : FetchExpr::Binary;
        N = E->Kind == FetchExpr::Unary ? 1 : 2;
      }
      for (unsigned I = 0; I < N; ++I) {
        auto Sub = read(Depth + 1);
        if (!Sub)
          return Sub.takeError();
        E->Parts.push_back(std::move(*Sub));
      }
    } else if (Op == "add" || Op == "coreadd" || Op == "deref" ||
               Op == "bitfield" || Op == "corebitfield" || Op == "entry") {
      if (Op == "entry") {
        E->Kind = FetchExpr::EntrySlot;
        if (number(E->Value))
          return fail("bad entry slot");
      } else if (Op == "add" || Op == "coreadd") {
        E->Kind = FetchExpr::Add;
        if (number(E->Value))
          return fail("bad addend");
        if (Op == "coreadd") {
          E->Core = word().str();
          if (!coreAccessIsWellFormed(E->Core))
            return fail("bad CO-RE access");
        }
      } else if (Op == "deref") {
        E->Kind = FetchExpr::Deref;
        if (number(E->Size))
          return fail("bad size");
      } else {
        E->Kind = FetchExpr::Bitfield;
        unsigned Signed = 0;
        if (number(E->Size) || number(E->BitOffset) || number(E->BitSize) ||
            number(Signed))
          return fail("bad bitfield");
        E->SignExtend = Signed;
        if (Op == "corebitfield") {
          E->Core = word().str();
          if (!coreAccessIsWellFormed(E->Core))
            return fail("bad CO-RE access");
        }
      }
      auto Sub = read(Depth + 1);
      if (!Sub)
        return Sub.takeError();
      E->Operand = std::move(*Sub);
    } else {
      return fail("unknown operator '" + Op.str() + "'");
    }
    skip();
    if (!S.consume_front(")"))
      return fail("expected ')'");
    return std::move(E);
  }
  bool atEnd() {
    skip();
    return S.empty();
  }

private:
  StringRef S;
  void skip() { S = S.ltrim(' '); }
  StringRef word() {
    skip();
    size_t N = S.find_first_of(" ()");
    StringRef W = S.substr(0, N);
    S = S.substr(W.size());
    return W;
  }
  template <typename T> bool number(T &Out) {
    StringRef W = word();
    long long V;
    if (W.getAsInteger(10, V))
      return true;
    Out = T(V);
    return false;
  }
  Error fail(const Twine &Msg) {
    return bpfprobe::fail("bad plan expression: " + Msg);
  }
};
} // namespace

std::string serializePlan(const SitePlan &Site) {
  std::string Out = "bpfprobe-plan 2\n";
  auto Put = [&](StringRef K, StringRef V) {
    Out += K;
    Out += '=';
    escapeInto(V, Out);
    Out += '\n';
  };
  Put("program", Site.Program);
  Put("body", Site.Body);
  Put("section", Site.Section);
  Put("kind", Site.Kind);
  Put("target", Site.Target);
  Put("symbol", Site.Symbol);
  Put("offset", std::to_string(Site.Offset));
  Put("address", std::to_string(Site.Address));
  Put("symbol_size", std::to_string(Site.SymbolSize));
  Put("arch", Site.Arch);
  Put("build_id", Site.BuildId);
  Put("source", Site.Source);
  Put("spec", Site.Spec);
  Put("space", Site.Space == AddrSpace::User ? "user" : "kernel");
  Put("record", Site.Record ? "1" : "0");
  if (!Site.EntryProgram.empty()) {
    Put("entry_program", Site.EntryProgram);
    Put("entry_kind", Site.EntryKind);
    Put("entry_section", Site.EntrySection);
  }
  if (Site.EntryFrame) {
    std::string V;
    writeExpr(*Site.EntryFrame, V);
    Put("entry_frame", V);
  }
  for (const ArgPlan &A : Site.Args) {
    std::string V;
    escapeInto(A.Name, V);
    V += '\t';
    escapeInto(A.Text, V);
    V += '\t';
    escapeInto(A.CType, V);
    V += '\t';
    V += std::to_string(int(A.Type.Kind)) + " " + std::to_string(A.Type.Size) +
         " " + std::to_string(A.Type.Signed) + " " +
         std::to_string(A.UserString);
    V += '\t';
    writeExpr(*A.Expr, V);
    if (A.Length) {
      V += '\t';
      writeExpr(*A.Length, V);
    }
    Out += "arg=" + V + "\n";
  }
  return Out;
}

Expected<SitePlan> parsePlan(StringRef Text) {
  auto Fail = [](const Twine &Msg) {
    return fail("bad plan: " + Msg);
  };
  SmallVector<StringRef, 32> Lines;
  Text.split(Lines, '\n', -1, false);
  if (Lines.empty() || Lines[0] != "bpfprobe-plan 2")
    return Fail("missing or unknown version line");
  SitePlan Site;
  for (StringRef L : ArrayRef(Lines).drop_front()) {
    auto [K, RawV] = L.split('=');
    if (K == "arg") {
      SmallVector<StringRef, 6> F;
      RawV.split(F, '\t');
      if (F.size() != 5 && F.size() != 6)
        return Fail("argument needs 5 fields (6 with a string length)");
      ArgPlan A;
      std::optional<std::string> Name = unescapeValue(F[0]),
                                 ArgText = unescapeValue(F[1]),
                                 CType = unescapeValue(F[2]);
      if (!Name || !ArgText || !CType)
        return Fail("argument has an unknown escape (only \\\\, \\n and \\t "
                    "exist)");
      A.Name = std::move(*Name);
      A.Text = std::move(*ArgText);
      A.CType = std::move(*CType);
      SmallVector<StringRef, 4> T;
      F[3].split(T, ' ');
      unsigned Kind, Size, Signed, User;
      if (T.size() != 4 || T[0].getAsInteger(10, Kind) ||
          Kind > unsigned(ValueType::Float) ||
          T[1].getAsInteger(10, Size) || T[2].getAsInteger(10, Signed) ||
          T[3].getAsInteger(10, User))
        return Fail("bad argument type");
      A.Type.Kind = ValueType::KindTy(Kind);
      A.Type.Size = Size;
      A.Type.Signed = Signed;
      A.UserString = User;
      ExprReader R(F[4]);
      auto E = R.read();
      if (!E)
        return E.takeError();
      if (!R.atEnd())
        return Fail("trailing text after expression");
      A.Expr = std::move(*E);
      if (F.size() == 6) {
        ExprReader LR(F[5]);
        auto L = LR.read();
        if (!L)
          return L.takeError();
        if (!LR.atEnd())
          return Fail("trailing text after the string length");
        A.Length = std::move(*L);
      }
      Site.Args.push_back(std::move(A));
      continue;
    }
    std::optional<std::string> Unescaped = unescapeValue(RawV);
    if (!Unescaped)
      return Fail("value of '" + K +
                  "' has an unknown escape (only \\\\, \\n and \\t exist)");
    std::string V = std::move(*Unescaped);
    if (K == "program") Site.Program = V;
    else if (K == "body") Site.Body = V;
    else if (K == "section") Site.Section = V;
    else if (K == "kind") Site.Kind = V;
    else if (K == "target") Site.Target = V;
    else if (K == "symbol") Site.Symbol = V;
    else if (K == "offset") {
      if (StringRef(V).getAsInteger(10, Site.Offset))
        return Fail("bad offset");
    } else if (K == "address") {
      if (StringRef(V).getAsInteger(10, Site.Address))
        return Fail("bad address");
    } else if (K == "symbol_size") {
      if (StringRef(V).getAsInteger(10, Site.SymbolSize))
        return Fail("bad symbol size");
    } else if (K == "arch") Site.Arch = V;
    else if (K == "build_id") Site.BuildId = V;
    else if (K == "source") Site.Source = V;
    else if (K == "spec") Site.Spec = V;
    else if (K == "record") Site.Record = V == "1";
    else if (K == "entry_program") Site.EntryProgram = V;
    else if (K == "entry_kind") Site.EntryKind = V;
    else if (K == "entry_section") Site.EntrySection = V;
    else if (K == "entry_frame") {
      ExprReader R(V);
      auto E = R.read();
      if (!E)
        return E.takeError();
      if (!R.atEnd())
        return Fail("trailing text after the entry frame");
      Site.EntryFrame = std::move(*E);
    }
    else if (K == "space") Site.Space = V == "user" ? AddrSpace::User
                                                    : AddrSpace::Kernel;
    else
      return Fail("unknown key '" + K + "'");
  }
  if (Site.Program.empty() || Site.Section.empty())
    return Fail("missing program or section");
  return std::move(Site);
}

} // namespace bpfprobe
