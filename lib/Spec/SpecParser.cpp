//===- SpecParser.cpp - Parser for bpfprobe annotations -----------------===//
//
/// \file
/// parseProbeSpec(): a hand-written recursive-descent parser from annotation
/// text (`uprobe/./srv:server.c:142(req->hdr.len, conn->fd:u32)`) to a
/// ProbeSpec. It works on bytes, records the range of every node, and reports
/// the first error as a SpecError at the offending byte. Every loop consumes
/// input or stops, recursion is bounded by MaxSpecNesting, so any input,
/// however hostile, ends in a tree or an error (test/fuzz/spec-fuzzer.cpp).
///
/// Target splitting, the only non-obvious part:
///  - user probes: the binary path runs to the first ':' (libbpf's own
///    `%m[^:]`), so `./srv:server.c:142` is binary `./srv`, place
///    `server.c:142`;
///  - kernel probes: `NAME:` is a module prefix unless a digit follows the
///    ':' (`vfs_write:12` is a relative line, `ext4:f+16` a module);
///  - `NAME:LINE` is file:line when NAME contains '.' or '/', else
///    symbol:relative-line.
///
/// C++ and Rust names: a place may be a qualified name (`shop::Cart::add`,
/// `ns::f<int>`, `V::operator+=`, `Cart::~Cart`, `krate::module::func`);
/// `::` never ends a binary path or starts a line, and a single ':' followed
/// by a digit still does (`shop::Cart::add:3`). What the bare grammar cannot
/// take (a parameter-type list, `operator int`, Rust's `{{closure}}`) is
/// written in single or double quotes, as gdb quotes linespecs:
/// `'shop::Cart::add(const shop::Item &, int)'`.
//===----------------------------------------------------------------------===//

#include "Spec/ProbeSpec.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <limits>

using namespace llvm;

namespace bpfprobe {
namespace {

bool isSpaceChar(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\v' ||
         C == '\f';
}
bool isIdentStart(char C) { return isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return isAlnum(C) || C == '_'; }
/// Characters of a symbol or a source file name in a place.
bool isPlaceChar(char C) {
  return isIdentChar(C) || C == '.' || C == '-' || C == '/';
}
bool isModuleChar(char C) { return isIdentChar(C) || C == '-'; }

bool isQualifier(StringRef W) { return W == "const" || W == "volatile"; }
bool isTagKeyword(StringRef W) {
  return W == "struct" || W == "union" || W == "enum";
}
bool isBaseTypeKeyword(StringRef W) {
  return W == "signed" || W == "unsigned" || W == "char" || W == "short" ||
         W == "int" || W == "long" || W == "_Bool" || W == "bool" ||
         W == "float" || W == "double" || W == "void" || W == "__int128";
}
bool isTypeKeyword(StringRef W) {
  return isQualifier(W) || isTagKeyword(W) || isBaseTypeKeyword(W);
}

/// The chain depth of an expression (each node has at most one child).
unsigned chainLength(const SpecExpr *E) {
  unsigned N = 0;
  for (; E; E = E->Base.get())
    ++N;
  return N;
}

class SpecParser {
public:
  explicit SpecParser(StringRef Text) : Text(Text) {}
  Expected<ProbeSpec> parse();

private:
  using ExprResult = Expected<std::unique_ptr<SpecExpr>>;

  StringRef Text;
  unsigned Pos = 0;
  ProbeKind Kind = ProbeKind::KProbe;
  /// Parsing the expression inside `@entry(...)`.
  bool InEntry = false;

  char peek(unsigned Ahead = 0) const {
    return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0';
  }
  bool atEnd() const { return Pos >= Text.size(); }
  void skipSpace() {
    while (!atEnd() && isSpaceChar(Text[Pos]))
      ++Pos;
  }
  StringRef slice(unsigned B, unsigned E) const { return Text.slice(B, E); }
  /// Consumes [A-Za-z_][A-Za-z0-9_]*; empty if none is at Pos.
  StringRef lexIdent() {
    unsigned B = Pos;
    if (!isIdentStart(peek()))
      return StringRef();
    while (isIdentChar(peek()))
      ++Pos;
    return slice(B, Pos);
  }

  std::string describe(unsigned At) const;
  Error error(unsigned At, const Twine &Msg) const {
    return make_error<SpecError>(At, Msg.str());
  }
  Error expected(unsigned At, const Twine &What) const {
    return error(At, "expected " + What + ", found " + describe(At));
  }
  Error nestedTooDeeply(unsigned At) const {
    return error(At, "expression is nested too deeply; the limit is " +
                         Twine(MaxSpecNesting) + " levels");
  }

