#!/usr/bin/env python3
"""The compiler's DWARF as the oracle for bpfprobe's calling-convention tables.

For each architecture: generate >= 200 C functions with mixed integer,
pointer and struct-by-value parameters (1-12 of them), compile them with
clang (and the Debian cross gcc when installed) with -g -O2, read where DWARF
says each parameter is at the function's entry address, and compare with the
plan the bpfprobe plugin prints for a probe on that function by its C types
(-fplugin-arg-bpfprobe-print-plan). A refusal by the plugin must coincide
with DWARF placing the value somewhere struct pt_regs cannot reach (an FP
register), or with the two compilers disagreeing (a compiler-dependent
rule). Any other difference is a disagreement; the exit status is 1 then.

  abi-oracle.py --plugin build/lib/libbpfprobe.so [--arch NAME...] [-n 220]
                [--workdir DIR] [--no-gcc] [-v]

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

# name in bpfprobe, clang triple, extra flags, gcc driver, probe kind
CONFIGS = [
    ("x86_64", "x86_64-linux-gnu", [], "x86_64-linux-gnu-gcc", "uprobe"),
    ("i386", "i686-linux-gnu", [], "i686-linux-gnu-gcc", "uprobe"),
    ("i386", "i686-linux-gnu", ["-mregparm=3"], "i686-linux-gnu-gcc", "kprobe"),
    ("aarch64", "aarch64-linux-gnu", [], "aarch64-linux-gnu-gcc", "uprobe"),
    ("arm", "arm-linux-gnueabi", [], "arm-linux-gnueabi-gcc", "uprobe"),
    ("riscv64", "riscv64-linux-gnu", [], "riscv64-linux-gnu-gcc", "uprobe"),
    ("s390x", "s390x-linux-gnu", [], "s390x-linux-gnu-gcc", "uprobe"),
    ("powerpc64le", "powerpc64le-linux-gnu", [], "powerpc64le-linux-gnu-gcc", "uprobe"),
    ("mips64", "mips64el-linux-gnuabi64", [], "mips64el-linux-gnuabi64-gcc", "uprobe"),
    ("loongarch64", "loongarch64-linux-gnu", [], "loongarch64-linux-gnu-gcc", "uprobe"),
]
TABLE_FILES = {
    "x86_64": "ArchX86_64.cpp", "i386": "ArchI386.cpp", "aarch64": "ArchAArch64.cpp",
    "arm": "ArchARM.cpp", "riscv64": "ArchRISCV64.cpp", "s390x": "ArchS390x.cpp",
    "powerpc64le": "ArchPPC64LE.cpp", "mips64": "ArchMips64.cpp",
    "loongarch64": "ArchLoongArch64.cpp",
}
# Stack pointer names in the tables.
SP_NAME = {"x86_64": "sp", "i386": "sp", "aarch64": "sp", "arm": "sp", "riscv64": "sp",
           "s390x": "r15", "powerpc64le": "gpr1", "mips64": "r29", "loongarch64": "r3"}

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
struct sf { float f; int i; };
struct sd { double d; };
"""
SCALARS = ["char", "signed char", "unsigned char", "short", "unsigned short", "int",
           "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
           "void *", "char *"]
AGGS = ["struct s1", "struct s2", "struct s3", "struct s4", "struct s6", "struct s8",
        "struct s12", "struct s16", "struct sp", "struct s24", "struct sll", "union u8"]
FLOATY = ["struct sf", "struct sd", "double"]


def gen_signatures(n, seed):
    rnd = random.Random(seed)
    sigs = []
    for i in range(n):
        k = rnd.randint(1, 12)
        ps = []
        for _ in range(k):
            r = rnd.random()
            if r < 0.62:
                ps.append(rnd.choice(SCALARS))
            elif r < 0.97:
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
    """{fde_start_pc: [(pc, reg, off)]} and the CIE's entry (reg, off)."""
    out = run([dwarfdump, "--eh-frame", "--debug-frame", obj]).stdout
    fdes, cur, cie = {}, None, None
    for line in out.splitlines():
        m = re.search(r"FDE cie=\w+ pc=([0-9a-f]+)\.\.\.", line)
        if m:
            cur = int(m.group(1), 16)
            fdes[cur] = []
            continue
        m = re.match(r"\s+(?:0x([0-9a-f]+): )?CFA=([A-Z0-9a-z]+)([+-]\d+)?", line)
        if m:
            off = int(m.group(3) or 0)
            if m.group(1) is None:
                if cie is None:
                    cie = (m.group(2), off)
            elif cur is not None:
                fdes[cur].append((int(m.group(1), 16), m.group(2), off))
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
        if re.match(r"DW_OP_regx \S+$", part):
            # printed by name (B0, D14_64, F10_64): FP/SIMD registers
            ops.append(("reg", 10000))
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


