"""s390x."""

import re

from .base import Effect, LoadStoreISA, _int


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
