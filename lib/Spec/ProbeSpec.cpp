//===- ProbeSpec.cpp - ProbeSpec helpers, section names, dump -----------===//
//
/// \file
/// Everything about a parsed ProbeSpec except the parser itself
/// (SpecParser.cpp): kind names, the libbpf section name of a site, the
/// SpecError error class, the test that tells a bpfprobe annotation from an
/// ordinary libbpf SEC() name, and the one-node-per-line dump the lit tests
/// check.
//===----------------------------------------------------------------------===//

#include "Spec/ProbeSpec.h"
#include "Support/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bpfprobe {

char SpecError::ID = 0;

void SpecError::log(raw_ostream &OS) const {
  OS << "offset " << Offset << ": " << Message;
}

std::error_code SpecError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

StringRef probeKindName(ProbeKind K) {
  switch (K) {
  case ProbeKind::KProbe:
    return "kprobe";
  case ProbeKind::KRetProbe:
    return "kretprobe";
  case ProbeKind::UProbe:
    return "uprobe";
  case ProbeKind::URetProbe:
    return "uretprobe";
  case ProbeKind::FEntry:
    return "fentry";
  case ProbeKind::FExit:
    return "fexit";
  }
  return "kprobe";
}

static std::string sectionPrefix(ProbeKind K, StringRef Binary,
                                 StringRef Symbol) {
  std::string S = probeKindName(K).str() + "/";
  if (isUserProbe(K))
    S += Binary.str() + ":";
  return S + Symbol.str();
}

std::string libbpfSectionName(ProbeKind K, StringRef Binary, StringRef Symbol,
                              uint64_t Offset) {
  std::string S = sectionPrefix(K, Binary, Symbol);
  if (Offset)
    S += "+0x" + utohexstr(Offset, /*LowerCase=*/true);
  return S;
}

std::string ProbeSpec::sectionName() const {
  if (Place.Form != ProbePlace::SymbolOffset || Place.SourceName)
    return std::string();
  std::string S = sectionPrefix(Kind, Binary, Place.Symbol);
  if (Place.HasOffset)
    S += Place.OffsetIsHex ? "+0x" + utohexstr(Place.Offset, true)
                           : "+" + utostr(Place.Offset);
  return S;
}

bool looksLikeProbeSpec(StringRef Section) {
  if (!Section.starts_with("kprobe/") && !Section.starts_with("kretprobe/") &&
      !Section.starts_with("uprobe/") && !Section.starts_with("uretprobe/") &&
      !Section.starts_with("fentry/") && !Section.starts_with("fexit/") &&
      !Section.starts_with("fmod_ret/"))
    return false;
  // A trampoline program without arguments is libbpf's own.
  if (!Section.starts_with("k") && !Section.starts_with("u") &&
      !Section.contains('('))
    return false;
  // An argument list, even a broken one: the plugin reports its errors
  // rather than libbpf taking `f(x)` as a symbol name.
  if (Section.contains('('))
    return true;
  Expected<ProbeSpec> Spec = parseProbeSpec(Section);
  if (!Spec) {
    consumeError(Spec.takeError());
    return false;
  }
  return Spec->Place.Form != ProbePlace::SymbolOffset ||
         Spec->Place.SourceName ||
         (!isUserProbe(Spec->Kind) && !Spec->Binary.empty());
}

//===----------------------------------------------------------------------===//
// Dump
//===----------------------------------------------------------------------===//

namespace {

raw_ostream &operator<<(raw_ostream &OS, TextRange R) {
  return OS << '[' << R.Begin << ',' << R.End << ')';
}

StringRef placeFormName(ProbePlace::FormKind F) {
  switch (F) {
  case ProbePlace::SymbolOffset:
    return "symbol-offset";
  case ProbePlace::SymbolRelLine:
    return "symbol-rel-line";
  case ProbePlace::FileLine:
    return "file-line";
  case ProbePlace::SymbolFileLine:
    return "symbol-file-line";
  }
  return "?";
}

StringRef argFormName(ProbeArg::FormKind F) {
  switch (F) {
  case ProbeArg::Expression:
    return "expression";
  case ProbeArg::CType:
    return "ctype";
  case ProbeArg::IdentOrType:
    return "ident-or-type";
  }
  return "?";
}

StringRef exprKindName(SpecExpr::KindTy K) {
  switch (K) {
  case SpecExpr::Ident:
    return "ident";
  case SpecExpr::ArgN:
    return "argn";
  case SpecExpr::RetVal:
    return "retval";
  case SpecExpr::Reg:
    return "reg";
  case SpecExpr::Global:
    return "global";
  case SpecExpr::Arrow:
    return "arrow";
  case SpecExpr::Dot:
    return "dot";
  case SpecExpr::Index:
    return "index";
  case SpecExpr::Deref:
    return "deref";
  case SpecExpr::Method:
    return "method";
  }
  return "?";
}

/// The tree is a chain (every node has at most one child), so a loop prints
/// it with each child indented under its parent.
void dumpExpr(const SpecExpr *E, unsigned Indent, raw_ostream &OS) {
  for (; E; E = E->Base.get(), Indent += 2) {
    OS.indent(Indent) << exprKindName(E->Kind);
    switch (E->Kind) {
    case SpecExpr::Ident:
    case SpecExpr::Reg:
    case SpecExpr::Global:
    case SpecExpr::Arrow:
    case SpecExpr::Dot:
    case SpecExpr::Method:
      OS << ' ' << E->Name << ' ' << E->Range << " name " << E->NameRange;
      break;
    case SpecExpr::Index:
      OS << ' ' << E->Number << ' ' << E->Range << " index " << E->NameRange;
      break;
    case SpecExpr::ArgN:
      OS << ' ' << E->Number << ' ' << E->Range;
      break;
    case SpecExpr::RetVal:
    case SpecExpr::Deref:
      OS << ' ' << E->Range;
      break;
    }
    OS << '\n';
  }
}

void dumpCType(const CTypeSyntax &T, raw_ostream &OS) {
  OS << "  ctype ";
  writeQuoted(OS, T.Text);
  OS << ' ' << T.Range << '\n';
  OS << "    words";
  for (const std::string &W : T.Words)
    OS << ' ' << W;
  OS << "\n    pointer-depth " << T.PointerDepth << '\n';
}

} // namespace

