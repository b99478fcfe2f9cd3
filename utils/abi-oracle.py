#!/usr/bin/env python3
"""The compiler's DWARF as the oracle for bpfprobe's calling-convention tables.

For each configuration (an architecture, a convention, compiler flags):
generate >= 200 C functions with mixed integer, pointer and struct-by-value
parameters (1-12 of them), compile them with clang and the Debian cross gcc
(when installed) with -g -O2, find where each parameter is at the
function's entry address, and compare with the plan the bpfprobe plugin
prints for a probe on that function by its C types
(-fplugin-arg-bpfprobe-print-plan).

Where a parameter is at entry: a location list entry that starts at the
entry address is taken as it is. Other descriptions (a single location for
the whole function, a list whose first entry starts after the prologue, a
slot of the parameter save area the callee stores a register into) only
hold later; the tracer (machine-code side, below) follows the function's
straight-line code from the entry to carry them back to the entry. What it
cannot follow has no oracle, never a guess.

Verdicts: agree; disagree (a different register or stack slot, or a
different size than DWARF's type); a refusal is justified when DWARF puts
(part of) the value in a register struct pt_regs does not hold (FP/SIMD),
or when the two compilers put it in different places (a rule the table
cannot know; the refusal's message must say so); any other refusal where
DWARF shows a readable place is unjustified. The exit status is 1 on any
disagreement or unjustified refusal.

  abi-oracle.py --plugin build/lib/libbpfprobe.so [--arch LABEL...] [-n 220]
                [--workdir DIR] [--no-gcc] [--compiler clang|gcc] [--cc NAME] [-v]

DWARF register numbers map to kprobe_events names through the tables'
RegInfo rows (lib/Target/Arch*.cpp), read from the source tree; a wrong
DWARF number in a table therefore shows up as a disagreement.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)


def _cfg(label, arch, triple, gcc, kind="uprobe", flags=(), cc=None, gcc_flags=()):
    return {"label": label, "arch": arch, "triple": triple, "gcc": gcc, "kind": kind,
            "flags": list(flags), "cc": cc, "gcc_flags": list(gcc_flags)}


# label, bpfprobe arch, clang triple, gcc driver, probe kind, flags for both
# compilers, the plugin's -fplugin-arg-bpfprobe-cc= (None: the probe kind's
# default), flags for gcc only.
ARMHF_GCC = ["-march=armv7-a", "-mfpu=vfpv3-d16", "-mfloat-abi=hard"]
CONFIGS = [
    _cfg("x86_64", "x86_64", "x86_64-linux-gnu", "x86_64-linux-gnu-gcc"),
    _cfg("i386", "i386", "i686-linux-gnu", "i686-linux-gnu-gcc"),
    # the i386 kernel's convention: kprobes default to regparm3
    _cfg("i386(-mregparm=3)", "i386", "i686-linux-gnu", "i686-linux-gnu-gcc", kind="kprobe",
         flags=["-mregparm=3"]),
    # 32-bit x86 user code under an x86_64 kernel: the same code, the 64-bit pt_regs
    _cfg("ia32-compat", "ia32-compat", "i686-linux-gnu", "i686-linux-gnu-gcc"),
    _cfg("aarch64", "aarch64", "aarch64-linux-gnu", "aarch64-linux-gnu-gcc"),
    # armel (the base standard, soft-float), probed with -cc=aapcs
    _cfg("arm", "arm", "arm-linux-gnueabi", "arm-linux-gnueabi-gcc", cc="aapcs"),
    # armhf: the VFP variant, which puts floating-point values in VFP
    # registers; the uprobe default refuses them. gcc: the VFP
    # variant (Debian's armel gcc with armhf's defaults), the uprobe default
    _cfg("arm(hf)", "arm", "arm-linux-gnueabihf", "arm-linux-gnueabi-gcc", gcc_flags=ARMHF_GCC),
    # 32-bit arm user code under an arm64 kernel (armhf)
    _cfg("arm-compat", "arm-compat", "arm-linux-gnueabihf", "arm-linux-gnueabi-gcc",
         gcc_flags=ARMHF_GCC),
    _cfg("riscv64", "riscv64", "riscv64-linux-gnu", "riscv64-linux-gnu-gcc"),
    _cfg("s390x", "s390x", "s390x-linux-gnu", "s390x-linux-gnu-gcc"),
    _cfg("powerpc64le", "powerpc64le", "powerpc64le-linux-gnu", "powerpc64le-linux-gnu-gcc"),
    _cfg("mips64", "mips64", "mips64el-linux-gnuabi64", "mips64el-linux-gnuabi64-gcc"),
    _cfg("loongarch64", "loongarch64", "loongarch64-linux-gnu", "loongarch64-linux-gnu-gcc"),
]
TABLE_FILES = {
    "x86_64": "ArchX86_64.cpp", "i386": "ArchI386.cpp", "ia32-compat": "ArchIA32Compat.cpp",
    "aarch64": "ArchAArch64.cpp", "arm": "ArchARM.cpp", "arm-compat": "ArchARMCompat.cpp",
    "riscv64": "ArchRISCV64.cpp", "s390x": "ArchS390x.cpp",
    "powerpc64le": "ArchPPC64LE.cpp", "mips64": "ArchMips64.cpp",
    "loongarch64": "ArchLoongArch64.cpp",
}
# Stack pointer names in the tables.
SP_NAME = {"x86_64": "sp", "i386": "sp", "ia32-compat": "sp", "aarch64": "sp", "arm": "sp",
           "arm-compat": "sp", "riscv64": "sp", "s390x": "r15", "powerpc64le": "gpr1",
           "mips64": "r29", "loongarch64": "r3"}
# How llvm-dwarfdump names the stack pointer in CFA rules.
CFA_SP_NAMES = {"x86_64": {"RSP"}, "i386": {"ESP"}, "ia32-compat": {"ESP"},
                "aarch64": {"SP", "WSP"}, "arm": {"SP"}, "arm-compat": {"SP"},
                "riscv64": {"X2"}, "s390x": {"R15", "R15D"}, "powerpc64le": {"R1", "X1"},
                "mips64": {"SP_64", "SP"}, "loongarch64": {"R3"}}

STRUCTS = """
struct s1 { char a; };
struct s2 { short a; };
struct s3 { char a; short b; };
struct s4 { int a; };
struct s6 { short a, b, c; };
struct s8 { int a, b; };
struct s12 { int a, b, c; };
struct s16 { long long a, b; };
struct sp { void *p; int n; };
struct s24 { long a, b, c; };
struct sll { char c; long long x; };
union u8 { int i; char c[8]; };
struct s3c { char c[3]; };
struct nest { struct s4 a; char b; };
struct sf { float f; int i; };
struct sd { double d; };
struct ff { float a, b; };
struct hfa3 { float a, b, c; };
union uf { float f; int i; };
union ud { double d; long l; };
struct nd { struct sd in; int x; };
struct dl { double d; long l; };
struct sld { long double x; };
"""
SCALARS = ["char", "signed char", "unsigned char", "short", "unsigned short", "int",
           "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
           "void *", "char *"]
AGGS = ["struct s1", "struct s2", "struct s3", "struct s4", "struct s6", "struct s8",
        "struct s12", "struct s16", "struct sp", "struct s24", "struct sll", "union u8",
        "struct s3c", "struct nest"]
# Floating point, alone or in aggregates: where each ABI refuses it and
# where it plans it (long double alone is not fetched anywhere: only 32- and
# 64-bit floating-point values are, so it is not generated).
FLOATY = ["double", "float", "struct sf", "struct sd", "struct ff", "struct hfa3", "union uf",
          "union ud", "struct nd", "struct dl", "struct sld"]


def gen_signatures(n, seed):
    rnd = random.Random(seed)
    sigs = []
    for i in range(n):
        k = rnd.randint(1, 12)
        ps = []
        for _ in range(k):
            r = rnd.random()
            if r < 0.6:
                ps.append(rnd.choice(SCALARS))
            elif r < 0.93:
                ps.append(rnd.choice(AGGS))
            else:
                ps.append(rnd.choice(FLOATY))
        sigs.append(ps)
    return sigs


def c_source(sigs):
    out = [STRUCTS]
    for i, ps in enumerate(sigs):
        rev = list(reversed(range(len(ps))))
        out.append("void sink%d(%s);" % (i, ", ".join(ps[j] for j in rev)))
        params = ", ".join("%s p%d" % (t, j) for j, t in enumerate(ps))
        out.append("void f%d(%s) { sink%d(%s); }" % (i, params, i,
                                                     ", ".join("p%d" % j for j in rev)))
    return "\n".join(out) + "\n"


def bpf_source(sigs, kind):
    out = ["struct pt_regs;", STRUCTS]
    cols = []
    for i, ps in enumerate(sigs):
        if not ps:
            cols.append([])
            continue
        target = ("f%d" % i) if kind == "kprobe" else "./x:f%d" % i
        line = '__attribute__((section("%s/%s(' % (kind, target)
        starts = []
        for j, t in enumerate(ps):
            if j:
                line += ", "
            starts.append(len(line) + 1)  # 1-based column
            line += t
        line += ')")))'
        cols.append(starts)
        out.append(line)
        params = []
        for j, t in enumerate(ps):
            if t.endswith("*"):
                params.append("void *a%d" % j)
            elif t.startswith("struct") or t.startswith("union"):
                params.append("const void *a%d" % j)
            else:
                params.append("long long a%d" % j)
        out.append("int p%d(struct pt_regs *ctx, %s) { return 0; }" % (i, ", ".join(params)))
    return "\n".join(out) + "\n", cols


def load_table(arch):
    """name -> dwarf number, dwarf number -> name, from the table source."""
    text = open(os.path.join(SRC, "lib", "Target", TABLE_FILES[arch])).read()
    by_name, by_dwarf = {}, {}
    for m in re.finditer(r'^\s*\{"([^"]+)",\s*(\d+),\s*(\d+),\s*(-?\d+),\s*"([^"]*)"\}', text, re.M):
        name, dw = m.group(1), int(m.group(4))
        by_name[name] = dw
        if dw >= 0:
            by_dwarf[dw] = name
    return by_name, by_dwarf


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ---------------------------------------------------------------- DWARF side

def parse_cfa_tables(obj, dwarfdump):
    """{fde_start_pc: [(pc, reg, off)]} and the CIE's entry (reg, off). The
    FDE's end pc is appended to each list as (end, None, None)."""
    out = run([dwarfdump, "--eh-frame", "--debug-frame", obj]).stdout
    fdes, cur, cie, ends = {}, None, None, {}
    for line in out.splitlines():
        m = re.search(r"FDE cie=\w+ pc=([0-9a-f]+)\.\.\.([0-9a-f]+)", line)
        if m:
            cur = int(m.group(1), 16)
            fdes[cur] = []
            ends[cur] = int(m.group(2), 16)
            continue
        m = re.match(r"\s+(?:0x([0-9a-f]+): )?CFA=([A-Z0-9a-z]+)([+-]\d+)?", line)
        if m:
            off = int(m.group(3) or 0)
            if m.group(1) is None:
                if cie is None:
                    cie = (m.group(2), off)
            elif cur is not None:
                fdes[cur].append((int(m.group(1), 16), m.group(2), off))
    for pc, rows in fdes.items():
        rows.append((ends[pc], None, None))
    return fdes, cie


