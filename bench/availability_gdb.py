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
# integer of their bytes.

import json
import os
import re
import struct

import gdb

CFG = json.load(open(os.environ["AVAIL_GDB_IN"]))
HITS = {}
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


def frame_vars(frame):
    out = []
    try:
        block = frame.block()
    except RuntimeError:
        return out
    seen = set()
    while block is not None:
        for sym in block:
            if not (sym.is_argument or sym.is_variable):
                continue
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
        if block.function is not None:
            break  # the function's (or inlined copy's) outermost block
        block = block.superblock
    return out


def run_checks(h, checks):
    """Evaluates each check's gdb expression (bpfprobe's fetch plan
    translated) as an unsigned 64-bit integer."""
    out = h.setdefault("checks", {})
    for c in checks:
        try:
            v = gdb.parse_and_eval("(unsigned long)(%s)" % c["expr"])
            out[c["id"]] = int(v)
        except gdb.error as e:
            out[c["id"]] = "error: %s" % e


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
    def __init__(self, key, runaddr, ret, checks):
        super().__init__("*0x%x" % runaddr, internal=True)
        self.key = key
        self.ret = ret
        self.checks = checks

    def stop(self):
        if self.key in HITS:
            return False
        frame = gdb.selected_frame()
        fn = frame.function()
        h = {"function": fn.name if fn else None,
             "inline": frame.type() == gdb.INLINE_FRAME}
        HITS[self.key] = h
        if self.ret:
            try:
                Ret(gdb.newest_frame(), self.key, self.checks)
            except (gdb.error, ValueError, RuntimeError) as e:
                h["ret"] = {"state": "error", "error": str(e)}
        else:
            if "novars" not in CFG:
                h["vars"] = frame_vars(frame)
            run_checks(h, self.checks)
        self.enabled = False  # the first hit is the one compared
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
    for s in CFG["sites"]:
        Site(str(s.get("key", s["addr"])), s["addr"] + base,
             s.get("ret", False), s.get("checks", []))
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
    json.dump({"hits": HITS}, open(CFG["out"], "w"))


main()
