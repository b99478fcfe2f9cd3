# bench/availability_gdb.py - the gdb side of bench/availability.py.
#
# Loaded into gdb (`gdb -batch -x availability_gdb.py`) with the environment
# variable AVAIL_GDB_IN naming a JSON file:
#   {"binary": PATH, "args": [...], "cwd": DIR,
#    "sites": [{"addr": INT, "ret": BOOL}, ...], "out": PATH}
# Starts the program once, puts a breakpoint at every site address (file
# addresses; the load base of a PIE is added), and at the first hit of each
# records what gdb shows in the frame gdb selects there: each argument and
# local of the innermost function (inlined or not) with its value or
# "optimized out", and for a pointer to a struct, a struct or an array the
# first scalar members or element. For a "ret" site (a return probe's entry
# address) it records the value the function returns, from a
# FinishBreakpoint (what `finish` prints). A site may carry "checks":
# gdb expressions evaluated at that first hit (at a return: when it
# returns), results under "checks". Writes {"hits": {ADDR: ...}} to
# "out". Values: integers as Python ints (pointers unsigned), floats as the
# integer of their bytes. A site may instead be {"key": K, "linespec":
# "FILE:LINE"}: a breakpoint where gdb's `break FILE:LINE` puts it; each of
# its locations' first hit is recorded under "K@ADDR", and every location's
# address under "locations": {K: [ADDR...]}.

import json
import os
import re
import struct

import gdb

CFG = json.load(open(os.environ["AVAIL_GDB_IN"]))
HITS = {}
LOCS = {}
BASE = 0
MEMBERS = 3


def scalar(val, t):
    """(kind, size, signed, int value) of a scalar value, or None."""
    code = t.code
    if code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR, gdb.TYPE_CODE_BOOL,
                gdb.TYPE_CODE_ENUM):
        v = int(val)
        signed = v < 0 or (code != gdb.TYPE_CODE_ENUM and t.is_signed)
        return ("int", t.sizeof, signed, v)
    if code == gdb.TYPE_CODE_PTR:
        return ("ptr", t.sizeof, False, int(val) & ((1 << (8 * t.sizeof)) - 1))
    if code == gdb.TYPE_CODE_FLT:
        f = float(val)
        fmt = {4: "<f", 8: "<d"}.get(t.sizeof)
        if not fmt:
            return None
        bits = int.from_bytes(struct.pack(fmt, f), "little")
        return ("float", t.sizeof, False, bits)
    return None


def is_scalar_type(t):
    return t.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR,
                      gdb.TYPE_CODE_BOOL, gdb.TYPE_CODE_ENUM,
                      gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_FLT)


def record(out, expr, kind_of_var, getter, t):
    """Evaluate getter() and append one entry for expr."""
    ent = {"expr": expr, "var": kind_of_var, "type": str(t)}
    try:
        val = getter()
        if val.is_optimized_out:
            ent["state"] = "optimized out"
            out.append(ent)
            return None
        val.fetch_lazy()
        st = t.strip_typedefs()
        if st.code == gdb.TYPE_CODE_PTR and \
                "<synthetic pointer>" in val.format_string():
            # DW_OP_implicit_pointer: gdb shows what it points at, not it.
            ent["state"] = "synthetic pointer"
            out.append(ent)
            if is_scalar_type(st.target().strip_typedefs()):
                record(out, "*" + expr, kind_of_var,
                       lambda: val.dereference(), st.target())
            return None
        s = scalar(val, st)
        if s is None:
            ent["state"] = "aggregate"
        else:
            ent["state"] = "value"
            ent["kind"], ent["size"], ent["signed"], ent["value"] = s
        out.append(ent)
        return val
    except gdb.error as e:
        msg = str(e)
        ent["state"] = ("optimized out" if "optimized out" in msg
                        else "error")
        ent["error"] = msg
        out.append(ent)
        return None


def members(out, base_expr, sep, val, t, kind_of_var):
    """The first scalar members of struct value val (type t, stripped)."""
    n = 0
    for f in t.fields():
        if n >= MEMBERS:
            break
        if not f.name or f.artificial:
            continue
        ft = f.type.strip_typedefs()
        if not is_scalar_type(ft):
            continue
        n += 1
        name = f.name
        record(out, base_expr + sep + name, kind_of_var,
               lambda: val[name], f.type)


def is_enumerator(sym):
    t = sym.type.strip_typedefs()
    return t.code == gdb.TYPE_CODE_ENUM and \
        any(f.name == sym.name for f in t.fields())


