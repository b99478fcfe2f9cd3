//===- FetchPlan.cpp - Fetch plans: printing and serialization ----------===//
//
/// \file
/// Builds, prints and (de)serializes fetch plans. The printer speaks the
/// kernel's kprobe_events fetch-arg syntax (Documentation/trace/
/// kprobetrace.rst): `%reg`, `+off(addr)`, `\imm`, and type suffixes such
/// as `:s32` and `:x64`. The serializer is an escaped key=value text with
/// expressions as S-expressions, so plans survive the trip through IR.
//===----------------------------------------------------------------------===//

#include "Plan/FetchPlan.h"
#include "Target/ArchABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

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

std::unique_ptr<FetchExpr> FetchExpr::add(std::unique_ptr<FetchExpr> Op,
                                          int64_t K) {
  if (K == 0)
    return Op;
  if (Op->Kind == Add) {
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

std::unique_ptr<FetchExpr> FetchExpr::clone() const {
  auto E = std::make_unique<FetchExpr>();
  E->Kind = Kind;
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
  return E;
}

unsigned FetchExpr::countDerefs() const {
  unsigned N = (Kind == Deref) + (Operand ? Operand->countDerefs() : 0);
  for (const auto &P : Parts)
    N += P->countDerefs();
  return N;
}

std::string ValueType::kprobeTypeName() const {
  switch (Kind) {
  case String:
    return UserString ? "ustring" : "string";
  case Pointer:
    return "x" + std::to_string(Size * 8);
  case Bool:
    return "u" + std::to_string(Size * 8);
  case Int:
    return (Signed ? "s" : "u") + std::to_string(Size * 8);
  case Aggregate:
    return "x8[" + std::to_string(Size) + "]";
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
  return A;
}

unsigned SitePlan::stackBytes() const {
  // Each memory read lands in its own 8-byte-aligned stack slot; strings
  // need their buffer.
  unsigned Bytes = 0;
  for (const ArgPlan &A : Args) {
    std::function<void(const FetchExpr &)> Walk = [&](const FetchExpr &E) {
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

/// Prints a value-producing expression.
static std::string formatValue(const FetchExpr &E, const ArchABI &ABI,
                               AddrSpace Space) {
  switch (E.Kind) {
  case FetchExpr::Reg:
    return std::string("%") + ABI.reg(E.RegIdx).Name;
  case FetchExpr::Const:
    return "\\" + std::to_string(E.Value);
  case FetchExpr::Add:
    // kprobe_events has no arithmetic on values; show it as perf does for
    // address computations, "+k(x)" without the dereference is not valid,
    // so spell the intent.
    return formatValue(*E.Operand, ABI, Space) + (E.Value < 0 ? "" : "+") +
           std::to_string(E.Value);
  case FetchExpr::Deref:
    return formatAddr(*E.Operand, ABI, Space);
  case FetchExpr::Bitfield:
    return formatValue(*E.Operand, ABI, Space);
  case FetchExpr::Pieces: {
    // Not kprobe_events syntax (it has no multi-register values): the
    // pieces in memory order, "{%r0,%r1}" for r1:r0.
    std::string S = "{";
    for (size_t I = 0; I < E.Parts.size(); ++I) {
      if (I)
        S += ",";
      S += formatValue(*E.Parts[I], ABI, Space);
    }
    return S + "}";
  }
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
                           const ArchABI &ABI, AddrSpace Space) {
  // A string's expression is its address; kprobe_events reads the string
  // at the address of its last dereference, so `+0(%di):string` is the
  // string %di points to (perf probe prints the same).
  if (T.Kind == ValueType::String)
    return formatAddr(E, ABI, Space) + ":" + T.kprobeTypeName();
  std::string S = formatValue(E, ABI, Space);
  if (E.Kind == FetchExpr::Bitfield)
    return S + ":b" + std::to_string(E.BitSize) + "@" +
           std::to_string(E.BitOffset) + "/" + std::to_string(E.Size * 8);
  return S + ":" + T.kprobeTypeName();
}

static bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }

std::string kprobeArgName(StringRef Text, unsigned Pos, bool TypeList) {
  std::string Fallback = "arg" + std::to_string(Pos);
  StringRef T = Text.trim();
  if (TypeList)
    return Fallback;
  // An explicit ":type" (the last ':' outside brackets; a C name has none).
  StringRef Type;
  size_t Colon = T.rfind(':');
  if (Colon != StringRef::npos && T.find(']', Colon) == StringRef::npos) {
    Type = T.substr(Colon + 1).trim();
    T = T.substr(0, Colon).rtrim();
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
  std::string S = (Site.Kind == "kretprobe" || Site.Kind == "uretprobe")
                      ? "r:"
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
    S += formatFetchArg(*A.Expr, A.Type, ABI, Site.Space);
  }
  return S;
}

//===----------------------------------------------------------------------===//
// Serialization
//===----------------------------------------------------------------------===//

static void escapeInto(StringRef V, std::string &Out) {
  for (char C : V) {
    switch (C) {
    case '\\': Out += "\\\\"; break;
    case '\n': Out += "\\n"; break;
    case '\t': Out += "\\t"; break;
    default: Out += C;
    }
  }
}

static std::string unescape(StringRef V) {
  std::string Out;
  for (size_t I = 0; I < V.size(); ++I) {
    if (V[I] == '\\' && I + 1 < V.size()) {
      char N = V[++I];
      Out += N == 'n' ? '\n' : N == 't' ? '\t' : N;
      continue;
    }
    Out += V[I];
  }
  return Out;
}

static void writeExpr(const FetchExpr &E, std::string &Out) {
  switch (E.Kind) {
  case FetchExpr::Reg:
    Out += "(reg " + std::to_string(E.RegIdx) + ")";
    return;
  case FetchExpr::Const:
    Out += "(const " + std::to_string(E.Value) + ")";
    return;
  case FetchExpr::Add:
    Out += "(add " + std::to_string(E.Value) + " ";
    break;
  case FetchExpr::Deref:
    Out += "(deref " + std::to_string(E.Size) + " ";
    break;
  case FetchExpr::Bitfield:
    Out += "(bitfield " + std::to_string(E.Size) + " " +
           std::to_string(E.BitOffset) + " " + std::to_string(E.BitSize) + " " +
           std::to_string(E.SignExtend) + " ";
    break;
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
    if (Depth > 64)
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
    } else if (Op == "add" || Op == "deref" || Op == "bitfield") {
      if (Op == "add") {
        E->Kind = FetchExpr::Add;
        if (number(E->Value))
          return fail("bad addend");
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
    return createStringError(inconvertibleErrorCode(),
                             "bad plan expression: " + Msg);
  }
};
} // namespace

std::string serializePlan(const SitePlan &Site) {
  std::string Out = "bpfprobe-plan 1\n";
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
         std::to_string(A.Type.UserString);
    V += '\t';
    writeExpr(*A.Expr, V);
    Out += "arg=" + V + "\n";
  }
  return Out;
}

Expected<SitePlan> parsePlan(StringRef Text) {
  auto Fail = [](const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), "bad plan: " + Msg);
  };
  SmallVector<StringRef, 32> Lines;
  Text.split(Lines, '\n', -1, false);
  if (Lines.empty() || Lines[0] != "bpfprobe-plan 1")
    return Fail("missing or unknown version line");
  SitePlan Site;
  for (StringRef L : ArrayRef(Lines).drop_front()) {
    auto [K, RawV] = L.split('=');
    if (K == "arg") {
      SmallVector<StringRef, 5> F;
      RawV.split(F, '\t');
      if (F.size() != 5)
        return Fail("argument needs 5 fields");
      ArgPlan A;
      A.Name = unescape(F[0]);
      A.Text = unescape(F[1]);
      A.CType = unescape(F[2]);
      SmallVector<StringRef, 4> T;
      F[3].split(T, ' ');
      unsigned Kind, Size, Signed, User;
      if (T.size() != 4 || T[0].getAsInteger(10, Kind) ||
          Kind > unsigned(ValueType::Aggregate) ||
          T[1].getAsInteger(10, Size) || T[2].getAsInteger(10, Signed) ||
          T[3].getAsInteger(10, User))
        return Fail("bad argument type");
      A.Type.Kind = ValueType::KindTy(Kind);
      A.Type.Size = Size;
      A.Type.Signed = Signed;
      A.Type.UserString = User;
      ExprReader R(F[4]);
      auto E = R.read();
      if (!E)
        return E.takeError();
      if (!R.atEnd())
        return Fail("trailing text after expression");
      A.Expr = std::move(*E);
      Site.Args.push_back(std::move(A));
      continue;
    }
    std::string V = unescape(RawV);
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
