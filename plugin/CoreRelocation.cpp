//===- CoreRelocation.cpp - CO-RE field relocations for BTF plans --------===//
//
/// \file
/// A probe resolved through BTF reads members at the offsets of the BTF it
/// was compiled against; for
/// \code
///   SEC("kprobe/vfs_write(file->f_path.dentry, file->f_pos)")
/// \endcode
/// the plan says `+16(%di)` and `+48(%di)` with each offset marked as the
/// access `struct file` . f_path . dentry and `struct file` . f_pos. Each
/// such offset becomes a CO-RE field relocation (BPF_CORE_FIELD_BYTE_OFFSET
/// in `.BTF.ext`), which libbpf patches at load time with the running
/// kernel's offset, so one object reads the right bytes on kernels whose
/// layouts differ.
///
/// The order problem. Clang makes these relocations from
/// `__builtin_preserve_access_index` / `preserve_access_index` types: the
/// front end emits `llvm.preserve.{struct,union,array}.access.index`
/// intrinsics with `!llvm.preserve.access.index` type metadata, and the BPF
/// backend's BPFAbstractMemberAccess pass lowers them. That pass is
/// registered by the BPF target at the pipeline-start extension point when
/// the PassBuilder is constructed, before any plugin's callbacks; our
/// wrapper pass, registered at the same point, runs after it, so
/// intrinsics we emitted would never be lowered (and would reach codegen
/// as unknown calls). No other extension point runs earlier at both -O0 and
/// -O2, and the backend's pass is not a public API a plugin can run itself.
///
/// The way taken: emit what BPFAbstractMemberAccess emits, the form the
/// rest of the backend consumes. For each access, an external i64 global
/// named `llvm.<root type>:<reloc kind>:<offset>$<access string>` with the
/// `btf_ama` attribute and `!llvm.preserve.access.index` pointing at the
/// root type's DICompositeType; the offset is a load of that global (kept
/// opaque by `llvm.bpf.passthrough`). At instruction selection
/// BPFMISimplifyPatchable turns the load into an immediate, and BTFDebug
/// records the relocation (root type id, access string, kind) in
/// `.BTF.ext` from the global's name and metadata, exactly as for clang's
/// own CO-RE accesses. The debug-info types are synthesized from the plan
/// (BTF has them, the module does not): each structure or union with only
/// the members some access uses, at their real offsets and with their real
/// size, named `<name>___bpfprobe` (libbpf ignores a `___` suffix when it
/// matches names, and the suffix keeps them apart from the program's own
/// vmlinux.h types); member indexes in the access string are positions in
/// these synthesized types, which is what libbpf reads them against. The
/// leaf member's type has its BTF kind (integer, enum by name, pointer,
/// array) so libbpf's compatibility check accepts the kernel's member.
///
/// Limits, each stated where it applies: the size of the value read is the
/// compile-time one (no FIELD_BYTE_SIZE), a bitfield's bit position within
/// its storage and an element's size in an index are not relocated (the
/// containing member's offset is), and an access rooted at an anonymous
/// structure is not relocated (libbpf finds candidates by the root's name).
//===----------------------------------------------------------------------===//

