#!/usr/bin/env python3
"""Fills a hand-written .bpfprobe template with facts of the test's binaries.

usage: mkmeta.py TEMPLATE OUT [NAME=VALUE ...]

  @BUILD_ID(path)@      NT_GNU_BUILD_ID of the ELF file (llvm-readelf -n)
  @ADDR(path,symbol)@   the symbol's address, 0x hex (llvm-nm)
  @SIZE(path,symbol)@   the symbol's size, decimal (llvm-nm -S)
  @RECORD_ID(program)@  FNV-1a 32 of the program name (docs/metadata.md)
  @KERNEL_BUILD_ID@     build-id of the running kernel (/sys/kernel/notes)
  @NAME@                a NAME=VALUE given on the command line (the VALUE
                        may itself use the placeholders above)
"""
import re
import struct
import subprocess
import sys


def build_id(path):
    out = subprocess.run(["llvm-readelf", "-n", path], check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r"Build ID:\s*([0-9a-f]+)", out)
    if not m:
        sys.exit("mkmeta: %s has no build-id" % path)
    return m.group(1)


def symbol(path, name):
    out = subprocess.run(["llvm-nm", "-S", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == name:
            return int(f[0], 16), int(f[1], 16)
    sys.exit("mkmeta: no symbol %s with a size in %s" % (name, path))


def fnv1a(s):
    h = 2166136261
    for c in s.encode():
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return h


def kernel_build_id():
    data = open("/sys/kernel/notes", "rb").read()
    off = 0
    while off + 12 <= len(data):
        namesz, descsz, typ = struct.unpack_from("<III", data, off)
        name_off = off + 12
        desc_off = name_off + ((namesz + 3) & ~3)
        if typ == 3 and data[name_off:name_off + 4] == b"GNU\0":
            return data[desc_off:desc_off + descsz].hex()
        off = desc_off + ((descsz + 3) & ~3)
    sys.exit("mkmeta: the kernel has no build-id")


def main():
    template, out = sys.argv[1], sys.argv[2]
    env = dict(a.split("=", 1) for a in sys.argv[3:])
    text = open(template).read()

    def sub(m):
        fn, args = m.group(1), m.group(2)
        if fn in env and args is None:
            return env[fn]
        a = [x.strip() for x in (args or "").split(",")]
        if fn == "BUILD_ID":
            return build_id(a[0])
        if fn == "ADDR":
            return "0x%x" % symbol(a[0], a[1])[0]
        if fn == "SIZE":
            return "%d" % symbol(a[0], a[1])[1]
        if fn == "RECORD_ID":
            return "%d" % fnv1a(a[0])
        if fn == "KERNEL_BUILD_ID":
            return kernel_build_id()
        sys.exit("mkmeta: unknown placeholder @%s@" % m.group(0))

    pattern = r"@([A-Z_]+)(?:\(([^)]*)\))?@"
    for k in env:
        env[k] = re.sub(pattern, sub, env[k])
    text = re.sub(pattern, sub, text)
    open(out, "w").write(text)


main()
