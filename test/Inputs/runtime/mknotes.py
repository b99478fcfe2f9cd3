#!/usr/bin/env python3
"""Writes ELF note data for the runtime's build-id tests.

  mknotes.py elf OUT    an ELF64 executable with no section headers and one
                        PT_NOTE segment: a build-id note, then a last note
                        whose descsz (5) is not a multiple of 4 and whose
                        descriptor ends the file (no padding after it)
  mknotes.py raw OUT    the same notes alone, as /sys/kernel/notes has them
"""
import struct
import sys


def note(name, ntype, desc, pad_last=True):
    n = name + b"\0"
    data = struct.pack("<III", len(n), len(desc), ntype)
    data += n + b"\0" * (-len(n) % 4)
    data += desc + (b"\0" * (-len(desc) % 4) if pad_last else b"")
    return data


# The build-id comes after the odd note in the raw file, so the walker must
# step over it correctly; in the ELF the odd note is last and there is no
# build-id.
kind, out = sys.argv[1], sys.argv[2]
if kind == "raw":
    data = note(b"XYZ", 1, b"12345") + note(b"GNU", 3, bytes.fromhex("abcdef0123456789"))
else:
    data = note(b"GNU", 7, b"\1\2\3\4") + note(b"XYZ", 1, b"12345", pad_last=False)
ehsize, phsize = 64, 56
phoff = ehsize
# One byte of padding: the notes are not 4-aligned in the file, so libelf
# copies them to the heap, where a read past their end is a heap overflow.
notes_off = ehsize + phsize + 1
ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
eh = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0x401000, phoff, 0, 0,
                         ehsize, phsize, 1, 0, 0, 0)
ph = struct.pack("<IIQQQQQQ", 4, 4, notes_off, 0, 0, len(data), len(data), 4)
with open(out, "wb") as f:
    if kind == "raw":
        f.write(data)
    else:
        f.write(eh + ph + b"\0" + data)
