#!/usr/bin/env python3
"""Writes ops-asm.s: clang's `-O0 -g -gdwarf-5 -S` output for ops-asm.c with
the DW_AT_location of its locals replaced by hand-written DWARF expressions,
for operations no compiler here emits (test/Dwarf/expr-asm.test,
test/Live/expr-asm.test). Usage: gen-ops-asm.py IN.s OUT.s

Every DIE gets a label and every DW_AT_type reference uses it, so the
expressions may change size."""
import re
import sys

OPS = {'deref': 0x06, 'dup': 0x12, 'const4u': 0x0c, 'pick': 0x15, 'rot': 0x17, 'abs': 0x19,
       'and': 0x1a, 'div': 0x1b, 'minus': 0x1c, 'mul': 0x1e, 'or': 0x21, 'plus': 0x22,
       'plus_uconst': 0x23, 'shl': 0x24, 'bra': 0x28, 'eq': 0x29, 'ge': 0x2a,
       'gt': 0x2b, 'le': 0x2c, 'lt': 0x2d, 'ne': 0x2e, 'skip': 0x2f,
       'fbreg': 0x91, 'deref_size': 0x94, 'bit_piece': 0x9d,
       'implicit_value': 0x9e, 'stack_value': 0x9f, 'const_type': 0xa4,
       'regval_type': 0xa5, 'deref_type': 0xa6, 'convert': 0xa8,
       'reinterpret': 0xa9, 'GNU_const_type': 0xf4, 'GNU_deref_type': 0xf6,
       'GNU_convert': 0xf7, 'GNU_reinterpret': 0xf9}


def lit(n):
    return ['.byte 0x%x # DW_OP_lit%d' % (0x30 + n, n)]


def op(name, *args):
    """One operation; args are ('b', n) bytes, ('u', n) ULEB, ('s', n) SLEB,
    ('h', n) 2-byte signed, ('t', die) ULEB CU offset of a DIE."""
    out = ['.byte 0x%x # DW_OP_%s' % (OPS[name], name)]
    for kind, v in args:
        if kind == 'b':
            out.append('.byte 0x%x' % (v & 0xff))
        elif kind == 'u':
            out.append('.uleb128 %d' % v)
        elif kind == 's':
            out.append('.sleb128 %d' % v)
        elif kind == 'h':
            out.append('.short %d' % v)
        elif kind == 't':
            out.append('.uleb128 .Ldie_%s-.Lcu_begin0' % v)
    return out


def fb(off):
    return op('fbreg', ('s', off))


# Base types of ops-asm.c's unit (CU offsets in clang's output).
INT, LONG, ULONG, UINT, SCHAR, UCHAR = '1af', '1b3', '1b7', '1c0', '1c4', '1c8'
A = fb(-8) + op('deref')
B = fb(-16) + op('deref')
U = fb(-24) + op('deref')
PA = fb(-32) + op('deref')
SV = op('stack_value')


def size(ops):
    n = 0
    for o in ops:
        if o.startswith('.byte'):
            n += 1
        elif o.startswith('.short'):
            n += 2
        elif o.startswith(('.uleb128', '.sleb128')):
            v = int(o.split()[1])
            n += 1 if -64 <= v < 64 else 2
    return n


