//===- DwarfInternal.h - Shared pieces of the DWARF resolver ----*- C++ -*-===//
//
/// \file
/// Internal to lib/Resolve: the "located value" the DWARF resolver carries
/// from a variable's location through member, index and dereference steps
/// (DwarfResolver.cpp), the location-expression evaluator that produces it
/// (DwarfLocation.cpp), and the type helpers (DwarfTypes.cpp).
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_RESOLVE_DWARFINTERNAL_H
#define BPFPROBE_RESOLVE_DWARFINTERNAL_H

#include "Plan/FetchPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DWARFContext;
class DWARFFormValue;
struct DWARFLocationExpression;
class DWARFUnit;
namespace object {
class ObjectFile;
}
} // namespace llvm

namespace bpfprobe {

struct ArchABI;
class DwarfIndex;

/// Where a value lives at the probe address, as far as DWARF says.
struct Located {
  enum KindTy {
    Memory,   ///< Expr computes the address of the value
    Value,    ///< Expr computes the value itself (a register, a constant,
              ///< DW_OP_stack_value)
    Pieces,   ///< the value is split: Parts, each Size bytes, in order
    Optimized, ///< DWARF says the value (or this piece) is not available
    ImplicitPointer ///< a pointer with no value of its own
                    ///< (DW_OP_implicit_pointer): it points ImplicitOffset
                    ///< bytes into the variable Target
  };
  KindTy Kind = Optimized;
  std::unique_ptr<FetchExpr> Expr;
  struct Piece {
    unsigned Size; ///< bytes (rounded up for a DW_OP_bit_piece)
    std::unique_ptr<Located> Loc;
    /// DW_OP_bit_piece: BitSize bits from BitOffset of the register, value
    /// or memory; a DW_OP_piece has BitSize == 8 * Size and BitOffset 0.
    unsigned BitSize = 0, BitOffset = 0;
  };
  std::vector<Piece> Parts;
  llvm::DWARFDie Target; ///< ImplicitPointer
  int64_t ImplicitOffset = 0;

