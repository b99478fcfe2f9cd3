//===- SourceNames.h - C++/Rust source names to symbols ---------*- C++ -*-===//
//
/// \file
/// How a place written as a C++ or Rust source name (`shop::Cart::add`,
/// `'ns::f(int)'`, `krate::module::func`) finds its function: every function
/// symbol is demangled with LLVM's demangler (Itanium, Rust legacy and v0),
/// the user's name is matched against the qualified function name the way
/// gdb's linespecs match (`Cart::add` matches `shop::Cart::add`, `f` matches
/// every `f<T>`), a parameter-type list narrows overloads, and more than one
/// function left is an error that lists them, never a pick.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_SOURCENAMES_H
#define BPFPROBE_RESOLVE_SOURCENAMES_H

#include "Resolve/DebugInfoFinder.h"
#include "Spec/ProbeSpec.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace bpfprobe {

/// A function symbol's name as the demangler reads it.
struct DemangledFunction {
  std::string Qualified; ///< "shop::Cart::add", "ns::f<int>" (no abi tags)
  std::string Params;    ///< "(shop::Item const&, int)"; "" if not encoded
  std::string Qualifiers; ///< "const" for `shop::Cart::total() const`
  std::string Full;      ///< the whole demangled name, for messages
};

/// Demangles a function symbol (Itanium `_Z`, Rust legacy `_ZN..17h<hash>E`
/// without its hash, Rust v0 `_R`), through gcc's clone suffixes
/// (`.constprop.N`, `.isra.N`, `.part.N`). std::nullopt for names that are
/// not mangled, and for `.cold` parts (not entries).
std::optional<DemangledFunction> demangleFunction(llvm::StringRef Symbol);

/// gdb's linespec matching: Written names Qualified when equal, when it is
/// a trailing part of it at a `::` boundary, or when only template
/// arguments Written leaves out differ (`ns::f` names `ns::f<int>`).
bool sourceNameMatches(llvm::StringRef Written, llvm::StringRef Qualified);

/// A type spelling in one form for comparing parameter lists: spaces only
/// between words, cv-qualifiers after what they qualify (`const Item &` and
/// `Item const&` compare equal), libstdc++/libc++ inline namespaces and the
/// std::string/std::string_view template spellings folded.
std::string canonicalTypeName(llvm::StringRef T);

/// The function symbols the source-name place P names among \p Functions
/// (a binary's function symbols): all entries of one function (its C1/C2
/// constructor aliases, its gcc clones), sorted by address. An error at the
/// name for no match (unless !MustMatch: then an empty list when no
/// demangled name matches), and for an ambiguous name (one note per
/// candidate).
llvm::Expected<std::vector<ElfSymbol>>
findSourceFunction(const ProbePlace &P, llvm::ArrayRef<ElfSymbol> Functions,
                   llvm::StringRef TargetPath, bool MustMatch = true);

/// Checks a C-type argument list (calling-convention mode, no debug info)
/// against an Itanium-mangled symbol's parameters: the list has one more
/// entry than the parameters for a method's `this` (which must be a
/// pointer), a reference parameter (`T &`, `T &&`) is passed as a pointer,
/// and a class type passed by value is refused: the Itanium C++ ABI passes
/// it by invisible reference when it is not trivially copyable, which only
/// debug info tells. Success for symbols that are not mangled C++.
llvm::Error checkItaniumSignature(const ProbeSpec &Spec,
                                  llvm::ArrayRef<struct ArgInput> Inputs);

/// The last component of a qualified name (`add` of `shop::Cart::add`),
/// the DW_AT_name the function's DIE carries.
llvm::StringRef lastNameComponent(llvm::StringRef Qualified);

} // namespace bpfprobe

#endif
