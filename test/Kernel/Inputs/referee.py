#!/usr/bin/env python3
"""Compares, hit by hit, what the kernel's own kprobe_events fetched (the
guest's trace) with what bpfprobe-run's records say for the same hits.

  referee.py TRACE RECORDS --event NAME --label LABEL [--comm COMM]

Hits are taken in order, the kernel's events NAME (a regular expression:
the inlined copies of a place are several events) of tasks named COMM and the
records labelled LABEL of the same pids (one vCPU: both see the hits in the
same order). Records are matched by label and by argument names, which
must be the kernel's (the plugin names them as perf probe -D does). Every
value must be equal (integers modulo 2^64, strings as text). Prints one line
per hit and a summary; exits 1 on any difference or when there is no hit.
"""
import argparse
import re
import sys

ARG = re.compile(r'\s([^\s=]+)=("(?:[^"\\]|\\.)*"|\S+)')


def value(v):
    if v.startswith('"'):
        return ("str", re.sub(r'\\(.)', r'\1', v[1:-1]))
    if v in ("(fault)", "<fault>"):
        return ("fault", None)
    try:
        return ("int", int(v, 0) % (1 << 64))
    except ValueError:
        return ("raw", v)


def kernel_hits(path, event, comm):
    hits = []
    for line in open(path, errors="replace"):
        m = re.match(r"\s*(?P<comm>.+)-(?P<pid>\d+)\s+(?:\(\s*\d+\)\s+)?\[\d+\].*?: "
                     r"(?P<event>%s): \([^)]*\)(?P<args>.*)$" % event, line)
        if not m or (comm and m.group("comm").strip() != comm):
            continue
        hits.append((int(m.group("pid")), ARG.findall(" " + m.group("args")),
                     m.group("event")))
    return hits


def record_hits(path, label, pids, names):
    """Records of LABEL whose argument names are NAMES (the kernel's: two
    programs at one place share a label)."""
    hits = []
    for line in open(path, errors="replace"):
        # "TIME COMM PID/TID [CPU] LABEL name=value ..."
        m = re.match(r"\s*\S+ \S+ (?P<pid>\d+)/\d+ \[\d+\] (?P<label>\S+)(?P<args>.*)$",
                     line.rstrip("\n"))
        if not m or m.group("label") != label or int(m.group("pid")) not in pids:
            continue
        args = ARG.findall(m.group("args"))
        if [n for n, _ in args] != names:
            continue
        hits.append((int(m.group("pid")), args))
    return hits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("records")
    ap.add_argument("--event", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--comm")
    ap.add_argument("--show-event", action="store_true",
                    help="name the kernel event of each hit (--event is a regex)")
    a = ap.parse_args()
    k = kernel_hits(a.trace, a.event, a.comm)
    names = [n for n, _ in k[0][1]] if k else []
    r = record_hits(a.records, a.label, {h[0] for h in k}, names)
    bad = 0
    if not k:
        print("referee %s: the kernel saw no hit" % a.event)
        return 1
    if len(k) != len(r):
        print("referee %s: the kernel saw %d hits, bpfprobe recorded %d"
              % (a.event, len(k), len(r)))
        bad += 1
    for i, ((kpid, kargs, kevent), (rpid, rargs)) in enumerate(zip(k, r)):
        shown = []
        if len(kargs) != len(rargs):
            print("hit %d: %d kernel values, %d recorded" % (i, len(kargs), len(rargs)))
            bad += 1
            continue
        for (kn, kv), (rn, rv) in zip(kargs, rargs):
            if value(kv) != value(rv) or kn != rn:
                print("hit %d: MISMATCH kernel %s=%s bpfprobe %s=%s" % (i, kn, kv, rn, rv))
                bad += 1
            shown.append("%s=%s" % (rn, rv))
        print("hit %d: pid=%d %s%s" % (i, rpid, " ".join(shown),
                                       " (%s)" % kevent if a.show_event else ""))
    print("referee %s: %d hits, %s" % (a.event, len(k),
          "all values equal" if not bad else "%d DIFFERENCES" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
