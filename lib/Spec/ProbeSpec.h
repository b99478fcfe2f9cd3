//===- ProbeSpec.h - Parsed form of a bpfprobe annotation -------*- C++ -*-===//
//
/// \file
/// The syntax tree of one probe annotation such as
/// `uprobe/./server:handle+0x4a(req->hdr.len, conn->fd:u32)`, as produced by
/// parseProbeSpec(). Every node keeps the byte range it came from in the
/// annotation text so that diagnostics can put a caret on the exact character.
/// Nothing here knows about Clang or DWARF; resolution happens in lib/Resolve.
///
/// Grammar (DESIGN.md section 3):
/// \code
///   probe    := kind "/" target [ "(" arglist ")" ]
///   kind     := kprobe | kretprobe | uprobe | uretprobe
///   target   := [module ":"] place            (kernel)
///             | binary-path ":" place         (user)
///   place    := symbol ["+" offset] | symbol ":" rel-line | file ":" line
///             | symbol "@" file ":" line
///   arglist  := arg { "," arg }
///   arg      := expr [":" type] | c-type-name
///   expr     := ident | "$argN" | "$retval" | "%reg" | "@" global
///             | expr "->" ident | expr "." ident | expr "[" int "]"
///             | "*" expr | "(" expr ")"
/// \endcode
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_SPEC_PROBESPEC_H
#define BPFPROBE_SPEC_PROBESPEC_H

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

enum class ProbeKind { KProbe, KRetProbe, UProbe, URetProbe };

/// "kprobe", "kretprobe", "uprobe", "uretprobe".
llvm::StringRef probeKindName(ProbeKind K);
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
  uint64_t Offset = 0;
  bool HasOffset = false;
  TextRange OffsetRange;
  std::string File;
  TextRange FileRange;
  unsigned Line = 0;
  TextRange LineRange;
};

/// An explicit fetch type written after ':' (`x:u32`, `p:string`).
struct FetchTypeSpec {
  enum KindTy { Unsigned, Signed, Hex, String, UString };
  KindTy Kind = Unsigned;
  unsigned Bits = 0; ///< 8, 16, 32 or 64 for the integer kinds, 0 for strings.
  TextRange Range;
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
  };
  KindTy Kind = Ident;
  std::string Name;
  int64_t Number = 0;
  std::unique_ptr<SpecExpr> Base;
  TextRange Range;     ///< the whole sub-expression
  TextRange NameRange; ///< the identifier / register / index token
};

/// A C type name used by calling-convention mode (`const char *`,
/// `unsigned long`, `struct file *`, `size_t`).
struct CTypeSpec {
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
  CTypeSpec Type;                 ///< CType, IdentOrType (Words = {ident})
  std::optional<FetchTypeSpec> FetchType;
  TextRange Range;
  std::string Text; ///< the argument's source text, trimmed
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

  /// The libbpf section name: "uprobe/./demo:add3", "kprobe/vfs_write+16".
  /// Only meaningful for the SymbolOffset form; other places need an address
  /// from debug info first.
  std::string sectionName() const;
};

/// A syntax error at a byte offset of the annotation text.
class SpecError : public llvm::ErrorInfo<SpecError> {
public:
  static char ID;
  SpecError(unsigned Offset, std::string Message)
      : Offset(Offset), Message(std::move(Message)) {}
  unsigned offset() const { return Offset; }
  const std::string &message() const { return Message; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  unsigned Offset;
  std::string Message;
};

/// True if a section string is meant for bpfprobe rather than plain libbpf:
/// a known probe kind followed by an argument list.
bool looksLikeProbeSpec(llvm::StringRef Section);

/// Parses an annotation. Errors are SpecError with the offending offset.
llvm::Expected<ProbeSpec> parseProbeSpec(llvm::StringRef Text);

/// Prints the tree back in a canonical form, for tests ("expr(arrow(ident
/// req) hdr)" style). One line per argument.
void dumpProbeSpec(const ProbeSpec &Spec, llvm::raw_ostream &OS);

} // namespace bpfprobe

#endif