#include "CoreRelocation.h"
#include "IRCompat.h"
#include "Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicsBPF.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace bpfprobe {
namespace {

/// libbpf's enum bpf_core_relo_kind.
constexpr unsigned FieldByteOffset = 0;
constexpr unsigned FieldByteSize = 1;
constexpr unsigned FieldLShiftU64 = 4;
constexpr unsigned FieldRShiftU64 = 5;

/// The suffix of synthesized type names (a libbpf "flavor").
constexpr const char *Flavor = "___bpfprobe";

Error bad(StringRef Core, const Twine &Why) {
  return fail("bad CO-RE access '" + Core + "': " + Why);
}

bool isComposite(StringRef T) {
  return T.starts_with("s") || T.starts_with("u");
}

/// Name and size of a composite or enum type text ("sfile#232").
bool splitNamed(StringRef T, StringRef &Name, uint64_t &Size) {
  size_t Hash = T.rfind('#');
  if (Hash == StringRef::npos)
    return false;
  Name = T.substr(1, Hash - 1);
  return !T.substr(Hash + 1).getAsInteger(10, Size) && Size < (1u << 20);
}

/// Bytes of a type text, 0 for a malformed one.
uint64_t sizeOf(StringRef T, unsigned Depth = 0) {
  if (T.empty() || Depth > 8)
    return 0;
  uint64_t N = 0;
  StringRef Name;
  switch (T.front()) {
  case 's':
  case 'u':
  case 'e':
    return splitNamed(T, Name, N) ? N : 0;
  case 'i':
  case 'n':
  case 'f':
    return T.substr(1).getAsInteger(10, N) || N > 16 ? 0 : N;
  case 'b':
    return T.size() == 1;
  case 'p':
    return T.size() == 1 ? 8 : 0;
  case 'a': {
    auto [Count, Elem] = T.substr(1).split(',');
    uint64_t E = sizeOf(Elem, Depth + 1);
    if (Count.getAsInteger(10, N) || !E || N > (1u << 20))
      return 0;
    return N * E;
  }
  default:
    return 0;
  }
}

} // namespace

Error CoreRelocations::parse(StringRef Core, Parsed &P) {
  if (Unoptimized)
    return createStringError(
        inconvertibleErrorCode(),
        "members read through BTF are CO-RE relocations, which the BPF "
        "backend makes only when optimizing: compile with -O1 or higher "
        "(libbpf's CO-RE needs -O2 -g as well)");
  SmallVector<StringRef, 8> Parts;
  Core.split(Parts, '/');
  StringRef Root = Parts.front();
  StringRef RootName;
  uint64_t RootSize = 0;
  if (!isComposite(Root) || !splitNamed(Root, RootName, RootSize) ||
      RootName.empty())
    return bad(Core, "the root is not a named structure or union");
  if (Parts.size() < 2)
    return bad(Core, "no member");
  std::string Key = Root.str();
  Composite &R = Composites[Key];
  R.Union = Root.front() == 'u';
  R.Name = RootName.str();
  R.Size = RootSize;
  std::vector<std::pair<std::string, size_t>> &Steps = P.Steps;
  uint64_t &Bits = P.Bits;
  P.Root = Root.str();
  StringRef Prev;
  for (size_t I = 1; I < Parts.size(); ++I) {
    if (Parts[I].starts_with("[")) {
      // An element of the array member before: the access string's next
      // number is the index itself.
      uint64_t Idx, Count;
      auto [CountText, Elem] = Prev.substr(1).split(',');
      if (!Prev.starts_with("a") || I + 1 != Parts.size() ||
          Parts[I].substr(1).getAsInteger(10, Idx) ||
          CountText.getAsInteger(10, Count) || Idx >= Count)
        return bad(Core, "bad element step '" + Parts[I] + "'");
      Steps.push_back({"", Idx});
      Bits += Idx * sizeOf(Elem) * 8;
      break;
    }
    auto [NameOff, TypeAndBits] = Parts[I].split(':');
    // A bitfield member, the last step: "<type>!<bits>".
    auto [Type, BitText] = TypeAndBits.split('!');
    unsigned BitSize = 0;
    if (!BitText.empty() &&
        (I + 1 != Parts.size() || BitText.getAsInteger(10, BitSize) ||
         !BitSize || BitSize > 64 || !(Type.starts_with("i") ||
                                        Type.starts_with("n") ||
                                        Type.starts_with("e") ||
                                        Type == "b")))
      return bad(Core, "bad bitfield '" + Parts[I] + "'");
    Prev = Type;
    auto [Name, OffText] = NameOff.split('@');
    uint64_t Off;
    if (OffText.getAsInteger(10, Off) || !sizeOf(Type))
      return bad(Core, "malformed member '" + Parts[I] + "'");
    Composite &C = Composites[Key];
    if (Off + (BitSize ? BitSize : sizeOf(Type) * 8) > C.Size * 8)
      return bad(Core, "member '" + Name + "' lies outside its container");
    if (!isComposite(Type) && I + 1 != Parts.size() &&
        !(Type.starts_with("a") && Parts[I + 1].starts_with("[")))
      return bad(Core, "a member after a scalar");
    std::string ChildKey;
    if (isComposite(Type)) {
      StringRef CN;
      uint64_t CS;
      splitNamed(Type, CN, CS);
      ChildKey = CN.empty() ? Key + "/@" + std::to_string(Off) : Type.str();
    }
    size_t Idx = 0;
    for (; Idx < C.Members.size(); ++Idx)
      if (C.Members[Idx].Name == Name && C.Members[Idx].BitOffset == Off)
        break;
    if (Idx == C.Members.size()) {
      C.Members.push_back({Name.str(), Off, Type.str(), ChildKey, BitSize});
    } else if (C.Members[Idx].Type != Type ||
               C.Members[Idx].BitSize != BitSize) {
      return bad(Core, "member '" + Name + "' has two types");
    }
    if (!ChildKey.empty()) {
      Composite &Child = Composites[ChildKey];
      StringRef CN;
      splitNamed(Type, CN, Child.Size);
      Child.Union = Type.front() == 'u';
      Child.Name = CN.str();
    }
    Steps.push_back({Key, Idx});
    Bits += Off;
    Key = ChildKey;
    P.LeafBits = BitSize;
    P.LeafSize = sizeOf(Type);
  }
  return Error::success();
}

