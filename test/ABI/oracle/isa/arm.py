"""32-bit Arm."""

import re

from .base import Effect, FP, ISA, _int


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
