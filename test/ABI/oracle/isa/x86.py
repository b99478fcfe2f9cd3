"""x86_64 and i386 (AT&T syntax)."""

import re

from .base import Effect, FP, ISA, _int


X86_64_REGS = {}
for _n, _names in enumerate([
        "al ah ax eax rax", "dl dh dx edx rdx", "cl ch cx ecx rcx", "bl bh bx ebx rbx",
        "sil si esi rsi", "dil di edi rdi", "bpl bp ebp rbp", "spl sp esp rsp"]):
    for _x in _names.split():
        X86_64_REGS[_x] = _n
for _n in range(8, 16):
    for _x in ("r%d" % _n, "r%db" % _n, "r%dw" % _n, "r%dd" % _n):
        X86_64_REGS[_x] = _n
I386_REGS = {}
for _n, _names in enumerate(["al ah ax eax", "cl ch cx ecx", "dl dh dx edx", "bl bh bx ebx",
                             "sp esp", "bp ebp", "si esi", "di edi"]):
    for _x in _names.split():
        I386_REGS[_x] = _n


class X86(ISA):
    def __init__(self, bits):
        self.word = bits // 8
        self.regs = X86_64_REGS if bits == 64 else I386_REGS
        self.sp = self.regs["rsp" if bits == 64 else "esp"]

    SUFFIX = {"b": 1, "w": 2, "l": 4, "q": 8}

    def mem(self, s):
        m = re.fullmatch(r"(-?0x[0-9a-f]+|-?\d+)?\((%\w+)\)", s)
        if not m:
            return None
        base = self.reg(m.group(2))
        return (base, _int(m.group(1)) if m.group(1) else 0)

    def effect(self, mnem, ops, reloc):
        e = Effect()
        m = mnem
        if m.startswith("call"):
            if reloc and reloc.startswith("__x86.get_pc_thunk."):
                e.writes.add(self.reg(reloc.rsplit(".", 1)[1]))
                return e
            e.stop = True
            return e
        if m.startswith("j") or m.startswith("ret") or m in ("hlt", "ud2", "int3"):
            e.stop = True
            return e
        if m == "pushpc":
            e.stores.append((None, self.sp, -self.word, self.word))
            e.adjust.append((self.sp, -self.word))
            return e
        if m.startswith("push"):
            src = self.reg(ops[0]) if ops[0].startswith("%") else None
            mm = self.mem(ops[0])
            val = ("mem", mm[0], mm[1]) if mm else src
            e.stores.append((val, self.sp, -self.word, self.word))
            e.adjust.append((self.sp, -self.word))
            return e
        if m.startswith("pop"):
            d = self.reg(ops[0])
            e.loads.append((d, self.sp, 0, self.word))
            e.writes.add(d)
            e.adjust.append((self.sp, self.word))
            return e
        if m.startswith("cmp") or m.startswith("test") or m.startswith("nop") or m in ("endbr64", "endbr32"):
            return e
        if m.startswith("lea") and len(ops) == 2:
            mm = self.mem(ops[0])
            d = self.reg(ops[1])
            e.writes.add(d)
            if mm and mm[0] is not None:
                e.addr = (d, mm[0], mm[1])
            return e
        if (m.startswith("sub") or m.startswith("add")) and len(ops) == 2 and ops[0].startswith("$"):
            d = self.reg(ops[1])
            if d == self.sp:
                k = _int(ops[0])
                e.adjust.append((d, -k if m.startswith("sub") else k))
                return e
        if m.startswith("mov") and len(ops) == 2 and not m.startswith("movs") or \
                re.match(r"movs[bwl][wlq]$|movslq$", m):
            src, dst = ops
            size = self.SUFFIX.get(m[-1], self.word)
            mz = re.match(r"mov[sz]([bwl])[wlq]$|movslq$", m)
            if mz:
                size = self.SUFFIX[mz.group(1)] if mz.group(1) else 4
            ms, md = self.mem(src), self.mem(dst)
            if dst.startswith("%"):
                d = self.reg(dst)
                e.writes.add(d)
                if src.startswith("%"):
                    e.copy = (d, self.reg(src))
                elif ms and ms[0] is not None:
                    e.loads.append((d, ms[0], ms[1], size))
                return e
            if md:
                e.stores.append((self.reg(src) if src.startswith("%") else None, md[0], md[1], size))
                return e
        if m in ("cltq", "cwtl", "cbtw"):
            e.writes.add(0)
            return e
        if m in ("cltd", "cqto", "cwtd"):
            e.writes.add(self.regs["edx"])
            return e
        if m.startswith("rep") or m.startswith("movs") or m.startswith("stos") or \
                m in ("mul", "mull", "mulq", "div", "divl", "divq", "idivl", "idivq", "cpuid",
                      "rdtsc", "syscall"):
            e.opaque = True
            return e
        if m.startswith("xchg"):
            for o in ops:
                if o.startswith("%"):
                    e.writes.add(self.reg(o))
            return e
        if len(ops) == 1 and self.mem(ops[0]) and self.mem(ops[0])[0] is not None:
            # one memory operand: x87 loads and stores (fldt reads 10 bytes)
            mm = self.mem(ops[0])
            size = 10 if m.endswith("t") else 8
            if m.startswith("fst") or m.startswith("fist") or m.startswith("fbstp"):
                e.stores.append((FP, mm[0], mm[1], size))
            else:
                e.loads.append((FP, mm[0], mm[1], size))
                e.writes.add(FP)
            return e
        for o in ops[:-1]:
            mm = self.mem(o)
            if mm and mm[0] is not None:
                e.loads.append((FP, mm[0], mm[1], 8))  # read (an SSE load, a compare)
        if ops and ops[-1].startswith("%"):
            d = self.reg(ops[-1])
            e.writes.add(FP if d is None else d)
        elif ops and self.mem(ops[-1]):
            mm = self.mem(ops[-1])
            src = FP if ops[0].startswith("%xmm") else None
            e.stores.append((src, mm[0], mm[1], 8 if src else self.SUFFIX.get(m[-1], self.word)))
        return e