  static Located memory(std::unique_ptr<FetchExpr> Addr) {
    Located L;
    L.Kind = Memory;
    L.Expr = std::move(Addr);
    return L;
  }
  static Located value(std::unique_ptr<FetchExpr> V) {
    Located L;
    L.Kind = Value;
    L.Expr = std::move(V);
    return L;
  }
};

/// What the location evaluator needs to know about the site.
struct LocationContext {
  const ArchABI *ABI = nullptr;
  uint64_t PC = 0;        ///< the probe address (link-time)
  uint8_t AddrSize = 8;
  bool PIE = false;       ///< DW_OP_addr is relative to the load bias
  /// The frame base of the concrete subprogram, evaluated lazily.
  llvm::DWARFDie Subprogram;
  llvm::DWARFContext *Dwarf = nullptr;       ///< .debug_frame
  llvm::DWARFContext *TargetFrames = nullptr; ///< .eh_frame of the binary
  llvm::DWARFUnit *Unit = nullptr; ///< for DW_OP_addrx (.debug_addr)
  /// Finds the one .debug_frame FDE of the PC without parsing the others,
  /// and checks any other unit before its DIEs are read (readable()).
  DwarfIndex *Index = nullptr;
  /// The probe is in a user task (addresses are relative to %ip in a PIE;
  /// return addresses are comparable with link-time ones).
  bool UserSpace = true;
  /// The link-time address %ip holds at the probe (DW_OP_addr in a PIE is
  /// found from it); 0 means PC. Differs from PC when an expression is
  /// evaluated in a caller's frame.
  uint64_t IPAddress = 0;
  /// Set when the expression is evaluated in another frame than the
  /// probe's (a caller's, for DW_OP_entry_value): every register read goes
  /// through it. Unset: the probe's pt_regs.
  std::function<llvm::Expected<std::unique_ptr<FetchExpr>>(unsigned DwarfReg)>
      FrameRegister;
  /// How many callers up FrameRegister reads (DW_OP_entry_value in a
  /// DW_AT_call_value goes one further).
  unsigned CallerDepth = 0;
  /// The address of the function symbol of that name, when exactly one
  /// exists (a DW_TAG_call_site's DW_AT_call_origin that is a declaration).
  std::function<std::optional<uint64_t>(llvm::StringRef)> FunctionAddress;
  /// The probed binary (its code: the call instruction before a return
  /// address).
  const llvm::object::ObjectFile *Target = nullptr;
  /// A DW_OP_entry_value of a register that no caller's call site gives
  /// may be read from an entry program, which saves the register at the
  /// function's entry (FetchExpr::EntrySlot; the pairing is in
  /// plugin/EntryPairing.cpp): kprobe and uprobe sites.
  bool EntryProgram = false;
};

/// A location no debugger reads (DW_OP_deref_size wider than an address,
/// which DWARF 5 section 2.5.1.3 does not allow: clang describes a spilled
/// %xmm register so, and gdb 13 says "That operation is not available on
/// integers of more than 8 bytes"). The value has no location gdb can show
/// at that address, as if it had none.
class UnreadableLocationError
    : public llvm::ErrorInfo<UnreadableLocationError, llvm::StringError> {
public:
  static char ID;
  using ErrorInfo::ErrorInfo;
};

/// Evaluates one DWARF location expression at Ctx.PC. Errors are plain
/// messages ("DW_OP_entry_value is not representable ...") that the caller
/// puts in context, or an UnreadableLocationError.
llvm::Expected<Located> evaluateLocation(llvm::ArrayRef<uint8_t> Expr,
                                         const LocationContext &Ctx,
                                         unsigned Depth = 0);

/// The entry of a location list gdb uses at PC (dwarf2/loc.c,
/// dwarf2_find_location_expression): the first entry, in list order, whose
/// range covers PC, or whose range is empty and starts at PC when PC is the
/// entry of the function (FunctionEntry): gcc's location views put the
/// values a variable has before the first statement in such empty ranges.
/// nullptr when no entry applies.
const llvm::DWARFLocationExpression *
findLocationAt(llvm::ArrayRef<llvm::DWARFLocationExpression> Locs, uint64_t PC,
               std::optional<uint64_t> FunctionEntry);

/// The entry address of a concrete subprogram (its DW_AT_low_pc, or the
/// start of its first range), as gdb's BLOCK_ENTRY_PC.
std::optional<uint64_t> functionEntry(llvm::DWARFDie Subprogram);

/// A DW_AT_const_value of a constant form as gdb reads it: DW_FORM_sdata
/// and implicit_const are signed, udata unsigned, and data1/2/4/8 (untyped)
/// zero-extended from their size, the variable's type then narrowing it.
/// nullopt for a block (or data16) form.
std::optional<int64_t> constantValue(const llvm::DWARFFormValue &V);

/// One row of the call frame information at Ctx.PC: the CFA as an
/// expression of the registers, and how to find the return address and
/// the caller's registers (EntryValue.cpp).
struct UnwindAt {
  std::unique_ptr<FetchExpr> CFA;
  /// Per DWARF register: the rule's kind (llvm::dwarf::UnwindLocation
  /// ::Location), its offset from the CFA, and whether it is dereferenced.
  struct Rule {
    int Kind = 0;
    int64_t Offset = 0;
    bool Deref = false;
    unsigned Reg = 0;
  };
  std::function<std::optional<Rule>(unsigned DwarfReg)> RuleOf;
  unsigned ReturnAddressReg = 0;
};
llvm::Expected<UnwindAt> unwindAt(const LocationContext &Ctx);

/// DW_OP_entry_value(DW_OP_regN) at Ctx.PC: the value register DwarfReg
/// had on entry to Ctx.Subprogram, from the DW_AT_call_value of the
/// callers' call sites (EntryValue.cpp). The error says why and where the
/// value is available.
/// \p Otherwise, when given, is the value where the return address matches
/// no caller (instead of a fault).
llvm::Expected<std::unique_ptr<FetchExpr>>
entryValueFromCallers(const LocationContext &Ctx, unsigned DwarfReg,
                      std::unique_ptr<FetchExpr> Otherwise = nullptr);

/// A value of at most 8 bytes described in pieces (a 64-bit value in a
/// register pair, a small struct in bit pieces) as one scalar expression;
/// an error when a piece is optimized out or the pieces exceed 64 bits.
llvm::Expected<std::unique_ptr<FetchExpr>>
scalarFromPieces(Located L, const ArchABI &ABI);

/// The canonical frame address at Ctx.PC, from .debug_frame or .eh_frame.
llvm::Expected<std::unique_ptr<FetchExpr>> cfaAt(const LocationContext &Ctx);

// Types -----------------------------------------------------------------

/// Follows typedef, const, volatile, restrict and atomic.
llvm::DWARFDie stripTypedefs(llvm::DWARFDie T);
/// The DW_AT_type of a variable, parameter or member (through its abstract
/// origin for inlined instances); an invalid DIE means void.
llvm::DWARFDie typeOf(llvm::DWARFDie D);
/// Size in bytes; pointers without DW_AT_byte_size take PointerSize.
std::optional<uint64_t> typeSize(llvm::DWARFDie T, unsigned PointerSize);
/// "struct req", "unsigned int", "char *" (for diagnostics).
std::string typeName(llvm::DWARFDie T);
bool isPointer(llvm::DWARFDie T);  ///< after stripTypedefs
bool isAggregate(llvm::DWARFDie T); ///< struct, union, class, array

/// A member found by name, anonymous structs and unions searched through.
struct MemberInfo {
  llvm::DWARFDie Die;
  uint64_t ByteOffset = 0; ///< of the member (or of its storage unit)
  /// Bitfields: position of the field from the least significant bit of
  /// the StorageSize-byte unit at ByteOffset.
  bool IsBitfield = false;
  unsigned BitOffset = 0, BitSize = 0, StorageSize = 0;
  /// A static data member: Die is its declaration in the class; the
  /// variable is a global defined elsewhere.
  bool IsStatic = false;
  /// Found in a virtual base class (named here), whose offset in the
  /// object is read from the vtable at run time.
  std::string VirtualBase;
};
/// A member of a struct, union or class by name, through anonymous members
/// and (C++) base classes: a non-virtual base adds its offset; a member of
/// a virtual base or a static member is returned marked as such.
std::optional<MemberInfo> findMember(llvm::DWARFDie Record,
                                     llvm::StringRef Name);
/// The first pointer member named one of Names inside Record, searched
/// depth-first through its members and non-virtual bases (the layouts of
/// C++ standard library classes: libstdc++'s unique_ptr keeps its pointer
/// in _M_t._M_t._Head_base::_M_head_impl, libc++'s in __ptr_), with its
/// offset from Record's start.
std::optional<MemberInfo> findLibraryPointer(llvm::DWARFDie Record,
                                             llvm::ArrayRef<llvm::StringRef> Names);
/// The same for an integer member (a length: libstdc++'s _M_len, Rust's
/// length / len).
std::optional<MemberInfo> findLibraryLength(llvm::DWARFDie Record,
                                            llvm::ArrayRef<llvm::StringRef> Names);
/// The same for a struct, class or union member (libc++'s std::string
/// keeps its long and short forms in the members __l and __s of a union).
std::optional<MemberInfo> findLibraryRecord(llvm::DWARFDie Record,
                                            llvm::ArrayRef<llvm::StringRef> Names);
/// The unqualified name of a class without its template arguments
/// (`unique_ptr` of `unique_ptr<Item, std::default_delete<Item> >`), if it
/// is declared in namespace std (directly or in an inline namespace such
/// as libc++'s __1 or libstdc++'s __cxx11); "" otherwise.
std::string stdClassName(llvm::DWARFDie Record);

/// Names of the members of a struct/union, for "did you mean".
std::vector<std::string> memberNames(llvm::DWARFDie Record);

/// The fetch type of a scalar DWARF type, or an error naming the type.
llvm::Expected<ValueType> valueTypeOf(llvm::DWARFDie T, unsigned PointerSize);

} // namespace bpfprobe

#endif