def parse_dwarf(obj, dwarfdump):
    """{function name: {"low": pc, "fb": ops, "params": [ops or None]}}."""
    out = run([dwarfdump, "--debug-info", obj]).stdout
    funcs, cur, param, in_sub = {}, None, None, False
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.search(r"DW_TAG_subprogram", line):
            cur = {"low": None, "fb": None, "params": [], "name": None}
            param = None
            in_sub = True
        elif re.search(r"DW_TAG_formal_parameter", line) and cur is not None:
            # Only direct children of the subprogram (call-site params have
            # DW_TAG_call_site_parameter).
            param = {"loc": None, "list": None}
            cur["params"].append(param)
        elif re.search(r"DW_TAG_(call_site|lexical_block|inlined)", line):
            param = None
        elif cur is not None and "DW_AT_low_pc" in line and param is None and cur["low"] is None:
            cur["low"] = int(re.search(r"\((0x[0-9a-f]+)\)", line).group(1), 16)
        elif cur is not None and "DW_AT_frame_base" in line:
            cur["fb"] = parse_ops(re.search(r"\((.*)\)", line).group(1))
        elif cur is not None and "DW_AT_name" in line and param is None and cur["name"] is None:
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
    return funcs


def dwarf_pieces(ops, fn, cfa, cie, sp_dw, fb_reg_dw, name_of_cfa_reg):
    """DWARF ops -> [(byte offset, size or None, loc)]; loc: ('reg', n),
    ('mem', entry-SP-relative offset), ('spill',), ('fp', n), ('other', text)."""
    pieces, off, cur = [], 0, None
    for op in ops + [("piece", None)]:
        if op[0] == "piece":
            if cur is not None or op[1] is not None:
                pieces.append((off, op[1], cur))
            off += op[1] or 0
            cur = None
            continue
        if cur is not None and op[0] == "other" and "DW_OP_deref" in op[1]:
            if cur[0] == "mem":
                cur = ("ind-mem", cur[1])
            else:
                cur = ("other", op[1])
            continue
        if op[0] == "reg":
            cur = ("reg", op[1])
        elif op[0] == "breg":
            cur = ("ind", op[1], op[2]) if op[1] != sp_dw else ("mem", op[2])
        elif op[0] == "fbreg":
            cur = fbreg_loc(op[1], fn, cfa, cie, sp_dw, fb_reg_dw, name_of_cfa_reg)
        else:
            cur = ("other", op[1])
    return pieces


def fbreg_loc(k, fn, cfa, cie, sp_dw, fb_reg_dw, name_of_cfa_reg):
    fb = fn["fb"] or []
    entry_off = cie[1] if cie else 0  # CFA - SP at entry
    if fb and fb[0][0] == "other" and "call_frame_cfa" in fb[0][1]:
        rel = k + entry_off
        # DW_OP_call_frame_cfa, DW_OP_consts N, DW_OP_plus (clang)
        if len(fb) == 3 and re.match(r"DW_OP_consts ([+-]?\d+)", fb[1][1]) and "plus" in fb[2][1]:
            rel += int(re.match(r"DW_OP_consts ([+-]?\d+)", fb[1][1]).group(1))
        elif len(fb) > 1:
            return ("other", "frame base %r" % (fb,))
    elif fb and fb[0][0] == "reg":
        # Frame base is a register as set up by the prologue: take the CFA
        # rule in terms of that register that covers the most code (the
        # body, not the prologue, epilogue or a call sequence's pushes).
        rows = cfa.get(fn["low"], [])
        spans = {}
        for n, (pc, reg, off) in enumerate(rows):
            end = rows[n + 1][0] if n + 1 < len(rows) else pc + 1
            if name_of_cfa_reg(reg) == fb[0][1]:
                spans[off] = spans.get(off, 0) + end - pc
        if not spans:
            return ("other", "no CFA rule for frame base")
        off = max(spans, key=lambda o: spans[o])
        rel = k - off + entry_off
    else:
        return ("other", "frame base %r" % (fb,))
    if rel < 0:
        return ("spill",)  # inside the callee's own frame: after the prologue
    return ("mem", rel)


def entry_location(p, fn):
    if p["loc"] is not None:
        return p["loc"]
    if p["list"]:
        for lo, hi, expr in p["list"]:
            if lo == fn["low"]:
                return parse_ops(expr)
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

