//===- ProbeAttr.cpp - Annotations to fetch plans, in the front end -----===//
//
/// \file
/// Finds probe bodies, in either spelling:
/// \code
///   SEC("uprobe/./demo:add3(int, long long, char *)")      // section string
///   BPF_PROBE("uprobe/./demo:add3(int, long long, char *)") // our attribute
///   int on_add3(struct pt_regs *ctx, int a, long long b, char *s) { ... }
/// \endcode
/// parses the annotation, resolves it to a fetch plan, checks that each body
/// parameter can hold its value, and hands the plan to the IR pass as an
/// `annotate("bpfprobe.plan:...")` attribute while dropping the section from
/// the body (the wrapper the pass creates takes it).
///
/// The `bpfprobe.` annotation namespace is the plugin's own channel, and users
/// cannot forge it: the plugin creates its annotations as *implicit*
/// attributes, which no source spelling produces; a user-written
/// `annotate("bpfprobe...")` on any declaration is an error, and the
/// markers are only read from implicit attributes (so a non-string operand
/// never reaches a cast). Every plan this front end issues is also recorded
/// in a table the IR pass receives in-process (IssuedPlans): inside clang
/// the pass lowers only those. Plans that reach the pass from a file (opt)
/// are parsed and checked like any other input. Every problem is a
/// Clang diagnostic whose caret sits on the offending character inside the
/// string literal, also through the SEC() macro: a token watcher remembers
/// the string literal tokens so the section name can be mapped back to them.
//===----------------------------------------------------------------------===//

#include "BPFProbe.h"
#include "Plan/FetchPlan.h"
#include "Resolve/BtfResolver.h"
#include "Resolve/DebugInfoFinder.h"
#include "Resolve/DwarfResolver.h"
#include "Resolve/Resolver.h"
#include "Spec/ProbeSpec.h"
#include "Target/ArchABI.h"
#include "bpfprobe/metadata.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace clang;
using namespace llvm;

namespace bpfprobe {
namespace {

/// A library hint in the plugin's own options.
std::string hintWords(const Hint &H) {
  switch (H.Kind) {
  case Hint::None:
    return "";
  case Hint::DebugInfoPath:
    return "pass -fplugin-arg-bpfprobe-debuginfo=PATH";
  case Hint::DebugInfoOption:
    return "-fplugin-arg-bpfprobe-debuginfo";
  case Hint::CallConv:
    return "pass -fplugin-arg-bpfprobe-cc=" + H.Payload;
  }
  return "";
}

/// The message of any library error, hints in the plugin's words.
std::string messageOf(Error E) {
  std::string M;
  handleAllErrors(
      std::move(E), [&](const HintedError &H) { M = H.render(hintWords); },
      [&](const ErrorInfoBase &Other) { M = Other.message(); });
  return M;
}

//===----------------------------------------------------------------------===//
// The bpfprobe("...") attribute
//===----------------------------------------------------------------------===//

/// `bpfprobe("spec")` marks a probe body; `bpfprobe_record("spec")` marks a
/// probe whose body only returns: the pass sends the arguments to the
/// records ring buffer. Both leave a marker annotation holding the literal.
struct ProbeAttrInfo : public ParsedAttrInfo {
  const char *Marker;

  ProbeAttrInfo(ArrayRef<Spelling> S, const char *Marker) : Marker(Marker) {
    Spellings = S;
    NumArgs = 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D))
      return true;
    S.Diag(Attr.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute() << "functions";
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    Expr *Arg = Attr.getNumArgs() ? Attr.getArgAsExpr(0) : nullptr;
    auto *Lit =
        Arg ? dyn_cast<clang::StringLiteral>(Arg->IgnoreParenCasts()) : nullptr;
    if (!Lit || !Lit->isOrdinary()) {
      DiagnosticsEngine &DE = S.getDiagnostics();
      DE.Report(Arg ? Arg->getExprLoc() : Attr.getLoc(),
                DE.getCustomDiagID(DiagnosticsEngine::Error,
                                   "'%0' attribute takes one string literal, "
                                   "the probe annotation"))
          << Attr.getAttrName()->getName();
      return AttributeNotApplied;
    }
    // Implicit: a user-written annotate("bpfprobe.spec", ...) is never
    // mistaken for this marker (see the file comment).
    Expr *Args[] = {Lit};
    D->addAttr(AnnotateAttr::CreateImplicit(S.Context, Marker, Args, 1,
                                            Attr.getRange()));
    return AttributeApplied;
  }
};

struct BodyAttrInfo : ProbeAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "bpfprobe"},
                                   {ParsedAttr::AS_C23, "bpfprobe::probe"},
                                   {ParsedAttr::AS_CXX11, "bpfprobe::probe"}};
  BodyAttrInfo() : ProbeAttrInfo(S, SpecAnnotation) {}
};

struct RecordAttrInfo : ProbeAttrInfo {
  static constexpr Spelling S[] = {
      {ParsedAttr::AS_GNU, "bpfprobe_record"},
      {ParsedAttr::AS_C23, "bpfprobe::record"},
      {ParsedAttr::AS_CXX11, "bpfprobe::record"}};
  RecordAttrInfo() : ProbeAttrInfo(S, RecordAnnotation) {}
};

ParsedAttrInfoRegistry::Add<BodyAttrInfo>
    RegisterBodyAttr("bpfprobe", "a bpfprobe probe annotation");
