//===- FetchPlan.h - How to fetch each probe argument at one site -*- C++ -*-===//
//
/// \file
/// A FetchPlan is the resolved form of a probe: for one site (one address in
/// one binary or kernel), and for each argument, a small expression tree that
/// says how to compute the value from the registers in `struct pt_regs` and
/// from memory. The resolvers (calling convention, DWARF, BTF) produce it; the
/// IR pass turns it into BPF code; the printer renders it in the kernel's
/// kprobe_events fetch-arg syntax (`+16(+48(%di)):u64`), the notation
/// `perf probe` uses, so plans can be compared and recorded in metadata.
///
/// Plans travel from the front end to the pass as text (serializePlan /
/// parsePlan), carried in an `annotate` attribute on the body function.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLAN_FETCHPLAN_H
#define BPFPROBE_PLAN_FETCHPLAN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bpfprobe {

struct ArchABI;

/// Which address space a memory read goes to.
enum class AddrSpace { Kernel, User };

/// One node of a fetch expression. Values are 64-bit until the argument's
/// final ValueType narrows them.
struct FetchExpr {
  enum KindTy {
    Reg,      ///< the pt_regs slot of register Reg (index into ArchABI::Regs)
    Const,    ///< the constant Value
    Add,      ///< Operand + Value (address arithmetic)
    Deref,    ///< Size bytes of memory at address Operand
    Bitfield, ///< BitSize bits at BitOffset (from the least significant
              ///< bit) of the Size-byte value Operand; SignExtend for signed
              ///< fields
    Pieces,   ///< Parts laid end to end in memory order, PartSizes[i] bytes
              ///< each: a 64-bit value in a register pair on a 32-bit ABI,
              ///< a struct passed in registers (and the stack)
  };
  KindTy Kind = Const;
  unsigned RegIdx = 0;
  int64_t Value = 0;
  unsigned Size = 8;
  unsigned BitOffset = 0;
  unsigned BitSize = 0;
  bool SignExtend = false; ///< Bitfield: the field is signed
  std::unique_ptr<FetchExpr> Operand;
  std::vector<std::unique_ptr<FetchExpr>> Parts; ///< Pieces
  std::vector<unsigned> PartSizes;               ///< Pieces: bytes of each

  static std::unique_ptr<FetchExpr> reg(unsigned RegIdx);
  static std::unique_ptr<FetchExpr> constant(int64_t V);
  static std::unique_ptr<FetchExpr> add(std::unique_ptr<FetchExpr> E, int64_t K);
  static std::unique_ptr<FetchExpr> deref(std::unique_ptr<FetchExpr> Addr,
                                          unsigned Size);
  static std::unique_ptr<FetchExpr> bitfield(std::unique_ptr<FetchExpr> V,
                                             unsigned Size, unsigned BitOffset,
                                             unsigned BitSize, bool Signed);
  /// A value made of consecutive pieces (first piece at the lowest address).
  static std::unique_ptr<FetchExpr>
  pieces(std::vector<std::unique_ptr<FetchExpr>> Parts,
         std::vector<unsigned> Sizes);
  std::unique_ptr<FetchExpr> clone() const;
  /// Number of memory reads in the tree.
  unsigned countDerefs() const;
};

/// How the fetched bits are interpreted.
struct ValueType {
  enum KindTy {
    Int,     ///< integer or enum; Signed says how to extend
    Bool,    ///< _Bool: non-zero is true
    Pointer, ///< an address (printed as hex)
    String,  ///< NUL-terminated string at the fetched address (bounded copy)
    Aggregate, ///< Size bytes copied to the BPF stack; the body gets a pointer
  };
  KindTy Kind = Int;
  unsigned Size = 8; ///< bytes of the value (for String: max bytes copied)
  bool Signed = false;
  /// For String: read user memory (":ustring") even in a kprobe.
  bool UserString = false;

