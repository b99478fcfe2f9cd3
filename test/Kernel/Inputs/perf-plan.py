#!/usr/bin/env python3
"""The referee's plans: `perf probe -k VMLINUX -D SPEC` on the host, for the
guest's kernel. Prints the kprobe_events lines perf would write, one a line,
with the event renamed to --event (perf's own naming adds suffixes); the
inlined copies of one place are --event_FUNCTION.

  perf-plan.py VMLINUX [--module KO] --event NAME 'SPEC' [--event NAME 'SPEC' ...]
"""
import re
import subprocess
import sys

args = sys.argv[1:]
vmlinux = args.pop(0)
module = None
event = None
i = 0
while i < len(args):
    if args[i] == "--module":
        module = args[i + 1]
        i += 2
        continue
    if args[i] == "--event":
        event = args[i + 1]
        i += 2
        continue
    spec = args[i]
    i += 1
    cmd = ["perf", "probe", "-k", vmlinux, "-D", spec]
    if module:
        cmd[2:2] = ["-m", module]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = [l for l in p.stdout.splitlines() if re.match(r"^[pr]:", l)]
    if p.returncode or not lines:
        sys.exit("perf-plan.py: perf probe -D %r failed (%d): %s%s"
                 % (spec, p.returncode, p.stdout, p.stderr))
    for line in lines:
        # "p:probe/generic_perform_write generic_perform_write+184 args"
        kind, _, rest = line.partition(":")
        _, _, rest = rest.partition(" ")
        # Inlined copies: one event each, named after the function holding it.
        where = re.sub(r"[^A-Za-z0-9_]", "_", rest.split()[0].split("+")[0])
        name = event if len(lines) == 1 else "%s_%s" % (event, where)
        print("%s:probe/%s %s" % (kind, name, rest))
