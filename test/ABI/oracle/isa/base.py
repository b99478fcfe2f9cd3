"""The machine-code side's instruction-set models: the parts they share."""

import re


# ---------------------------------------------------------------- machine-code side
#
# Compilers describe some parameters with a location that only holds after
# the prologue: a single location expression for the whole function ("in x9"
# when x9 is loaded from the stack by the third instruction), a location list
# whose first entry starts after the prologue, or a slot of the parameter
# save area the callee stores a register into. DWARF alone then says nothing
# about the function's entry. The tracer below follows the function's
# straight-line code from its entry to the first branch or call, with a small
# model of each instruction set (register copies, loads and stores relative
# to the stack pointer, stack pointer adjustments, and which registers an
# instruction writes), so such a location can be carried back to where the
# value was at entry. Whatever the model does not understand makes the value
# unknown: the comparison then has no oracle for it, never a guess.

def _gpr_map(names):
    return {n: i for i, n in enumerate(names)}


FP = 10000  # FP/vector registers are never compared: one bucket (as parse_ops)


def split_ops(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _int(s):
    s = s.strip().lstrip("#$")
    return int(s, 0)


class Effect:
    """What one instruction does, as far as the tracer needs: registers it
    writes; a register copy; loads and stores as (reg, base, offset, size)
    with offsets from the base's value before the instruction; base
    registers that change by a constant; registers set to base + constant."""
    def __init__(self):
        self.writes = set()
        self.copy = None          # (dst, src)
        self.loads = []           # (dst, base, off, size)
        self.stores = []          # (src or None, base, off, size); src may be ("mem", base, off)
        self.adjust = []          # (reg, delta): reg += delta (after the accesses)
        self.addr = None          # (dst, base, off): dst = base + off
        self.stop = False
        self.delay_slot = False
        self.opaque = False       # writes memory or registers the model cannot name


class ISA:
    """Parses one architecture's llvm-objdump syntax into Effects."""
    word = 8
    big_endian = False
    sp = None
    regs = {}

    def reg(self, s):
        s = s.strip().lstrip("%$").lower()
        if s in self.regs:
            return self.regs[s]
        return None

    def is_fp(self, s):
        return False


class LoadStoreISA(ISA):
    """RISC instruction sets whose first operand is the destination, except
    for stores, compares and branches."""
    stores = {}       # mnemonic -> size
    loads = {}        # mnemonic -> size
    fp_loads = set()
    fp_stores = set()
    copies = ()
    nowrite = ()
    delay = False

    def is_branch(self, m):
        raise NotImplementedError

    def mem(self, s):
        """'off(base)' -> (base, off)"""
        m = re.fullmatch(r"(-?0x[0-9a-f]+|-?\d+)?\(([%$]?\w+)\)", s.strip())
        if not m:
            return None
        return (self.reg(m.group(2)), _int(m.group(1)) if m.group(1) else 0)

    def access(self, ops):
        """The memory operand of a load or store: (base, off), or None."""
        if len(ops) >= 2:
            return self.mem(ops[1])
        return None

    def effect(self, m, ops, reloc):
        e = Effect()
        if self.is_branch(m):
            e.stop = True
            e.delay_slot = self.delay
            return e
        if m in self.nowrite:
            return e
        if m in self.stores or m in self.fp_stores:
            a = self.access(ops)
            if a is None:
                e.opaque = True
                return e
            src = FP if m in self.fp_stores else self.reg(ops[0])
            e.stores.append((src, a[0], a[1], self.stores.get(m, 8)))
            return e
        if m in self.loads or m in self.fp_loads:
            a = self.access(ops)
            d = FP if m in self.fp_loads else self.reg(ops[0])
            e.writes.add(d)
            if a is not None:
                # an FP load still reads the slot (it matters for "read
                # before written")
                e.loads.append((d, a[0], a[1], self.loads.get(m, 8)))
            return e
        if m in self.copies and len(ops) == 2:
            d, s = self.reg(ops[0]), self.reg(ops[1])
            e.writes.add(d)
            e.copy = (d, s)
            return e
        r = self.arith(m, ops, e)
        if r is not None:
            return r
        if ops:
            d = self.reg(ops[0])
            e.writes.add(FP if d is None else d)
            if d is None and not self.is_fp(ops[0]):
                e.opaque = True
        return e

    def arith(self, m, ops, e):
        """add-immediate forms: SP adjustments and SP-relative addresses."""
        return None
