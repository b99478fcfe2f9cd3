"""AArch64."""

import re

from .base import Effect, FP, ISA, _int


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
