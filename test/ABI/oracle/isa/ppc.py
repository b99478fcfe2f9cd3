"""64-bit PowerPC."""

from .base import Effect, FP, LoadStoreISA, _int


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