def scope_blocks(frame, line=None):
    """The blocks whose variables are visible at the frame's pc: from the
    innermost block (inlined callees included: gdb hides the frame of an
    inlined function at its first instruction, bpfprobe does not) up to
    its function. For a line place (line = (file, N)), the scope is the
    function the line is in: the innermost function block of that file
    declared at or before N, and its blocks that hold the pc."""
    try:
        block = gdb.block_for_pc(frame.pc())
    except RuntimeError:
        return []
    chain = []
    while block is not None and not (block.is_global or block.is_static):
        chain.append(block)
        block = block.superblock
    fn_idx = [i for i, b in enumerate(chain) if b.function is not None]
    if not fn_idx:
        return chain
    top = fn_idx[0]
    if line:
        best = None
        for i in fn_idx:
            f = chain[i].function
            if f.symtab and os.path.basename(f.symtab.filename) == line[0] \
                    and f.line <= line[1] and (best is None or f.line > chain[best].function.line):
                best = i
        if best is not None:
            top = best
    below = [i for i in fn_idx if i < top]
    first = below[-1] + 1 if below else 0
    return chain[first:top + 1]


def frame_vars(frame, line=None):
    out = []
    blocks = scope_blocks(frame, line)
    seen = set()
    for block in blocks:
        for sym in block:
            if not (sym.is_argument or sym.is_variable or
                    (sym.is_constant and not is_enumerator(sym))):
                continue  # (a variable with DW_AT_const_value is a constant)
            if sym.addr_class == gdb.SYMBOL_LOC_STATIC:
                continue  # static locals live in memory: not the question
            if sym.name in seen:
                continue
            seen.add(sym.name)
            kind = "arg" if sym.is_argument else "local"
            t = sym.type
            val = record(out, sym.name, kind,
                         lambda sym=sym: sym.value(frame), t)
            st = t.strip_typedefs()
            if val is None:
                continue
            try:
                if st.code == gdb.TYPE_CODE_PTR:
                    tt = st.target().strip_typedefs()
                    if tt.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION) \
                            and int(val) != 0:
                        d = val.dereference()
                        members(out, sym.name, "->", d, tt, kind)
                elif st.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
                    members(out, sym.name, ".", val, st, kind)
                elif st.code == gdb.TYPE_CODE_ARRAY:
                    et = st.target()
                    if is_scalar_type(et.strip_typedefs()):
                        record(out, sym.name + "[0]", kind,
                               lambda val=val: val[0], et)
            except gdb.error:
                pass
    return out


def outer_entry_values(frame, ents):
    """gdb 13 evaluates DW_OP_entry_value in an inline frame as if that
    frame had an entry of its own, and misreads it. The cross-check: the
    same value in the outer (real) frame, through that frame's parameter of
    the same name at its entry (`item@entry->child` for `item->child`),
    which gdb finds through the caller's call site. Recorded as
    "outer_entry" beside gdb's own value, for entries whose base name is a
    parameter of the outer function."""
    outer = frame
    while outer is not None and outer.type() == gdb.INLINE_FRAME:
        outer = outer.older()
    if outer is None or outer == frame:
        return
    try:
        params = {s.name for s in outer.block() if s.is_argument}
    except RuntimeError:
        return
    try:
        outer.select()
        for ent in ents:
            m = re.match(r"(\w+)(.*)$", ent["expr"])
            if not m or m.group(1) not in params or \
                    ent.get("state") not in ("value", "optimized out"):
                continue
            try:
                v = gdb.parse_and_eval("%s@entry%s" % (m.group(1), m.group(2)))
                if v.is_optimized_out:
                    continue
                s = scalar(v, v.type.strip_typedefs())
                if s is not None:
                    ent["outer_entry"] = s[3]
            except gdb.error:
                pass
    finally:
        frame.select()


def run_checks(h, checks):
    """Evaluates each check's gdb expression (bpfprobe's fetch plan
    translated) as an unsigned 64-bit integer."""
    out = h.setdefault("checks", {})
    for c in checks:
        # "outer": in the outer (real) frame of an inline frame.
        frame = gdb.selected_frame()
        outer = frame
        while c.get("outer") and outer.type() == gdb.INLINE_FRAME and outer.older():
            outer = outer.older()
        try:
            outer.select()
            v = gdb.parse_and_eval("(unsigned long)(%s)" % c["expr"])
            out[c["id"]] = int(v)
        except gdb.error as e:
            out[c["id"]] = "error: %s" % e
        finally:
            frame.select()