  /// kprobe_events type suffix: "s32", "u8", "x64", "string", "ustring",
  /// "x8[12]" (an aggregate, as a byte array).
  std::string kprobeTypeName() const;
};

/// The plan for one argument.
struct ArgPlan {
  std::string Name;  ///< the body parameter it binds to
  std::string Text;  ///< the argument as written in the annotation
  std::string CType; ///< the C type, when known ("long long", "char *")
  std::unique_ptr<FetchExpr> Expr;
  ValueType Type;

  ArgPlan() = default;
  ArgPlan(ArgPlan &&) = default;
  ArgPlan &operator=(ArgPlan &&) = default;
  ArgPlan clone() const;
};

/// The plan for one site.
struct SitePlan {
  std::string Program; ///< BPF program (wrapper function) name
  std::string Body;    ///< name of the user's body function before renaming
  std::string Section; ///< libbpf section name of the wrapper
  std::string Kind;    ///< "kprobe", "kretprobe", "uprobe", "uretprobe"
  std::string Target;  ///< binary path (user) or module ("" = vmlinux)
  std::string Symbol;
  uint64_t Offset = 0;
  uint64_t Address = 0; ///< resolved address, 0 when not known
  uint64_t SymbolSize = 0; ///< size of Symbol in the ELF, 0 when not known
  std::string Arch;     ///< ArchABI::Name
  std::string BuildId;  ///< hex build-id of the debug info used, or ""
  std::string Source;   ///< "cc" (calling convention), "dwarf", "btf"
  std::string Spec;     ///< the full annotation text
  AddrSpace Space = AddrSpace::Kernel;
  /// A default-body probe: the prologue sends every argument to the
  /// records ring buffer (include/bpfprobe/metadata.h) instead of calling a
  /// body with them.
  bool Record = false;
  std::vector<ArgPlan> Args;

  /// Stack bytes the prologue needs (memory reads land in stack slots).
  unsigned stackBytes() const;
};

/// Renders Expr with type T in kprobe_events syntax: "%di:s32",
/// "+8(%sp):s64", "+16(+48(%di)):u64".
std::string formatFetchArg(const FetchExpr &Expr, const ValueType &T,
                           const ArchABI &ABI, AddrSpace Space);

/// The name kprobe_events (and perf probe -D) gives argument number Pos
/// (from 1) written as Text: an identifier as it is; a member chain its
/// last member ("file->f_mapping->a_ops" -> "a_ops", "r->items[1]" ->
/// "items"); a variable with an explicit type "var_type" ("name:string" ->
/// "name_string"); "argPos" for what perf leaves unnamed ($argN, $retval,
/// %reg, raw fetch args) and for a C type of a type list (TypeList). Always
/// a valid event field name: [A-Za-z_][A-Za-z0-9_]*.
std::string kprobeArgName(llvm::StringRef Text, unsigned Pos, bool TypeList);

/// One kprobe_events line for the site:
/// "p:on_add3 ./demo:add3 a=%di:s32 b=%si:s64 s=%dx:x64". Argument names
/// are kprobeArgName's, made unique ("name_3" for a second "name" at 3).
std::string formatKprobeEvent(const SitePlan &Site, const ArchABI &ABI);

/// Text serialization used between the front end and the IR pass. The
/// format is private to one build of the plugin (it is versioned anyway).
std::string serializePlan(const SitePlan &Site);
llvm::Expected<SitePlan> parsePlan(llvm::StringRef Text);

/// The prefix of the `annotate` string that carries a serialized plan.
constexpr const char *PlanAnnotationPrefix = "bpfprobe.plan:";

/// Prologue stack budget: BPF has 512 bytes of stack; the body needs some.
constexpr unsigned PrologueStackBudget = 256;

/// Bytes copied for a ':string' argument, including the NUL; the same as
/// BPFPROBE_RECORD_STR_LEN so strings fit record slots.
constexpr unsigned StringFetchSize = 64;

} // namespace bpfprobe

#endif
