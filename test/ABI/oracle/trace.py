"""Disassembly, and the straight-line prefix of a function executed symbolically."""

import re

from .util import run
from .isa.base import Effect, FP, split_ops
from .isa.x86 import X86


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
