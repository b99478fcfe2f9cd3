//===- SourceNames.cpp - C++/Rust source names to symbols ----------------===//
//
/// \file
/// findSourceFunction() and its helpers (SourceNames.h): a place written as
/// a C++/Rust source name is matched against the demangled names of the
/// binary's function symbols. Matching works on the demangled qualified
/// name, as gdb's linespecs do, so that `shop::Cart::add`, `Cart::add` and
/// `'shop::Cart::add(const shop::Item &, int)'` all find
/// `_ZN4shop4Cart3addERKNS_4ItemEi`; a name that leaves more than one
/// function is refused with every candidate listed.
//===----------------------------------------------------------------------===//

#include "Resolve/SourceNames.h"
#include "Resolve/Resolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"

#include <cstdlib>
#include <map>

using namespace llvm;

namespace bpfprobe {

namespace {

/// A malloc'd string from the demangler.
std::string takeDemangled(char *S) {
  if (!S)
    return std::string();
  std::string R(S);
  std::free(S);
  return R;
}

/// Drops `[abi:cxx11]`-style tags, which source code never spells.
std::string dropAbiTags(StringRef S) {
  std::string R;
  while (true) {
    size_t P = S.find("[abi:");
    if (P == StringRef::npos)
      break;
    size_t E = S.find(']', P);
    if (E == StringRef::npos)
      break;
    R += S.substr(0, P).str();
    S = S.substr(E + 1);
  }
  return R + S.str();
}

/// Splits a qualified name at its top-level `::` (not inside `<...>` or
/// `(...)`).
SmallVector<StringRef, 8> splitQualified(StringRef Name) {
  SmallVector<StringRef, 8> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    // `operator<` / `operator>` are names, not brackets.
    if (Name.substr(0, I).ends_with("operator"))
      continue;
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ')' || C == ']') && Depth > 0)
      --Depth;
    else if (Depth == 0 && C == ':' && I + 1 < Name.size() &&
             Name[I + 1] == ':') {
      Parts.push_back(Name.slice(Start, I));
      Start = I + 2;
      ++I;
    }
  }
  Parts.push_back(Name.substr(Start));
  return Parts;
}

/// A component without its template arguments (`f` of `f<int>`); operators
/// keep theirs (`operator<`).
StringRef withoutTemplateArgs(StringRef C) {
  if (C.starts_with("operator"))
    return C;
  return C.take_until([](char X) { return X == '<'; });
}

bool isRustHash(StringRef C) {
  return C.size() == 17 && C[0] == 'h' &&
         all_of(C.drop_front(), [](char X) { return isHexDigit(X); });
}

/// gcc's clone suffixes; ".cold" and anything else: not an entry.
bool isCloneSuffix(StringRef S) {
  SmallVector<StringRef, 6> Parts;
  S.split(Parts, '.');
  if (Parts.size() % 2)
    return false;
  for (size_t I = 0; I < Parts.size(); I += 2) {
    unsigned N;
    if ((Parts[I] != "constprop" && Parts[I] != "isra" &&
         Parts[I] != "part") ||
        Parts[I + 1].getAsInteger(10, N))
      return false;
  }
  return true;
}

bool isWordChar(char C) { return isAlnum(C) || C == '_'; }

} // namespace

