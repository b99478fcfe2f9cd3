//===- FetchPlan.h - How to fetch each probe argument at one site -*- C++ -*-===//
//
/// \file
/// A FetchPlan is the resolved form of a probe: for one site (one address in
/// one binary or kernel), and for each argument, a small expression tree that
/// says how to compute the value from the registers in `struct pt_regs` and
/// from memory: reads, integer arithmetic, logic, shifts, comparisons,
/// selects and conversions, everything a DWARF location can compute there.
/// The resolvers (calling convention, DWARF, BTF) produce it; the IR pass
/// turns it into BPF code; the printer renders it in the kernel's
/// kprobe_events fetch-arg syntax (`+16(+48(%di)):u64`), the notation
/// `perf probe` uses, so plans can be compared and recorded in metadata, and
/// what kprobe_events cannot say in the extended notation of
/// docs/how-it-works.md section 7 (`(%di + %ax):s64`).
///
/// Plans travel from the front end to the pass as text (serializePlan /
/// parsePlan), carried in an `annotate` attribute on the body function.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLAN_FETCHPLAN_H
#define BPFPROBE_PLAN_FETCHPLAN_H

#include "Target/ValueType.h"

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

/// One node of a fetch expression: a small typed expression language that
/// covers every DWARF location operation whose value is computable from the
/// registers and the memory at the probe. Values are 64-bit two's-complement
/// integers until the argument's final ValueType narrows them; narrower
/// integer types (DWARF base types, DW_OP_convert) are explicit Bitfield
/// nodes with BitOffset 0 that truncate and extend.
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
    Unary,    ///< Op (Neg or Not) of Parts[0]
    Binary,   ///< Parts[0] Op Parts[1]; comparisons give 0 or 1
    Select,   ///< Parts[0] != 0 ? Parts[1] : Parts[2] (DW_OP_bra, skip)
    CtxSlot,  ///< 64-bit slot Value of a BPF trampoline's context (fentry,
              ///< fexit): the traced function's arguments in order, then
              ///< (fexit, TrampolineRet) its return value
    EntrySlot, ///< A value saved at the function's entry by the paired entry
               ///< program (SitePlan::EntryProgram): word Value of its
               ///< record. Operand is the expression that program evaluates
               ///< there; this program only reads the saved value.
               ///< `@entry(...)` in a return probe (a whole argument), and
               ///< DW_OP_entry_value no call site gives (anywhere).
  };
  /// The operation of a Unary or Binary node.
  enum OpTy {
    Neg, Not,                                 // unary
    Plus, Minus, Mul, DivS, DivU, ModS, ModU, // arithmetic
    And, Or, Xor, Shl, ShrL, ShrA,            // logic and shifts
    Eq, Ne, LtS, GtS, LeS, GeS, LtU, GtU, LeU, GeU, // comparisons
  };
  KindTy Kind = Const;
  OpTy Op = Plus;
  unsigned RegIdx = 0;
  int64_t Value = 0;
  unsigned Size = 8;
  unsigned BitOffset = 0;
  unsigned BitSize = 0;
  bool SignExtend = false; ///< Bitfield: the field is signed
  bool TrampolineRet = false; ///< CtxSlot: the slot is fexit's return value
  std::unique_ptr<FetchExpr> Operand;
  /// Pieces: the parts; Unary, Binary, Select: the operands.
  std::vector<std::unique_ptr<FetchExpr>> Parts;
  std::vector<unsigned> PartSizes;               ///< Pieces: bytes of each
  /// Add: when not empty, Value is the byte offset of a member access that
  /// is a CO-RE field relocation (libbpf patches it at load for the running
  /// kernel's layout). The access in a compact form the BTF resolver writes
  /// and the pass reads (BtfResolver.h, coreAccessIsWellFormed):
  /// "<container>/<member>@<bit offset>:<type>/..." where a container or
  /// a composite type is `s` or `u`, its name, `#` and its size in bytes,
  /// and a leaf type `i<size>` (signed), `n<size>` (unsigned), `b`
  /// (_Bool), `p` (pointer), `e<name>#<size>` (enum), `f<size>` (float) or
  /// `a<count>,<type>` (array); a last step `[<index>` takes an element of
  /// the array member before it. On a Bitfield node (whose operand is then
  /// a Size-byte read at Add(structure, byte offset)) the access names the
  /// bitfield member, its type followed by `!<width>`, and the read is
  /// relocated as libbpf's BPF_CORE_READ_BITFIELD_PROBED does: offset,
  /// size and both shifts. Printed plans show Value, the offset in the
  /// BTF the probe was compiled against.
  std::string Core;

  static std::unique_ptr<FetchExpr> reg(unsigned RegIdx);
  static std::unique_ptr<FetchExpr> ctxSlot(unsigned Slot, bool Ret = false);
  static std::unique_ptr<FetchExpr> constant(int64_t V);
  static std::unique_ptr<FetchExpr> entrySlot(unsigned Slot,
                                              std::unique_ptr<FetchExpr> AtEntry);
  static std::unique_ptr<FetchExpr> add(std::unique_ptr<FetchExpr> E, int64_t K);
  static std::unique_ptr<FetchExpr> deref(std::unique_ptr<FetchExpr> Addr,
                                          unsigned Size);
  static std::unique_ptr<FetchExpr> bitfield(std::unique_ptr<FetchExpr> V,
                                             unsigned Size, unsigned BitOffset,
                                             unsigned BitSize, bool Signed);
  /// The low Bits bits of V, zero- or sign-extended (a conversion to an
  /// integer type of Bits bits).
  static std::unique_ptr<FetchExpr> extend(std::unique_ptr<FetchExpr> V,
                                           unsigned Bits, bool Signed);
  /// A value made of consecutive pieces (first piece at the lowest address).
  static std::unique_ptr<FetchExpr>
  pieces(std::vector<std::unique_ptr<FetchExpr>> Parts,
         std::vector<unsigned> Sizes);
  /// Op of V; constants are folded.
  static std::unique_ptr<FetchExpr> unary(OpTy Op, std::unique_ptr<FetchExpr> V);
  /// L Op R; constants are folded (never a division by a constant zero)
  /// and `x + k` becomes an Add node.
  static std::unique_ptr<FetchExpr> binary(OpTy Op, std::unique_ptr<FetchExpr> L,
                                           std::unique_ptr<FetchExpr> R);
  static std::unique_ptr<FetchExpr> select(std::unique_ptr<FetchExpr> Cond,
                                           std::unique_ptr<FetchExpr> Then,
                                           std::unique_ptr<FetchExpr> Else);
  std::unique_ptr<FetchExpr> clone() const;
  /// Number of memory reads in the tree.
  unsigned countDerefs() const;
  /// Number of nodes in the tree.
  unsigned countNodes() const;
  /// Whether the tree has no Unary, Binary, Select or inner Bitfield: what
  /// kprobe_events fetch-args can say.
  bool isKprobeRepresentable() const;
};