class Ret(gdb.FinishBreakpoint):
    def __init__(self, frame, key, checks):
        super().__init__(frame, internal=True)
        self.key = key
        self.checks = checks

    def stop(self):
        h = HITS[self.key]
        run_checks(h, self.checks)
        rv = self.return_value
        if rv is None:
            h["ret"] = {"state": "none"}
        else:
            ent = []
            record(ent, "$retval", "ret", lambda: rv, rv.type)
            h["ret"] = ent[0]
        return False

    def out_of_scope(self):
        HITS[self.key].setdefault("ret", {"state": "out of scope"})


class Site(gdb.Breakpoint):
    """A breakpoint at one address ("*0x..."), or at a linespec (FILE:LINE,
    every location gdb gives it; each location's first hit is recorded
    under KEY@ADDRESS and the frame is the one gdb selects for a line
    breakpoint: the function the line is in, inlined or not)."""

    def __init__(self, key, spec, ret, checks, linespec, line=None):
        super().__init__(spec, internal=True)
        self.line = line
        self.key = key
        self.ret = ret
        self.checks = checks
        self.linespec = linespec
        if linespec:
            LOCS[key] = [loc.address - BASE for loc in self.locations]

    def stop(self):
        frame = gdb.selected_frame()
        pc = frame.pc() - BASE
        key = "%s@%d" % (self.key, pc) if self.linespec else self.key
        if key in HITS:
            return False
        blocks = [] if self.ret else scope_blocks(frame, self.line)
        fb = blocks[-1] if blocks else None
        h = {"function": fb.function.name if fb is not None and fb.function else
             (frame.function().name if frame.function() else None),
             "inline": bool(fb is not None and fb.superblock is not None and
                            not (fb.superblock.is_static or fb.superblock.is_global))}
        HITS[key] = h
        checks = [c for c in self.checks if c.get("pc", pc) == pc]
        if self.ret:
            try:
                Ret(gdb.newest_frame(), key, checks)
            except (gdb.error, ValueError, RuntimeError) as e:
                h["ret"] = {"state": "error", "error": str(e)}
        else:
            if "novars" not in CFG:
                h["vars"] = frame_vars(frame, self.line)
                if h["inline"]:
                    outer_entry_values(frame, h["vars"])
            run_checks(h, checks)
        # The first hit is the one compared.
        if self.linespec:
            for loc in self.locations:
                if loc.address == frame.pc():
                    loc.enabled = False
        else:
            self.enabled = False
        return False


def load_base(binary):
    real = os.path.realpath(binary)
    text = gdb.execute("info proc mappings", to_string=True)
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and os.path.realpath(parts[-1]) == real:
            start, offset = int(parts[0], 16), int(parts[3], 16)
            return start - offset
    return 0


def main():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("set print frame-info short-location")
    gdb.execute("set cwd %s" % CFG["cwd"])
    # The same process image as `env -i PATH=... setarch -R BINARY` under
    # bpfprobe-run: no shell, no ASLR, the same environment.
    gdb.execute("set startup-with-shell off")
    gdb.execute("set disable-randomization on")
    gdb.execute("unset environment")
    for k, v in CFG.get("env", {}).items():
        gdb.execute("set environment %s=%s" % (k, v))
    gdb.execute("set args %s" % " ".join(CFG["args"]))
    gdb.execute("file %s" % CFG["binary"])
    gdb.execute("starti", to_string=True)
    base = load_base(CFG["binary"])
    # An ELF's type tells a PIE; `info proc mappings` gives its load base.
    with open(CFG["binary"], "rb") as f:
        hdr = f.read(18)
    pie = int.from_bytes(hdr[16:18], "little") == 3
    if not pie:
        base = 0
    global BASE
    BASE = base
    for s in CFG["sites"]:
        if "linespec" in s:
            f, _, n = s["linespec"].rpartition(":")
            Site(s["key"], s["linespec"], False, s.get("checks", []), True,
                 (f, int(n)))
        else:
            Site(str(s.get("key", s["addr"])), "*0x%x" % (s["addr"] + base),
                 s.get("ret", False), s.get("checks", []), False)
    gdb.execute("continue", to_string=True)
    # The program may stop for a signal; keep going a bounded number of times.
    for _ in range(20):
        try:
            gdb.selected_thread()
            if gdb.selected_inferior().pid == 0:
                break
            gdb.execute("continue", to_string=True)
        except gdb.error:
            break
    json.dump({"hits": HITS, "locations": LOCS}, open(CFG["out"], "w"))


main()