std::optional<DemangledFunction> demangleFunction(StringRef Symbol) {
  StringRef Base = Symbol;
  if (size_t Dot = Symbol.find('.'); Dot != StringRef::npos) {
    if (!isCloneSuffix(Symbol.substr(Dot + 1)))
      return std::nullopt;
    Base = Symbol.take_front(Dot);
  }
  if (!Base.starts_with("_Z") && !Base.starts_with("_R"))
    return std::nullopt;
  std::string Mangled = Base.str();
  DemangledFunction F;
  ItaniumPartialDemangler D;
  if (Base.starts_with("_Z") && !D.partialDemangle(Mangled.c_str()) &&
      D.isFunction()) {
    size_t N = 0;
    F.Qualified = dropAbiTags(takeDemangled(D.getFunctionName(nullptr, &N)));
    F.Params = takeDemangled(D.getFunctionParameters(nullptr, &N));
    F.Full = takeDemangled(D.finishDemangle(nullptr, &N));
    StringRef Tail = StringRef(F.Full).rsplit(')').second.trim();
    F.Qualifiers = Tail.str();
    if (F.Qualified.empty())
      return std::nullopt;
    return F;
  }
  // Rust (legacy: an Itanium nested name ending in its hash; v0) and
  // Itanium names the partial demangler does not take as functions.
  std::string Full;
  if (!nonMicrosoftDemangle(Mangled, Full) || Full.empty() || Full == Mangled)
    return std::nullopt;
  F.Full = Full;
  SmallVector<StringRef, 8> Parts = splitQualified(Full);
  if (Parts.size() > 1 && isRustHash(Parts.back()))
    Parts.pop_back();
  F.Qualified = dropAbiTags(join(Parts, "::"));
  return F;
}

bool sourceNameMatches(StringRef Written, StringRef Qualified) {
  SmallVector<StringRef, 8> W = splitQualified(Written);
  SmallVector<StringRef, 8> Q = splitQualified(Qualified);
  if (W.size() > Q.size())
    return false;
  size_t Skip = Q.size() - W.size();
  for (size_t I = 0; I < W.size(); ++I) {
    StringRef A = W[I], B = Q[Skip + I];
    if (A == B)
      continue;
    // `f` names every `f<T>`; `f<int>` only `f<int>`.
    if (A.contains('<') || withoutTemplateArgs(B) != A)
      return false;
  }
  return true;
}

std::string canonicalTypeName(StringRef T) {
  // Spaces only between two word characters.
  std::string S;
  T = T.trim();
  for (size_t I = 0; I < T.size(); ++I) {
    char C = T[I];
    if (C == ' ' || C == '\t') {
      size_t J = I;
      while (J < T.size() && (T[J] == ' ' || T[J] == '\t'))
        ++J;
      if (!S.empty() && isWordChar(S.back()) && J < T.size() &&
          isWordChar(T[J]))
        S += ' ';
      I = J - 1;
      continue;
    }
    S += C;
  }
  // A leading cv-qualifier goes after the type words it qualifies.
  for (StringRef CV : {"const ", "volatile "}) {
    if (!StringRef(S).starts_with(CV))
      continue;
    std::string Rest = S.substr(CV.size());
    size_t E = 0;
    int Depth = 0;
    while (E < Rest.size()) {
      char C = Rest[E];
      if (C == '<')
        ++Depth;
      else if (C == '>')
        --Depth;
      else if (Depth == 0 && (C == '*' || C == '&' || C == '('))
        break;
      ++E;
    }
    S = Rest.substr(0, E) + " " + CV.drop_back().str() + Rest.substr(E);
  }
  // Spellings the demangler writes out in full.
  static const std::pair<const char *, const char *> Folds[] = {
      {"std::__cxx11::", "std::"},
      {"std::__1::", "std::"},
      {"std::basic_string<char,std::char_traits<char>,std::allocator<char>>",
       "std::string"},
      {"std::basic_string_view<char,std::char_traits<char>>",
       "std::string_view"},
      {"unsigned long int", "unsigned long"},
      {"long long int", "long long"},
      {"long int", "long"},
      {"short int", "short"},
  };
  for (auto [From, To] : Folds) {
    size_t P;
    while ((P = S.find(From)) != std::string::npos)
      S.replace(P, strlen(From), To);
  }
  if (S == "unsigned")
    S = "unsigned int";
  return S;
}

StringRef lastNameComponent(StringRef Qualified) {
  return splitQualified(Qualified).back();
}