ParsedAttrInfoRegistry::Add<RecordAttrInfo>
    RegisterRecordAttr("bpfprobe_record",
                       "a bpfprobe probe that records its arguments");

//===----------------------------------------------------------------------===//
// Mapping annotation bytes back to source locations
//===----------------------------------------------------------------------===//

/// Consecutive string-literal tokens, as the parser saw them after macro
/// expansion: the pieces of one (possibly concatenated) literal.
struct LiteralRun {
  SmallVector<Token, 2> Toks;
};

bool mayStartProbe(const Token &T) {
  if (!T.is(tok::string_literal) || !T.getLiteralData())
    return false;
  StringRef S(T.getLiteralData(), T.getLength());
  return S.starts_with("\"kprobe") || S.starts_with("\"kretprobe") ||
         S.starts_with("\"uprobe") || S.starts_with("\"uretprobe");
}

/// Turns byte offsets of the annotation into source locations.
class SpecLocator {
public:
  SpecLocator(ASTContext &Ctx, const clang::StringLiteral *Lit, SourceLocation Fallback)
      : Ctx(Ctx), Lit(Lit), Fallback(Fallback) {}

  SourceLocation at(unsigned Offset) const {
    if (!Lit || Offset > Lit->getLength())
      return Fallback;
    return Lit->getLocationOfByte(Offset, Ctx.getSourceManager(),
                                  Ctx.getLangOpts(), Ctx.getTargetInfo());
  }
  CharSourceRange range(TextRange R) const {
    if (!Lit || R.End <= R.Begin)
      return CharSourceRange();
    return CharSourceRange::getCharRange(at(R.Begin), at(R.End));
  }

private:
  ASTContext &Ctx;
  const clang::StringLiteral *Lit;
  SourceLocation Fallback;
};

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

ValueType scalarFromQualType(QualType T, ASTContext &Ctx) {
  ValueType S;
  S.Text = T.getAsString(Ctx.getPrintingPolicy());
  QualType C = T.getCanonicalType();
  if (const auto *ET = C->getAs<EnumType>())
    C = ET->getDecl()->getIntegerType().getCanonicalType();
  if (C.isNull() || C->isVoidType()) {
    S.Kind = ValueType::Void;
    return S;
  }
  if (C->isIncompleteType()) {
    S.Kind = ValueType::Aggregate;
    return S;
  }
  S.Size = Ctx.getTypeSizeInChars(C).getQuantity();
  if (C->isPointerType() || C->isBlockPointerType())
    S.Kind = ValueType::Pointer;
  else if (C->isBooleanType())
    S.Kind = ValueType::Bool;
  else if (C->isRealFloatingType())
    S.Kind = ValueType::Float;
  else if (C->isIntegerType()) {
    S.Kind = S.Size > 8 ? ValueType::Int128 : ValueType::Int;
    S.Signed = C->isSignedIntegerType();
  } else
    S.Kind = ValueType::Aggregate;
  return S;
}

/// Describes T in target-independent terms (Target/TypeLayout.h). This
/// compile is for BPF, whose `long` and pointers are 8 bytes and whose
/// `long double` is a double; the probed function was built for ABI, so
/// sizes come from laying the description out for ABI. Typedef names with
/// one meaning everywhere (__u32, uint64_t, size_t) are taken by name.
CTypeDesc describeType(QualType T, const ArchABI &ABI, unsigned Depth = 0) {
  CTypeDesc D;
  auto Unsupported = [&](const Twine &Why) {
    D.Kind = CTypeDesc::Unsupported;
    D.Why = Why.str();
    return D;
  };
  if (Depth > 32)
    return Unsupported("type nested too deeply");
  for (QualType Cur = T;;) {
    const auto *TT = Cur->getAs<TypedefType>();
    if (!TT)
      break;
    if (auto K = wellKnownTypedef(TT->getDecl()->getName(), ABI)) {
      D.Kind = CTypeDesc::FixedInt;
      D.FixedSize = K->Size;
      D.Signed = K->Signed;
      return D;
    }
    Cur = TT->getDecl()->getUnderlyingType();
  }
  QualType C = T.getCanonicalType();
  if (const auto *ET = C->getAs<EnumType>()) {
    if (!ET->getDecl()->isComplete())
      return Unsupported("incomplete enum");
    C = ET->getDecl()->getIntegerType().getCanonicalType();
  }
  if (C->isPointerType() || C->isBlockPointerType()) {
    D.Kind = CTypeDesc::Pointer;
    return D;
  }
  if (const auto *BT = C->getAs<BuiltinType>()) {
    D.Signed = BT->isSignedInteger();
    switch (BT->getKind()) {
    case BuiltinType::Char_S:
    case BuiltinType::Char_U: D.Kind = CTypeDesc::Char; return D;
    case BuiltinType::SChar: D.Kind = CTypeDesc::SChar; return D;
    case BuiltinType::UChar: D.Kind = CTypeDesc::UChar; return D;
    case BuiltinType::Bool: D.Kind = CTypeDesc::Bool; return D;
    case BuiltinType::Short:
    case BuiltinType::UShort: D.Kind = CTypeDesc::Short; return D;
    case BuiltinType::Int:
    case BuiltinType::UInt: D.Kind = CTypeDesc::Int; return D;
    case BuiltinType::Long:
    case BuiltinType::ULong: D.Kind = CTypeDesc::Long; return D;
    case BuiltinType::LongLong:
    case BuiltinType::ULongLong: D.Kind = CTypeDesc::LongLong; return D;
    case BuiltinType::Int128:
    case BuiltinType::UInt128: D.Kind = CTypeDesc::Int128; return D;
    case BuiltinType::Float: D.Kind = CTypeDesc::Float; return D;
    case BuiltinType::Double: D.Kind = CTypeDesc::Double; return D;
    case BuiltinType::LongDouble: D.Kind = CTypeDesc::LongDouble; return D;
    case BuiltinType::Void: D.Kind = CTypeDesc::Void; return D;
    default:
      return Unsupported("'" + T.getAsString() + "' has no layout for " +
                         ABI.Name);
    }
  }
  if (const auto *AT = dyn_cast<ConstantArrayType>(C.getTypePtr())) {
    D.Kind = CTypeDesc::Array;
    D.Count = AT->getSize().getZExtValue();
    D.Members.push_back(describeType(AT->getElementType(), ABI, Depth + 1));
    return D;
  }
  if (const auto *RT = C->getAs<RecordType>()) {
    const RecordDecl *RD = RT->getDecl()->getDefinition();
    std::string Name = C.getAsString();
    if (!RD)
      return Unsupported("'" + Name + "' is incomplete");
    if (RD->hasAttr<PackedAttr>() || RD->hasAttr<MaxFieldAlignmentAttr>() ||
        RD->hasAttr<AlignedAttr>())
      return Unsupported("'" + Name + "' is packed or explicitly aligned; "
                         "its layout on " + ABI.Name + " is not derived");
    D.Kind = RD->isUnion() ? CTypeDesc::Union : CTypeDesc::Record;
    for (const FieldDecl *F : RD->fields()) {
      if (F->isBitField())
        return Unsupported("'" + Name + "' has the bit-field '" +
                           F->getName() + "', whose layout is not derived");
      if (F->hasAttr<AlignedAttr>() || F->hasAttr<PackedAttr>())
        return Unsupported("member '" + F->getName() + "' of '" + Name +
                           "' is explicitly aligned or packed");
      if (!isa<ConstantArrayType>(F->getType().getCanonicalType()) &&
          F->getType()->isArrayType())
        return Unsupported("'" + Name + "' has a flexible array member");
      D.Members.push_back(describeType(F->getType(), ABI, Depth + 1));
      if (D.Members.back().Kind == CTypeDesc::Unsupported)
        return D.Members.back();
    }
    return D;
  }
  return Unsupported("'" + T.getAsString() + "' has no layout for " +
                     ABI.Name);
}