Value *CoreRelocations::relocation(IRBuilder<> &B, const Parsed &P,
                                   unsigned Kind, int64_t Imm) {
  // Named for what it is once finalize() knows the member indexes.
  auto *GV = new GlobalVariable(M, B.getInt64Ty(), /*isConstant=*/false,
                                GlobalValue::ExternalLinkage, nullptr,
                                "bpfprobe.core");
  GV->addAttribute("btf_ama");
  Globals.push_back({GV, P.Root, Imm, P.Steps, Kind});
  Value *Off = B.CreateLoad(B.getInt64Ty(), GV);
  Function *Pass = intrinsicDecl(M, Intrinsic::bpf_passthrough,
                                 {B.getInt64Ty(), B.getInt64Ty()});
  return B.CreateCall(Pass, {B.getInt32(Seq++), Off});
}

Expected<Value *> CoreRelocations::offset(IRBuilder<> &B, StringRef Core,
                                          int64_t Imm) {
  Parsed P;
  if (Error E = parse(Core, P))
    return std::move(E);
  if (P.LeafBits)
    return bad(Core, "a bitfield's offset is not a byte offset");
  if (P.Bits % 8 || int64_t(P.Bits / 8) != Imm)
    return bad(Core, "its members are at byte " + Twine(P.Bits / 8) +
                         ", not " + Twine(Imm));
  return relocation(B, P, FieldByteOffset, Imm);
}

