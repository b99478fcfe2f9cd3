#!/usr/bin/env python3
"""usage: check-context.py PROGRAM.err RECORDS.json

Checks the context of every record of a --json run of scope.c's family
(test/Inputs/runtime/scope.c): each record has time_ns, comm, pid, tid and
cpu; pid and tid are what the process said of itself (getpid, gettid) for
its 'who' (1 main, 2 fork, 3 exec); comm is the program's name (scope, or
scope-kid after the exec); cpu is below the number of CPUs; times do not go
back, and are at or after the run's start (the start line's time_base_ns)
and within a minute of it. Prints one line per failed check and a verdict."""
import json
import os
import re
import sys


def main():
    said = {}
    for line in open(sys.argv[1]):
        m = re.match(r"(main|fork|exec) pid=(\d+) tid=(\d+)$", line.strip())
        if m:
            said[{"main": 1, "fork": 2, "exec": 3}[m.group(1)]] = (int(m.group(2)),
                                                                   int(m.group(3)))
    comm = {1: "scope", 2: "scope", 3: "scope-kid"}
    base = None
    last = 0
    n = 0
    bad = 0
    for line in open(sys.argv[2]):
        obj = json.loads(line)
        if obj.get("type") == "start":
            base = obj["time_base_ns"]
        if obj.get("type") != "record":
            continue
        n += 1
        missing = [k for k in ("time_ns", "comm", "pid", "tid", "cpu") if k not in obj]
        if missing:
            print("record %d: no %s" % (n, ", ".join(missing)))
            bad += 1
            continue
        who = obj["args"]["who"]
        if (obj["pid"], obj["tid"]) != said.get(who):
            print("record %d (who=%d): pid/tid %d/%d, the process said %s"
                  % (n, who, obj["pid"], obj["tid"], said.get(who)))
            bad += 1
        if obj["comm"] != comm[who]:
            print("record %d (who=%d): comm %r, expected %r" % (n, who, obj["comm"], comm[who]))
            bad += 1
        if not 0 <= obj["cpu"] < os.cpu_count():
            print("record %d: cpu %d of %d" % (n, obj["cpu"], os.cpu_count()))
            bad += 1
        if obj["time_ns"] < last:
            print("record %d: time %d before the previous record's %d" % (n, obj["time_ns"], last))
            bad += 1
        if base is None or not base <= obj["time_ns"] <= base + 60 * 10**9:
            print("record %d: time %d, the run started at %s" % (n, obj["time_ns"], base))
            bad += 1
        last = obj["time_ns"]
    print("%d records: %s" % (n, "context ok" if not bad else "%d BAD" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
