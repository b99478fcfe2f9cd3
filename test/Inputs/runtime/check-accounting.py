#!/usr/bin/env python3
"""usage: check-accounting.py OUT.json [--lost] [--max-hits PROGRAM=N]...

Checks the end-of-run counts of `bpfprobe-run --json`: every "site" line
has hits, records, lost_records, dropped and filtered, and
hits == records + lost_records + dropped + filtered; the summary's records
equal the number of record lines. --lost: some site lost records (the test
forced a full ring). --max-hits P=N: site P has at most N hits (the run was
stopped before the program was done). --min-records N: at least N records.
Prints one line per site; exits 1 on the first difference."""
import json
import sys


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    want_lost = "--lost" in args
    max_hits = {}
    min_records = 0
    for i, a in enumerate(args):
        if a == "--max-hits":
            prog, n = args[i + 1].split("=")
            max_hits[prog] = int(n)
        if a == "--min-records":
            min_records = int(args[i + 1])
    sites, summary, records = [], None, 0
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            if obj.get("type") == "site":
                sites.append(obj)
            elif obj.get("type") == "summary":
                summary = obj
            elif obj.get("type") == "record":
                records += 1
    ok = True
    if not sites or summary is None:
        print("no site counts or no summary in %s" % path)
        return 1
    for s in sites:
        missing = [k for k in ("hits", "records", "lost_records", "dropped", "filtered")
                   if not isinstance(s.get(k), int)]
        if missing:
            print("%s: no %s" % (s["program"], ", ".join(missing)))
            ok = False
            continue
        total = s["records"] + s["lost_records"] + s["dropped"] + s["filtered"]
        verdict = "adds up" if total == s["hits"] else "DOES NOT ADD UP"
        print("%s: %d hits = %d records + %d lost + %d dropped + %d filtered: %s"
              % (s["program"], s["hits"], s["records"], s["lost_records"],
                 s["dropped"], s["filtered"], verdict))
        ok &= total == s["hits"]
        if s["program"] in max_hits and s["hits"] > max_hits[s["program"]]:
            print("%s: %d hits, more than %d: the run did not stop"
                  % (s["program"], s["hits"], max_hits[s["program"]]))
            ok = False
    if summary["records"] != records:
        print("summary: %d records, %d record lines" % (summary["records"], records))
        ok = False
    if sum(s["records"] for s in sites if isinstance(s.get("records"), int)) != records:
        print("the sites' records do not sum to the %d record lines" % records)
        ok = False
    if records < min_records:
        print("%d records, fewer than %d" % (records, min_records))
        ok = False
    if want_lost and not any(s.get("lost_records") for s in sites):
        print("no site lost records: the ring was not full")
        ok = False
    print("accounting: %s" % ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
