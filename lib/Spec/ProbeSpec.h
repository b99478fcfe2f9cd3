//===- ProbeSpec.h - Parsed form of a bpfprobe annotation -------*- C++ -*-===//
//
/// \file
/// The syntax tree of one probe annotation such as
/// `uprobe/./server:handle+0x4a(req->hdr.len, conn->fd:u32)`, as produced by
/// parseProbeSpec(). Every node keeps the byte range it came from in the
/// annotation text so that diagnostics can put a caret on the exact character.
/// Nothing here knows about Clang or DWARF; resolution happens in lib/Resolve.
/// The one thing it takes from below is Target/ValueType.h: a written fetch
/// type (`:u32`) is parsed into the value type it names.
///
/// Grammar (DESIGN.md section 3):
/// \code
///   probe    := kind "/" target [ "(" arglist ")" ]
///   kind     := kprobe | kretprobe | uprobe | uretprobe | fentry | fexit
///   target   := [module ":"] place            (kernel)
///             | binary-path ":" place         (user)
///   place    := symbol ["+" offset] | symbol ":" rel-line | file ":" line
///             | symbol "@" file ":" line
///   symbol   := ident | qualified-name | "'" name [params] "'"
///             | '"' name [params] '"'
///   qualified-name := component { "::" component }
///   component := ["~"] ident ["<" template-args ">"] | "operator" op
///   arglist  := arg { "," arg }
///   arg      := expr [":" type] | c-type-name
///             | "@entry" "(" expr ")" [":" type]   (return probes only)
///   expr     := ident | "$argN" | "$retval" | "%reg" | "@" global
///             | expr "->" ident | expr "." ident | expr "[" int "]"
///             | "*" expr | "(" expr ")"
/// \endcode
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_SPEC_PROBESPEC_H
#define BPFPROBE_SPEC_PROBESPEC_H

#include "Target/ValueType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bpfprobe {

/// A half-open byte range [Begin, End) into the annotation text.
struct TextRange {
  unsigned Begin = 0;
  unsigned End = 0;
};

enum class ProbeKind { KProbe, KRetProbe, UProbe, URetProbe, FEntry, FExit };

/// "kprobe", "kretprobe", "uprobe", "uretprobe", "fentry", "fexit".
llvm::StringRef probeKindName(ProbeKind K);
/// fentry and fexit: BPF trampoline programs, whose context is the traced
/// function's arguments (and, for fexit, its return value) as BTF types
/// them, not `struct pt_regs`.
inline bool isTrampolineProbe(ProbeKind K) {
  return K == ProbeKind::FEntry || K == ProbeKind::FExit;
}
/// Kinds where `$retval` is known: return probes and fexit (which sees the
/// entry arguments too).
inline bool seesReturnValue(ProbeKind K) {
  return K == ProbeKind::KRetProbe || K == ProbeKind::URetProbe ||
         K == ProbeKind::FExit;
}
inline bool isUserProbe(ProbeKind K) {
  return K == ProbeKind::UProbe || K == ProbeKind::URetProbe;
}
inline bool isReturnProbe(ProbeKind K) {
  return K == ProbeKind::KRetProbe || K == ProbeKind::URetProbe;
}

/// Where in the target the probe fires.
struct ProbePlace {
  enum FormKind {
    SymbolOffset,   ///< symbol [+offset]
    SymbolRelLine,  ///< symbol:rel-line (line relative to the function start)
    FileLine,       ///< file:line
    SymbolFileLine, ///< symbol@file:line
  };
  FormKind Form = SymbolOffset;
  std::string Symbol;
  TextRange SymbolRange;
  /// Symbol is a source-level name the symbol table does not hold as
  /// written: a C++ or Rust qualified name (`ns::Class::method`,
  /// `ns::f<int>`, `V::operator+`, `Cart::~Cart`, `krate::module::func`) or
  /// a quoted name (`'ns::f(int)'`). Resolution matches it on the demangled
  /// symbol names and DWARF's qualified scopes.
  bool SourceName = false;
  /// The name was written in quotes ('...' or "...").
  bool Quoted = false;
  /// A quoted name's parameter-type list (`'ns::f(const Item &, int)'`):
  /// each type as written, trimmed; HasParams tells `f()` from `f`.
  bool HasParams = false;
  std::vector<std::string> Params;
  /// What follows the ')' of the parameter list (`const`, `&&`), trimmed.
  std::string ParamQualifiers;
  uint64_t Offset = 0;
  bool HasOffset = false;
  /// The offset was written in hexadecimal (`+0x4a`); sectionName() keeps
  /// the radix the user wrote.
  bool OffsetIsHex = false;
  TextRange OffsetRange;
  std::string File;
  TextRange FileRange;
  unsigned Line = 0;
  TextRange LineRange;
};

/// One node of an argument expression.
struct SpecExpr {
  enum KindTy {
    Ident,  ///< a name to look up (local, parameter or global)
    ArgN,   ///< $argN, N >= 1 (Number)
    RetVal, ///< $retval
    Reg,    ///< %reg (Name holds the register name without '%')
    Global, ///< @name
    Arrow,  ///< Base->Name
    Dot,    ///< Base.Name
    Index,  ///< Base[Number]
    Deref,  ///< *Base
    Method, ///< Base.Name() (Name is "size": a std::vector's element
            ///< count, a string's length); `p->size()` has a Deref base
  };
  KindTy Kind = Ident;
  std::string Name;
  int64_t Number = 0;
  std::unique_ptr<SpecExpr> Base;
  TextRange Range;     ///< the whole sub-expression
  TextRange NameRange; ///< the identifier / register / index token