def parse_ops(expr):
    """'DW_OP_reg5 RDI, DW_OP_piece 0x4, ...' -> list of (op, args...)."""
    ops = []
    for part in re.split(r",\s*(?![^()]*\))", expr.strip()):
        part = part.strip()
        m = re.match(r"DW_OP_reg(\d+)\b", part)
        if m:
            ops.append(("reg", int(m.group(1))))
            continue
        m = re.match(r"DW_OP_regx (0x[0-9a-f]+|\d+)$", part)
        if m:
            ops.append(("reg", int(m.group(1), 0)))
            continue
        m = re.match(r"DW_OP_regx [RSX](\d+)D?$", part)
        if m:
            # a general register printed by name (powerpc's S30 is r30)
            ops.append(("reg", int(m.group(1))))
            continue
        if re.match(r"DW_OP_regx \S+$", part):
            # printed by name (B0, D14_64, F10_64): FP/SIMD registers
            ops.append(("reg", FP))
            continue
        m = re.match(r"DW_OP_breg(\d+) \S+?([+-]\d+)$", part)
        if m:
            ops.append(("breg", int(m.group(1)), int(m.group(2))))
            continue
        m = re.match(r"DW_OP_fbreg ([+-]?\d+)", part)
        if m:
            ops.append(("fbreg", int(m.group(1))))
            continue
        m = re.match(r"DW_OP_piece (0x[0-9a-f]+|\d+)", part)
        if m:
            ops.append(("piece", int(m.group(1), 0)))
            continue
        ops.append(("other", part))
    return ops


def parse_dwarf(obj, dwarfdump, word):
    """{function name: {"low": pc, "fb": ops, "params": [param]}}; a param
    is {"loc": ops or None, "list": [(lo, hi, text)] or None, "size": bytes}."""
    out = run([dwarfdump, "--debug-info", obj]).stdout
    funcs, cur, param, sub_indent = {}, None, None, None
    dies, die = {}, None  # DIE offset -> {"tag", "size", "type"} for type sizes
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^0x([0-9a-f]+):(\s+)DW_TAG_(\w+)", line)
        if m:
            tag, indent = m.group(3), len(m.group(2))
            die = dies.setdefault(int(m.group(1), 16), {"tag": tag, "size": None, "type": None})
            param = None
            if tag == "subprogram":
                cur, sub_indent = {"low": None, "fb": None, "params": [], "name": None}, indent
            elif cur is not None and indent <= sub_indent:
                cur = None  # left the subprogram
            elif cur is not None and tag == "formal_parameter" and indent == sub_indent + 2:
                param = {"loc": None, "list": None, "type": None}
                cur["params"].append(param)
            i += 1
            continue
        if die is not None:
            mm = re.search(r"DW_AT_byte_size\s*\((0x[0-9a-f]+)\)", line)
            if mm:
                die["size"] = int(mm.group(1), 16)
            mm = re.search(r"DW_AT_type\s*\((0x[0-9a-f]+)", line)
            if mm:
                die["type"] = int(mm.group(1), 16)
                if param is not None:
                    param["type"] = die["type"]
        if cur is not None and param is None and "DW_AT_low_pc" in line and cur["low"] is None:
            cur["low"] = int(re.search(r"\((0x[0-9a-f]+)\)", line).group(1), 16)
        elif cur is not None and param is None and "DW_AT_frame_base" in line:
            cur["fb"] = parse_ops(re.search(r"\((.*)\)", line).group(1))
        elif cur is not None and param is None and "DW_AT_name" in line and cur["name"] is None:
            cur["name"] = re.search(r'\("(.*)"\)', line).group(1)
            funcs[cur["name"]] = cur
        elif param is not None and "DW_AT_location" in line:
            if "loclist" in line or re.search(r"\(0x[0-9a-f]+:\s*$", line):
                entries = []
                while True:
                    i += 1
                    m = re.match(r"\s+\[(0x[0-9a-f]+), (0x[0-9a-f]+)\): (.*?)(\))?$", lines[i])
                    if not m:
                        i -= 1
                        break
                    entries.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3)))
                    if m.group(4):
                        break
                param["list"] = entries
            else:
                param["loc"] = parse_ops(re.search(r"DW_AT_location\s*\((.*)\)\s*$", line).group(1))
        i += 1

    def size_of(off, depth=0):
        d = dies.get(off)
        if d is None or depth > 20:
            return None
        if d["size"] is not None:
            return d["size"]
        if d["tag"] == "pointer_type":
            return word
        if d["type"] is not None:
            return size_of(d["type"], depth + 1)
        return None

    for fn in funcs.values():
        for p in fn["params"]:
            p["size"] = size_of(p["type"]) if p["type"] is not None else None
    return funcs


def raw_pieces(ops):
    """DWARF ops -> [(byte offset, size or None, raw)]; raw: ('reg', n),
    ('breg', n, k) (memory at register + k), ('fbreg', k), ('deref', raw)
    (memory at the address stored in raw), ('other', text)."""
    pieces, off, cur = [], 0, None
    for op in ops + [("piece", None)]:
        if op[0] == "piece":
            if cur is not None or op[1] is not None:
                pieces.append((off, op[1], cur))
            off += op[1] or 0
            cur = None
            continue
        if cur is not None:
            if op[0] == "other" and op[1] == "DW_OP_deref" and cur[0] in ("breg", "fbreg"):
                cur = ("deref", cur)
            else:
                cur = ("other", op[1] if op[0] == "other" else "%s after a location" % (op,))
            continue
        if op[0] in ("reg", "breg", "fbreg"):
            cur = op
        else:
            cur = ("other", op[1])
    return pieces


class FrameInfo:
    """Where DW_OP_fbreg and stack-pointer-relative locations point, as
    entry-relative stack offsets (entry SP + k)."""

    def __init__(self, fn, cfa, cie, sp_dw, name_of_cfa_reg, word):
        self.fn, self.cfa, self.cie, self.sp_dw = fn, cfa, cie, sp_dw
        self.word = word
        self.name_of_cfa_reg = name_of_cfa_reg
        self.entry_off = cie[1] if cie else 0  # CFA - SP at entry

    def cfa_based(self):
        """The frame base as CFA + c, or None when it is a register."""
        fb = self.fn["fb"] or []
        if fb and fb[0][0] == "other" and "call_frame_cfa" in fb[0][1]:
            if len(fb) == 1:
                return 0
            # DW_OP_call_frame_cfa, DW_OP_consts N, DW_OP_plus (clang)
            if len(fb) == 3 and re.match(r"DW_OP_consts ([+-]?\d+)", fb[1][1]) and "plus" in fb[2][1]:
                return int(re.match(r"DW_OP_consts ([+-]?\d+)", fb[1][1]).group(1))
        return None

    def fb_reg(self):
        fb = self.fn["fb"] or []
        if len(fb) == 1 and fb[0][0] == "reg":
            return fb[0][1]
        return None

    def body_offset(self, reg):
        """Entry-relative value of reg in the function's body: the CFA rule
        in terms of reg that covers the most code (not the prologue,
        epilogue or a call sequence's pushes)."""
        rows = self.cfa.get(self.fn["low"], [])
        spans = {}
        for n, (pc, r, off) in enumerate(rows[:-1]):
            end = rows[n + 1][0]  # the last row ends where the FDE does
            if self.name_of_cfa_reg(r) == reg:
                spans[off] = spans.get(off, 0) + end - pc
        if not spans:
            return None
        off = max(spans, key=lambda o: spans[o])
        return self.entry_off - off


def resolve(raw, mode, frame, trace, size):
    """The entry location of a raw DWARF piece of size bytes, or None
    (unknown).

    mode 'entry': the location list entry starts at the function's entry.
    ('at', i, j): it covers instructions i..j of the traced prefix.
    'throughout': a single location for the whole function."""
    kind = raw[0]
    if kind == "other":
        return ("other", raw[1])
    if kind == "deref":
        inner = resolve(raw[1], mode, frame, trace, frame.word)
        # the pointer's own location at entry -> the pointee's
        if inner is None or inner[0] == "other":
            return inner
        if inner[0] == "mem":
            return ("ind-mem", inner[1])
        return None
    if kind == "fbreg":
        c = frame.cfa_based()
        if c is not None:
            k = raw[1] + c + frame.entry_off
            if mode == "entry":
                # a slot of the parameter save area is filled by the callee
                return trace.throughout(("slot", k), size) if trace else \
                    (("mem", k) if k >= 0 else None)
            if not trace:
                return None
            if mode[0] == "at":
                return trace.over(mode[1], mode[2], ("slot", k), size)
            return trace.throughout(("slot", k), size)
        r = frame.fb_reg()
        if r is None:
            return ("other", "frame base %r" % (frame.fn["fb"],))
        raw = ("breg", r, raw[1])
        kind = "breg"
    if mode == "entry":
        if kind == "reg":
            return ("reg", raw[1])
        if raw[1] == frame.sp_dw:
            return trace.throughout(("slot", raw[2]), size) if trace else \
                (("mem", raw[2]) if raw[2] >= 0 else None)
        return ("ind", raw[1], raw[2])
    if trace is None:
        return None
    if mode[0] == "at":
        return trace.over(mode[1], mode[2], raw, size)
    # throughout
    if kind == "breg" and raw[1] in (frame.sp_dw, frame.fb_reg()):
        base = frame.body_offset(raw[1])
        if base is None:
            return None
        return trace.throughout(("slot", base + raw[2]), size)
    return trace.throughout(raw, size)