//===----------------------------------------------------------------------===//
// The consumer
//===----------------------------------------------------------------------===//

/// Whether A is a plugin annotation: created by this front end (implicit)
/// with a name in the reserved namespace.
bool isReservedAnnotation(const AnnotateAttr *A) {
  return A->getAnnotation().starts_with(ReservedAnnotationPrefix);
}

/// Finds user-written annotations in the plugin's namespace, on any
/// declaration (functions in records and namespaces too).
class ForgedAnnotationFinder
    : public RecursiveASTVisitor<ForgedAnnotationFinder> {
public:
  explicit ForgedAnnotationFinder(DiagnosticsEngine &D) : D(D) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitDecl(Decl *Dcl) {
    for (const AnnotateAttr *A : Dcl->specific_attrs<AnnotateAttr>())
      if (!A->isImplicit() && !A->isInherited() && isReservedAnnotation(A))
        D.Report(A->getLocation(),
                 D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "annotation '%0' is in the namespace "
                                   "reserved for the bpfprobe plugin; use "
                                   "BPF_PROBE(\"...\") or SEC(\"...\") to "
                                   "declare a probe"))
            << A->getAnnotation().take_until([](char C) { return C == '\n'; })
                   .take_front(40);
    return true;
  }

private:
  DiagnosticsEngine &D;
};

class ProbeConsumer : public ASTConsumer {
public:
  ProbeConsumer(CompilerInstance &CI, const PluginOptions &Opts,
                std::shared_ptr<IssuedPlans> Issued)
      : CI(CI), Opts(Opts), Issued(std::move(Issued)) {
    // The section attribute keeps only the string's value; remember where
    // the literal tokens were so carets can point into them.
    CI.getPreprocessor().setTokenWatcher([this](const Token &T) {
      if (T.is(tok::string_literal)) {
        if (InRun) {
          Runs.back().Toks.push_back(T);
          return;
        }
        if (mayStartProbe(T)) {
          Runs.emplace_back();
          Runs.back().Toks.push_back(T);
          InRun = true;
          return;
        }
      }
      InRun = false;
    });
  }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      if (auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->doesThisDeclarationHaveABody())
          handleFunction(FD);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    ForgedAnnotationFinder(diags()).TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  CompilerInstance &CI;
  PluginOptions Opts;
  std::shared_ptr<IssuedPlans> Issued;
  std::vector<LiteralRun> Runs;
  /// Debug info opened so far, shared by the probes of this file.
  std::unique_ptr<DebugInfoCache> DebugInfos;
  /// BTF opened so far, by kernel module ("" = vmlinux); null after a
  /// failure, whose message is in BtfFailures.
  std::map<std::string, std::unique_ptr<BtfTypes>> Btfs;
  std::map<std::string, std::string> BtfFailures;
  bool InRun = false;
  const ArchABI *ABI = nullptr;

  DiagnosticsEngine &diags() { return CI.getDiagnostics(); }