  std::unique_ptr<SpecExpr> clone() const;
};

/// The words of a C type name as written, for calling-convention mode
/// (`const char *`, `unsigned long`, `struct file *`, `size_t`): syntax
/// only. What type it names is the front end's to decide (it resolves
/// typedef and tag names, then lays the type out for the probed
/// architecture as a ValueType, Target/TypeLayout.h).
struct CTypeSyntax {
  /// Specifier and qualifier words in source order ("const", "unsigned",
  /// "long", "long", "struct", "file", a typedef name...).
  std::vector<std::string> Words;
  unsigned PointerDepth = 0;
  TextRange Range;
  /// The written text, normalised to single spaces ("const char *").
  std::string Text;
};

/// One element of the argument list.
struct ProbeArg {
  enum FormKind {
    Expression, ///< an expression, optionally with :type
    CType,      ///< a C type name (calling-convention mode)
    /// A lone identifier that could be either a variable or a typedef name.
    /// The front end decides: if it names a type in the translation unit it
    /// is a CType, else an Expression.
    IdentOrType,
  };
  FormKind Form = Expression;
  std::unique_ptr<SpecExpr> Expr; ///< Expression, IdentOrType
  CTypeSyntax Type; ///< CType, IdentOrType (Words = {ident})
  /// An explicit fetch type written after ':', as the value type it names
  /// (Target/ValueType.h), its Text the spelling: `x:u32` an unsigned
  /// 4-byte Int ("u32"), `x:s8` a signed 1-byte Int, `x:x64` an 8-byte
  /// Pointer (printed as hex), `p:string` and `p:ustring` a String (Size 0:
  /// the resolver sets the copy's size).
  std::optional<ValueType> FetchType;
  TextRange FetchTypeRange; ///< the written type, after the ':'
  bool FetchUserString = false; ///< ":ustring": user memory even in a kprobe
  /// `@entry(expr)`: Expr is the inner expression, whose value is taken at
  /// the function's entry and handed to the return probe (kretprobe,
  /// uretprobe, fexit). EntryRange covers `@entry(...)`.
  bool AtEntry = false;
  TextRange EntryRange;
  TextRange Range;
  std::string Text; ///< the argument's source text, trimmed

  /// A deep copy (ProbeArg owns its expression tree).
  ProbeArg clone() const;
};

struct ProbeSpec {
  ProbeKind Kind = ProbeKind::KProbe;
  TextRange KindRange;
  /// User probes: the binary path as libbpf takes it. Kernel probes: the
  /// module name, empty for vmlinux.
  std::string Binary;
  TextRange BinaryRange;
  ProbePlace Place;
  bool HasArgList = false;
  std::vector<ProbeArg> Args;
  TextRange ArgListRange; ///< from '(' to ')' inclusive
  std::string Text;       ///< the whole annotation

  /// The libbpf section name: "uprobe/./demo:add3", "kprobe/vfs_write+16",
  /// "uprobe/./demo:add3+0x4a" (the offset keeps the radix it was written
  /// in). Only meaningful for the SymbolOffset form of a symbol-table name;
  /// for source names (C++/Rust qualified or quoted) and the other places it
  /// returns "" (they need an address from debug info first: see
  /// libbpfSectionName()). A kernel module prefix is dropped: libbpf 1.1's
  /// SEC("kprobe/...") parser takes `[a-zA-Z0-9_.]+` and would stop at ':'.
  std::string sectionName() const;
};

/// The libbpf section name for a resolved site: "kprobe/SYMBOL[+0xOFF]" or
/// "uprobe/BINARY:SYMBOL[+0xOFF]" (no offset when it is 0). For kernel
/// probes \p Binary (the module) is ignored, as in ProbeSpec::sectionName().
std::string libbpfSectionName(ProbeKind K, llvm::StringRef Binary,
                              llvm::StringRef Symbol, uint64_t Offset);

/// Limits that keep the parser linear and its trees shallow. Inputs beyond
/// them are SpecErrors, never crashes.
constexpr unsigned MaxSpecLength = 65536; ///< bytes of annotation text
constexpr unsigned MaxSpecNesting = 64;   ///< '(' / '*' / member steps per arg

/// A syntax error at a byte offset of the annotation text.
class SpecError : public llvm::ErrorInfo<SpecError> {
public:
  static char ID;
  SpecError(unsigned Offset, std::string Message)
      : Offset(Offset), Message(std::move(Message)) {}
  unsigned offset() const { return Offset; }
  const std::string &text() const { return Message; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  unsigned Offset;
  std::string Message;
};

/// True if a section string is meant for bpfprobe rather than plain libbpf:
/// a known probe kind and '/' followed by something libbpf cannot attach by
/// itself: an argument list (any text with '('), a place only debug info can
/// resolve (`f:12`, `file.c:12`, `f@file.c:12`) or a kernel module prefix
/// (`kprobe/ext4:f`, which libbpf 1.1 would silently read as symbol `ext4`).
/// SEC("kprobe/vfs_write") and SEC("uprobe/./x:f+0x10") stay libbpf's.
bool looksLikeProbeSpec(llvm::StringRef Section);

/// Parses an annotation. Errors are SpecError with the offending offset.
llvm::Expected<ProbeSpec> parseProbeSpec(llvm::StringRef Text);

/// Prints the tree in a stable, one-node-per-line form for tests: kind,
/// binary or module, the place's fields, the section name, then every
/// argument with its form, expression tree (children indented under their
/// parent), C type words and pointer depth, fetch type, and every range as
/// `[begin,end)`.
void dumpProbeSpec(const ProbeSpec &Spec, llvm::raw_ostream &OS);

} // namespace bpfprobe

#endif