def param_location(p, fn, frame, trace, size, word):
    """([(offset, size, loc)], derived) for a parameter at the function's
    entry, or (None, False) when DWARF has no location that reaches the
    entry; derived: how the tracer carried the location back to the entry
    ("throughout", "at"), or False."""
    if p["loc"] is not None:
        ops, mode = p["loc"], "throughout"
    elif p["list"]:
        first = min(p["list"], key=lambda e: e[0])
        if first[0] == fn["low"]:
            ops, mode = parse_ops(first[2]), "entry"
        else:
            i = trace.index(first[0]) if trace else None
            if i is None:
                return [(0, None, ("other", "described only after the traced prefix"))], "at"
            # the last instruction the entry covers, within the traced prefix
            j = max(n for n, a in enumerate(trace.addrs[:len(trace.val)]) if a < first[1])
            ops, mode = parse_ops(first[2]), ("at", i, max(i, j))
    else:
        return None, False
    out = []
    for off, sz, raw in raw_pieces(ops):
        if raw is None:
            out.append((off, sz, None))
            continue
        # A whole multi-word value in one stack slot that the function
        # fills from registers (a parameter save area): word by word.
        if sz is None and size and size > word and \
                raw[0] in ("fbreg", "breg") and (raw[0] == "fbreg" or raw[1] == frame.sp_dw):
            for w in range(0, size, word):
                n = min(word, size - w)
                shifted = (raw[0], raw[1] + w) if raw[0] == "fbreg" else ("breg", raw[1], raw[2] + w)
                out.append((w, n, resolve(shifted, mode, frame, trace, n)))
            continue
        out.append((off, sz, resolve(raw, mode, frame, trace, sz or size)))
    return out, (mode if isinstance(mode, str) else mode[0]) if mode != "entry" else False


# ---------------------------------------------------------------- machine-code side
#
# Compilers describe some parameters with a location that only holds after
# the prologue: a single location expression for the whole function ("in x9"
# when x9 is loaded from the stack by the third instruction), a location list
# whose first entry starts after the prologue, or a slot of the parameter
# save area the callee stores a register into. DWARF alone then says nothing
# about the function's entry. The tracer below follows the function's
# straight-line code from its entry to the first branch or call, with a small
# model of each instruction set (register copies, loads and stores relative
# to the stack pointer, stack pointer adjustments, and which registers an
# instruction writes), so such a location can be carried back to where the
# value was at entry. Whatever the model does not understand makes the value
# unknown: the comparison then has no oracle for it, never a guess.

def _gpr_map(names):
    return {n: i for i, n in enumerate(names)}


X86_64_REGS = {}
for _n, _names in enumerate([
        "al ah ax eax rax", "dl dh dx edx rdx", "cl ch cx ecx rcx", "bl bh bx ebx rbx",
        "sil si esi rsi", "dil di edi rdi", "bpl bp ebp rbp", "spl sp esp rsp"]):
    for _x in _names.split():
        X86_64_REGS[_x] = _n
for _n in range(8, 16):
    for _x in ("r%d" % _n, "r%db" % _n, "r%dw" % _n, "r%dd" % _n):
        X86_64_REGS[_x] = _n
I386_REGS = {}
for _n, _names in enumerate(["al ah ax eax", "cl ch cx ecx", "dl dh dx edx", "bl bh bx ebx",
                             "sp esp", "bp ebp", "si esi", "di edi"]):
    for _x in _names.split():
        I386_REGS[_x] = _n
RISCV_REGS = _gpr_map(["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
                       "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                       "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
                       "t3", "t4", "t5", "t6"])
RISCV_REGS["fp"] = 8
MIPS_REGS = _gpr_map(["zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                      "t0", "t1", "t2", "t3", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
                      "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra"])
MIPS_REGS["s8"] = 30
LOONG_REGS = _gpr_map(["zero", "ra", "tp", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                       "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "r21", "fp",
                       "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"])
FP = 10000  # FP/vector registers are never compared: one bucket (as parse_ops)