Expected<CoreRelocations::BitfieldRead>
CoreRelocations::bitfield(IRBuilder<> &B, StringRef Core, unsigned ByteOffset,
                          unsigned Size, unsigned Shift, unsigned BitSize) {
  Parsed P;
  if (Error E = parse(Core, P))
    return std::move(E);
  if (!P.LeafBits)
    return bad(Core, "not a bitfield");
  // libbpf's local values (bpf_core_calc_field_relo), which it checks the
  // instructions' immediates against: the storage unit of the member's
  // type, doubled until it holds the field.
  uint64_t BitOff = P.Bits, ByteSz = P.LeafSize, ByteOff;
  ByteOff = BitOff / 8 / ByteSz * ByteSz;
  while (BitOff + P.LeafBits - ByteOff * 8 > ByteSz * 8) {
    if (ByteSz >= 8)
      return bad(Core, "the bitfield straddles eight bytes");
    ByteSz *= 2;
    ByteOff = BitOff / 8 / ByteSz * ByteSz;
  }
  uint64_t LShift = 64 - (BitOff + P.LeafBits - ByteOff * 8);
  uint64_t RShift = 64 - P.LeafBits;
  if (ByteOff != ByteOffset || ByteSz != Size ||
      BitOff - ByteOff * 8 != Shift || P.LeafBits != BitSize)
    return bad(Core, "the plan reads the bitfield at another place than "
                     "its access says");
  BitfieldRead R;
  R.ByteOffset = relocation(B, P, FieldByteOffset, ByteOff);
  R.ByteSize = relocation(B, P, FieldByteSize, ByteSz);
  R.LShift = relocation(B, P, FieldLShiftU64, LShift);
  R.RShift = relocation(B, P, FieldRShiftU64, RShift);
  return R;
}

DIType *CoreRelocations::typeFor(StringRef T, const std::string &Key,
                                 DIBuilder &DIB, DIFile *File) {
  uint64_t N = 0;
  StringRef Name;
  switch (T.front()) {
  case 's':
  case 'u':
    return compositeFor(Key, DIB, File);
  case 'p':
    return DIB.createPointerType(nullptr, 64);
  case 'b':
    return DIB.createBasicType("_Bool", 8, dwarf::DW_ATE_boolean);
  case 'f':
    N = sizeOf(T);
    return DIB.createBasicType(N == 4 ? "float" : "double", N * 8,
                               dwarf::DW_ATE_float);
  case 'i':
  case 'n': {
    N = sizeOf(T);
    bool S = T.front() == 'i';
    static const char *Names[2][5] = {
        {"unsigned char", "unsigned short", "unsigned int",
         "unsigned long long", "unsigned __int128"},
        {"signed char", "short", "int", "long long", "__int128"}};
    unsigned Log = N == 1 ? 0 : N == 2 ? 1 : N == 4 ? 2 : N == 8 ? 3 : 4;
    return DIB.createBasicType(Names[S][Log], N * 8,
                               S ? dwarf::DW_ATE_signed
                                 : dwarf::DW_ATE_unsigned);
  }
  case 'e': {
    splitNamed(T, Name, N);
    DIType *Under = DIB.createBasicType("unsigned int", N * 8,
                                        dwarf::DW_ATE_unsigned);
    return DIB.createEnumerationType(
        File, Name.empty() ? "" : (Name + Flavor).str(), File, 0, N * 8, 0,
        DIB.getOrCreateArray({}), Under);
  }
  case 'a': {
    auto [Count, Elem] = T.substr(1).split(',');
    Count.getAsInteger(10, N);
    // An array of composites by value: its element type has its own key.
    DIType *E = typeFor(Elem, Key + "[]", DIB, File);
    return DIB.createArrayType(sizeOf(T) * 8, 0, E,
                               DIB.getOrCreateArray(
                                   {DIB.getOrCreateSubrange(0, int64_t(N))}));
  }
  }
  return nullptr;
}