/// Whether Core has the shape FetchExpr::Core documents (characters,
/// nesting and numbers); the pass checks the rest as it reads it.
bool coreAccessIsWellFormed(llvm::StringRef Core);

/// The name of a Unary or Binary operation in plans and in the extended
/// notation ("plus", "shra", "lt_s"); "" for an unknown one.
llvm::StringRef fetchOpName(FetchExpr::OpTy Op);

/// kprobe_events type suffix of a fetched value of type T: "s32", "u8",
/// "x64", "string" ("ustring" when UserString), "x8[12]" (an aggregate, as
/// a byte array); "f32" and "f64" for floats, which kprobe_events has no
/// type for (the extended notation).
std::string kprobeTypeName(const ValueType &T, bool UserString);

/// The plan for one argument.
struct ArgPlan {
  std::string Name;  ///< the body parameter it binds to
  std::string Text;  ///< the argument as written in the annotation
  std::string CType; ///< the C type, when known ("long long", "char *")
  std::unique_ptr<FetchExpr> Expr;
  /// How the fetched bits are interpreted: Kind, Size and Signed (a kind
  /// from Int to Aggregate; plans carry no Leaves, Align or Text).
  ValueType Type;
  /// For a String: read user memory (":ustring") even in a kprobe.
  bool UserString = false;
  /// String only, optional: a string that is a pointer and a length (a
  /// std::string, std::string_view, Rust &str or String), not
  /// NUL-terminated. Expr is the pointer, Length the byte count;
  /// min(Length, Size - 1) bytes are copied and the copy is NUL-terminated.
  /// A record carries Length too (metadata type string_len).
  std::unique_ptr<FetchExpr> Length;

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
  /// A return probe with `@entry(...)` arguments (FetchExpr::EntrySlot):
  /// the program the pass synthesizes at the function's entry to save them
  /// (name, kind and libbpf section: "on_ret__entry", "uprobe",
  /// "uprobe/./srv:handle"). Empty otherwise.
  std::string EntryProgram;
  std::string EntryKind;
  std::string EntrySection;
  /// On the entry program the pass synthesizes for a return site: that
  /// site's program (metadata key entry_of). Not part of the serialized
  /// plan.
  std::string EntryOf;
  /// On a kretprobe or uretprobe with an entry program: the session
  /// program the pass also synthesizes (entry and return in one, for
  /// kernels with `kprobe.session`/`uprobe.session`; EntryPairing.cpp),
  /// metadata key session_program. Not part of the serialized plan.
  std::string SessionProgram;
  /// A site that shares one BPF program with other copies (SiteDispatch.h):
  /// that program's name and the BPF cookie that selects this site's code
  /// (metadata keys dispatcher, cookie). Not part of the serialized plan.
  std::string Dispatcher;
  uint64_t Cookie = 0;
  /// With an entry program, on a kprobe or uprobe site (not a return
  /// probe): the stack pointer the function had at its entry, computed at
  /// this site (the CFA less the return address), which pairs the site with
  /// its call's entry. Return probes compute it themselves; fentry/fexit
  /// pair by call depth.
  std::unique_ptr<FetchExpr> EntryFrame;

