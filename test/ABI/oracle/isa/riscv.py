"""RISC-V."""

import re

from .base import LoadStoreISA, _gpr_map, _int


RISCV_REGS = _gpr_map(["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
                       "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                       "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
                       "t3", "t4", "t5", "t6"])
RISCV_REGS["fp"] = 8


class RISCV(LoadStoreISA):
    regs = RISCV_REGS
    sp = 2
    stores = {"sb": 1, "sh": 2, "sw": 4, "sd": 8}
    loads = {"lb": 1, "lbu": 1, "lh": 2, "lhu": 2, "lw": 4, "lwu": 4, "ld": 8}
    fp_loads = {"flw", "fld"}
    fp_stores = {"fsw", "fsd"}
    copies = ("mv",)
    nowrite = ("nop", "fence")

    def is_fp(self, s):
        return re.fullmatch(r"f[tsa]\d+", s.strip()) is not None

    def is_branch(self, m):
        return m in ("j", "jal", "jalr", "jr", "ret", "call", "tail") or \
            re.fullmatch(r"b(eq|ne|lt|ge|ltu|geu|gt|le|gtu|leu|eqz|nez|lez|gez|ltz|gtz)", m) is not None

    def arith(self, m, ops, e):
        if m in ("addi", "addiw") and len(ops) == 3 and m == "addi":
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            if d == s:
                e.adjust.append((d, _int(ops[2])))
                e.writes.discard(d)
            else:
                e.addr = (d, s, _int(ops[2]))
            return e
        return None
