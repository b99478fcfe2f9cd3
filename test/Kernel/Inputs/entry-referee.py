#!/usr/bin/env python3
"""Referee for `@entry(...)` in return probes: pairs the kernel's own entry
event (kprobe_events fed perf probe's plan at the function's entry) with its
return event of the same task, innermost first, and compares each pair with
the record of the return probe, hit by hit.

  entry-referee.py TRACE RECORDS --entry EV --ret EV --label LABEL --comm COMM
                   --map RECORD_NAME=KERNEL_NAME ...

Each --map names a record value and the kernel value it must equal (from
the entry event, or from the return event for return values). Prints one
line per hit and a summary; exits 1 on any difference or when there is no hit.
"""
import argparse
import re
import sys

ARG = re.compile(r'\s([^\s=]+)=("(?:[^"\\]|\\.)*"|\S+)')
EVENT = re.compile(r"\s*(?P<comm>.+)-(?P<pid>\d+)\s+(?:\(\s*\d+\)\s+)?\[\d+\].*?: "
                   r"(?P<event>[^:\s]+): \([^)]*\)(?P<args>.*)$")


def num(v):
    try:
        return int(v, 0) % (1 << 64)
    except ValueError:
        return v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("records")
    ap.add_argument("--entry", required=True)
    ap.add_argument("--ret", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--comm", required=True)
    ap.add_argument("--map", action="append", default=[])
    a = ap.parse_args()
    mapping = [m.split("=", 1) for m in a.map]
    stacks, pairs = {}, []
    for line in open(a.trace, errors="replace"):
        m = EVENT.match(line)
        if not m or m.group("comm").strip() != a.comm:
            continue
        pid, args = int(m.group("pid")), dict(ARG.findall(" " + m.group("args")))
        if m.group("event") == a.entry:
            stacks.setdefault(pid, []).append(args)
        elif m.group("event") == a.ret and stacks.get(pid):
            pairs.append((pid, {**stacks[pid].pop(), **args}))
    names = [r for r, _ in mapping]
    records = []
    for line in open(a.records, errors="replace"):
        # "TIME COMM PID/TID [CPU] LABEL name=value ..."
        m = re.match(r"\s*\S+ \S+ (\d+)/\d+ \[\d+\] (\S+)(.*)$", line.rstrip("\n"))
        if not m or m.group(2) != a.label or int(m.group(1)) not in {p for p, _ in pairs}:
            continue
        args = dict(ARG.findall(m.group(3)))
        if all(n in args for n in names):
            records.append((int(m.group(1)), args))
    if not pairs:
        print("entry referee: the kernel saw no call")
        return 1
    bad = 0
    if len(pairs) != len(records):
        print("entry referee: the kernel saw %d calls, bpfprobe recorded %d"
              % (len(pairs), len(records)))
        bad += 1
    for i, ((kpid, k), (rpid, r)) in enumerate(zip(pairs, records)):
        shown = []
        for rn, kn in mapping:
            if num(k.get(kn, "?")) != num(r[rn]):
                print("hit %d: MISMATCH kernel %s=%s bpfprobe %s=%s"
                      % (i, kn, k.get(kn), rn, r[rn]))
                bad += 1
            shown.append("%s=%s" % (rn, r[rn]))
        print("hit %d: pid=%d %s" % (i, rpid, " ".join(shown)))
    print("entry referee %s: %d calls, %s" % (a.label, len(pairs),
          "all values equal" if not bad else "%d DIFFERENCES" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
