#!/usr/bin/env python3
"""Per-hit cost of the same fetch as a kprobe and as an fentry program, in
the kernel guest (utils/kernel-guest.py): `file->f_pos, count` of vfs_write,
resolved through the guest kernel's BTF, with a body that only adds them to
a global. The guest times a loop of one-byte writes to /dev/null (one
vfs_write each) without a probe, under the kprobe and under fentry, by its
own /proc/uptime (setup excluded), several rounds interleaved, and prints
each probe's cost per hit above the bare loop and the ratio kprobe/fentry.
Under TCG the absolute times mean little: report the ratio.

  bench/trampoline-cost.py --build build [--rounds 3] [--writes 1000000]
"""
import argparse
import os
import subprocess
import sys
import tempfile

PROBE = r'''#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
long hits;
SEC("%s/vfs_write(file->f_pos, count)")
int on_write(void *ctx, long long pos, unsigned long count)
{ __sync_fetch_and_add(&hits, pos + count); return 0; }
'''

ap = argparse.ArgumentParser()
ap.add_argument("--build", required=True)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--writes", type=int, default=1000000)
a = ap.parse_args()
src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
guest = os.path.join(src, "utils", "kernel-guest.py")
info = dict(l.split("=", 1) for l in subprocess.run(
    [sys.executable, guest, "info"], capture_output=True, text=True).stdout.splitlines() if "=" in l)
work = tempfile.mkdtemp(prefix="trampoline-cost.")
for kind, name in (("kprobe", "kp"), ("fentry", "fe")):
    c = os.path.join(work, name + ".bpf.c")
    open(c, "w").write(PROBE % kind)
    subprocess.run(["clang-19" if not os.path.exists("/usr/lib/llvm-19/bin/clang") else "/usr/lib/llvm-19/bin/clang",
                    "-target", "bpf", "-g", "-O2", "-I", os.path.join(src, "include"),
                    "-I/usr/include/x86_64-linux-gnu",
                    "-fplugin=" + os.path.join(a.build, "lib", "libbpfprobe.so"),
                    "-fplugin-arg-bpfprobe-btf=" + info["vmlinux"], "-c", c,
                    "-o", os.path.join(work, name + ".o")], check=True)
script = os.path.join(work, "guest.sh")
open(script, "w").write('''cat > loop.sh <<X
read s _ < /proc/uptime
dd if=/dev/zero of=/dev/null bs=1 count=%d 2> /dev/null
read e _ < /proc/uptime
echo "\\$s \\$e"
X
sh loop.sh > /dev/null  # warm-up, not counted
for r in $(seq %d); do
  echo "base $(sh loop.sh)"
  echo "kprobe $(bpfprobe-run kp.o -- sh loop.sh 2>/dev/null | tail -1)"
  echo "fentry $(bpfprobe-run fe.o -- sh loop.sh 2>/dev/null | tail -1)"
done
''' % (a.writes, a.rounds))
out = os.path.join(work, "out")
subprocess.run([sys.executable, guest, "run", "--run-binary", os.path.join(a.build, "bin", "bpfprobe-run"),
                "--put", os.path.join(work, "kp.o"), os.path.join(work, "fe.o"),
                "--script", script, "--out", out, "--timeout", "1800"], check=True)
rounds, cur = [], {}
for line in open(os.path.join(out, "guest.log")):
    f = line.split()
    if len(f) == 3 and f[0] in ("base", "kprobe", "fentry"):
        cur[f[0]] = float(f[2]) - float(f[1])
        if f[0] == "fentry":
            rounds.append(cur)
            cur = {}
ratios = []
for i, r in enumerate(rounds):
    k = (r["kprobe"] - r["base"]) / a.writes * 1e6
    e = (r["fentry"] - r["base"]) / a.writes * 1e6
    ratios.append(k / e if e > 0 else float("nan"))
    print("round %d: loop %.2f s; per hit above it: kprobe %.2f us, fentry %.2f us (TCG); kprobe/fentry %.1f"
          % (i + 1, r["base"], k, e, ratios[-1]))
if ratios:
    print("kprobe/fentry per-hit cost: %.1f (rounds: %s)" % (
        sorted(ratios)[len(ratios) // 2], ", ".join("%.1f" % x for x in ratios)))
