#!/usr/bin/env python3
"""Compares where bpfprobe puts a FILE:LINE probe with where gdb puts a
breakpoint (gdb -batch -ex 'break FILE:LINE' -ex 'info breakpoints').

usage: compare-breaks.py BINARY FILE LINE...

Prints one line per source line:
  LINE N SAME a,b,...          both chose these addresses
  LINE N DIFF gdb=... ours=... they differ
  LINE N MOVED gdb=M ours=refused   gdb moved to line M (no code at N) and
                                     bpfprobe refused with a message
  LINE N NONE                        neither has a place for it
"""
import re
import subprocess
import sys


def symbols(binary):
    out = subprocess.run(["nm", binary], capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms[parts[2]] = int(parts[0], 16)
    return syms


def gdb_breaks(binary, place):
    out = subprocess.run(["gdb", "-nx", "-batch", "-ex", "break " + place,
                          "-ex", "info breakpoints", binary],
                         capture_output=True, text=True).stdout
    found = re.findall(r"(0x[0-9a-f]+) in \S+ at \S+:(\d+)", out)
    return sorted({int(a, 16) for a, _ in found}), {int(l) for _, l in found}


def our_breaks(binary, place, syms):
    p = subprocess.run(["bpfprobe-resolve", "uprobe/%s:%s" % (binary, place)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.splitlines()[0] if p.stderr else "?"
    addrs = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^[pr]:\S+ \S+:([A-Za-z_][\w.]*)(?:\+(\d+))?", line)
        if m:
            addrs.add(syms[m.group(1)] + int(m.group(2) or 0))
    return sorted(addrs), None


def main():
    binary, file = sys.argv[1], sys.argv[2]
    syms = symbols(binary)
    for n in sys.argv[3:]:
        place = "%s:%s" % (file, n)
        gdb, gdb_lines = gdb_breaks(binary, place)
        ours, why = our_breaks(binary, place, syms)
        hexes = lambda v: ",".join("%#x" % a for a in v)
        if ours is None and not gdb:
            print("LINE %s NONE" % n)
        elif ours is None and gdb_lines and int(n) not in gdb_lines:
            print("LINE %s MOVED gdb=%s ours=refused: %s"
                  % (n, ",".join(map(str, sorted(gdb_lines))), why))
        elif ours == gdb:
            print("LINE %s SAME %s" % (n, hexes(ours)))
        else:
            print("LINE %s DIFF gdb=%s ours=%s %s"
                  % (n, hexes(gdb), hexes(ours or []), why or ""))


if __name__ == "__main__":
    main()
