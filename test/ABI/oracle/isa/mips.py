"""MIPS64."""

import re

from .base import LoadStoreISA, _gpr_map, _int


MIPS_REGS = _gpr_map(["zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                      "t0", "t1", "t2", "t3", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
                      "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra"])
MIPS_REGS["s8"] = 30


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