  Error parseNumber(StringRef Noun, uint64_t Max, uint64_t &Value,
                    bool *IsHex = nullptr);
  Error parseKind(ProbeSpec &S);
  Error parseTarget(ProbeSpec &S);
  Error parsePlace(ProbePlace &P);
  Error parseLine(ProbePlace &P, bool AllowZero);
  Error checkSymbol(StringRef Name, unsigned At);
  Error scanSourceName(unsigned B, unsigned &End, bool &IsSource);
  Error parseQuotedName(ProbePlace &P);
  Error parseParams(ProbePlace &P, unsigned Close);
  Error parseSourcePlace(ProbePlace &P);
  Error parseOffset(ProbePlace &P);
  Error parseFileLine(ProbePlace &P);
  Error parseArgList(ProbeSpec &S);
  Error parseArg(ProbeArg &A);
  Error parseEntryArg(ProbeArg &A);
  bool startsEntry(unsigned At) const;
  Error parseArgFetchType(ProbeArg &A, unsigned &End);
  bool startsCType() const;
  Error parseCType(CTypeSyntax &T);
  Error parseFetchType(ProbeArg &A);
  ExprResult parseUnary(unsigned Depth);
  ExprResult parsePostfix(unsigned Depth);
  ExprResult parsePrimary(unsigned Depth);
};

std::string SpecParser::describe(unsigned At) const {
  if (At >= Text.size())
    return "end of annotation";
  char C = Text[At];
  if (isIdentChar(C)) {
    unsigned E = At;
    while (E < Text.size() && E - At < 32 && isIdentChar(Text[E]))
      ++E;
    return ("'" + slice(At, E) + "'").str();
  }
  if (C == ' ')
    return "space";
  if (C == '\t')
    return "tab";
  if (C > ' ' && C < 0x7f)
    return std::string("'") + C + "'";
  return "byte 0x" + utohexstr(static_cast<unsigned char>(C), true);
}

/// A decimal or 0x-hexadecimal number up to Max; \p Noun names it in
/// messages ("offset"). A decimal with a leading zero is refused: the kernel
/// and libbpf would read it as octal.
Error SpecParser::parseNumber(StringRef Noun, uint64_t Max, uint64_t &Value,
                              bool *IsHex) {
  unsigned B = Pos;
  if (!isDigit(peek()))
    return expected(B, (Noun[0] == 'a' || Noun[0] == 'o' ? "an " : "a ") +
                           Noun);
  bool Hex = peek() == '0' && (peek(1) == 'x' || peek(1) == 'X');
  unsigned DigitsBegin = Hex ? B + 2 : B;
  Pos = DigitsBegin;
  while (Hex ? isHexDigit(peek()) : isDigit(peek()))
    ++Pos;
  if (Hex && Pos == DigitsBegin)
    return expected(Pos, "hexadecimal digits after '0x'");
  if (isIdentChar(peek())) {
    unsigned E = Pos;
    while (E < Text.size() && isIdentChar(Text[E]))
      ++E;
    return error(Pos, "invalid " + Noun + " '" + slice(B, E) +
                          "': expected decimal digits, or 0x and "
                          "hexadecimal digits");
  }
  StringRef Digits = slice(DigitsBegin, Pos);
  if (!Hex && Digits.size() > 1 && Digits[0] == '0')
    return error(B, "leading zero in " + Noun + " '" + Digits +
                        "': write decimal numbers without leading zeros and "
                        "hexadecimal ones with 0x");
  uint64_t V = 0;
  if (Digits.getAsInteger(Hex ? 16 : 10, V) || V > Max)
    return error(B, Noun + " '" + slice(B, Pos) +
                        "' is too large; the limit is " + Twine(Max));
  Value = V;
  if (IsHex)
    *IsHex = Hex;
  return Error::success();
}

Expected<ProbeSpec> SpecParser::parse() {
  ProbeSpec S;
  if (Text.size() > MaxSpecLength)
    return error(MaxSpecLength, "annotation is too long: " +
                                    Twine(Text.size()) + " bytes, the limit "
                                    "is " + Twine(MaxSpecLength));
  S.Text = Text.str();
  if (Error E = parseKind(S))
    return std::move(E);
  if (Error E = parseTarget(S))
    return std::move(E);
  skipSpace();
  if (atEnd())
    return std::move(S);
  if (peek() != '(')
    return expected(Pos, "'(' or end of annotation after the probe target");
  if (Error E = parseArgList(S))
    return std::move(E);
  skipSpace();
  if (!atEnd())
    return error(Pos, "trailing characters after ')'");
  return std::move(S);
}

Error SpecParser::parseKind(ProbeSpec &S) {
  unsigned B = Pos;
  while (isIdentChar(peek()) || peek() == '.')
    ++Pos;
  StringRef W = slice(B, Pos);
  if (W.empty())
    return expected(B, "a probe kind (kprobe, kretprobe, uprobe, uretprobe, "
                       "fentry or fexit)");
  if (W == "kprobe")
    S.Kind = ProbeKind::KProbe;
  else if (W == "kretprobe")
    S.Kind = ProbeKind::KRetProbe;
  else if (W == "uprobe")
    S.Kind = ProbeKind::UProbe;
  else if (W == "uretprobe")
    S.Kind = ProbeKind::URetProbe;
  else if (W == "fentry")
    S.Kind = ProbeKind::FEntry;
  else if (W == "fexit")
    S.Kind = ProbeKind::FExit;
  else if (W == "fmod_ret")
    return error(B, "fmod_ret programs replace the traced function's return "
                    "value; a probe only observes: use fexit to see "
                    "'$retval'");
  else
    return error(B, "unknown probe kind '" + W +
                        "'; expected kprobe, kretprobe, uprobe, uretprobe, "
                        "fentry or fexit");
  Kind = S.Kind;
  S.KindRange = {B, Pos};
  if (peek() != '/')
    return expected(Pos, "'/' after '" + W + "'");
  ++Pos;
  return Error::success();
}

Error SpecParser::parseTarget(ProbeSpec &S) {
  unsigned B = Pos;
  if (isUserProbe(Kind)) {
    // The binary path runs to the first ':', as libbpf reads it.
    unsigned Bad = ~0u;
    while (!atEnd() && peek() != ':' && peek() != '(') {
      char C = peek();
      bool Control = static_cast<unsigned char>(C) < 0x20 || C == 0x7f;
      if (Bad == ~0u && (isSpaceChar(C) || Control || C == ')' || C == ','))
        Bad = Pos;
      ++Pos;
    }
    if (peek() != ':' || Pos == B) {
      StringRef K = probeKindName(Kind);
      return error(B, K + " needs a binary path: " + K + "/PATH:SYMBOL");
    }
    if (Bad != ~0u)
      return error(Bad, "unexpected " + describe(Bad) + " in binary path");
    S.Binary = slice(B, Pos).str();
    S.BinaryRange = {B, Pos};
    ++Pos;
  } else {
    // `NAME:` is a module unless a digit follows (then it is a line).
    unsigned E = Pos;
    while (E < Text.size() && isModuleChar(Text[E]))
      ++E;
    if (E > B && E + 1 < Text.size() && Text[E] == ':' &&
        !isDigit(Text[E + 1]) && Text[E + 1] != ':') {
      S.Binary = slice(B, E).str();
      S.BinaryRange = {B, E};
      Pos = E + 1;
    }
  }
  if (Error E = parsePlace(S.Place))
    return E;

  if (isTrampolineProbe(Kind)) {
    StringRef K = probeKindName(Kind);
    if (S.Place.HasOffset)
      return error(S.Place.OffsetRange.Begin - 1,
                   K + " cannot have an offset: the BPF trampoline is at "
                       "the function entry");
    if (S.Place.Form != ProbePlace::SymbolOffset)
      return error(S.Place.Form == ProbePlace::FileLine
                       ? S.Place.FileRange.Begin
                       : S.Place.LineRange.Begin,
                   K + " needs a function symbol, not a source line");
  }
  if (isReturnProbe(Kind)) {
    StringRef K = probeKindName(Kind);
    if (S.Place.HasOffset)
      return error(S.Place.OffsetRange.Begin - 1,
                   K + " cannot have an offset: return probes attach to "
                       "the function entry");
    if (S.Place.Form != ProbePlace::SymbolOffset) {
      TextRange R = S.Place.Form == ProbePlace::FileLine ? S.Place.FileRange
                                                         : S.Place.LineRange;
      return error(R.Begin, K + " needs a function symbol, not a source "
                                "line: return probes attach to the function "
                                "entry");
    }
  }
  return Error::success();
}

Error SpecParser::checkSymbol(StringRef Name, unsigned At) {
  if (Name.empty())
    return expected(At, "a symbol name");
  if (!isIdentStart(Name[0]))
    return error(At, "expected a symbol name, found " + describe(At));
  bool LooksLikeFile = Name.contains('/') || Name.contains('.');
  for (unsigned I = 0; I < Name.size(); ++I)
    if (Name[I] == '-' || Name[I] == '/')
      return error(At + I, "unexpected '" + Name.substr(I, 1) +
                               "' in symbol name '" + Name + "'" +
                               (LooksLikeFile
                                    ? "; a source file needs a line: FILE:LINE"
                                    : ""));
  if (Name.back() == '.')
    return error(At + Name.size() - 1,
                 "symbol name '" + Name + "' cannot end with '.'");
  return Error::success();
}

Error SpecParser::parseLine(ProbePlace &P, bool AllowZero) {
  unsigned B = Pos;
  uint64_t V = 0;
  if (Error E = parseNumber("line number", std::numeric_limits<unsigned>::max(),
                            V))
    return E;
  if (V == 0 && !AllowZero)
    return error(B, "line numbers start at 1");
  P.Line = static_cast<unsigned>(V);
  P.LineRange = {B, Pos};
  return Error::success();
}

/// Operator tokens that may follow `operator` in a name, longest first so
/// that `operator<<=` is not read as `operator<`.
static const char *const OperatorTokens[] = {
    "<=>", "<<=", ">>=", "->*", "()", "[]", "<<", ">>", "<=", ">=",
    "==",  "!=",  "&&",  "||",  "++", "--", "+=", "-=", "*=", "/=",
    "%=",  "&=",  "|=",  "^=",  "->", "+",  "-",  "*",  "/",  "%",
    "^",   "&",   "|",   "~",   "!",  "=",  "<",  ">",  ","};

/// The operator token at Text[P], or 0 if none.
static unsigned operatorTokenAt(StringRef Text, unsigned P) {
  for (const char *T : OperatorTokens)
    if (Text.substr(P).starts_with(T))
      return static_cast<unsigned>(strlen(T));
  return 0;
}

/// Scans a C++/Rust name from B: components `[~]ident[<...>]` or
/// `operator OP` joined by `::`. End is where it stops; IsSource is set when
/// it is more than a plain identifier (so the symbol table alone cannot hold
/// it as written).
Error SpecParser::scanSourceName(unsigned B, unsigned &End, bool &IsSource) {
  unsigned P = B, N = Text.size();
  IsSource = false;
  End = B;
  while (true) {
    bool Tilde = P < N && Text[P] == '~';
    if (Tilde)
      ++P;
    if (P >= N || !isIdentStart(Text[P])) {
      if (Tilde || P != B)
        return expected(P, Twine("a name after '") + (Tilde ? "~" : "::") +
                               "'");
      return Error::success();
    }
    unsigned IB = P;
    while (P < N && isIdentChar(Text[P]))
      ++P;
    StringRef Id = slice(IB, P);
    IsSource |= Tilde;
    if (Id == "operator" && !Tilde) {
      IsSource = true;
      unsigned Len = operatorTokenAt(Text, P);
      if (!Len)
        return error(P, "expected an operator after 'operator', found " +
                            describe(P) + "; write conversion operators and "
                            "other names the grammar cannot take in quotes: "
                            "'ns::T::operator bool'");
      P += Len;
    } else if (P < N && Text[P] == '<') {
      IsSource = true;
      unsigned Open = P;
      int Depth = 0;
      for (; P < N; ++P) {
        char C = Text[P];
        if (C == '<' || C == '(' || C == '[')
          ++Depth;
        else if ((C == '>' || C == ')' || C == ']') && --Depth == 0)
          break;
        else if (C == '\'' || C == '"' || Depth < 0)
          break;
      }
      if (P >= N || Depth != 0)
        return error(Open, "unterminated template argument list: missing "
                           "'>'");
      ++P;
    }
    if (Text.substr(P).starts_with("::")) {
      IsSource = true;
      P += 2;
      continue;
    }
    End = P;
    return Error::success();
  }
}

/// `'NAME[(TYPE, ...)[QUALS]]'` or the same in double quotes. NAME runs to
/// the first '(' outside template brackets (after `operator()` it is the
/// next one).
Error SpecParser::parseQuotedName(ProbePlace &P) {
  char Q = peek();
  unsigned Open = Pos++;
  size_t CloseAt = Text.find(Q, Pos);
  if (CloseAt == StringRef::npos)
    return error(Open, Twine("unterminated quoted name: missing the closing ") +
                           (Q == '"' ? "'\"'" : "\"'\""));
  unsigned Close = static_cast<unsigned>(CloseAt);
  skipSpace();
  unsigned NB = Pos;
  int Depth = 0;
  while (Pos < Close) {
    char C = peek();
    if (Depth == 0 && C == '(')
      break;
    if (isIdentStart(C)) {
      StringRef Id = lexIdent();
      if (Id == "operator") {
        skipSpace();
        if (unsigned Len = operatorTokenAt(Text, Pos); Len && Pos + Len <= Close)
          Pos += Len;
      }
      continue;
    }
    if (C == '<' || C == '{' || C == '[')
      ++Depth;
    else if ((C == '>' || C == '}' || C == ']') && --Depth < 0)
      return error(Pos, "unbalanced '" + Twine(C) + "' in quoted name");
    ++Pos;
  }
  unsigned NE = Pos;
  while (NE > NB && isSpaceChar(Text[NE - 1]))
    --NE;
  if (NE == NB)
    return expected(NB, "a function name inside the quotes");
  if (Depth != 0)
    return error(NB, "unbalanced brackets in quoted name '" +
                         slice(NB, NE) + "'");
  P.Symbol = slice(NB, NE).str();
  P.SymbolRange = {NB, NE};
  P.SourceName = true;
  P.Quoted = true;
  if (peek() == '(')
    if (Error E = parseParams(P, Close))
      return E;
  Pos = Close + 1;
  return Error::success();
}

/// A parameter-type list `(T1, T2)` inside quotes, up to Close; `()` and
/// `(void)` are no parameters. What follows ')' may be cv/ref qualifiers.
Error SpecParser::parseParams(ProbePlace &P, unsigned Close) {
  unsigned Open = Pos++;
  P.HasParams = true;
  int Depth = 0;
  unsigned TB = Pos;
  auto push = [&](unsigned E) -> Error {
    StringRef T = slice(TB, E).trim();
    if (T.empty())
      return error(E, "empty parameter type in '" + slice(Open, E + 1) + "'");
    P.Params.push_back(T.str());
    return Error::success();
  };
  for (; Pos < Close; ++Pos) {
    char C = peek();
    if (C == '(' || C == '<' || C == '[')
      ++Depth;
    else if (C == ')' && Depth == 0)
      break;
    else if (C == ')' || C == '>' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      if (Error E = push(Pos))
        return E;
      TB = Pos + 1;
    }
  }
  if (Pos >= Close)
    return error(Open, "unterminated parameter list: missing ')' before the "
                       "closing quote");
  if (!slice(TB, Pos).trim().empty() || !P.Params.empty())
    if (Error E = push(Pos))
      return E;
  if (P.Params.size() == 1 && P.Params[0] == "void")
    P.Params.clear();
  ++Pos;
  StringRef Quals = slice(Pos, Close).trim();
  SmallVector<StringRef, 4> Words;
  Quals.split(Words, ' ', -1, false);
  for (StringRef W : Words)
    if (W != "const" && W != "volatile" && W != "&" && W != "&&")
      return error(static_cast<unsigned>(W.data() - Text.data()),
                   "unexpected '" + W + "' after the parameter list; "
                   "expected const, volatile, & or && or the closing quote");
  P.ParamQualifiers = Quals.str();
  return Error::success();
}

/// An optional `+OFFSET` after a symbol (decimal or 0x hexadecimal).
Error SpecParser::parseOffset(ProbePlace &P) {
  if (peek() != '+')
    return Error::success();
  ++Pos;
  unsigned OB = Pos;
  uint64_t V = 0;
  if (Error E = parseNumber("offset", std::numeric_limits<int64_t>::max(),
                            V, &P.OffsetIsHex))
    return E;
  P.Offset = V;
  P.HasOffset = true;
  P.OffsetRange = {OB, Pos};
  return Error::success();
}

/// After a symbol: `@FILE:LINE` (Pos at the '@').
Error SpecParser::parseFileLine(ProbePlace &P) {
  ++Pos;
  unsigned FB = Pos;
  while (isPlaceChar(peek()))
    ++Pos;
  if (Pos == FB)
    return expected(FB, "a source file name after '@'");
  P.File = slice(FB, Pos).str();
  P.FileRange = {FB, Pos};
  if (peek() != ':')
    return expected(Pos, "':' and a line number after the file name");
  ++Pos;
  return parseLine(P, /*AllowZero=*/false);
}

/// After a source name: `@FILE:LINE`, `:REL-LINE` or `+OFFSET`.
Error SpecParser::parseSourcePlace(ProbePlace &P) {
  if (peek() == '@') {
    P.Form = ProbePlace::SymbolFileLine;
    return parseFileLine(P);
  }
  if (peek() == ':') {
    ++Pos;
    if (!isDigit(peek()))
      return expected(Pos, "a line number after ':'");
    P.Form = ProbePlace::SymbolRelLine;
    return parseLine(P, /*AllowZero=*/true);
  }
  P.Form = ProbePlace::SymbolOffset;
  if (isPlaceChar(peek()) || peek() == '~')
    return error(Pos, "unexpected " + describe(Pos) + " after the name '" +
                          P.Symbol + "'; quote names the grammar cannot "
                          "take: '" + P.Symbol + "...'");
  return parseOffset(P);
}

Error SpecParser::parsePlace(ProbePlace &P) {
  unsigned B = Pos;
  if (peek() == '\'' || peek() == '"') {
    if (Error E = parseQuotedName(P))
      return E;
    return parseSourcePlace(P);
  }
  unsigned SourceEnd = B;
  bool IsSource = false;
  if (Error E = scanSourceName(B, SourceEnd, IsSource))
    return E;
  if (IsSource) {
    P.Symbol = slice(B, SourceEnd).str();
    P.SymbolRange = {B, SourceEnd};
    P.SourceName = true;
    Pos = SourceEnd;
    return parseSourcePlace(P);
  }
  while (isPlaceChar(peek()))
    ++Pos;
  StringRef Name = slice(B, Pos);

  if (peek() == '@') {
    if (Error E = checkSymbol(Name, B))
      return E;
    P.Form = ProbePlace::SymbolFileLine;
    P.Symbol = Name.str();
    P.SymbolRange = {B, Pos};
    return parseFileLine(P);
  }

  if (peek() == ':') {
    if (Name.empty())
      return expected(B, "a symbol or source file name");
    ++Pos;
    if (!isDigit(peek()))
      return expected(Pos, "a line number after ':'");
    if (Name.contains('.') || Name.contains('/')) {
      P.Form = ProbePlace::FileLine;
      P.File = Name.str();
      P.FileRange = {B, B + static_cast<unsigned>(Name.size())};
      return parseLine(P, /*AllowZero=*/false);
    }
    if (Error E = checkSymbol(Name, B))
      return E;
    P.Form = ProbePlace::SymbolRelLine;
    P.Symbol = Name.str();
    P.SymbolRange = {B, B + static_cast<unsigned>(Name.size())};
    return parseLine(P, /*AllowZero=*/true);
  }

  if (Error E = checkSymbol(Name, B))
    return E;
  P.Form = ProbePlace::SymbolOffset;
  P.Symbol = Name.str();
  P.SymbolRange = {B, Pos};
  return parseOffset(P);
}

Error SpecParser::parseArgList(ProbeSpec &S) {
  unsigned Open = Pos++;
  S.HasArgList = true;
  skipSpace();
  if (peek() == ')') {
    S.ArgListRange = {Open, ++Pos};
    return Error::success();
  }
  int FirstDefinite = -1; // index of the first Expression or CType argument
  while (true) {
    skipSpace();
    if (atEnd())
      return error(Pos, "unterminated argument list: missing ')'");
    if (peek() == ',' || peek() == ')')
      return error(Pos, "empty argument");
    ProbeArg A;
    if (Error E = parseArg(A))
      return E;
    if (A.Form != ProbeArg::IdentOrType) {
      if (FirstDefinite < 0) {
        FirstDefinite = static_cast<int>(S.Args.size());
      } else if (S.Args[FirstDefinite].Form != A.Form) {
        const ProbeArg &F = S.Args[FirstDefinite];
        bool IsType = A.Form == ProbeArg::CType;
        return error(A.Range.Begin,
                     "cannot mix C type names and expressions in one "
                     "argument list: '" + A.Text + "' is " +
                         (IsType ? "a type" : "an expression") + " but '" +
                         F.Text + "' is " +
                         (IsType ? "an expression" : "a type"));
      }
    }
    S.Args.push_back(std::move(A));
    skipSpace();
    if (atEnd())
      return error(Pos, "unterminated argument list: missing ')'");
    if (peek() == ',') {
      ++Pos;
      continue;
    }
    if (peek() == ')')
      break;
    return expected(Pos, "')' or ',' after argument");
  }
  S.ArgListRange = {Open, ++Pos};
  return Error::success();
}

/// `@entry` followed by '(' (a global named `entry` is `@entry` alone).
bool SpecParser::startsEntry(unsigned At) const {
  StringRef Rest = Text.substr(At);
  if (!Rest.consume_front("@entry"))
    return false;
  Rest = Rest.ltrim(" \t");
  return Rest.starts_with("(");
}

/// An optional ":type" after an argument; End is moved past it.
Error SpecParser::parseArgFetchType(ProbeArg &A, unsigned &End) {
  End = Pos;
  skipSpace();
  if (peek() == ':') {
    ++Pos;
    skipSpace();
    if (Error Err = parseFetchType(A))
      return Err;
    End = Pos;
  }
  Pos = End;
  return Error::success();
}

/// `@entry(expr)[:type]`: the value of expr at the function's entry, in a
/// return probe.
Error SpecParser::parseEntryArg(ProbeArg &A) {
  unsigned B = Pos;
  if (!seesReturnValue(Kind))
    return error(B, "'@entry(...)' is only available in kretprobe, uretprobe "
                    "and fexit probes: it hands a value from the function's "
                    "entry to its return");
  Pos += 6; // "@entry"
  skipSpace();
  unsigned Open = Pos++;
  skipSpace();
  if (peek() == ')')
    return expected(Pos, "an expression inside '@entry(...)'");
  InEntry = true;
  ExprResult E = parseUnary(1);
  InEntry = false;
  if (!E)
    return E.takeError();
  skipSpace();
  if (peek() == ':')
    return error(Pos, "write the fetch type after '@entry(...)': "
                      "'@entry(x):u32'");
  if (peek() != ')')
    return expected(Pos, "')' to close the '@entry(' at offset " +
                             Twine(Open));
  ++Pos;
  A.EntryRange = {B, Pos};
  unsigned After = Pos;
  skipSpace();
  if ((peek() == '-' && peek(1) == '>') || peek() == '.' || peek() == '[')
    return error(Pos, "'@entry(...)' must be a whole argument: write the "
                      "member or element inside it, as in '@entry(p->x)'");
  Pos = After;
  A.AtEntry = true;
  A.Expr = std::move(*E);
  A.Form = ProbeArg::Expression;
  unsigned End;
  if (Error Err = parseArgFetchType(A, End))
    return Err;
  A.Range = {B, End};
  A.Text = slice(A.Range.Begin, A.Range.End).str();
  return Error::success();
}

Error SpecParser::parseArg(ProbeArg &A) {
  unsigned B = Pos;
  if (startsEntry(Pos))
    return parseEntryArg(A);
  if (startsCType()) {
    if (Error E = parseCType(A.Type))
      return E;
    A.Form = ProbeArg::CType;
    A.Range = A.Type.Range;
    unsigned End = Pos;
    skipSpace();
    if (peek() == ':')
      return error(Pos, "a C type name cannot have a fetch type; fetch "
                        "types follow expressions such as '$arg1:u32'");
    Pos = End;
  } else {
    ExprResult E = parseUnary(1);
    if (!E)
      return E.takeError();
    A.Expr = std::move(*E);
    A.Form = ProbeArg::Expression;
    unsigned End;
    if (Error Err = parseArgFetchType(A, End))
      return Err;
    A.Range = {B, End};
    const SpecExpr &X = *A.Expr;
    // A bare name (not parenthesised, no fetch type, not qualified) may be
    // a typedef.
    if (X.Kind == SpecExpr::Ident && !A.FetchType &&
        !StringRef(X.Name).contains("::") &&
        X.Range.Begin == X.NameRange.Begin && X.Range.End == X.NameRange.End) {
      A.Form = ProbeArg::IdentOrType;
      A.Type.Words = {X.Name};
      A.Type.Range = X.Range;
      A.Type.Text = X.Name;
    }
  }
  A.Text = slice(A.Range.Begin, A.Range.End).str();
  return Error::success();
}

/// A C type starts with a type keyword, or with a name followed by another
/// name (`size_t const`, `size_t len`) or by '*' (`size_t *`): neither can
/// begin an expression.
bool SpecParser::startsCType() const {
  unsigned P = Pos;
  if (P >= Text.size() || !isIdentStart(Text[P]))
    return false;
  while (P < Text.size() && isIdentChar(Text[P]))
    ++P;
  if (isTypeKeyword(slice(Pos, P)))
    return true;
  while (P < Text.size() && isSpaceChar(Text[P]))
    ++P;
  return P < Text.size() && (isIdentStart(Text[P]) || Text[P] == '*');
}

Error SpecParser::parseCType(CTypeSyntax &T) {
  unsigned B = Pos, End = Pos;
  bool HaveBase = false, HaveNamed = false;
  auto written = [&] { return join(T.Words, " "); };
  auto noName = [&](unsigned At, StringRef W) {
    return error(At, "unexpected '" + W + "' after type '" + T.Text +
                         "'; write only the type, without a parameter name");
  };
  while (true) {
    skipSpace();
    unsigned WB = Pos;
    StringRef W = lexIdent();
    if (W.empty())
      break;
    End = Pos;
    if (isQualifier(W)) {
      T.Words.push_back(W.str());
    } else if (isTagKeyword(W)) {
      if (HaveBase || HaveNamed)
        return error(WB, "unexpected '" + W + "' after type '" + written() +
                             "'");
      T.Words.push_back(W.str());
      skipSpace();
      unsigned TB = Pos;
      StringRef Tag = lexIdent();
      if (Tag.empty())
        return expected(TB, "a tag name after '" + W + "'");
      T.Words.push_back(Tag.str());
      HaveNamed = true;
      End = Pos;
    } else if (isBaseTypeKeyword(W)) {
      if (HaveNamed)
        return error(WB, "'" + W + "' cannot be combined with '" + written() +
                             "'");
      T.Words.push_back(W.str());
      HaveBase = true;
    } else {
      if (HaveBase || HaveNamed) {
        T.Text = written();
        return noName(WB, W);
      }
      T.Words.push_back(W.str());
      HaveNamed = true;
    }
  }
  if (!HaveBase && !HaveNamed)
    return expected(Pos, "a type name after '" + written() + "'");
  T.Text = written();
  Pos = End;

  bool Star = false;
  while (true) {
    unsigned P = Pos;
    skipSpace();
    if (peek() == '*') {
      if (++T.PointerDepth > MaxSpecNesting)
        return error(Pos, "too many '*' in a type; the limit is " +
                              Twine(MaxSpecNesting));
      T.Text += Star ? "*" : " *";
      Star = true;
      End = ++Pos;
      continue;
    }
    unsigned WB = Pos;
    StringRef W = lexIdent();
    if (T.PointerDepth > 0 &&
        (isQualifier(W) || W == "restrict" || W == "__restrict")) {
      T.Text += (Star ? "" : " ") + W.str();
      Star = false;
      End = Pos;
      continue;
    }
    if (!W.empty())
      return noName(WB, W);
    Pos = P;
    break;
  }
  Pos = End;
  T.Range = {B, End};
  return Error::success();
}

Error SpecParser::parseFetchType(ProbeArg &A) {
  unsigned B = Pos;
  while (isIdentChar(peek()))
    ++Pos;
  StringRef W = slice(B, Pos);
  if (W.empty())
    return expected(B, "a fetch type after ':'");
  ValueType F;
  F.Text = W.str();
  if (W == "string" || W == "ustring") {
    F.Kind = ValueType::String;
  } else {
    StringRef Bits = W.drop_front();
    unsigned N = 0;
    bool GoodBits = (Bits == "8" || Bits == "16" || Bits == "32" ||
                     Bits == "64") &&
                    !Bits.getAsInteger(10, N);
    if ((W[0] == 'u' || W[0] == 's') && GoodBits)
      F.Kind = ValueType::Int;
    else if (W[0] == 'x' && GoodBits)
      F.Kind = ValueType::Pointer; // printed as hex
    else
      return error(B, "unknown fetch type '" + W +
                          "'; expected u8..u64, s8..s64, x8..x64, string or "
                          "ustring");
    F.Size = N / 8;
    F.Signed = W[0] == 's';
  }
  A.FetchType = std::move(F);
  A.FetchTypeRange = {B, Pos};
  A.FetchUserString = W == "ustring";
  return Error::success();
}

SpecParser::ExprResult SpecParser::parseUnary(unsigned Depth) {
  skipSpace();
  if (Depth > MaxSpecNesting)
    return nestedTooDeeply(Pos);
  if (peek() != '*')
    return parsePostfix(Depth);
  unsigned B = Pos++;
  ExprResult Base = parseUnary(Depth + 1);
  if (!Base)
    return Base;
  if (chainLength(Base->get()) >= MaxSpecNesting)
    return nestedTooDeeply(B);
  auto E = std::make_unique<SpecExpr>();
  E->Kind = SpecExpr::Deref;
  E->Range = {B, (*Base)->Range.End};
  E->NameRange = {B, B + 1};
  E->Base = std::move(*Base);
  return std::move(E);
}

SpecParser::ExprResult SpecParser::parsePostfix(unsigned Depth) {
  ExprResult Primary = parsePrimary(Depth);
  if (!Primary)
    return Primary;
  std::unique_ptr<SpecExpr> E = std::move(*Primary);
  unsigned Length = chainLength(E.get());
  while (true) {
    unsigned P = Pos;
    skipSpace();
    unsigned OpBegin = Pos;
    auto N = std::make_unique<SpecExpr>();
    if (peek() == '-' && peek(1) == '>') {
      N->Kind = SpecExpr::Arrow;
      Pos += 2;
    } else if (peek() == '.') {
      N->Kind = SpecExpr::Dot;
      ++Pos;
    } else if (peek() == '[') {
      N->Kind = SpecExpr::Index;
      ++Pos;
    } else {
      Pos = P;
      break;
    }
    if (++Length > MaxSpecNesting)
      return nestedTooDeeply(OpBegin);
    skipSpace();
    unsigned NB = Pos;
    if (N->Kind == SpecExpr::Index) {
      if (peek() == '-')
        return expected(Pos, "a non-negative array index");
      uint64_t V = 0;
      if (Error Err = parseNumber("array index",
                                  std::numeric_limits<int64_t>::max(), V))
        return std::move(Err);
      N->Number = static_cast<int64_t>(V);
      N->NameRange = {NB, Pos};
      skipSpace();
      if (peek() != ']')
        return expected(Pos, "']' after the array index");
      ++Pos;
    } else {
      StringRef Name = lexIdent();
      if (Name.empty())
        return expected(NB, Twine("a member name after '") +
                                (N->Kind == SpecExpr::Arrow ? "->" : ".") +
                                "'");
      N->Name = Name.str();
      N->NameRange = {NB, Pos};
      unsigned AfterName = Pos;
      skipSpace();
      if (peek() == '(') {
        // A pseudo-method, as gdb evaluates `v.size()`: size(), or len()
        // as Rust spells it, of a std::vector or a Rust Vec or slice (its
        // element count) or a string (its length); the resolver checks
        // the type.
        if (Name != "size" && Name != "len")
          return error(NB, "unknown method '" + Name +
                               "()'; the one method an argument can call is "
                               "'size()', or 'len()' as Rust spells it (of a "
                               "vector, a slice or a string)");
        ++Pos;
        skipSpace();
        if (peek() != ')')
          return expected(Pos, "')': '" + Name + "()' takes no arguments");
        ++Pos;
        // `p->size()` is `(*p).size()`.
        if (N->Kind == SpecExpr::Arrow) {
          auto D = std::make_unique<SpecExpr>();
          D->Kind = SpecExpr::Deref;
          D->Range = E->Range;
          D->NameRange = {OpBegin, OpBegin + 2};
          D->Base = std::move(E);
          E = std::move(D);
        }
        N->Kind = SpecExpr::Method;
        N->Range = {E->Range.Begin, Pos};
        N->Base = std::move(E);
        E = std::move(N);
        unsigned End = Pos;
        skipSpace();
        if (peek() == '.' || peek() == '[' ||
            (peek() == '-' && peek(1) == '>'))
          return error(Pos, "'" + Name + "()' gives a number; nothing can "
                                         "follow it");
        Pos = End;
        break;
      }
      Pos = AfterName;
    }
    N->Range = {E->Range.Begin, Pos};
    N->Base = std::move(E);
    E = std::move(N);
  }
  return std::move(E);
}

SpecParser::ExprResult SpecParser::parsePrimary(unsigned Depth) {
  skipSpace();
  unsigned B = Pos;
  auto E = std::make_unique<SpecExpr>();
  char C = peek();
  if (C == '(') {
    ++Pos;
    ExprResult Inner = parseUnary(Depth + 1);
    if (!Inner)
      return Inner;
    skipSpace();
    if (peek() != ')')
      return expected(Pos, "')' to close the '(' at offset " + Twine(B));
    ++Pos;
    (*Inner)->Range = {B, Pos};
    return Inner;
  }
  if (C == '$') {
    ++Pos;
    unsigned WB = Pos;
    while (isIdentChar(peek()))
      ++Pos;
    StringRef W = slice(WB, Pos);
    StringRef Token = slice(B, Pos);
    E->NameRange = {B, Pos};
    E->Range = {B, Pos};
    if (W == "retval") {
      if (!seesReturnValue(Kind))
        return error(B, "'$retval' is only available in kretprobe, "
                        "uretprobe and fexit probes");
      if (InEntry)
        return error(B, "'$retval' has no value at the function's entry; "
                        "write it outside '@entry(...)'");
      E->Kind = SpecExpr::RetVal;
      return std::move(E);
    }
    if (W == "arg")
      return expected(Pos, "a number after '$arg'");
    StringRef Digits = W.starts_with("arg") ? W.drop_front(3) : StringRef();
    if (W.empty() || Digits.empty() ||
        !all_of(Digits, [](char D) { return isDigit(D); }))
      return error(B, "unknown special variable '" + Token +
                          "'; expected $argN or $retval");
    StringRef Trimmed = Digits.ltrim('0');
    if (Trimmed.empty())
      return error(B, "'" + Token +
                          "' is invalid: arguments count from $arg1");
    if (Trimmed.size() != Digits.size())
      return error(B, "'" + Token + "' is invalid: write '$arg" + Trimmed +
                          "'");
    unsigned N = 0;
    if (Digits.getAsInteger(10, N) || N > 65535)
      return error(B, "'" + Token + "' is too large; the limit is $arg65535");
    E->Kind = SpecExpr::ArgN;
    E->Number = N;
    return std::move(E);
  }
  if (C == '@' && startsEntry(B)) {
    if (!seesReturnValue(Kind))
      return error(B, "'@entry(...)' is only available in kretprobe, "
                      "uretprobe and fexit probes: it hands a value from "
                      "the function's entry to its return");
    if (InEntry)
      return error(B, "'@entry(...)' cannot be nested: the expression "
                      "inside it is already read at the function's entry");
    return error(B, "'@entry(...)' must be a whole argument: write "
                    "'@entry(p->x)', not '@entry(p)->x'");
  }
  if (C == '%' || C == '@') {
    ++Pos;
    unsigned NB = Pos;
    StringRef Name = lexIdent();
    if (Name.empty())
      return expected(NB, C == '%' ? "a register name after '%'"
                                   : "a global variable name after '@'");
    while (C == '@' && peek() == ':' && peek(1) == ':') {
      Pos += 2;
      unsigned CB = Pos;
      if (lexIdent().empty())
        return expected(CB, "a name after '::'");
      Name = slice(NB, Pos);
    }
    E->Kind = C == '%' ? SpecExpr::Reg : SpecExpr::Global;
    E->Name = Name.str();
    E->NameRange = {NB, Pos};
    E->Range = {B, Pos};
    return std::move(E);
  }
  StringRef Name = lexIdent();
  if (Name.empty())
    return expected(B, "an expression (a name, $argN, $retval, %reg, "
                       "@global, '*' or '(')");
  // A qualified name (`shop::Cart::carts`, a static member or a namespace
  // global).
  while (peek() == ':' && peek(1) == ':') {
    Pos += 2;
    unsigned CB = Pos;
    if (lexIdent().empty())
      return expected(CB, "a name after '::'");
    Name = slice(B, Pos);
  }
  E->Kind = SpecExpr::Ident;
  E->Name = Name.str();
  E->NameRange = E->Range = {B, Pos};
  return std::move(E);
}

} // namespace

Expected<ProbeSpec> parseProbeSpec(StringRef Text) {
  return SpecParser(Text).parse();
}

} // namespace bpfprobe
