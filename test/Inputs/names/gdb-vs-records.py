#!/usr/bin/env python3
"""Pairs gdb's "GDB <place> name=value ..." lines with bpfprobe-run's
"TIME COMM PID/TID [CPU] <place> name=value ..." records, in order, and prints each pair as
"SAME <line>" or "DIFF gdb=<line> probe=<line>", then the counts. A pair is
the same when the place and the values, in order, are: gdb's labels are the
source text ("it.id"), as the records' are.

usage: gdb-vs-records.py [--skip-optimized] GDB_OUTPUT RECORDS

--skip-optimized: gdb lines with an <optimized out> value are hits the probe
left out (counted as "left out", not paired).
"""
import re
import sys


def values(line):
    """(place, [value, ...]) of "place name=value name=value ..."."""
    place, _, rest = line.partition(" ")
    fields = re.split(r" (?=[^ =]+=)", rest) if rest else []
    return place, [f.partition("=")[2] for f in fields]


def main():
    args = sys.argv[1:]
    skip = args and args[0] == "--skip-optimized"
    if skip:
        args = args[1:]
    gdb = [l[4:].strip() for l in open(args[0]) if l.startswith("GDB ")]
    left_out = 0
    if skip:
        left_out = sum("<optimized out>" in l for l in gdb)
        gdb = [l for l in gdb if "<optimized out>" not in l]
    # A copy of an inlined line is "use:3 [in use+0x1f]": gdb names the
    # line only.
    # Records: "TIME COMM PID/TID [CPU] <place> name=value ...".
    context = re.compile(r"^\s*\S+ \S+ \d+/\d+ \[\d+\] ")
    rec = [re.sub(r" \[in [^]]*\]", "", context.sub("", l)).strip()
           for l in open(args[1]) if context.match(l)]
    diff = 0
    for i in range(max(len(gdb), len(rec))):
        g = gdb[i] if i < len(gdb) else "<none>"
        r = rec[i] if i < len(rec) else "<none>"
        if values(g) == values(r):
            print("SAME " + g)
        else:
            diff += 1
            print("DIFF gdb=%s probe=%s" % (g, r))
    print("hits: gdb %d probes %d, %d different" % (len(gdb), len(rec), diff)
          + (", %d left out where gdb has <optimized out>" % left_out
             if skip else ""))


if __name__ == "__main__":
    main()