void dumpProbeSpec(const ProbeSpec &Spec, raw_ostream &OS) {
  OS << "kind " << probeKindName(Spec.Kind) << ' ' << Spec.KindRange << '\n';
  if (isUserProbe(Spec.Kind)) {
    OS << "binary ";
    writeQuoted(OS, Spec.Binary);
    OS << ' ' << Spec.BinaryRange << '\n';
  } else if (Spec.Binary.empty()) {
    OS << "module none\n";
  } else {
    OS << "module ";
    writeQuoted(OS, Spec.Binary);
    OS << ' ' << Spec.BinaryRange << '\n';
  }

  const ProbePlace &P = Spec.Place;
  OS << "place " << placeFormName(P.Form) << '\n';
  if (!P.Symbol.empty()) {
    OS << "  symbol ";
    writeQuoted(OS, P.Symbol);
    OS << ' ' << P.SymbolRange << '\n';
    if (P.SourceName)
      OS << "  source-name" << (P.Quoted ? " quoted" : "") << '\n';
    if (P.HasParams) {
      OS << "  params (" << join(P.Params, ", ") << ")";
      if (!P.ParamQualifiers.empty())
        OS << ' ' << P.ParamQualifiers;
      OS << '\n';
    }
  }
  if (P.HasOffset) {
    OS << "  offset ";
    if (P.OffsetIsHex)
      OS << "0x" << utohexstr(P.Offset, true);
    else
      OS << P.Offset;
    OS << ' ' << P.OffsetRange << '\n';
  }
  if (P.Form == ProbePlace::FileLine || P.Form == ProbePlace::SymbolFileLine) {
    OS << "  file ";
    writeQuoted(OS, P.File);
    OS << ' ' << P.FileRange << '\n';
  }
  if (P.Form != ProbePlace::SymbolOffset)
    OS << "  line " << P.Line << ' ' << P.LineRange << '\n';
  if (P.Form == ProbePlace::SymbolOffset) {
    OS << "section ";
    writeQuoted(OS, Spec.sectionName());
    OS << '\n';
  }

  if (!Spec.HasArgList) {
    OS << "args none\n";
    return;
  }
  OS << "args " << Spec.Args.size() << ' ' << Spec.ArgListRange << '\n';
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ProbeArg &A = Spec.Args[I];
    OS << "arg " << I + 1 << ' ' << argFormName(A.Form) << ' ';
    writeQuoted(OS, A.Text);
    OS << ' ' << A.Range << '\n';
    if (A.Expr)
      dumpExpr(A.Expr.get(), 2, OS);
    if (A.Form != ProbeArg::Expression)
      dumpCType(A.Type, OS);
    if (A.FetchType)
      OS << "  fetch " << A.FetchType->Text << ' ' << A.FetchTypeRange
         << '\n';
    if (A.AtEntry)
      OS << "  at-entry " << A.EntryRange << '\n';
  }
}

std::unique_ptr<SpecExpr> SpecExpr::clone() const {
  auto E = std::make_unique<SpecExpr>();
  E->Kind = Kind;
  E->Name = Name;
  E->Number = Number;
  E->Range = Range;
  E->NameRange = NameRange;
  if (Base)
    E->Base = Base->clone();
  return E;
}

ProbeArg ProbeArg::clone() const {
  ProbeArg A;
  A.Form = Form;
  if (Expr)
    A.Expr = Expr->clone();
  A.Type = Type;
  A.FetchType = FetchType;
  A.FetchTypeRange = FetchTypeRange;
  A.FetchUserString = FetchUserString;
  A.AtEntry = AtEntry;
  A.EntryRange = EntryRange;
  A.Range = Range;
  A.Text = Text;
  return A;
}

} // namespace bpfprobe
