#!/usr/bin/env python3
"""Counts the records of a probe NAME whose `@entry` value equals the value
its call returned (the target's deep(n) returns n): right, missed
(`<missed>`) or wrong. Usage: check-pairs.py NAME RETVAL-FIELD ENTRY-FIELD
< records (test/Live/entry-deep.test)."""
import sys

name, ret_field, entry_field = sys.argv[1:4]
right = missed = wrong = 0
for line in sys.stdin:
    # A record: "TIME COMM PID/TID [CPU] NAME field=value ...";
    # "deep%return": the return probe of deep.
    words = line.split()
    if len(words) < 5 or not words[3].startswith("[") or words[4].split("%")[0] != name:
        continue
    words = words[4:]
    fields = dict(w.split("=", 1) for w in words[1:] if "=" in w)
    if fields.get(entry_field) == "<missed>":
        missed += 1
    elif fields.get(entry_field) == fields.get(ret_field):
        right += 1
    else:
        wrong += 1
        print("wrong:", line.strip())
print("right=%d missed=%d wrong=%d" % (right, missed, wrong))
