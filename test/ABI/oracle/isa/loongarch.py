"""LoongArch."""

import re

from .base import LoadStoreISA, _gpr_map, _int


LOONG_REGS = _gpr_map(["zero", "ra", "tp", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                       "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "r21", "fp",
                       "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"])


class LoongArch(LoadStoreISA):
    regs = LOONG_REGS
    sp = 3
    stores = {"st.b": 1, "st.h": 2, "st.w": 4, "st.d": 8, "stptr.w": 4, "stptr.d": 8}
    loads = {"ld.b": 1, "ld.bu": 1, "ld.h": 2, "ld.hu": 2, "ld.w": 4, "ld.wu": 4,
             "ld.d": 8, "ldptr.w": 4, "ldptr.d": 8}
    fp_loads = {"fld.s", "fld.d", "vld", "xvld"}
    fp_stores = {"fst.s", "fst.d", "vst", "xvst"}
    copies = ("move",)
    nowrite = ("nop",)

    def is_fp(self, s):
        return re.fullmatch(r"\$(f[tsa]\d+|x?vr\d+)", s.strip()) is not None

    def access(self, ops):
        if len(ops) >= 3:
            return (self.reg(ops[1]), _int(ops[2]))
        return None

    def is_branch(self, m):
        return m in ("b", "bl", "jirl", "ret", "jr", "beq", "bne", "blt", "bge", "bltu",
                     "bgeu", "beqz", "bnez")

    def arith(self, m, ops, e):
        if m == "addi.d" and len(ops) == 3:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if d == s:
                e.adjust.append((d, _int(ops[2])))
                e.writes.discard(d)
            else:
                e.addr = (d, s, _int(ops[2]))
            return e
        return None