  /// Stack bytes the prologue needs (memory reads land in stack slots).
  unsigned stackBytes() const;
};

/// Renders Expr with type T in kprobe_events syntax: "%di:s32",
/// "+8(%sp):s64", "+16(+48(%di)):u64". Trees kprobe_events cannot say
/// (FetchExpr::isKprobeRepresentable() is false) are printed in the extended
/// notation of docs/how-it-works.md: "(%di & \255):u64",
/// "(%di <s %si ? %di : %si):s64".
std::string formatFetchArg(const FetchExpr &Expr, const ValueType &T,
                           bool UserString, const ArchABI &ABI,
                           AddrSpace Space);

/// The name kprobe_events (and perf probe -D) gives argument number Pos
/// (from 1) written as Text: an identifier as it is; a member chain its
/// last member ("file->f_mapping->a_ops" -> "a_ops", "r->items[1]" ->
/// "items"); a variable with an explicit type "var_type" ("name:string" ->
/// "name_string"); a pseudo-method its object's name and its own
/// ("c->ids.size()" -> "ids_size"); "argPos" for what perf leaves unnamed ($argN, $retval,
/// %reg, raw fetch args) and for a C type of a type list (TypeList). Always
/// a valid event field name: [A-Za-z_][A-Za-z0-9_]*.
std::string kprobeArgName(llvm::StringRef Text, unsigned Pos, bool TypeList);

/// One kprobe_events line for the site:
/// "p:on_add3 ./demo:add3 a=%di:s32 b=%si:s64 s=%dx:x64". Argument names
/// are kprobeArgName's, made unique ("name_3" for a second "name" at 3).
std::string formatKprobeEvent(const SitePlan &Site, const ArchABI &ABI);

/// Whether every argument of the site prints in kprobe_events syntax.
bool isKprobeRepresentable(const SitePlan &Site);

/// Text serialization used between the front end and the IR pass. The
/// format is private to one build of the plugin (it is versioned anyway:
/// "bpfprobe-plan 2"). parsePlan checks only the syntax; call validate()
/// before using what it returns.
std::string serializePlan(const SitePlan &Site);
llvm::Expected<SitePlan> parsePlan(llvm::StringRef Text);

/// Checks everything code generation relies on, so that a plan from text
/// (or a resolver bug) is refused with a message instead of crashing the
/// pass: register indexes against ABI, memory read sizes (1, 2, 4 or 8
/// bytes for a scalar; up to the stack budget for an aggregate's bytes),
/// bit ranges within their value, pieces that add up, operation codes,
/// tree depth and size, value types, and the stack budget.
llvm::Error validate(const SitePlan &Site, const ArchABI &ABI);
/// The checks of validate() on one argument alone (its value type and
/// expression), for a resolver to point a failure at that argument.
llvm::Error validateArg(const ArgPlan &A, const ArchABI &ABI);

/// Slots of a BPF trampoline's context: MAX_BPF_FUNC_ARGS (12) arguments
/// and fexit's return value.
constexpr int64_t MaxTrampolineSlots = 13;

/// `@entry(...)` values one return probe may take (slots of the record
/// its entry program saves).
constexpr unsigned MaxEntryValues = 16;

/// Limits validate() enforces on one argument's expression.
constexpr unsigned MaxFetchExprDepth = 64;
constexpr unsigned MaxFetchExprNodes = 512;

/// The prefix of the `annotate` string that carries a serialized plan.
constexpr const char *PlanAnnotationPrefix = "bpfprobe.plan:";

/// Prologue stack budget: BPF has 512 bytes of stack; the body needs some.
constexpr unsigned PrologueStackBudget = 256;

/// Bytes copied for a ':string' argument, including the NUL; the same as
/// BPFPROBE_RECORD_STR_LEN so strings fit record slots.
constexpr unsigned StringFetchSize = 64;

} // namespace bpfprobe

#endif