def compare(arch, plan, dwp, word):
    """'agree', 'disagree: ...', 'no-oracle: ...'."""
    if dwp is None:
        return "no-oracle: no location at entry"
    known = [(o, s, l) for o, s, l in dwp if l is not None]
    if not known:
        return "no-oracle: optimized out"
    if any(l[0] == "spill" for _, _, l in known):
        return "no-oracle: described after the prologue only"
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
            if l[1] != pl[1]:
                return "disagree: reg %d vs %d" % (l[1], pl[1])
        elif l[0] == "mem" and pl[0] == "mem":
            if l[1] != pl[1] + (o - po):
                # right-justified small values in big-endian slots
                return "disagree: stack %+d vs %+d" % (l[1], pl[1] + (o - po))
        elif l[0] == "ind" and pl[0] == "ind":
            if l[1] != pl[1]:
                return "disagree: by-reference pointer in %d vs %d" % (l[1], pl[1])
        elif l[0] == "ind-mem" and pl[0] == "ind-mem":
            if l[1] != pl[1]:
                return "disagree: by-reference pointer at %+d vs %+d" % (l[1], pl[1])
        else:
            return "disagree: %s vs %s" % (l, pl)
    return "agree"


def fp_only(dwp, by_dwarf):
    """DWARF puts the value in registers struct pt_regs does not hold."""
    if not dwp:
        return False
    regs = [l for _, _, l in dwp if l is not None and l[0] == "reg"]
    return bool(regs) and any(r[1] not in by_dwarf for r in regs)