namespace {

/// The parameter types of a demangled "(A, B<C, D>)" list, canonical.
std::vector<std::string> splitParams(StringRef Params) {
  std::vector<std::string> Out;
  Params = Params.trim();
  if (!Params.consume_front("(") || !Params.consume_back(")"))
    return Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Params.size(); ++I) {
    char C = I < Params.size() ? Params[I] : ',';
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      StringRef P = Params.slice(Start, I).trim();
      if (!P.empty())
        Out.push_back(canonicalTypeName(P));
      Start = I + 1;
    }
  }
  if (Out.size() == 1 && Out[0] == "void")
    Out.clear();
  return Out;
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

struct Candidate {
  ElfSymbol Sym;
  DemangledFunction Name;
  /// What tells overloads apart: name, parameters, qualifiers.
  std::string signature() const {
    return Name.Qualified + Name.Params +
           (Name.Qualifiers.empty() ? "" : " " + Name.Qualifiers);
  }
};

} // namespace

Expected<std::vector<ElfSymbol>>
findSourceFunction(const ProbePlace &P, ArrayRef<ElfSymbol> Functions,
                   StringRef TargetPath, bool MustMatch) {
  // A quoted symbol-table name (`'_ZN4shop4Cart3addEi'`) is itself.
  std::vector<ElfSymbol> Exact;
  for (const ElfSymbol &S : Functions)
    if (S.Name == P.Symbol)
      Exact.push_back(S);
  if (!Exact.empty() && !P.HasParams)
    return Exact;

  std::vector<std::string> Wanted;
  for (const std::string &T : P.Params)
    Wanted.push_back(canonicalTypeName(T));
  std::string WantedQuals = canonicalTypeName(P.ParamQualifiers);

  std::vector<Candidate> ByName, Matching;
  for (const ElfSymbol &S : Functions) {
    auto D = demangleFunction(S.Name);
    if (!D || !sourceNameMatches(P.Symbol, D->Qualified))
      continue;
    Candidate C{S, std::move(*D)};
    bool Fits = true;
    if (P.HasParams) {
      Fits = !C.Name.Params.empty() &&
             splitParams(C.Name.Params) == Wanted &&
             canonicalTypeName(C.Name.Qualifiers) == WantedQuals;
    }
    if (Fits)
      Matching.push_back(C);
    ByName.push_back(std::move(C));
  }

  auto noteFor = [](const Candidate &C) {
    return "candidate: '" + C.signature() + "' at " + hex(C.Sym.Address) +
           " (" + C.Sym.Name + ")";
  };
  // One entry per signature (C1/C2 aliases and clones are one function).
  std::map<std::string, std::vector<const Candidate *>> Groups;
  for (const Candidate &C : Matching)
    Groups[C.signature()].push_back(&C);

  std::string Written = P.Symbol;
  if (P.HasParams)
    Written += "(" + join(P.Params, ", ") + ")" +
               (P.ParamQualifiers.empty() ? "" : " " + P.ParamQualifiers);

  if (Groups.empty() && ByName.empty() && !MustMatch)
    return std::vector<ElfSymbol>();
  if (Groups.empty()) {
    std::vector<std::string> Notes;
    std::map<std::string, const Candidate *> Seen;
    for (const Candidate &C : ByName)
      Seen.emplace(C.signature(), &C);
    for (auto &[Sig, C] : Seen)
      Notes.push_back(noteFor(*C));
    std::string Msg = "no function '" + Written + "' in " + TargetPath.str();
    if (!Notes.empty())
      Msg += ": no overload of '" + P.Symbol +
             "' has these parameter types; the overloads are in the notes";
    else
      Msg += " (names are matched on the demangled names of its function "
             "symbols and the DWARF scopes of functions that exist only "
             "inlined)";
    return make_error<ResolveError>(P.SymbolRange, Msg, Hint{},
                                    std::move(Notes));
  }
  if (Groups.size() > 1) {
    std::vector<std::string> Notes;
    for (auto &[Sig, G] : Groups)
      Notes.push_back(noteFor(*G.front()));
    const DemangledFunction &First = Groups.begin()->second.front()->Name;
    // Rust symbols (and other names without an encoded signature) are
    // told apart by their path only.
    bool ByPath = First.Params.empty();
    std::string Example = "'" + First.Qualified + First.Params + "'";
    return make_error<ResolveError>(
        P.SymbolRange,
        ("'" + Written + "' is ambiguous: it names " + Twine(Groups.size()) +
         " functions in " + TargetPath + "; choose one " +
         (ByPath ? "by more of its path, such as "
                 : "by its parameter types in quotes, such as ") +
         Example)
            .str(),
        Hint{}, std::move(Notes));
  }
  std::vector<ElfSymbol> Out;
  for (const Candidate *C : Groups.begin()->second)
    if (none_of(Out, [&](const ElfSymbol &S) {
          return S.Address == C->Sym.Address;
        }))
      Out.push_back(C->Sym);
  llvm::sort(Out, [](const ElfSymbol &A, const ElfSymbol &B) {
    return A.Address < B.Address;
  });
  return Out;
}