  DiagnosticBuilder error(SourceLocation L, StringRef Msg) {
    DiagnosticsEngine &D = diags();
    return D.Report(L, D.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
           << Msg;
  }
  DiagnosticBuilder warning(SourceLocation L, StringRef Msg) {
    DiagnosticsEngine &D = diags();
    return D.Report(L, D.getCustomDiagID(DiagnosticsEngine::Warning, "%0"))
           << Msg;
  }
  DiagnosticBuilder note(SourceLocation L, StringRef Msg) {
    DiagnosticsEngine &D = diags();
    return D.Report(L, D.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
           << Msg;
  }

  /// Rebuilds the string literal whose value is Text from the remembered
  /// tokens, so that clang::StringLiteral::getLocationOfByte can map offsets.
  const clang::StringLiteral *findLiteral(StringRef Text) {
    ASTContext &Ctx = CI.getASTContext();
    for (LiteralRun &R : Runs) {
      StringLiteralParser P(R.Toks, CI.getPreprocessor());
      if (P.hadError || !P.isOrdinary() || P.GetString() != Text)
        continue;
      SmallVector<SourceLocation, 2> Locs;
      for (const Token &T : R.Toks)
        Locs.push_back(T.getLocation());
      QualType Ty = Ctx.getStringLiteralArrayType(Ctx.CharTy, Text.size());
#if CLANG_VERSION_MAJOR >= 22
      return clang::StringLiteral::Create(Ctx, Text, StringLiteralKind::Ordinary,
                                          false, Ty, Locs);
#else
      return clang::StringLiteral::Create(Ctx, Text, StringLiteralKind::Ordinary,
                                          false, Ty, Locs.data(), Locs.size());
#endif
    }
    return nullptr;
  }

  const ArchABI *arch() {
    if (ABI)
      return ABI;
    if (!Opts.Arch.empty())
      return ABI = lookupArch(Opts.Arch);
    // libbpf's bpf_tracing.h convention: -D__TARGET_ARCH_<arch>.
    Preprocessor &PP = CI.getPreprocessor();
    for (const ArchABI *A : allArchs()) {
      SmallVector<StringRef, 4> Names;
      StringRef(A->Aliases).split(Names, ',');
      Names.push_back(A->Name);
      for (StringRef N : Names)
        if (PP.isMacroDefined(("__TARGET_ARCH_" + N).str()))
          return ABI = A;
    }
    return ABI = hostArch();
  }

  void handleFunction(FunctionDecl *FD) {
    const clang::StringLiteral *Lit = nullptr;
    std::string Text;
    SourceLocation AttrLoc;
    bool Record = false;
    for (auto *A : FD->specific_attrs<AnnotateAttr>()) {
      // Only our own markers: a user-written one is reported at the end of
      // the translation unit (ForgedAnnotationFinder).
      if (!A->isImplicit() ||
          (A->getAnnotation() != SpecAnnotation &&
           A->getAnnotation() != RecordAnnotation) ||
          A->args_size() != 1)
        continue;
      Lit = dyn_cast<clang::StringLiteral>(
          (*A->args_begin())->IgnoreParenImpCasts());
      if (!Lit)
        continue;
      Text = Lit->getString().str();
      AttrLoc = A->getLocation();
      Record = A->getAnnotation() == RecordAnnotation;
      break;
    }
    if (Lit)
      dropSpecAnnotation(FD);
    SectionAttr *Sec = FD->getAttr<SectionAttr>();
    if (!Lit) {
      if (!Sec || !looksLikeProbeSpec(Sec->getName()))
        return;
      Text = Sec->getName().str();
      AttrLoc = Sec->getLocation();
      Lit = findLiteral(Text);
    }
    SpecLocator Loc(CI.getASTContext(), Lit, AttrLoc);

    auto SpecOrErr = parseProbeSpec(Text);
    if (!SpecOrErr) {
      handleAllErrors(SpecOrErr.takeError(), [&](const SpecError &E) {
        error(Loc.at(E.offset()), E.text());
      });
      return;
    }
    ProbeSpec &Spec = *SpecOrErr;

    const ArchABI *A = arch();
    if (!A) {
      error(AttrLoc, "cannot tell the target architecture: pass "
                     "-fplugin-arg-bpfprobe-arch=NAME (one of " +
                         archNames() + ")");
      return;
    }
    // pt_regs and the probed memory are read in the kernel's byte order.
    if (A->LittleEndian != CI.getTarget().isLittleEndian()) {
      error(AttrLoc, std::string("probes of ") + A->Name + " (" +
                         (A->LittleEndian ? "little" : "big") +
                         "-endian) need a BPF object of the same byte "
                         "order: compile with -target " +
                         (A->LittleEndian ? "bpfel" : "bpfeb"));
      return;
    }

    if (!checkArgForms(Spec, *A, Loc))
      return;
    if (!checkParamCount(FD, Spec, Loc, Record))
      return;

    std::vector<ArgInput> Inputs;
    if (!collectInputs(FD, Spec, *A, Loc, Record, Inputs))
      return;

    std::vector<SitePlan> Plans;
    if (!resolve(Spec, Inputs, *A, Loc, Plans))
      return;

    ASTContext &Ctx = CI.getASTContext();
    for (size_t N = 0; N < Plans.size(); ++N) {
      SitePlan &Plan = Plans[N];
      Plan.Record = Record;
      for (size_t I = 0; I < Plan.Args.size(); ++I)
        Plan.Args[I].Name = Inputs[I].ParamName;
      if (Record)
        for (size_t I = 0; I < Plan.Args.size(); ++I)
          if (Plan.Args[I].Type.Kind == ValueType::Aggregate) {
            error(Loc.at(Spec.Args[I].Range.Begin),
                  "a struct or union passed by value cannot be recorded; write "
                  "a probe body that takes it as 'const " +
                      Plan.Args[I].CType + " *'")
                << Loc.range(Spec.Args[I].Range);
            return;
          }
      if (!Record && !checkBinding(FD, Spec, Plan, Loc))
        return;
      // One program per site: inlined copies of a line get a suffix.
      Plan.Program = siteProgramName(FD->getName(), N);
      if (!Plan.EntrySection.empty())
        Plan.EntryProgram = Plan.Program + "__entry";
      Plan.Body = FD->getName().str();
      if (Opts.PrintPlan)
        outs() << formatKprobeEvent(Plan, *A) << "\n";
      std::string Ann = PlanAnnotationPrefix + serializePlan(Plan);
      if (Issued)
        Issued->insert(Ann);
      FD->addAttr(AnnotateAttr::CreateImplicit(Ctx, Ann, nullptr, 0));
    }
    FD->dropAttr<SectionAttr>();
  }

  /// The marker must not reach code generation: clang emits annotate
  /// arguments as constants and expects Sema's ConstantExpr wrappers.
  static void dropSpecAnnotation(FunctionDecl *FD) {
    SmallVector<Attr *, 8> Keep;
    for (Attr *A : FD->attrs()) {
      auto *Ann = dyn_cast<AnnotateAttr>(A);
      if (!Ann || !Ann->isImplicit() ||
          (Ann->getAnnotation() != SpecAnnotation &&
           Ann->getAnnotation() != RecordAnnotation))
        Keep.push_back(A);
    }
    FD->dropAttrs();
    for (Attr *A : Keep)
      FD->addAttr(A);
  }

  /// Decides IdentOrType arguments and refuses mixing types with values.
  bool checkArgForms(ProbeSpec &Spec, const ArchABI &ABI,
                     const SpecLocator &Loc) {
    // A lone name is a type if the file declares it as one (besides the
    // well-known names and the other arguments being types).
    ASTContext &Ctx = CI.getASTContext();
    decideArgForms(Spec, ABI, [&](StringRef Name) {
      return llvm::any_of(
          Ctx.getTranslationUnitDecl()->lookup(
              DeclarationName(&Ctx.Idents.get(Name))),
          [](NamedDecl *ND) { return isa<TypedefNameDecl>(ND); });
    });
    const ProbeArg *FirstType = nullptr, *FirstValue = nullptr;
    for (const ProbeArg &Arg : Spec.Args) {
      const ProbeArg *&First =
          Arg.Form == ProbeArg::CType ? FirstType : FirstValue;
      if (!First)
        First = &Arg;
    }
    if (FirstType && FirstValue) {
      const ProbeArg *Late =
          FirstType->Range.Begin > FirstValue->Range.Begin ? FirstType
                                                           : FirstValue;
      error(Loc.at(Late->Range.Begin),
            "cannot mix C types and expressions in one argument list: list "
            "the function's parameter types (calling-convention mode) or "
            "expressions to fetch")
          << Loc.range(Late->Range);
      return false;
    }
    return true;
  }

  bool checkParamCount(FunctionDecl *FD, const ProbeSpec &Spec,
                       const SpecLocator &Loc, bool Record) {
    if (FD->getNumParams() == 0 ||
        !FD->getParamDecl(0)->getType()->isPointerType()) {
      error(FD->getLocation(),
            "probe body '" + FD->getName().str() +
                "' must take the context pointer first: 'struct pt_regs "
                "*ctx'");
      return false;
    }
    if (Record) {
      if (Spec.Args.size() > BPFPROBE_RECORD_MAX_ARGS) {
        error(Loc.at(Spec.ArgListRange.Begin),
              "a recording probe takes at most " +
                  std::to_string(BPFPROBE_RECORD_MAX_ARGS) + " arguments")
            << Loc.range(Spec.ArgListRange);
        return false;
      }
      if (FD->getNumParams() == 1)
        return true;
      error(FD->getParamDecl(1)->getLocation(),
            "a recording probe's function takes only the context; its "
            "arguments go to the records ring buffer");
      return false;
    }
    unsigned Want = Spec.Args.size(), Have = FD->getNumParams() - 1;
    if (Want == Have)
      return true;
    TextRange R = Spec.HasArgList ? Spec.ArgListRange : Spec.Place.SymbolRange;
    error(Loc.at(R.Begin), "the annotation lists " + std::to_string(Want) +
                               " argument" + (Want == 1 ? "" : "s") +
                               " but '" + FD->getName().str() + "' takes " +
                               std::to_string(Have) + " after the context")
        << Loc.range(R);
    if (Have > Want)
      note(FD->getParamDecl(Want + 1)->getLocation(),
           "first parameter without an argument");
    else
      note(FD->getLocation(), "probe body declared here");
    return false;
  }

  bool collectInputs(FunctionDecl *FD, const ProbeSpec &Spec, const ArchABI &A,
                     const SpecLocator &Loc, bool Record,
                     std::vector<ArgInput> &Inputs) {
    ASTContext &Ctx = CI.getASTContext();
    for (size_t I = 0; I < Spec.Args.size(); ++I) {
      const ProbeArg &Arg = Spec.Args[I];
      ParmVarDecl *P = Record ? nullptr : FD->getParamDecl(I + 1);
      ArgInput In;
      // Records name each value as kprobe_events (perf probe -D) would;
      // bodies by their parameter.
      In.ParamName = Record ? kprobeArgName(Arg.Text, I + 1,
                                            Arg.Form == ProbeArg::CType)
                     : P->getName().empty() ? "arg" + std::to_string(I + 1)
                                            : P->getName().str();
      if (Record && llvm::any_of(Inputs, [&](const ArgInput &Prev) {
            return Prev.ParamName == In.ParamName;
          }))
        In.ParamName += "_" + std::to_string(I + 1); // as formatKprobeEvent

      if (Arg.Form == ProbeArg::CType) {
        auto T = classifyBuiltinCType(Arg.Type, A);
        if (!T) {
          handleAllErrors(T.takeError(), [&](const ResolveError &E) {
            error(Loc.at(E.range().Begin), E.render(hintWords)) << Loc.range(E.range());
          });
          return false;
        }
        if (*T) {
          In.Type = **T;
        } else {
          QualType Q = lookupType(Arg.Type);
          if (Q.isNull()) {
            error(Loc.at(Arg.Type.Range.Begin),
                  "unknown type '" + Arg.Type.Text +
                      "'; declare it in this file (or include vmlinux.h) "
                      "or use a built-in type")
                << Loc.range(Arg.Type.Range);
            return false;
          }
          // Sizes and layout of the probed architecture, not BPF's.
          auto TT = layoutType(describeType(Q, A), A);
          if (!TT) {
            error(Loc.at(Arg.Type.Range.Begin),
                  "cannot lay out '" + Arg.Type.Text + "' for " + A.Name +
                      ": " + toString(TT.takeError()))
                << Loc.range(Arg.Type.Range);
            return false;
          }
          In.Type = std::move(*TT);
          In.Type.Text = Arg.Type.Text;
        }
      } else if (Arg.FetchType || Record) {
        // A register read as a whole, like kprobe_events' default.
        In.Type = untypedArgType(Arg, A);
      } else {
        In.Type = scalarFromQualType(P->getType(), Ctx);
        // The parameter's C type means the probed architecture's type
        // ('long' is 4 bytes on i386), unless it has no such meaning.
        if (In.Type.Kind == ValueType::Int ||
            In.Type.Kind == ValueType::Pointer) {
          if (auto TT = layoutType(describeType(P->getType(), A), A)) {
            TT->Text = In.Type.Text;
            In.Type = std::move(*TT);
          } else {
            consumeError(TT.takeError());
          }
        }
      }
      Inputs.push_back(std::move(In));
    }
    return true;
  }

  /// Looks up `struct tag`, `union tag`, `enum tag` or a typedef name.
  QualType lookupType(const CTypeSyntax &T) {
    ASTContext &Ctx = CI.getASTContext();
    StringRef Tag, Name;
    for (size_t I = 0; I < T.Words.size(); ++I) {
      StringRef W = T.Words[I];
      if (W == "const" || W == "volatile")
        continue;
      if ((W == "struct" || W == "union" || W == "enum") &&
          I + 1 < T.Words.size()) {
        Tag = W;
        Name = T.Words[++I];
      } else {
        Name = W;
      }
    }
    if (Name.empty())
      return QualType();
    for (NamedDecl *ND : Ctx.getTranslationUnitDecl()->lookup(
             DeclarationName(&Ctx.Idents.get(Name)))) {
      if (Tag.empty()) {
        if (auto *TD = dyn_cast<TypedefNameDecl>(ND))
          return TD->getUnderlyingType();
        continue;
      }
      if (auto *TD = dyn_cast<TagDecl>(ND)) {
        bool Match = (Tag == "struct" && TD->isStruct()) ||
                     (Tag == "union" && TD->isUnion()) ||
                     (Tag == "enum" && TD->isEnum());
        if (Match)
          return Ctx.getTypeDeclType(static_cast<const TypeDecl *>(TD));
      }
    }
    return QualType();
  }

  /// The BTF of a kernel module ("" = vmlinux), opened once: btf=PATH, or
  /// /sys/kernel/btf/<module> over btf-base=PATH or the running kernel's.
  const BtfTypes *btfFor(const std::string &Module) {
    auto It = Btfs.find(Module);
    if (It != Btfs.end())
      return It->second.get();
    std::string Path = Opts.Btf, Base;
    if (Path.empty())
      Path = Module.empty() ? BtfTypes::KernelPath
                            : "/sys/kernel/btf/" + Module;
    if (!Module.empty())
      Base = Opts.BtfBase.empty() ? BtfTypes::KernelPath : Opts.BtfBase;
    auto B = BtfTypes::open(Path, Base);
    if (!B) {
      BtfFailures[Module] = toString(B.takeError());
      Btfs[Module] = nullptr;
      return nullptr;
    }
    return (Btfs[Module] = std::move(*B)).get();
  }

  /// Resolves through the library's one entry point, finding the target's
  /// debug info (once per target) when the spec needs or can use it.
  bool resolve(const ProbeSpec &Spec, ArrayRef<ArgInput> Inputs,
               const ArchABI &A, const SpecLocator &Loc,
               std::vector<SitePlan> &Plans) {
    bool Kernel = !isUserProbe(Spec.Kind);
    DebugInfoNeed Need = debugInfoNeed(Spec);
    DebugInfo *DI = nullptr;
    const BtfTypes *BTF = nullptr;
    // Kernel names come from BTF when asked (btf=PATH) or when the
    // kernel's DWARF is not found.
    bool UseBtf = Kernel && Need == DebugInfoNeed::Required;
    std::string DwarfMissing;
    if (UseBtf && Opts.Btf.empty() && !isTrampolineProbe(Spec.Kind)) {
      if (!DebugInfos) {
        FinderOptions FO;
        FO.ExplicitPath = Opts.DebugInfo;
        DebugInfos = std::make_unique<DebugInfoCache>(FO);
      }
      DI = Opts.DebugInfo.empty() ? DebugInfos->find(Spec.Binary, Kernel)
                                  : nullptr;
      UseBtf = !DI && Opts.DebugInfo.empty();
    }
    if (UseBtf) {
      BTF = btfFor(Spec.Binary);
      if (!BTF) {
        TextRange R = Spec.KindRange;
        error(Loc.at(R.Begin),
              "no DWARF and no BTF for the kernel" +
                  (Spec.Binary.empty() ? std::string()
                                       : " module '" + Spec.Binary + "'") +
                  ": " + BtfFailures[Spec.Binary] +
                  "; pass -fplugin-arg-bpfprobe-btf=PATH or "
                  "-fplugin-arg-bpfprobe-debuginfo=PATH")
            << Loc.range(R);
        return false;
      }
    }
    if (Need != DebugInfoNeed::None && !BTF && !DI) {
      if (!DebugInfos) {
        FinderOptions FO;
        FO.ExplicitPath = Opts.DebugInfo;
        DebugInfos = std::make_unique<DebugInfoCache>(FO);
      }
      if (Need == DebugInfoNeed::Optional) {
        DI = DebugInfos->find(Spec.Binary, Kernel);
      } else {
        auto Found = DebugInfos->get(Spec.Binary, Kernel);
        if (!Found) {
          TextRange R = Kernel ? Spec.KindRange : Spec.BinaryRange;
          error(Loc.at(R.Begin), messageOf(Found.takeError())) << Loc.range(R);
          return false;
        }
        if (!*Found)
          return false; // already reported for this target
        DI = *Found;
      }
    }
    // No debug info read: the binary, when at hand, must have the symbol.
    if (Need == DebugInfoNeed::None) {
      if (Error E = checkSymbolAtHand(Spec)) {
        handleAllErrors(std::move(E), [&](const ResolveError &RE) {
          error(Loc.at(RE.range().Begin), RE.render(hintWords))
              << Loc.range(RE.range());
        });
        return false;
      }
    }
    auto R = resolveProbe(Spec, Inputs, A, DI, Opts.CallConv, BTF);
    if (!R) {
      handleAllErrors(R.takeError(), [&](const ResolveError &E) {
        error(Loc.at(E.range().Begin), E.render(hintWords))
            << Loc.range(E.range());
        for (const std::string &N : E.notes())
          note(Loc.at(E.range().Begin), N);
      });
      return false;
    }
    for (const ResolveWarning &W : R->Warnings)
      warning(Loc.at(W.Range.Begin), W.Message) << Loc.range(W.Range);
    Plans = std::move(R->Plans);
    return true;
  }

  /// The copy of an aggregate has the probed architecture's layout; the
  /// body reads it with BPF's, which is this compile's: Clang's record
  /// layout for the BPF target. A pointee type whose layout differs would
  /// read the wrong bytes: refuse it. `void` and `char` pointees are the
  /// author's to interpret.
  std::string layoutMismatch(QualType Pointee, unsigned CopySize,
                             StringRef ArchName, StringRef Par) {
    ASTContext &Ctx = CI.getASTContext();
    QualType C = Pointee.getCanonicalType().getUnqualifiedType();
    if (C->isVoidType() || C->isCharType() || C->isIncompleteType())
      return "";
    std::string T = Pointee.getAsString(Ctx.getPrintingPolicy());
    uint64_t BPFSize = Ctx.getTypeSizeInChars(C).getQuantity();
    if (BPFSize != CopySize)
      return (Par + " points at '" + T + "', " + Twine(BPFSize) +
              " bytes in BPF, but the value copied is " + Twine(CopySize) +
              " bytes in the " + ArchName +
              " layout; take it as 'const void *' and read the " + ArchName +
              " layout yourself")
          .str();
    const ArchABI *Probed = lookupArch(ArchName);
    if (!Probed)
      return "";
    auto L1 = layoutType(describeType(C, *Probed), *Probed);
    std::vector<LayoutLeaf> L2;
    std::string Why = L1 ? bpfLeaves(C, 0, L2, 0) : toString(L1.takeError());
    if (!Why.empty())
      return (Par + " points at '" + T + "', whose " + ArchName +
              " layout cannot be compared with BPF's (" + Why +
              "); take it as 'const void *'")
          .str();
    bool Same = L1->Leaves.size() == L2.size();
    for (size_t I = 0; Same && I < L2.size(); ++I)
      Same = L1->Leaves[I].Offset == L2[I].Offset &&
             L1->Leaves[I].Size == L2[I].Size;
    if (Same)
      return "";
    return (Par + " points at '" + T + "', whose members lie at other "
            "offsets or have other sizes in the " + ArchName + " layout than "
            "in BPF's; take it as 'const void *' and read the " + ArchName +
            " layout yourself")
        .str();
  }

  /// The scalar leaves of T as this compile (for BPF) lays it out, at
  /// Base, in the order layoutType() gives the probed architecture's:
  /// members in order, each structure's or union's leaves sorted by
  /// offset. Why not, or "".
  std::string bpfLeaves(QualType T, uint64_t Base,
                        std::vector<LayoutLeaf> &Out, unsigned Depth) {
    ASTContext &Ctx = CI.getASTContext();
    if (Depth > 32)
      return "type nested too deeply";
    QualType C = T.getCanonicalType();
    if (const auto *AT = Ctx.getAsConstantArrayType(C)) {
      uint64_t N = AT->getSize().getZExtValue();
      uint64_t ESize = Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
      std::vector<LayoutLeaf> E;
      if (std::string Why = bpfLeaves(AT->getElementType(), 0, E, Depth + 1);
          !Why.empty())
        return Why;
      for (uint64_t I = 0; I < N && Out.size() < 4096; ++I)
        for (const LayoutLeaf &L : E)
          Out.push_back({unsigned(Base + L.Offset + I * ESize), L.Size,
                         L.IsFloat, L.InUnion, false});
      return "";
    }
    if (const auto *RT = C->getAs<RecordType>()) {
      const RecordDecl *RD = RT->getDecl()->getDefinition();
      if (!RD)
        return "'" + C.getAsString() + "' is incomplete";
      const ASTRecordLayout &RL = Ctx.getASTRecordLayout(RD);
      std::vector<LayoutLeaf> Own;
      for (const FieldDecl *F : RD->fields()) {
        if (F->isBitField())
          return "bit-field '" + F->getNameAsString() + "'";
        uint64_t Off = RL.getFieldOffset(F->getFieldIndex()) / 8;
        if (std::string Why = bpfLeaves(F->getType(), Off, Own, Depth + 1);
            !Why.empty())
          return Why;
      }
      std::stable_sort(Own.begin(), Own.end(),
                       [](const LayoutLeaf &A, const LayoutLeaf &B) {
                         return A.Offset < B.Offset;
                       });
      for (LayoutLeaf &L : Own) {
        L.Offset += Base;
        Out.push_back(L);
      }
      return "";
    }
    if (C->isIncompleteType() || C->isVoidType())
      return "'" + C.getAsString() + "' has no size";
    Out.push_back({unsigned(Base),
                   unsigned(Ctx.getTypeSizeInChars(C).getQuantity()),
                   C->isRealFloatingType(), false, false});
    return "";
  }

  /// Each body parameter must be able to hold the value bound to it.
  bool checkBinding(FunctionDecl *FD, const ProbeSpec &Spec,
                    const SitePlan &Plan, const SpecLocator &Loc) {
    ASTContext &Ctx = CI.getASTContext();
    bool OK = true;
    for (size_t I = 0; I < Plan.Args.size(); ++I) {
      const ProbeArg &Arg = Spec.Args[I];
      const ValueType &V = Plan.Args[I].Type;
      ParmVarDecl *P = FD->getParamDecl(I + 1);
      ValueType PT = scalarFromQualType(P->getType(), Ctx);
      std::string Val = "'" + Arg.Text + "' (" +
                        kprobeTypeName(V, Plan.Args[I].UserString) + ")";
      std::string Par = "parameter '" + P->getName().str() + "' of type '" +
                        PT.Text + "'";
      std::string Problem;
      if (V.Kind == ValueType::Aggregate) {
        if (PT.Kind != ValueType::Pointer)
          Problem = Par + " cannot receive " + Val +
                    " by value; declare it as 'const " + Plan.Args[I].CType +
                    " *': the prologue copies the value to the BPF stack "
                    "and passes its address";
        else
          Problem = layoutMismatch(P->getType()->getPointeeType(), V.Size,
                                   Plan.Arch, Par);
      } else if (V.Kind == ValueType::String) {
        if (PT.Kind != ValueType::Pointer)
          Problem = Par + " cannot receive the string " + Val +
                    "; declare it 'const char *': it will point at a copy";
      } else if (V.Kind == ValueType::Float) {
        // BPF has no floating-point registers: the body gets the bits.
        if (PT.Kind != ValueType::Int || PT.Size < V.Size)
          Problem = Par + " cannot receive " + Val + "; declare it '" +
                    (V.Size == 4 ? "__u32" : "__u64") +
                    "': it receives the value's IEEE bits";
      } else if (PT.Kind != ValueType::Int && PT.Kind != ValueType::Bool &&
          PT.Kind != ValueType::Pointer)
        Problem = Par + " cannot receive " + Val +
                  "; use an integer or pointer type";
      else if (PT.Kind == ValueType::Pointer && V.Kind == ValueType::Int)
        Problem = Par + " is a pointer but " + Val +
                  " is an integer; declare it as an integer type";
      else if (PT.Kind == ValueType::Bool && V.Kind != ValueType::Bool)
        Problem = Par + " is _Bool and would lose the bits of " + Val;
      else if (PT.Kind != ValueType::Bool && PT.Size < V.Size)
        Problem = Par + " (" + std::to_string(PT.Size) +
                  " bytes) is too narrow for " + Val + " (" +
                  std::to_string(V.Size) + " bytes)";
      if (Problem.empty())
        continue;
      error(Loc.at(Arg.Range.Begin), Problem) << Loc.range(Arg.Range);
      note(P->getLocation(), "parameter declared here");
      OK = false;
    }
    return OK;
  }
};

} // namespace

std::unique_ptr<ASTConsumer>
createProbeConsumer(CompilerInstance &CI, const PluginOptions &Opts,
                    std::shared_ptr<IssuedPlans> Issued) {
  return std::make_unique<ProbeConsumer>(CI, Opts, std::move(Issued));
}

} // namespace bpfprobe