DIType *CoreRelocations::compositeFor(const std::string &Key, DIBuilder &DIB,
                                      DIFile *File) {
  auto It = Composites.find(Key);
  if (It == Composites.end()) {
    // A composite no access goes into (an array element, a whole-struct
    // leaf): an empty one of the right size is compatible with any.
    StringRef Name;
    uint64_t Size = 0;
    StringRef K(Key);
    if (K.ends_with("[]") || !splitNamed(K, Name, Size))
      return DIB.createStructType(File, "", File, 0, uint64_t(0), 0,
                                  DINode::FlagZero,
                                  nullptr, DIB.getOrCreateArray({}));
    Composite &C = Composites[Key];
    C.Union = K.front() == 'u';
    C.Name = Name.str();
    C.Size = Size;
    It = Composites.find(Key);
  }
  Composite &C = It->second;
  if (C.DI)
    return C.DI;
  SmallVector<Metadata *, 8> Elems;
  for (const Member &Mb : C.Members) {
    DIType *T = typeFor(Mb.Type, Mb.Key.empty() ? Key + "." + Mb.Name : Mb.Key,
                        DIB, File);
    if (Mb.BitSize) {
      // The storage unit starts at the member's type's alignment, as the
      // C layout (and libbpf's reading of it) has it.
      uint64_t Unit = sizeOf(Mb.Type) * 8;
      Elems.push_back(DIB.createBitFieldMemberType(
          File, Mb.Name, File, 0, Mb.BitSize, Mb.BitOffset,
          Mb.BitOffset / Unit * Unit, DINode::FlagZero, T));
      continue;
    }
    Elems.push_back(DIB.createMemberType(File, Mb.Name, File, 0,
                                         sizeOf(Mb.Type) * 8, 0, Mb.BitOffset,
                                         DINode::FlagZero, T));
  }
  std::string Name = C.Name.empty() ? "" : C.Name + Flavor;
  DINodeArray Arr = DIB.getOrCreateArray(Elems);
  C.DI = C.Union ? (DIType *)DIB.createUnionType(File, Name, File, 0,
                                                 C.Size * 8, 0,
                                                 DINode::FlagZero, Arr)
                 : (DIType *)DIB.createStructType(File, Name, File, 0,
                                                  C.Size * 8, 0,
                                                  DINode::FlagZero, nullptr,
                                                  Arr);
  return C.DI;
}

Error CoreRelocations::finalize() {
  if (Globals.empty())
    return Error::success();
  auto CUs = M.debug_compile_units();
  if (CUs.begin() == CUs.end())
    return createStringError(
        inconvertibleErrorCode(),
        "probes resolved through BTF read members through CO-RE "
        "relocations, which need the object's BTF: compile with -g");
  // The kernel's BTF checker wants a structure's members in offset order:
  // sort them, and write each access string with the final indexes.
  std::map<std::string, std::vector<size_t>> NewIndex;
  for (auto &[Key, C] : Composites) {
    std::vector<size_t> Order(C.Members.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return C.Members[A].BitOffset < C.Members[B].BitOffset;
    });
    std::vector<Member> Sorted;
    std::vector<size_t> &Map = NewIndex[Key];
    Map.resize(Order.size());
    for (size_t I = 0; I < Order.size(); ++I) {
      Map[Order[I]] = I;
      Sorted.push_back(C.Members[Order[I]]);
    }
    C.Members = std::move(Sorted);
  }
  DICompileUnit *CU = *CUs.begin();
  DIBuilder DIB(M, /*AllowUnresolved=*/false, CU);
  DIFile *File = CU->getFile();
  for (Access &A : Globals) {
    std::string Str = "0";
    for (auto &[Key, Idx] : A.Steps)
      Str += ":" + std::to_string(Key.empty() ? Idx : NewIndex[Key][Idx]);
    const Composite &R = Composites[A.Root];
    std::string Name = ("llvm." + R.Name + Flavor + ":" + Twine(A.Kind) +
                        ":" + Twine(A.Imm) + "$" +
                        Str)
                           .str();
    // The same access twice: one global, as BPFAbstractMemberAccess keeps.
    if (GlobalVariable *Same = M.getNamedGlobal(Name)) {
      A.GV->replaceAllUsesWith(Same);
      A.GV->eraseFromParent();
      continue;
    }
    A.GV->setName(Name);
    A.GV->setMetadata(LLVMContext::MD_preserve_access_index,
                      compositeFor(A.Root, DIB, File));
  }
  return Error::success();
}

} // namespace bpfprobe
