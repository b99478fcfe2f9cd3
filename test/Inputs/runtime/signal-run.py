#!/usr/bin/env python3
"""usage: signal-run.py [options] -- bpfprobe-run args...

Runs bpfprobe-run (stdout and stderr to --out and --err), waits until it is
ready, then signals it and waits for it to end. The live tests of how a run
ends (test/Runtime/accounting-*.test, signal-cleanup.test) use it.

  --target CMD        start CMD (a shell command) first; '{pid}' in the
                      bpfprobe-run arguments becomes its pid; killed at the end
  --ready-file F      ready when file F exists (the command wrote it)
  --ready-err TEXT    ready when TEXT is in the --err file
  --then CMD          run CMD (a shell command) once ready, and wait for it
  --delay S           seconds between ready (and --then) and the signal
  --signal NAME       INT, TERM, QUIT, USR1, ALRM, ...; none: wait for the end
  --instance          check that tracefs instances/bpfprobe-<pid>-* exists
                      before the signal and not after the end, and that
                      `bpftool perf` shows no uprobe of that pid after it
Prints the exit status and each check; exits 1 when a check fails."""
import json
import os
import signal
import subprocess
import sys
import time

TRACEFS = "/sys/kernel/tracing"


def wait_for(cond, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def perf_pids():
    try:
        out = subprocess.run(["bpftool", "-j", "perf", "list"], capture_output=True,
                             text=True).stdout
        return {e.get("pid") for e in json.loads(out or "[]")}
    except (OSError, ValueError):
        return set()


def run_instance(pid):
    """The tracefs instance of run pid: bpfprobe-<pid>-<random> (Printk.c)."""
    d = os.path.join(TRACEFS, "instances")
    for name in sorted(os.listdir(d)):
        if name == "bpfprobe-%d" % pid or name.startswith("bpfprobe-%d-" % pid):
            return os.path.join(d, name)
    return None


def main():
    argv = sys.argv[1:]
    dd = argv.index("--")
    opts, cmd = argv[:dd], argv[dd + 1:]
    o = {"--out": "/dev/null", "--err": "/dev/null", "--delay": "0"}
    flags = set()
    i = 0
    while i < len(opts):
        if opts[i] == "--instance":
            flags.add(opts[i])
            i += 1
        else:
            o[opts[i]] = opts[i + 1]
            i += 2
    target = None
    if "--target" in o:
        target = subprocess.Popen(o["--target"], shell=True, start_new_session=True)
        cmd = [a.replace("{pid}", str(target.pid)) for a in cmd]
    ok = True
    with open(o["--out"], "w") as out, open(o["--err"], "w") as err:
        run = subprocess.Popen(cmd, stdout=out, stderr=err)
        instance = None  # bpfprobe-<pid>-<random> (Printk.c), found once it exists
        if "--ready-file" in o:
            ready = wait_for(lambda: os.path.exists(o["--ready-file"]) or run.poll() is not None)
        elif "--ready-err" in o:
            ready = wait_for(lambda: o["--ready-err"] in open(o["--err"]).read()
                             or run.poll() is not None)
        else:
            ready = True
        if not ready or run.poll() is not None:
            print("bpfprobe-run was not ready (exit %s)" % run.poll())
            ok = False
        if "--instance" in flags and ok:
            instance = run_instance(run.pid)
            there = instance is not None
            print("before the signal: instance %s" % ("present" if there else "MISSING"))
            ok &= there
        if "--then" in o:
            subprocess.run(o["--then"], shell=True)
        time.sleep(float(o["--delay"]))
        if "--signal" in o and run.poll() is None:
            run.send_signal(getattr(signal, "SIG" + o["--signal"]))
        try:
            code = run.wait(timeout=60)
        except subprocess.TimeoutExpired:
            run.kill()
            code = run.wait()
            print("bpfprobe-run did not end within 60 s of the signal")
            ok = False
    print("exit %s" % (code if code >= 0 else "by signal %s" % signal.Signals(-code).name))
    if "--instance" in flags:
        left = instance is not None and os.path.exists(instance)
        print("after the end: instance %s" % ("LEFT BEHIND" if left else "removed"))
        ok &= not left
        if left:
            os.rmdir(instance)  # a stale instance would keep collecting
        perf = run.pid in perf_pids()
        print("after the end: uprobes of the run %s" % ("LEFT BEHIND" if perf else "gone"))
        ok &= not perf
    if target:
        os.killpg(target.pid, signal.SIGKILL)
        target.wait()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