bra_no = B + op('skip', ('h', size(PA)))
EXPRS = {
    # 0x1122334455667788, little-endian bytes.
    '7c': op('implicit_value', ('u', 8)) + ['.byte 0x%x' % b for b in
                                            (0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11)],
    # The kernel's `fbreg; deref_size 4; const4u 0xffffffff; and`.
    '87': fb(-8) + op('deref_size', ('b', 4)) + op('const4u') +
          ['.long 0xffffffff'] + op('and') + SV,
    # u * (a - b) through rot.
    '92': A + B + U + op('rot') + op('minus') + op('mul') + SV,
    # 2a + b + 100 through pick and plus_uconst.
    '9d': A + B + op('pick', ('b', 1)) + op('plus') + op('plus') +
          op('plus_uconst', ('u', 100)) + SV,
    # a + 1, skipping a DW_OP_lit2.
    'a8': A + lit(1) + op('skip', ('h', 1)) + lit(2) + op('plus') + SV,
    # (a==b) | (a!=b)<<1 | (a>b)<<2 | (a>=b)<<3 | (a<=b)<<4
    'b4': A + B + op('eq') +
          A + B + op('ne') + lit(1) + op('shl') + op('or') +
          A + B + op('gt') + lit(2) + op('shl') + op('or') +
          A + B + op('ge') + lit(3) + op('shl') + op('or') +
          A + B + op('le') + lit(4) + op('shl') + op('or') + SV,
    # (long)(signed char)a
    'c0': A + op('convert', ('t', SCHAR)) + op('convert', ('t', LONG)) + SV,
    # |a|
    'cc': A + op('abs') + SV,
    # a < 0 ? *pa : b, the taken path reading memory.
    'd8': A + lit(0) + op('lt') + op('bra', ('h', size(bra_no))) + bra_no +
          PA + op('deref') + SV,
    # An implicit value whose 16-byte block runs past the expression.
    'e4': op('implicit_value', ('u', 16)) + ['.byte 1', '.byte 2'],
    # (int)a through deref_type.
    'f0': fb(-8) + op('deref_type', ('b', 4), ('t', INT)) + SV,
    # The frame size, (%rbp - %rsp) & 0xf0 as an unsigned char, through
    # regval_type, convert and const_type.
    'fc': op('regval_type', ('u', 6), ('t', ULONG)) +
          op('regval_type', ('u', 7), ('t', ULONG)) + op('minus') +
          op('convert', ('t', UCHAR)) +
          op('const_type', ('t', UCHAR), ('b', 1), ('b', 0xf0)) + op('and') +
          op('convert', ('t', UINT)) + SV,
    # bits 4..15 of a's memory, then the low 20 bits of b.
    '108': fb(-8) + op('bit_piece', ('u', 12), ('u', 4)) +
           B + SV + op('bit_piece', ('u', 20), ('u', 0)),
    # (unsigned long)(unsigned)(int)a through reinterpret, in GCC's DWARF 4
    # spellings (DW_OP_GNU_deref_type, GNU_reinterpret, GNU_convert).
    '114': fb(-8) + op('GNU_deref_type', ('b', 4), ('t', INT)) +
           op('GNU_reinterpret', ('t', UINT)) +
           op('GNU_convert', ('t', ULONG)) + SV,
    # (signed char)0xfe as a typed constant (DW_OP_GNU_const_type).
    '120': op('GNU_const_type', ('t', SCHAR), ('b', 1), ('b', 0xfe)) + SV,
    # a / (b * 0): a division by zero at run time (gdb: "Division by zero").
    '138': A + B + lit(0) + op('mul') + op('div') + SV,
    # A loop: count a down to 0 (refused; a BPF prologue cannot loop).
    '144': A + lit(1) + op('minus') + op('dup') + op('bra', ('h', -6)) + SV,
    # A 16-byte struct constant: { .lo = 4369, .hi = -2 }.
    '150': op('implicit_value', ('u', 16)) + ['.byte 0x%x' % b for b in
                                             (0x11, 0x11, 0, 0, 0, 0, 0, 0) + (0xfe,) + (0xff,) * 7],
    # (b >= 3) + (4 <= 4)
    '12c': B + lit(3) + op('ge') + lit(4) + lit(4) + op('le') + op('plus') + SV,
}

lines = open(sys.argv[1]).read().split('\n')
out = []
die = re.compile(r'# Abbrev \[\d+\] 0x([0-9a-f]+):')
tref = re.compile(r'^(\s*)\.long\s+(\d+)(\s+# DW_AT_type.*)$')
i = 0
while i < len(lines):
    L = lines[i]
    m = die.search(L)
    if m:
        out.append('.Ldie_%s:' % m.group(1))
        out.append(L)
        off = m.group(1)
        if off in EXPRS and 'DW_AT_location' in lines[i + 1]:
            # Drop clang's location (its length byte and its bytes).
            n = int(lines[i + 1].split()[1])
            j = i + 2
            got = 0
            while got < n:
                t = lines[j].strip()
                if t.startswith('.byte'):
                    got += 1
                elif t.startswith('.ascii'):
                    got += len(t.split('"')[1].encode().decode('unicode_escape'))
                j += 1
            out.append('\t.uleb128 .Lloc_end_%s-.Lloc_begin_%s # DW_AT_location' % (off, off))
            out.append('.Lloc_begin_%s:' % off)
            out.extend('\t' + o for o in EXPRS.pop(off))
            out.append('.Lloc_end_%s:' % off)
            i = j
            continue
        i += 1
        continue
    if L.strip().startswith('.addrsig'):
        i += 1  # clang's address-significance table: not for GNU as
        continue
    m = tref.match(L)
    if m:
        L = '%s.long .Ldie_%x-.Lcu_begin0%s' % (m.group(1), int(m.group(2)), m.group(3))
    out.append(L)
    i += 1
if EXPRS:
    sys.exit('not replaced: %s' % ', '.join(EXPRS))
header = ('# Generated by gen-ops-asm.py from ops-asm.c (clang -O0 -g -gdwarf-5 -S):\n'
          '# hand-written DW_AT_location expressions; see ops-asm.c.\n')
open(sys.argv[2], 'w').write(header + '\n'.join(out))