/// Type names the demangler prints for builtin types: passed as scalars.
static bool isBuiltinTypeName(StringRef T) {
  static const char *const Names[] = {
      "bool", "char", "signed char", "unsigned char", "wchar_t", "char8_t",
      "char16_t", "char32_t", "short", "unsigned short", "int",
      "unsigned int", "long", "unsigned long", "long long",
      "unsigned long long", "__int128", "unsigned __int128", "float",
      "double", "long double", "decltype(nullptr)"};
  return is_contained(Names, T);
}

Error checkItaniumSignature(const ProbeSpec &Spec, ArrayRef<ArgInput> Inputs) {
  const ProbePlace &P = Spec.Place;
  if (P.SourceName || !StringRef(P.Symbol).starts_with("_Z") ||
      Spec.Args.empty() ||
      any_of(Spec.Args,
             [](const ProbeArg &A) { return A.Form != ProbeArg::CType; }))
    return Error::success();
  auto D = demangleFunction(P.Symbol);
  if (!D || D->Params.empty())
    return Error::success();
  std::vector<std::string> Params = splitParams(D->Params);
  size_t N = Spec.Args.size();
  if (N != Params.size() && N != Params.size() + 1)
    return make_error<ResolveError>(
        Spec.ArgListRange,
        "'" + D->Full + "' takes " + std::to_string(Params.size()) +
            " parameter" + (Params.size() == 1 ? "" : "s") +
            " (and `this` first if it is a non-static method); the list has " +
            std::to_string(N));
  size_t First = N - Params.size();
  if (First == 1 && Inputs[0].Type.Kind != ValueType::Pointer)
    return make_error<ResolveError>(
        Spec.Args[0].Range,
        "the first argument of the method '" + D->Full + "' is `this`, a "
        "pointer; '" + Spec.Args[0].Text + "' is not a pointer type");
  for (size_t I = 0; I < Params.size(); ++I) {
    StringRef T = Params[I];
    const ProbeArg &A = Spec.Args[First + I];
    const ValueType &Have = Inputs[First + I].Type;
    if (T.ends_with("&")) {
      if (Have.Kind != ValueType::Pointer)
        return make_error<ResolveError>(
            A.Range, "parameter " + std::to_string(I + 1) + " of '" + D->Full +
                         "' is the reference '" + T.str() + "', passed as a "
                         "pointer; write a pointer type");
      continue;
    }
    if (T.ends_with("*") || isBuiltinTypeName(T))
      continue;
    // An enum by value is an integer; a class by value depends on whether
    // it is trivially copyable.
    if (A.Type.Words.size() >= 2 && is_contained(A.Type.Words, "enum") &&
        A.Type.PointerDepth == 0)
      continue;
    return make_error<ResolveError>(
        A.Range,
        "parameter " + std::to_string(I + 1) + " of '" + D->Full +
            "' is '" + T.str() + "' by value: the Itanium C++ ABI passes a "
            "class that is not trivially copyable by invisible reference "
            "(a pointer to a temporary), which only debug info "
            "(DW_AT_calling_convention) tells; give the debug info, or write "
            "'enum NAME' if it is an enumeration");
  }
  return Error::success();
}

} // namespace bpfprobe