def split_ops(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _int(s):
    s = s.strip().lstrip("#$")
    return int(s, 0)


class Effect:
    """What one instruction does, as far as the tracer needs: registers it
    writes; a register copy; loads and stores as (reg, base, offset, size)
    with offsets from the base's value before the instruction; base
    registers that change by a constant; registers set to base + constant."""
    def __init__(self):
        self.writes = set()
        self.copy = None          # (dst, src)
        self.loads = []           # (dst, base, off, size)
        self.stores = []          # (src or None, base, off, size); src may be ("mem", base, off)
        self.adjust = []          # (reg, delta): reg += delta (after the accesses)
        self.addr = None          # (dst, base, off): dst = base + off
        self.stop = False
        self.delay_slot = False
        self.opaque = False       # writes memory or registers the model cannot name


class ISA:
    """Parses one architecture's llvm-objdump syntax into Effects."""
    word = 8
    big_endian = False
    sp = None
    regs = {}

    def reg(self, s):
        s = s.strip().lstrip("%$").lower()
        if s in self.regs:
            return self.regs[s]
        return None

    def is_fp(self, s):
        return False


class X86(ISA):
    def __init__(self, bits):
        self.word = bits // 8
        self.regs = X86_64_REGS if bits == 64 else I386_REGS
        self.sp = self.regs["rsp" if bits == 64 else "esp"]

    SUFFIX = {"b": 1, "w": 2, "l": 4, "q": 8}

    def mem(self, s):
        m = re.fullmatch(r"(-?0x[0-9a-f]+|-?\d+)?\((%\w+)\)", s)
        if not m:
            return None
        base = self.reg(m.group(2))
        return (base, _int(m.group(1)) if m.group(1) else 0)

    def effect(self, mnem, ops, reloc):
        e = Effect()
        m = mnem
        if m.startswith("call"):
            if reloc and reloc.startswith("__x86.get_pc_thunk."):
                e.writes.add(self.reg(reloc.rsplit(".", 1)[1]))
                return e
            e.stop = True
            return e
        if m.startswith("j") or m.startswith("ret") or m in ("hlt", "ud2", "int3"):
            e.stop = True
            return e
        if m == "pushpc":
            e.stores.append((None, self.sp, -self.word, self.word))
            e.adjust.append((self.sp, -self.word))
            return e
        if m.startswith("push"):
            src = self.reg(ops[0]) if ops[0].startswith("%") else None
            mm = self.mem(ops[0])
            val = ("mem", mm[0], mm[1]) if mm else src
            e.stores.append((val, self.sp, -self.word, self.word))
            e.adjust.append((self.sp, -self.word))
            return e
        if m.startswith("pop"):
            d = self.reg(ops[0])
            e.loads.append((d, self.sp, 0, self.word))
            e.writes.add(d)
            e.adjust.append((self.sp, self.word))
            return e
        if m.startswith("cmp") or m.startswith("test") or m.startswith("nop") or m in ("endbr64", "endbr32"):
            return e
        if m.startswith("lea") and len(ops) == 2:
            mm = self.mem(ops[0])
            d = self.reg(ops[1])
            e.writes.add(d)
            if mm and mm[0] is not None:
                e.addr = (d, mm[0], mm[1])
            return e
        if (m.startswith("sub") or m.startswith("add")) and len(ops) == 2 and ops[0].startswith("$"):
            d = self.reg(ops[1])
            if d == self.sp:
                k = _int(ops[0])
                e.adjust.append((d, -k if m.startswith("sub") else k))
                return e
        if m.startswith("mov") and len(ops) == 2 and not m.startswith("movs") or \
                re.match(r"movs[bwl][wlq]$|movslq$", m):
            src, dst = ops
            size = self.SUFFIX.get(m[-1], self.word)
            mz = re.match(r"mov[sz]([bwl])[wlq]$|movslq$", m)
            if mz:
                size = self.SUFFIX[mz.group(1)] if mz.group(1) else 4
            ms, md = self.mem(src), self.mem(dst)
            if dst.startswith("%"):
                d = self.reg(dst)
                e.writes.add(d)
                if src.startswith("%"):
                    e.copy = (d, self.reg(src))
                elif ms and ms[0] is not None:
                    e.loads.append((d, ms[0], ms[1], size))
                return e
            if md:
                e.stores.append((self.reg(src) if src.startswith("%") else None, md[0], md[1], size))
                return e
        if m in ("cltq", "cwtl", "cbtw"):
            e.writes.add(0)
            return e
        if m in ("cltd", "cqto", "cwtd"):
            e.writes.add(self.regs["edx"])
            return e
        if m.startswith("rep") or m.startswith("movs") or m.startswith("stos") or \
                m in ("mul", "mull", "mulq", "div", "divl", "divq", "idivl", "idivq", "cpuid",
                      "rdtsc", "syscall"):
            e.opaque = True
            return e
        if m.startswith("xchg"):
            for o in ops:
                if o.startswith("%"):
                    e.writes.add(self.reg(o))
            return e
        if len(ops) == 1 and self.mem(ops[0]) and self.mem(ops[0])[0] is not None:
            # one memory operand: x87 loads and stores (fldt reads 10 bytes)
            mm = self.mem(ops[0])
            size = 10 if m.endswith("t") else 8
            if m.startswith("fst") or m.startswith("fist") or m.startswith("fbstp"):
                e.stores.append((FP, mm[0], mm[1], size))
            else:
                e.loads.append((FP, mm[0], mm[1], size))
                e.writes.add(FP)
            return e
        for o in ops[:-1]:
            mm = self.mem(o)
            if mm and mm[0] is not None:
                e.loads.append((FP, mm[0], mm[1], 8))  # read (an SSE load, a compare)
        if ops and ops[-1].startswith("%"):
            d = self.reg(ops[-1])
            e.writes.add(FP if d is None else d)
        elif ops and self.mem(ops[-1]):
            mm = self.mem(ops[-1])
            src = FP if ops[0].startswith("%xmm") else None
            e.stores.append((src, mm[0], mm[1], 8 if src else self.SUFFIX.get(m[-1], self.word)))
        return e


class LoadStoreISA(ISA):
    """RISC instruction sets whose first operand is the destination, except
    for stores, compares and branches."""
    stores = {}       # mnemonic -> size
    loads = {}        # mnemonic -> size
    fp_loads = set()
    fp_stores = set()
    copies = ()
    nowrite = ()
    delay = False

    def is_branch(self, m):
        raise NotImplementedError

    def mem(self, s):
        """'off(base)' -> (base, off)"""
        m = re.fullmatch(r"(-?0x[0-9a-f]+|-?\d+)?\(([%$]?\w+)\)", s.strip())
        if not m:
            return None
        return (self.reg(m.group(2)), _int(m.group(1)) if m.group(1) else 0)

    def access(self, ops):
        """The memory operand of a load or store: (base, off), or None."""
        if len(ops) >= 2:
            return self.mem(ops[1])
        return None

    def effect(self, m, ops, reloc):
        e = Effect()
        if self.is_branch(m):
            e.stop = True
            e.delay_slot = self.delay
            return e
        if m in self.nowrite:
            return e
        if m in self.stores or m in self.fp_stores:
            a = self.access(ops)
            if a is None:
                e.opaque = True
                return e
            src = FP if m in self.fp_stores else self.reg(ops[0])
            e.stores.append((src, a[0], a[1], self.stores.get(m, 8)))
            return e
        if m in self.loads or m in self.fp_loads:
            a = self.access(ops)
            d = FP if m in self.fp_loads else self.reg(ops[0])
            e.writes.add(d)
            if a is not None:
                # an FP load still reads the slot (it matters for "read
                # before written")
                e.loads.append((d, a[0], a[1], self.loads.get(m, 8)))
            return e
        if m in self.copies and len(ops) == 2:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            e.copy = (d, s)
            return e
        r = self.arith(m, ops, e)
        if r is not None:
            return r
        if ops:
            d = self.reg(ops[0])
            e.writes.add(FP if d is None else d)
            if d is None and not self.is_fp(ops[0]):
                e.opaque = True
        return e

    def arith(self, m, ops, e):
        """add-immediate forms: SP adjustments and SP-relative addresses."""
        return None


class RISCV(LoadStoreISA):
    regs = RISCV_REGS
    sp = 2
    stores = {"sb": 1, "sh": 2, "sw": 4, "sd": 8}
    loads = {"lb": 1, "lbu": 1, "lh": 2, "lhu": 2, "lw": 4, "lwu": 4, "ld": 8}
    fp_loads = {"flw", "fld"}
    fp_stores = {"fsw", "fsd"}
    copies = ("mv",)
    nowrite = ("nop", "fence")

    def is_fp(self, s):
        return re.fullmatch(r"f[tsa]\d+", s.strip()) is not None

    def is_branch(self, m):
        return m in ("j", "jal", "jalr", "jr", "ret", "call", "tail") or \
            re.fullmatch(r"b(eq|ne|lt|ge|ltu|geu|gt|le|gtu|leu|eqz|nez|lez|gez|ltz|gtz)", m) is not None

    def arith(self, m, ops, e):
        if m in ("addi", "addiw") and len(ops) == 3 and m == "addi":
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if d == s:
                e.adjust.append((d, _int(ops[2])))
                e.writes.discard(d)
            else:
                e.addr = (d, s, _int(ops[2]))
            return e
        return None


class LoongArch(LoadStoreISA):
    regs = LOONG_REGS
    sp = 3
    stores = {"st.b": 1, "st.h": 2, "st.w": 4, "st.d": 8, "stptr.w": 4, "stptr.d": 8}
    loads = {"ld.b": 1, "ld.bu": 1, "ld.h": 2, "ld.hu": 2, "ld.w": 4, "ld.wu": 4,
             "ld.d": 8, "ldptr.w": 4, "ldptr.d": 8}
    fp_loads = {"fld.s", "fld.d", "vld", "xvld"}
    fp_stores = {"fst.s", "fst.d", "vst", "xvst"}
    copies = ("move",)
    nowrite = ("nop",)

    def is_fp(self, s):
        return re.fullmatch(r"\$(f[tsa]\d+|x?vr\d+)", s.strip()) is not None

    def access(self, ops):
        if len(ops) >= 3:
            return (self.reg(ops[1]), _int(ops[2]))
        return None

    def is_branch(self, m):
        return m in ("b", "bl", "jirl", "ret", "jr", "beq", "bne", "blt", "bge", "bltu",
                     "bgeu", "beqz", "bnez")

    def arith(self, m, ops, e):
        if m == "addi.d" and len(ops) == 3:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if d == s:
                e.adjust.append((d, _int(ops[2])))
                e.writes.discard(d)
            else:
                e.addr = (d, s, _int(ops[2]))
            return e
        return None


class Mips(LoadStoreISA):
    regs = MIPS_REGS
    sp = 29
    delay = True
    stores = {"sb": 1, "sh": 2, "sw": 4, "sd": 8}
    loads = {"lb": 1, "lbu": 1, "lh": 2, "lhu": 2, "lw": 4, "lwu": 4, "ld": 8}
    fp_loads = {"lwc1", "ldc1"}
    fp_stores = {"swc1", "sdc1"}
    copies = ("move",)
    nowrite = ("nop", "sync")

    def reg(self, s):
        s = s.strip().lstrip("$").lower()
        if s.isdigit():
            return int(s)
        return self.regs.get(s)

    def is_fp(self, s):
        return re.fullmatch(r"\$f\d+", s.strip()) is not None

    def is_branch(self, m):
        return m in ("j", "jal", "jalr", "jr", "b", "bal") or \
            re.fullmatch(r"b(eq|ne|lez|gtz|ltz|gez|eqz|nez)[lc]?", m) is not None

    def arith(self, m, ops, e):
        if m in ("daddiu", "addiu") and len(ops) == 3:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            k = _int(ops[2].split()[0])
            e.writes.add(d)
            if d == s:
                e.adjust.append((d, k))
                e.writes.discard(d)
            else:
                e.addr = (d, s, k)
            return e
        return None


class PPC(LoadStoreISA):
    sp = 1
    stores = {"stb": 1, "sth": 2, "stw": 4, "std": 8}
    loads = {"lbz": 1, "lhz": 2, "lha": 2, "lwz": 4, "lwa": 4, "ld": 8}
    fp_loads = {"lfs", "lfd", "lxv", "lxvd2x", "lxsd", "lxssp"}
    fp_stores = {"stfs", "stfd", "stxv", "stxvd2x", "stxsd", "stxssp"}
    copies = ("mr",)
    nowrite = ("nop", "cmpd", "cmpw", "cmpld", "cmplw", "cmpdi", "cmpwi", "cmpldi", "cmplwi",
               "mtlr", "mtctr", "sync", "isync", "lwsync")

    def reg(self, s):
        s = s.strip()
        if s.isdigit():
            return int(s)
        return None

    def is_fp(self, s):
        return False

    def is_branch(self, m):
        return m.startswith("b")

    def effect(self, m, ops, reloc):
        if m == "stdu" and len(ops) == 2:
            e = Effect()
            a = self.mem(ops[1])
            e.stores.append((self.reg(ops[0]), a[0], a[1], 8))
            e.adjust.append((a[0], a[1]))
            return e
        if m.startswith("f") or m.startswith("x") and m not in ("xor", "xori", "xoris"):
            e = Effect()
            e.writes.add(FP)
            return e
        return LoadStoreISA.effect(self, m, ops, reloc)

    def arith(self, m, ops, e):
        if m == "addi" and len(ops) == 3:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if d == s:
                e.adjust.append((d, _int(ops[2])))
                e.writes.discard(d)
            else:
                e.addr = (d, s, _int(ops[2]))
            return e
        if m == "mflr":
            e.writes.add(self.reg(ops[0]))
            return e
        return None


class S390x(LoadStoreISA):
    sp = 15
    big_endian = True
    stores = {"stg": 8, "st": 4, "sty": 4, "sth": 2, "sthy": 2, "stc": 1, "stcy": 1}
    loads = {"lg": 8, "l": 4, "ly": 4, "lgf": 4, "llgf": 4, "lgh": 2, "llgh": 2, "lh": 2,
             "lhy": 2, "lgb": 1, "llgc": 1, "lb": 1, "llc": 1}
    fp_loads = {"ld", "le", "ldy", "ley", "vl"}
    fp_stores = {"std", "ste", "stdy", "stey", "vst"}
    copies = ("lgr", "lr")
    nowrite = ("nopr", "nop", "tm", "tmll", "tmlh", "tmhl", "tmhh")

    def reg(self, s):
        m = re.fullmatch(r"%r(\d+)", s.strip())
        return int(m.group(1)) if m else None

    def is_fp(self, s):
        return re.fullmatch(r"%[fv]\d+", s.strip()) is not None

    def mem(self, s):
        m = re.fullmatch(r"(-?\d+)\((?:%r\d+,)?(%r\d+)\)", s.strip())
        if not m:
            return None
        return (self.reg(m.group(2)), int(m.group(1)))

    def is_branch(self, m):
        return m[0] in "bj" or re.fullmatch(r"c[lg]*[rhi]*j\w*", m) is not None

    def effect(self, m, ops, reloc):
        e = Effect()
        if m in ("stmg", "stm", "lmg", "lm") and len(ops) == 3:
            lo, hi = self.reg(ops[0]), self.reg(ops[1])
            a = self.mem(ops[2])
            w = 8 if m.endswith("g") else 4
            for i, r in enumerate(range(lo, hi + 1)):
                if m.startswith("st"):
                    e.stores.append((r, a[0], a[1] + w * i, w))
                else:
                    e.loads.append((r, a[0], a[1] + w * i, w))
                    e.writes.add(r)
            return e
        if m in ("mvc", "xc", "nc", "oc", "mvhi", "mvghi", "mvhhi", "mvi"):
            mm = re.fullmatch(r"(-?\d+)\((\d+),(%r\d+)\)", ops[0].strip())
            if mm:
                e.stores.append((None, self.reg(mm.group(3)), int(mm.group(1)), int(mm.group(2))))
            else:
                a = self.mem(ops[0])
                if a:
                    e.stores.append((None, a[0], a[1], 8))
                else:
                    e.opaque = True
            return e
        if m[0] == "c" and not self.is_branch(m) and m not in ("cs", "csg", "csy"):
            return e
        return LoadStoreISA.effect(self, m, ops, reloc)

    def arith(self, m, ops, e):
        if m in ("lay", "la") and len(ops) == 2:
            d = self.reg(ops[0])
            a = self.mem(ops[1])
            e.writes.add(d)
            if a and a[0] == d:
                e.adjust.append((d, a[1]))
                e.writes.discard(d)
            elif a:
                e.addr = (d, a[0], a[1])
            return e
        if m in ("aghi", "agfi") and len(ops) == 2:
            d = self.reg(ops[0])
            e.adjust.append((d, _int(ops[1])))
            return e
        return None


class AArch64(ISA):
    sp = 31

    def reg(self, s):
        s = s.strip().lower()
        m = re.fullmatch(r"[xw](\d+)", s)
        if m:
            return int(m.group(1))
        return {"sp": 31, "wsp": 31, "fp": 29, "lr": 30}.get(s)

    def is_fp(self, s):
        return re.fullmatch(r"[bhsdqv]\d+(\.\w+)?", s.strip().lower()) is not None

    SIZES = {"b": 1, "h": 2, "sb": 1, "sh": 2, "sw": 4}

    def size(self, m, r):
        mm = re.fullmatch(r"(?:ld|st)(?:u?r|p)(sb|sh|sw|b|h)?", m)
        if mm and mm.group(1):
            return self.SIZES[mm.group(1)]
        r = r.strip().lower()
        return {"x": 8, "w": 4, "d": 8, "s": 4, "q": 16, "h": 2, "b": 1}.get(r[0], 8)

    def access(self, ops):
        """'[base, #off]', '[base, #off]!' or '[base], #off' -> (base, off, writeback)"""
        for i, o in enumerate(ops):
            if o.startswith("["):
                mm = re.fullmatch(r"\[(\w+)(?:,\s*#(-?0x[0-9a-f]+|-?\d+))?\](!?)", o)
                if not mm:
                    return None
                base = self.reg(mm.group(1))
                off = _int(mm.group(2)) if mm.group(2) else 0
                if mm.group(3):
                    return (i, base, off, off)   # pre-index
                if i + 1 < len(ops):
                    return (i, base, 0, _int(ops[i + 1]))  # post-index
                return (i, base, off, 0)
        return None

    def effect(self, m, ops, reloc):
        e = Effect()
        if m in ("b", "bl", "br", "blr", "ret", "cbz", "cbnz", "tbz", "tbnz") or m.startswith("b."):
            e.stop = True
            return e
        if m in ("cmp", "cmn", "tst", "ccmp", "ccmn", "fcmp", "nop", "prfm", "hint", "bti",
                 "paciasp", "autiasp"):
            return e
        if re.fullmatch(r"st(u?r|p|np|lr)\w*", m):
            a = self.access(ops)
            if not a:
                e.opaque = True
                return e
            i, base, off, wb = a
            regs = ops[:i]
            for k, r in enumerate(regs):
                sz = self.size(m, r)
                src = FP if self.is_fp(r) else self.reg(r)
                e.stores.append((src, base, off + k * sz, sz))
            if wb:
                e.adjust.append((base, wb))
            return e
        if re.fullmatch(r"ld(u?r|p|np|ar)\w*", m):
            a = self.access(ops)
            if not a:
                for r in ops[:1]:
                    e.writes.add(FP if self.is_fp(r) else self.reg(r))
                return e
            i, base, off, wb = a
            regs = ops[:i]
            for k, r in enumerate(regs):
                sz = self.size(m, r)
                if self.is_fp(r):
                    e.writes.add(FP)
                    e.loads.append((FP, base, off + k * sz, sz))
                    continue
                d = self.reg(r)
                e.writes.add(d)
                e.loads.append((d, base, off + k * sz, sz))
            if wb:
                e.adjust.append((base, wb))
            return e
        if m == "mov" and len(ops) == 2 and self.reg(ops[1]) is not None:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if s == 31:
                e.addr = (d, s, 0)
            else:
                e.copy = (d, s)
            return e
        if m in ("add", "sub") and len(ops) == 3 and ops[2].startswith("#"):
            d, s = self.reg(ops[0]), self.reg(ops[1])
            k = _int(ops[2]) * (1 if m == "add" else -1)
            if d == s == 31:
                e.adjust.append((d, k))
                return e
            e.writes.add(d)
            if s == 31 or s == 29:
                e.addr = (d, s, k)
            return e
        if ops:
            if self.is_fp(ops[0]):
                e.writes.add(FP)
            else:
                d = self.reg(ops[0])
                if d is None:
                    e.opaque = True
                else:
                    e.writes.add(d)
        return e


class Arm(ISA):
    sp = 13
    word = 4

    def reg(self, s):
        s = s.strip().lower()
        m = re.fullmatch(r"r(\d+)", s)
        if m:
            return int(m.group(1))
        return {"sp": 13, "lr": 14, "pc": 15, "fp": 11, "ip": 12, "sb": 9, "sl": 10}.get(s)

    def is_fp(self, s):
        return re.fullmatch(r"[sdq]\d+", s.strip().lower()) is not None

    def reglist(self, s):
        out = []
        for r in s.strip("{} ").split(","):
            r = r.strip()
            if "-" in r:
                a, b = r.split("-")
                out.extend(range(self.reg(a), self.reg(b) + 1))
            else:
                out.append(self.reg(r))
        return out

    def access(self, ops):
        for i, o in enumerate(ops):
            if o.startswith("["):
                mm = re.fullmatch(r"\[(\w+)(?:,\s*#(-?0x[0-9a-f]+|-?\d+))?\](!?)", o)
                if not mm:
                    return None
                base = self.reg(mm.group(1))
                off = _int(mm.group(2)) if mm.group(2) else 0
                if mm.group(3):
                    return (i, base, off, off)
                if i + 1 < len(ops):
                    return (i, base, 0, _int(ops[i + 1]))
                return (i, base, off, 0)
        return None

    def effect(self, m, ops, reloc):
        e = Effect()
        cond = r"(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?"
        if re.fullmatch(r"(b|bl|blx|bx)" + cond, m):
            e.stop = True
            return e
        if m in ("push", "stmdb") and (m == "push" or ops[0] == "sp!"):
            regs = self.reglist(ops[-1])
            for k, r in enumerate(regs):
                e.stores.append((r, self.sp, -4 * len(regs) + 4 * k, 4))
            e.adjust.append((self.sp, -4 * len(regs)))
            return e
        if m in ("pop", "ldm") and (m == "pop" or ops[0] == "sp!"):
            regs = self.reglist(ops[-1])
            if 15 in regs:
                e.stop = True
                return e
            for k, r in enumerate(regs):
                e.loads.append((r, self.sp, 4 * k, 4))
                e.writes.add(r)
            e.adjust.append((self.sp, 4 * len(regs)))
            return e
        if re.fullmatch(r"(ldm|stm)(ia|ib|da|db)?", m):
            base = self.reg(ops[0].rstrip("!"))
            regs = self.reglist(ops[1])
            mode = m[3:] or "ia"
            start = {"ia": 0, "ib": 4, "da": -4 * len(regs) + 4, "db": -4 * len(regs)}[mode]
            for k, r in enumerate(regs):
                if m.startswith("st"):
                    e.stores.append((r, base, start + 4 * k, 4))
                else:
                    e.loads.append((r, base, start + 4 * k, 4))
                    e.writes.add(r)
            if ops[0].endswith("!"):
                e.adjust.append((base, 4 * len(regs) * (1 if mode in ("ia", "ib") else -1)))
            if 15 in e.writes:
                e.stop = True
            return e
        if m in ("cmp", "cmn", "tst", "teq", "nop", "vcmp") or m.startswith("cmp"):
            return e
        mm = re.fullmatch(r"(str|ldr)(b|h|sb|sh|d)?" + cond, m)
        if mm:
            a = self.access(ops)
            if not a:
                if mm.group(1) == "ldr":
                    e.writes.add(self.reg(ops[0]))
                else:
                    e.opaque = True
                return e
            i, base, off, wb = a
            sz = {"b": 1, "h": 2, "sb": 1, "sh": 2, "d": 4, None: 4}[mm.group(2)]
            for k, r in enumerate(ops[:i]):
                d = self.reg(r)
                if mm.group(1) == "str":
                    e.stores.append((d, base, off + 4 * k, sz))
                else:
                    e.loads.append((d, base, off + 4 * k, sz))
                    e.writes.add(d)
            if wb:
                e.adjust.append((base, wb))
            if 15 in e.writes:
                e.stop = True
            return e
        if m == "mov" and len(ops) == 2 and self.reg(ops[1]) is not None:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if s == 13:
                e.addr = (d, s, 0)
            else:
                e.copy = (d, s)
            return e
        if m in ("add", "sub") and len(ops) == 3 and ops[2].startswith("#"):
            d, s = self.reg(ops[0]), self.reg(ops[1])
            k = _int(ops[2]) * (1 if m == "add" else -1)
            if d == s == 13:
                e.adjust.append((d, k))
                return e
            e.writes.add(d)
            if s in (13, 11):
                e.addr = (d, s, k)
            return e
        if m in ("vldr", "vstr") and len(ops) == 2:
            a = self.access(ops)
            sz = 8 if ops[0].strip().lower().startswith("d") else 4
            if a is None:
                e.opaque = m == "vstr"
                e.writes.add(FP)
                return e
            _, base, off, _ = a
            if m == "vldr":
                e.writes.add(FP)
                e.loads.append((FP, base, off, sz))
            else:
                e.stores.append((FP, base, off, sz))
            return e
        if m in ("vpush", "vpop"):
            regs = [r for r in ops[0].strip("{} ").split(",")]
            n = 0
            for r in regs:
                r = r.strip().lower()
                if "-" in r:
                    a, b = r.split("-")
                    n += (int(b[1:]) - int(a[1:]) + 1) * (8 if a[0] == "d" else 4)
                else:
                    n += 8 if r.startswith("d") else 4
            if m == "vpush":
                e.stores.append((None, self.sp, -n, n))
                e.adjust.append((self.sp, -n))
            else:
                e.writes.add(FP)
                e.adjust.append((self.sp, n))
            return e
        if m.startswith("vldm") or m.startswith("vstm"):
            e.opaque = True
            return e
        if m.startswith("v"):
            e.writes.add(FP)
            return e
        if ops:
            d = self.reg(ops[0])
            if d is None:
                e.opaque = True
            else:
                e.writes.add(d)
                if d == 15:
                    e.stop = True
        return e


ISAS = {"x86_64": lambda: X86(64), "i386": lambda: X86(32), "aarch64": AArch64, "arm": Arm,
        "riscv64": RISCV, "s390x": S390x, "powerpc64le": PPC, "mips64": Mips,
        "loongarch64": LoongArch}


def parse_disasm(obj, objdump):
    """{function: [(addr, mnemonic, [operands], relocation symbol)]}"""
    out = run([objdump, "-d", "-r", "--no-show-raw-insn", obj]).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            if re.fullmatch(r"f\d+", m.group(1)):
                cur = funcs.setdefault(m.group(1), [])
            elif not m.group(1).startswith("."):
                cur = None
            continue
        if cur is None:
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+R_\S+\s+(\S+)", line)
        if m and cur:
            a, mn, ops, _ = cur[-1]
            cur[-1] = (a, mn, ops, m.group(1))
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$", line)
        if m:
            ops = re.sub(r"\s*<[^>]*>", "", m.group(3))
            ops = re.sub(r"\s*[@#] .*$", "", ops) if not ops.startswith("#") else ops
            cur.append((int(m.group(1), 16), m.group(2).lower(), split_ops(ops), None))
    for insns in funcs.values():
        # x86 PIC: "call <next instruction>; pop %ebx" pushes the address
        for n in range(len(insns) - 1):
            a, mn, ops, rel = insns[n]
            if mn.startswith("call") and rel is None and ops and re.fullmatch(r"0x[0-9a-f]+", ops[0]) \
                    and int(ops[0], 16) == insns[n + 1][0]:
                insns[n] = (a, "pushpc", [], None)
    return funcs


class Trace:
    """The straight-line prefix of one function, executed symbolically.

    A value is ("reg", R) (what R held at entry), ("mem", K, size) (the
    bytes at entry SP + K: a stack argument) or None (unknown). Stack
    addresses are entry-relative; a register may hold one (an SP alias)."""

    def __init__(self, insns, isa):
        self.addrs = [a for a, _, _, _ in insns]
        self.isa = isa
        self.val = []      # per index: {reg: value} before the instruction
        self.alias = []    # per index: {reg: entry-relative address}
        self.mem = []      # per index: {entry offset: (value, size)}
        self.firstdef = {}  # reg -> (index, value after)
        self.firstread = {}  # reg -> index of its first read
        self.ndefs = {}      # reg -> writes in the traced prefix
        self.stored = {}    # entry offset -> [(index, value, size)] in order
        self.firstload = {}  # entry offset -> index of its first load
        self.writes_at = []  # per index: registers the instruction writes
        self.stores_at = []  # per index: entry offsets it stores to
        val, alias, mem = {}, {isa.sp: 0}, {}
        self.end = len(insns)
        delay = False
        for i, (a, mn, ops, rel) in enumerate(insns):
            self.val.append(dict(val))
            self.alias.append(dict(alias))
            self.mem.append(dict(mem))
            try:
                e = isa.effect(mn, ops, rel)
            except Exception:
                e = Effect()
                e.opaque = True
            if e.opaque:
                self.end = i
                self.writes_at.append(set())
                self.stores_at.append(set())
                break
            self.writes_at.append(set(e.writes) | {r for r, _ in e.adjust} |
                                  ({e.copy[0]} if e.copy else set()) |
                                  ({e.addr[0]} if e.addr else set()))
            self.stores_at.append({alias[b] + o for _, b, o, _ in e.stores if b in alias})
            cur = lambda r: val.get(r, ("reg", r))
            for r in self.reads(mn, ops, e):
                if r not in self.firstread:
                    self.firstread[r] = i
            # accesses use the bases' values before the instruction
            new = {}
            for d, base, off, size in e.loads:
                if d == FP:
                    # one bucket for every FP register: what it holds after
                    # any write is unknown
                    new[d] = None
                    if base in alias:
                        for k2 in range(alias[base] + off, alias[base] + off + size):
                            self.firstload.setdefault(k2, i)
                    continue
                if base in alias:
                    k = alias[base] + off
                    for k2 in range(k, k + size):
                        self.firstload.setdefault(k2, i)
                    if k in mem:
                        v, sz = mem[k]
                        new[d] = v if sz >= size else None
                    else:
                        new[d] = ("mem", k, size) if k >= 0 else None
                else:
                    new[d] = None
            for src, base, off, size in e.stores:
                if base not in alias:
                    continue
                k = alias[base] + off
                if isinstance(src, tuple):  # memory to memory (x86 push mem)
                    sb, so = src[1], src[2]
                    if sb in alias:
                        k2 = alias[sb] + so
                        v = mem[k2][0] if k2 in mem else (("mem", k2, size) if k2 >= 0 else None)
                    else:
                        v = None
                else:
                    v = cur(src) if src is not None else None
                    if v is not None and v[0] == "reg" and v[1] in alias:
                        v = None  # an address, not a value
                # overlapping older stores become unknown
                for k2 in list(mem):
                    if k2 < k + size and k < k2 + mem[k2][1] and k2 != k:
                        mem[k2] = (None, mem[k2][1])
                mem[k] = (v, size)
                self.stored.setdefault(k, []).append((i, v, size))
            if e.copy:
                d, s = e.copy
                new[d] = cur(s) if s not in alias else None
            for w in e.writes:
                if w not in new:
                    new[w] = None
            if e.addr:
                d, b, k = e.addr
                new[d] = None
            for d, v in new.items():
                if d is None:
                    continue
                val[d] = v
                alias.pop(d, None)
                if d not in self.firstdef:
                    self.firstdef[d] = (i, v)
                self.ndefs[d] = self.ndefs.get(d, 0) + 1
            if e.addr and e.addr[1] in alias:
                alias[e.addr[0]] = alias[e.addr[1]] + e.addr[2]
            if e.copy and e.copy[1] in alias:
                alias[e.copy[0]] = alias[e.copy[1]]
            for r, dlt in e.adjust:
                if r in alias:
                    alias[r] += dlt
                else:
                    val[r] = None
                if r not in self.firstdef and r != isa.sp:
                    self.firstdef[r] = (i, None)
            if delay:
                self.end = i + 1
                break
            if e.stop:
                if e.delay_slot:
                    delay = True
                    continue
                self.end = i
                break
        self.alldefs = set()
        for a, mn, ops, rel in insns:
            try:
                e = isa.effect(mn, ops, rel)
                self.alldefs |= e.writes
                self.alldefs |= {r for r, _ in e.adjust}
            except Exception:
                pass

    def reads(self, mn, ops, e):
        """Registers the instruction reads (an over-approximation: every
        register named, except a destination that is only written)."""
        regs = set()
        for n, o in enumerate(ops):
            for t in re.findall(r"[%$]?[A-Za-z_]\w*|\b\d+\b", o):
                r = self.isa.reg(t)
                if r is not None:
                    regs.add((n, r))
        dest = None
        if isinstance(self.isa, X86):
            if mn.startswith("mov") or mn.startswith("lea") or mn.startswith("pop"):
                dest = len(ops) - 1
        elif e.copy or e.loads or e.addr or (e.writes and not e.stores):
            dest = 0
        out = set()
        for n, r in regs:
            if n == dest and re.fullmatch(r"[%$]?\w+", ops[n].strip()):
                continue
            out.add(r)
        return out

    def index(self, pc):
        try:
            i = self.addrs.index(pc)
        except ValueError:
            return None
        return i if i <= self.end and i < len(self.val) else None

    # Locations as the comparison knows them: ('reg', n), ('mem', k),
    # ('ind', n, off), ('ind-mem', k).
    def _value_loc(self, v, size=None):
        if v is None:
            return None
        if v[0] == "reg":
            return ("reg", v[1])
        k = v[1]
        # a register loaded from a wider slot: on a big-endian machine the
        # value is the slot's last bytes
        if self.isa.big_endian and size and len(v) > 2 and v[2] > size:
            k += v[2] - size
        return ("mem", k)

    def at(self, i, loc, size):
        """The entry location of what loc (a DWARF location in terms of the
        machine state before instruction i) holds."""
        if loc[0] == "reg":
            return self._value_loc(self.val[i].get(loc[1], ("reg", loc[1])), size)
        if loc[0] == "breg":  # memory at register + offset
            r, k = loc[1], loc[2]
            if r in self.alias[i]:
                return self.slot(self.alias[i][r] + k, i, size)
            v = self.val[i].get(r, ("reg", r))
            return self._ind(v, k)
        if loc[0] == "slot":
            return self.slot(loc[1], i, size)
        return None

    def over(self, i, j, loc, size):
        """What loc holds over instructions i..j (a location list entry that
        starts after the entry): the same before each of them, or unknown.
        A register written inside the range is unknown: compilers schedule
        the load of a stack argument after the label that says it is in
        the register, and LLVM ends a range after the instruction that
        overwrites the register, so neither side of a write is certain;
        except for the last instruction before the call (the outgoing
        arguments are set up there)."""
        last = len(self.writes_at) - 1
        upto = j if j < last else last - 1
        r = loc[1] if loc[0] in ("reg", "breg") else None
        if r is not None and not (loc[0] == "breg" and r in self.alias[i]):
            if any(r in self.writes_at[n] for n in range(i, upto + 1)):
                return None
        if loc[0] == "slot" and any(loc[1] in self.stores_at[n] for n in range(i, upto + 1)):
            return None
        # A register written before the range starts: DWARF says the value
        # it was given there is the parameter. Clang's late-starting ranges
        # are not reliable enough for that (they name registers that hold
        # other arguments for the call); only what is still where it was at
        # entry, or on the stack, is taken.
        if r is not None and not (loc[0] == "breg" and r in self.alias[i]):
            if any(r in self.writes_at[n] for n in range(0, i)):
                return None
        hi = min(j, len(self.val) - 1)
        vals = set(self.live(self.at(n, loc, size)) for n in range(i, hi + 1))
        return vals.pop() if len(vals) == 1 else None

    def live(self, l):
        """l, an entry location, if the code can be using it: a register
        the function writes before it ever reads it held nothing the
        function needed (a description that says otherwise is wrong)."""
        if l is None or l[0] not in ("reg", "ind"):
            return l
        r = l[1]
        if r in self.firstdef and self.firstread.get(r, 1 << 30) > self.firstdef[r][0]:
            return None
        return l

    def _ind(self, v, k):
        if v is None:
            return None
        if v[0] == "reg":
            return ("ind", v[1], k)
        if v[0] == "mem" and k == 0:
            return ("ind-mem", v[1])
        return None

    def slot(self, k, i, size=None):
        m = self.mem[i]
        if k in m:
            return self._value_loc(m[k][0], size)
        for k2, (v, sz) in m.items():
            if k2 < k < k2 + sz:
                return None
        return ("mem", k) if k >= 0 else None

    def throughout(self, loc, size):
        """A location DWARF gives for the whole function. If the function
        writes the register (or stores to the slot) before reading it, the
        value gets there by that write, and at entry it is where the write
        took it from; if it is never written in the traced prefix, it is
        there at entry. A register read and then written, or written
        twice: ambiguous, unknown."""
        if loc[0] in ("reg", "breg"):
            r = loc[1]
            if r == self.isa.sp:
                return None
            fd = self.firstdef.get(r)
            if fd is None:
                return ("reg", r) if loc[0] == "reg" else ("ind", r, loc[2])
            fr = self.firstread.get(r)
            if fr is not None and fr <= fd[0]:
                return None
            if self.ndefs.get(r, 0) > 1:
                return None  # which of the writes?
            v = fd[1]
            return self._value_loc(v, size) if loc[0] == "reg" else self._ind(v, loc[2])
        if loc[0] == "slot":  # entry-relative stack slot
            k = loc[1]
            st = self.stored.get(k)
            for k2, lst in self.stored.items():
                if k2 != k and k2 < k + (size or 1) and k < k2 + lst[0][2]:
                    return None  # partly overwritten
            if not st:
                return ("mem", k) if k >= 0 else None
            i, v, sz = st[0]
            ld = [self.firstload[x] for x in range(k, k + (size or 1)) if x in self.firstload]
            if ld and min(ld) <= i:
                # Read before it is written: the slot held the value at
                # entry (an incoming stack argument; the later store is the
                # outgoing area of a tail call). Unlike registers, the
                # compilers do not reuse another argument's incoming slot.
                return ("mem", k) if k >= 0 else None
            if size is not None and sz < size:
                return None
            return self._value_loc(v, size)
        return None


# ---------------------------------------------------------------- plan side

def parse_plan_expr(e, by_name, sp_name):
    """'%di' / '+8(%sp)' / '+0(%x4)' / '{%r0,+0(%sp)}' -> list of locs in order."""
    if e.startswith("{"):
        parts = re.findall(r"[^,{}]+(?:\([^()]*(?:\([^()]*\))?[^()]*\))?", e[1:-1])
        return [parse_plan_expr(x.strip(), by_name, sp_name)[0] for x in parts if x.strip()]
    m = re.fullmatch(r"%(\S+)", e)
    if m:
        return [("reg", by_name[m.group(1)])]
    m = re.fullmatch(r"\+(-?\d+)\(%(\S+)\)", e)
    if m:
        reg = m.group(2)
        if reg == sp_name:
            return [("mem", int(m.group(1)))]
        return [("ind", by_name[reg], int(m.group(1)))]
    m = re.fullmatch(r"\+(-?\d+)\(\+(-?\d+)\(%(\S+)\)\)", e)
    if m and m.group(3) == sp_name:
        return [("ind-mem", int(m.group(2)))]
    return [("other", e)]


def parse_plans(out):
    plans = {}
    for line in out.splitlines():
        m = re.match(r"[pr]:p(\d+) \S+ (.*)$", line)
        if not m:
            continue
        args = re.split(r" (?=a\d+=)", m.group(2))
        vals = []
        for a in args:
            name, v = a.split("=", 1)
            expr, typ = re.match(r"(.*):([^:]+)$", v).groups()
            vals.append((expr, typ))
        plans[int(m.group(1))] = vals
    return plans


def type_size(typ):
    m = re.match(r"[sux](\d+)$", typ)
    if m:
        return int(m.group(1)) // 8
    m = re.match(r"x8\[(\d+)\]", typ)
    return int(m.group(1)) if m else None


def plan_pieces(expr, typ, by_name, sp_name, word):
    """-> [(offset, size, loc)] in memory order."""
    locs = parse_plan_expr(expr, by_name, sp_name)
    size = type_size(typ)
    if len(locs) == 1:
        return [(0, size, locs[0])]
    out, off = [], 0
    for i, l in enumerate(locs):
        sz = word if l[0] == "reg" and i < len(locs) - 1 else None
        out.append((off, sz, l))
        off += sz if sz else 0
    return out


# ---------------------------------------------------------------- compare

def compare(plan, dwp):
    """'agree', 'disagree: ...', 'no-oracle: ...'."""
    if dwp is None:
        return "no-oracle: no location at entry"
    known = [(o, s, l) for o, s, l in dwp if l is not None]
    if not known:
        return "no-oracle: not traceable to the entry"
    if any(l[0] == "other" for _, _, l in known):
        return "no-oracle: %s" % [l for _, _, l in known if l[0] == "other"][0][1]
    for o, s, l in known:
        # the plan piece covering byte o
        cover = None
        for po, ps, pl in plan:
            end = po + ps if ps else 1 << 30
            if po <= o < end:
                cover = (po, pl)
                break
        if cover is None:
            return "disagree: DWARF piece at %d has no plan piece" % o
        po, pl = cover
        if l[0] == "reg" and pl[0] == "reg":
            if l[1] != pl[1] or o != po:
                return "disagree: reg %d vs %d" % (l[1], pl[1])
        elif l[0] == "mem" and pl[0] == "mem":
            if l[1] != pl[1] + (o - po):
                # right-justified small values in big-endian slots
                return "disagree: stack %+d vs %+d" % (l[1], pl[1] + (o - po))
        elif l[0] == "ind" and pl[0] == "ind":
            if l[1:] != pl[1:]:
                return "disagree: by-reference pointer in %s vs %s" % (l[1:], pl[1:])
        elif l[0] == "ind-mem" and pl[0] == "ind-mem":
            if l[1] != pl[1]:
                return "disagree: by-reference pointer at %+d vs %+d" % (l[1], pl[1])
        else:
            return "disagree: %s vs %s" % (l, pl)
    return "agree"


def fp_only(dwp, by_dwarf):
    """DWARF puts (part of) the value in registers struct pt_regs does not
    hold."""
    if not dwp:
        return False
    regs = [l for _, _, l in dwp if l is not None and l[0] == "reg"]
    return bool(regs) and any(r[1] not in by_dwarf for r in regs)


def places(pieces):
    """Registers and stack slots a location occupies at entry."""
    for _, _, l in pieces:
        if l is None or l[0] == "other":
            continue
        if l[0] in ("reg", "ind"):
            yield ("reg", l[1])
        elif l[0] in ("mem", "ind-mem"):
            yield ("mem", l[1])


def same_location(a, b, by_dwarf=None):
    """Two compilers' entry locations of one parameter, when both are known:
    True or False; None when either is unknown. With by_dwarf, registers the
    table does not have are all one (FP/SIMD registers)."""
    if not a or not b:
        return None

    def norm(l):
        if by_dwarf is not None and l[0] == "reg" and l[1] not in by_dwarf:
            return ("reg", FP)
        return l
    ka = [(o, norm(l)) for o, _, l in a if l is not None and l[0] != "other"]
    kb = [(o, norm(l)) for o, _, l in b if l is not None and l[0] != "other"]
    if not ka or not kb:
        return None
    common = set(o for o, _ in ka) & set(o for o, _ in kb)
    if not common:
        return None
    return all(dict(ka)[o] == dict(kb)[o] for o in common)


def cfa_reg_namer(arch, sp_dw):
    def name_to_dw(n):
        # CFA rows name registers by LLVM's names (RSP, W29, R15D, SP_64,
        # ...): the stack pointer by name, others by their trailing number.
        u = n.upper()
        if u in CFA_SP_NAMES[arch]:
            return sp_dw
        m = re.search(r"(\d+)$", u)
        return int(m.group(1)) if m else -1
    return name_to_dw


def run_config(cfg, args, tools):
    arch, label = cfg["arch"], cfg["label"]
    wd = os.path.join(args.workdir, re.sub(r"[^a-z0-9]+", "_", label))
    os.makedirs(wd, exist_ok=True)
    seed = sum(map(ord, label))
    sigs = gen_signatures(args.n, seed)
    with open(os.path.join(wd, "f.c"), "w") as f:
        f.write(c_source(sigs))
    bpf, cols = bpf_source(sigs, cfg["kind"])
    with open(os.path.join(wd, "p.bpf.c"), "w") as f:
        f.write(bpf)
    by_name, by_dwarf = load_table(arch)
    sp_name = SP_NAME[arch]
    sp_dw = by_name[sp_name]
    word = 4 if arch in ("i386", "arm", "ia32-compat", "arm-compat") else 8
    isa_name = {"ia32-compat": "i386", "arm-compat": "arm"}.get(arch, arch)

    # The plugin's plans.
    # The BPF object has the probed machine's byte order (the plugin checks).
    bpf_target = "bpfeb" if arch == "s390x" else "bpfel"
    cmd = [tools["clang"], "-target", bpf_target, "-fsyntax-only", "-fplugin=" + args.plugin,
           "-fplugin-arg-bpfprobe-arch=" + arch, "-fplugin-arg-bpfprobe-print-plan",
           "-Wno-everything", "-ferror-limit=0"]
    cc = args.cc or cfg.get("cc")
    if cc:
        cmd.append("-fplugin-arg-bpfprobe-cc=" + cc)
    r = run(cmd + [os.path.join(wd, "p.bpf.c")])
    plans = parse_plans(r.stdout)
    bpf_lines = bpf.splitlines()
    ref_by_fn = {}
    for m in re.finditer(r"p\.bpf\.c:(\d+):(\d+): error: (.*)", r.stderr):
        line, col, msg = int(m.group(1)), int(m.group(2)), m.group(3)
        mm = re.search(r"f(\d+)\(", bpf_lines[line - 1])
        if not mm:
            continue
        i = int(mm.group(1))
        j = max([k for k, c in enumerate(cols[i]) if c <= col] or [0])
        ref_by_fn[i] = (j, msg)

    # A refused probe has no plan: ask again for the parameters before the
    # refused one, so they are still compared.
    prefixes = [ps[:ref_by_fn[i][0]] if i in ref_by_fn else [] for i, ps in enumerate(sigs)]
    if any(prefixes):
        bpf2, _ = bpf_source(prefixes, cfg["kind"])
        with open(os.path.join(wd, "prefix.bpf.c"), "w") as f:
            f.write(bpf2)
        r2 = run(cmd + [os.path.join(wd, "prefix.bpf.c")])
        for i, v in parse_plans(r2.stdout).items():
            if i in ref_by_fn and i not in plans:
                plans[i] = v

    # The compilers' DWARF and code: every compiler's entry locations are
    # computed, so a refusal can be checked against both.
    compilers = [("clang", [tools["clang"], "--target=" + cfg["triple"]] + cfg["flags"])]
    if not args.no_gcc and cfg.get("gcc") and shutil.which(cfg["gcc"]):
        compilers.append(("gcc", [cfg["gcc"]] + cfg["flags"] + cfg["gcc_flags"]))
    locs = {}
    for cname, cc in compilers:
        obj = os.path.join(wd, "f-%s.o" % cname)
        r = run(cc + ["-g", "-O2", "-c", os.path.join(wd, "f.c"), "-o", obj])
        if r.returncode:
            print("%s: %s failed:\n%s" % (label, cname, r.stderr[-2000:]), file=sys.stderr)
            continue
        funcs = parse_dwarf(obj, tools["dwarfdump"], word)
        cfa, cie = parse_cfa_tables(obj, tools["dwarfdump"])
        code = parse_disasm(obj, tools["objdump"])
        isa = ISAS[isa_name]()
        namer = cfa_reg_namer(arch, sp_dw)
        per_fn = {}
        for i, ps in enumerate(sigs):
            fn = funcs.get("f%d" % i)
            if fn is None:
                continue
            frame = FrameInfo(fn, cfa, cie, sp_dw, namer, word)
            trace = Trace(code["f%d" % i], isa) if "f%d" % i in code else None
            out = []
            for j in range(len(ps)):
                p = fn["params"][j] if j < len(fn["params"]) else None
                loc, derived = param_location(p, fn, frame, trace, p["size"], word) \
                    if p else (None, False)
                out.append([loc, p["size"] if p else None, derived])
            # A location the tracer carried back that another parameter's
            # DWARF also claims at entry: one of the two descriptions is
            # wrong; the carried one is dropped (both, if both were carried).
            drop = set()
            for j, (loc, _, derived) in enumerate(out):
                if not (derived and loc):
                    continue
                mine = set(places(loc))
                if any(j2 != j and loc2 and mine & set(places(loc2))
                       for j2, (loc2, _, _) in enumerate(out)):
                    drop.add(j)
            for j in drop:
                out[j][0] = [(o, s, None) for o, s, _ in out[j][0]]
            per_fn[i] = out
        locs[cname] = per_fn

    # A register that one compiler's late-starting location list names
    # (carried back by the tracer), where the other compiler's DWARF says at
    # entry, directly, something else: Clang's late labels name registers
    # that hold another argument at that point, so the carried one is the
    # suspect and is dropped (and counted). Memory is never dropped, so a
    # real difference between the compilers on the stack stays visible.
    vetoed = []
    for cname in locs:
        for i, per in locs[cname].items():
            for j, entry in enumerate(per):
                loc, _, derived = entry
                if not (derived == "at" and loc and
                        any(l and l[0] in ("reg", "ind") for _, _, l in loc)):
                    continue
                for c2 in locs:
                    if c2 == cname or i not in locs[c2]:
                        continue
                    loc2, _, derived2 = locs[c2][i][j]
                    if loc2 and not derived2 and same_location(loc, loc2, by_dwarf) is False:
                        vetoed.append("%s f%d p%d: %s (%s: %s)" % (cname, i, j, loc, c2, loc2))
                        entry[0] = [(o, s, None) for o, s, _ in loc]
    for cname in locs:
        for i in locs[cname]:
            locs[cname][i] = [(loc, size) for loc, size, _ in locs[cname][i]]

    results = {}
    for cname in locs:
        stats = {"params": 0, "agree": 0, "disagree": 0, "refused-ok": 0, "refused-cc": 0,
                 "refused-bad": 0, "refused-limit": 0, "no-oracle": 0, "not-compared": 0,
                 "vetoed": sum(1 for v in vetoed if v.startswith(cname + " "))}
        notes = ["dropped (the other compiler's DWARF says otherwise at entry): " + v
                 for v in vetoed if v.startswith(cname + " ")] if args.verbose else []
        for i, ps in enumerate(sigs):
            if i not in locs[cname]:
                continue
            stop = ref_by_fn[i][0] if i in ref_by_fn else len(ps)
            for j in range(len(ps)):
                dw, dsize = locs[cname][i][j]
                stats["params"] += 1
                if j > stop:
                    stats["not-compared"] += 1
                    continue
                if j == stop and i in ref_by_fn:
                    msg = ref_by_fn[i][1]
                    others = [locs[c][i][j][0] for c in locs if c != cname and i in locs[c]]
                    unknown = dw is None or all(l is None or l[0] == "other" for _, _, l in dw)
                    if "BPF stack" in msg:
                        # the prologue's own limit, not the ABI: counted apart
                        stats["refused-limit"] += 1
                    elif fp_only(dw, by_dwarf) or any(
                            fp_only(o, by_dwarf) and (unknown or same_location(dw, o, by_dwarf))
                            for o in others):
                        # in an FP register (by the other compiler's DWARF
                        # when this one's says nothing about that part and
                        # agrees on the rest)
                        stats["refused-ok"] += 1
                    elif (any(same_location(dw, o, by_dwarf) is False for o in others) or
                          any(fp_only(o, by_dwarf) for o in others)) and "compiler" in msg:
                        # The compilers place it differently: a rule the
                        # table cannot know (the refusal must say so).
                        stats["refused-cc"] += 1
                        if args.verbose:
                            notes.append("f%d p%d (%s): refused (%s); compilers differ: %s" %
                                         (i, j, ps[j], msg, [dw] + others))
                    elif dw is None or any(l is None or l[0] == "other" for _, _, l in dw) or (
                            "compiler" in msg and not all(
                                o and all(l is not None and l[0] != "other" for _, _, l in o)
                                for o in others)):
                        # A refusal is unjustified only if DWARF shows every
                        # byte of the value in a readable place (and, for
                        # one that says the compilers differ, that both put
                        # it in the same place).
                        stats["no-oracle"] += 1
                        if args.verbose:
                            notes.append("f%d p%d (%s): refused (%s), no oracle" % (i, j, ps[j], msg))
                    else:
                        stats["refused-bad"] += 1
                        notes.append("f%d p%d (%s): refused (%s) but DWARF says %s" %
                                     (i, j, ps[j], msg, dw))
                    continue
                expr, typ = plans[i][j]
                pl = plan_pieces(expr, typ, by_name, sp_name, word)
                psize = type_size(typ)
                verdict = compare(pl, dw)
                if verdict == "agree" and dsize is not None and psize is not None and \
                        psize != dsize:
                    verdict = "disagree: %d bytes vs DWARF's %d" % (psize, dsize)
                if verdict == "agree":
                    stats["agree"] += 1
                elif verdict.startswith("no-oracle"):
                    stats["no-oracle"] += 1
                    if args.verbose:
                        notes.append("f%d p%d (%s): %s" % (i, j, ps[j], verdict))
                else:
                    stats["disagree"] += 1
                    notes.append("f%d p%d (%s): plan %s:%s, DWARF %s: %s" %
                                 (i, j, ps[j], expr, typ, dw, verdict))
        results[cname] = (stats, notes)
    return len(sigs), results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang", default=shutil.which("clang-19") or "clang")
    ap.add_argument("--dwarfdump", default=shutil.which("llvm-dwarfdump-19") or "llvm-dwarfdump")
    ap.add_argument("--objdump", default=shutil.which("llvm-objdump-19") or "llvm-objdump")
    ap.add_argument("--arch", action="append", help="configuration labels to run")
    ap.add_argument("-n", type=int, default=220)
    ap.add_argument("--workdir", default="abi-oracle.out")
    ap.add_argument("--no-gcc", action="store_true")
    ap.add_argument("--compiler", action="append",
                    help="report only these compilers' DWARF (clang, gcc)")
    ap.add_argument("--cc", help="probe with this -fplugin-arg-bpfprobe-cc= instead of the "
                    "configuration's (to see the oracle fail with a wrong convention)")
    ap.add_argument("--coverage", metavar="FILE",
                    help="bounds per configuration and compiler, lines of 'LABEL COMPILER "
                    "AGREE_MIN NO_ORACLE_MAX': fewer agreements or more parameters the oracle "
                    "could not answer fail the run, and so does a reported configuration "
                    "without a line (an oracle that stops answering must not pass)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    tools = {"clang": args.clang, "dwarfdump": args.dwarfdump, "objdump": args.objdump}
    bad = False
    bounds = {}
    if args.coverage:
        # "llvm-N:" in front of a line: for clang N only (its DWARF differs).
        m = re.search(r"version (\d+)\.", run([args.clang, "--version"]).stdout)
        major = "llvm-%s:" % (m.group(1) if m else "?")
        with open(args.coverage) as f:
            lines = [l.split("#", 1)[0].split() for l in f]
        for words in sorted((w for w in lines if w), key=lambda w: w[0].endswith(":")):
            if words[0].endswith(":"):
                if words[0] != major:
                    continue
                words = words[1:]
            bounds[(words[0], words[1])] = (int(words[2]), int(words[3]))
    for cfg in CONFIGS:
        label = cfg["label"]
        if args.arch and label not in args.arch:
            continue
        if args.compiler and "gcc" in args.compiler and cfg.get("gcc") and \
                not shutil.which(cfg["gcc"]):
            print("%s: %s is not installed" % (label, cfg["gcc"]), file=sys.stderr)
            bad = True
            continue
        n, results = run_config(cfg, args, tools)
        for cname, (s, notes) in sorted(results.items()):
            if args.compiler and cname not in args.compiler:
                continue
            print("%-22s %-5s signatures=%d params=%d agree=%d disagree=%d refused(justified)=%d "
                  "refused(compilers-differ)=%d refused(unjustified)=%d refused(stack-budget)=%d "
                  "no-oracle=%d not-compared=%d dropped=%d" %
                  (label, cname, n, s["params"], s["agree"], s["disagree"], s["refused-ok"],
                   s["refused-cc"], s["refused-bad"], s["refused-limit"], s["no-oracle"],
                   s["not-compared"], s["vetoed"]))
            for note in notes[:40 if not args.verbose else None]:
                print("  " + note)
            if s["disagree"] or s["refused-bad"]:
                bad = True
            if s["agree"] < 1:
                bad = True
            if args.coverage:
                if (label, cname) not in bounds:
                    print("coverage %s %s: no bounds in %s" % (label, cname, args.coverage))
                    bad = True
                    continue
                lo, hi = bounds[(label, cname)]
                ok = s["agree"] >= lo and s["no-oracle"] <= hi
                print("coverage %s %s: agree=%d (min %d) no-oracle=%d (max %d): %s" %
                      (label, cname, s["agree"], lo, s["no-oracle"], hi,
                       "ok" if ok else "OUT OF BOUNDS"))
                bad |= not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
