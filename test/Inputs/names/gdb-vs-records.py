#!/usr/bin/env python3
"""Pairs gdb's "GDB <place> name=value ..." lines with bpfprobe-run's
"<place> pid=N name=value ..." records, in order, and prints each pair as
"SAME <line>" or "DIFF gdb=<line> probe=<line>", then the counts.

usage: gdb-vs-records.py GDB_OUTPUT RECORDS
"""
import re
import sys


def main():
    gdb = [l[4:].strip() for l in open(sys.argv[1]) if l.startswith("GDB ")]
    rec = [re.sub(r" pid=\d+", "", l).strip() for l in open(sys.argv[2])
           if " pid=" in l]
    diff = 0
    for i in range(max(len(gdb), len(rec))):
        g = gdb[i] if i < len(gdb) else "<none>"
        r = rec[i] if i < len(rec) else "<none>"
        if g == r:
            print("SAME " + g)
        else:
            diff += 1
            print("DIFF gdb=%s probe=%s" % (g, r))
    print("hits: gdb %d probes %d, %d different" % (len(gdb), len(rec), diff))


if __name__ == "__main__":
    main()