def run_config(cfg, args, tools):
    arch, triple, flags, gcc, kind = cfg
    label = arch + ("(" + " ".join(flags) + ")" if flags else "")
    wd = os.path.join(args.workdir, re.sub(r"[^a-z0-9]+", "_", label))
    os.makedirs(wd, exist_ok=True)
    seed = sum(map(ord, label))
    sigs = gen_signatures(args.n, seed)
    with open(os.path.join(wd, "f.c"), "w") as f:
        f.write(c_source(sigs))
    bpf, cols = bpf_source(sigs, kind)
    with open(os.path.join(wd, "p.bpf.c"), "w") as f:
        f.write(bpf)
    by_name, by_dwarf = load_table(arch)
    sp_name = SP_NAME[arch]
    sp_dw = by_name[sp_name]
    word = 4 if arch in ("i386", "arm") else 8

    # The plugin's plans.
    cmd = [tools["clang"], "-target", "bpf", "-fsyntax-only", "-fplugin=" + args.plugin,
           "-fplugin-arg-bpfprobe-arch=" + arch, "-fplugin-arg-bpfprobe-print-plan",
           "-Wno-everything", "-ferror-limit=0", os.path.join(wd, "p.bpf.c")]
    r = run(cmd)
    plans = parse_plans(r.stdout)
    refusals = {}
    for m in re.finditer(r"p\.bpf\.c:(\d+):(\d+): error: (.*)", r.stderr):
        line, col, msg = int(m.group(1)), int(m.group(2)), m.group(3)
        # the SEC line of function i is line 3*i + (header lines) ... find by text
        refusals[(line, col)] = msg
    bpf_lines = bpf.splitlines()
    ref_by_fn = {}
    for (line, col), msg in refusals.items():
        m = re.search(r"f(\d+)\(", bpf_lines[line - 1])
        if not m:
            continue
        i = int(m.group(1))
        j = max([k for k, c in enumerate(cols[i]) if c <= col] or [0])
        ref_by_fn[i] = (j, msg)

    # A refused probe has no plan: ask again for the parameters before the
    # refused one, so they are still compared.
    prefixes = [ps[:ref_by_fn[i][0]] if i in ref_by_fn else [] for i, ps in enumerate(sigs)]
    if any(prefixes):
        bpf2, _ = bpf_source(prefixes, kind)
        with open(os.path.join(wd, "prefix.bpf.c"), "w") as f:
            f.write(bpf2)
        r2 = run(cmd[:-1] + [os.path.join(wd, "prefix.bpf.c")])
        for i, v in parse_plans(r2.stdout).items():
            if i in ref_by_fn and i not in plans:
                plans[i] = v

    # The compilers' DWARF.
    compilers = [("clang", [tools["clang"], "--target=" + triple] + flags)]
    if args.compiler and "clang" not in args.compiler:
        compilers = []
    if not args.no_gcc and shutil.which(gcc):
        compilers.append(("gcc", [gcc] + flags))
    dwarfs = {}
    for cname, cc in compilers:
        obj = os.path.join(wd, "f-%s.o" % cname)
        r = run(cc + ["-g", "-O2", "-c", os.path.join(wd, "f.c"), "-o", obj])
        if r.returncode:
            print("%s: %s failed:\n%s" % (label, cname, r.stderr[-2000:]), file=sys.stderr)
            continue
        funcs = parse_dwarf(obj, tools["dwarfdump"])
        cfa, cie = parse_cfa_tables(obj, tools["dwarfdump"])
        dwarfs[cname] = (funcs, cfa, cie)

    def cfa_reg_name_to_dw(n):
        # CFA rows name registers by LLVM's names (RSP, W29, R15D, ...):
        # take the trailing number, or the stack pointer.
        if n.upper() in ("RSP", "ESP", "SP", "WSP", "R1", "X2"):
            return sp_dw
        m = re.search(r"(\d+)", n)
        return int(m.group(1)) if m else -1

    results = {}
    for cname, (funcs, cfa, cie) in dwarfs.items():
        stats = {"params": 0, "agree": 0, "disagree": 0, "refused-ok": 0,
                 "refused-bad": 0, "refused-conservative": 0, "no-oracle": 0, "not-compared": 0}
        notes = []
        for i, ps in enumerate(sigs):
            fn = funcs.get("f%d" % i)
            if fn is None:
                continue
            fb_dw = None
            dw_locs = []
            for j in range(len(ps)):
                p = fn["params"][j] if j < len(fn["params"]) else None
                ops = entry_location(p, fn) if p else None
                dw_locs.append(None if ops is None else
                               dwarf_pieces(ops, fn, cfa, cie, sp_dw, fb_dw, cfa_reg_name_to_dw))
            stop = ref_by_fn[i][0] if i in ref_by_fn else len(ps)
            for j in range(len(ps)):
                stats["params"] += 1
                if j > stop:
                    stats["not-compared"] += 1
                    continue
                if j == stop and i in ref_by_fn:
                    msg = ref_by_fn[i][1]
                    other = [d for c, d in dwarfs.items() if c != cname]
                    if fp_only(dw_locs[j], by_dwarf):
                        stats["refused-ok"] += 1
                    elif "compiler" in msg or "GCC" in msg:
                        stats["refused-ok"] += 1  # compiler-dependent rule
                    elif dw_locs[j] is None or all(l is None for _, _, l in dw_locs[j]):
                        stats["no-oracle"] += 1
                    elif ps[j] in FLOATY and "FP register" in msg:
                        # Conservative: this ABI may pass it in FP registers
                        # (and did not here: FP registers ran out, or the
                        # aggregate is not homogeneous).
                        stats["refused-conservative"] += 1
                    else:
                        stats["refused-bad"] += 1
                        notes.append("f%d p%d (%s): refused (%s) but DWARF says %s" %
                                     (i, j, ps[j], msg, dw_locs[j]))
                    continue
                expr, typ = plans[i][j]
                pl = plan_pieces(expr, typ, by_name, sp_name, word)
                verdict = compare(arch, pl, dw_locs[j], word)
                if verdict == "agree":
                    stats["agree"] += 1
                elif verdict.startswith("no-oracle"):
                    stats["no-oracle"] += 1
                    if args.verbose:
                        notes.append("f%d p%d (%s): %s" % (i, j, ps[j], verdict))
                else:
                    stats["disagree"] += 1
                    notes.append("f%d p%d (%s): plan %s:%s, DWARF %s: %s" %
                                 (i, j, ps[j], expr, typ, dw_locs[j], verdict))
        results[cname] = (stats, notes)
    return label, len(sigs), results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang", default=shutil.which("clang-19") or "clang")
    ap.add_argument("--dwarfdump", default=shutil.which("llvm-dwarfdump-19") or "llvm-dwarfdump")
    ap.add_argument("--arch", action="append")
    ap.add_argument("-n", type=int, default=220)
    ap.add_argument("--workdir", default="abi-oracle.out")
    ap.add_argument("--no-gcc", action="store_true")
    ap.add_argument("--compiler", action="append",
                    help="judge only these compilers' DWARF (clang, gcc)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    tools = {"clang": args.clang, "dwarfdump": args.dwarfdump}
    bad = False
    for cfg in CONFIGS:
        label = cfg[0] + ("(" + " ".join(cfg[2]) + ")" if cfg[2] else "")
        if args.arch and label not in args.arch:
            continue
        if args.compiler and "gcc" in args.compiler and not shutil.which(cfg[3]):
            print("%s: %s is not installed" % (label, cfg[3]), file=sys.stderr)
            bad = True
            continue
        label, n, results = run_config(cfg, args, tools)
        for cname, (s, notes) in sorted(results.items()):
            if args.compiler and cname not in args.compiler:
                continue
            print("%-22s %-5s signatures=%d params=%d agree=%d disagree=%d refused(justified)=%d "
                  "refused(unjustified)=%d refused(conservative,float)=%d no-oracle=%d not-compared=%d" %
                  (label, cname, n, s["params"], s["agree"], s["disagree"], s["refused-ok"],
                   s["refused-bad"], s["refused-conservative"], s["no-oracle"],
                   s["not-compared"]))
            for note in notes[:40 if not args.verbose else None]:
                print("  " + note)
            if s["disagree"] or s["refused-bad"]:
                bad = True
            if s["agree"] < 1:
                bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
