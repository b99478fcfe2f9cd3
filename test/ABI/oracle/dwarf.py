"""The DWARF side: where each parameter is at the function's entry, from the
compiler's location lists and CFA tables."""

import re

from .util import run
from .isa.base import FP


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
