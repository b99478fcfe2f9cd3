#!/usr/bin/env python3
"""bench/attach.py - attach and detach time against the number of sites.

usage: bench/attach.py [--build DIR] [--sites 1,100,1000,10000]
                       [--single-max N] [--bpftrace-max N] [--runs R]
                       [--tools multi,single,bpftrace]

One generated target per size N: a line (`sink += x * k`) of a static
inline function inlined into N functions site_f0..site_f{N-1} (gcc -O2 -g), each
called once. One record probe on that line (bpfprobe-run -e, compiled once
per size before timing) has N sites. For each size it runs:
  multi     bpfprobe-run --attach=multi: the copies share programs (up to
            32 each), one uprobe_multi link per program
  single    bpfprobe-run --attach=single: the same programs, one perf-event
            uprobe per copy (the path for kernels before 6.6)
  bpftrace  bpftrace -e 'uprobe:./t:site_f* { @ = count(); }' -c ./t: the same
            addresses (each copy is at site_fI+0), attached one by one
and prints, median of R runs (without -v: with 10,000 sites libbpf's
debug lines alone cost seconds; `bpfprobe-run -v` prints its own
"attached ... in X ms" and "detached in X ms"):
  attach    tool start to the target's main() (the tools start the command
            once everything is attached)
  exit      the target's exit to the tool's exit (drain, detach, summary)
  total     tool start to tool exit, minus the target's own run
and checks that every site gave one record (bpfprobe) or that bpftrace
counted N hits. Single and bpftrace pay about 0.1 s per site to detach,
so they stop at --single-max and --bpftrace-max sites (default 1000).
Needs root, a built bpfprobe (plugin and bpfprobe-run) and, for its
column, bpftrace (apt install bpftrace). Not run by CI.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SPEC = "uprobe/./t:t.c:13(x, k)"


def target_source(n):
    out = [r"""#include <stdio.h>
#include <stdlib.h>
#include <time.h>
volatile long sink;
static long long ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}
static inline __attribute__((always_inline)) void line(int x, int k)
{
	sink += x * k; /* t.c:13 */
}
"""]
    for i in range(n):
        out.append(f"__attribute__((noinline)) void site_f{i}(int x) {{ line(x, {i}); }}\n")
    out.append(r"""static void stamp(const char *env, long long t)
{
	FILE *f = getenv(env) ? fopen(getenv(env), "w") : NULL;
	if (f) {
		fprintf(f, "%lld\n", t);
		fclose(f);
	}
}
int main(int argc, char **argv)
{
	int x = argc > 1 ? atoi(argv[1]) : 1;
	stamp("BENCH_START", ns());
""")
    for i in range(n):
        out.append(f"\tsite_f{i}(x);\n")
    out.append('\tstamp("BENCH_END", ns());\n\treturn 0;\n}\n')
    return "".join(out)


def read_ns(path):
    with open(path) as f:
        return int(f.read())


def run(argv, work, n):
    """Runs a tool that runs ./t; its timings (ms) and stderr."""
    start, end = os.path.join(work, "start"), os.path.join(work, "end")
    for p in (start, end):
        if os.path.exists(p):
            os.unlink(p)
    # bpftrace refuses more than 512 probes unless told.
    env = dict(os.environ, BENCH_START=start, BENCH_END=end,
               BPFTRACE_MAX_PROBES=str(max(512, 2 * n)))
    t0 = time.time_ns()
    p = subprocess.run(argv, cwd=work, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    t1 = time.time_ns()
    if p.returncode:
        sys.exit(f"{argv[0]} failed ({p.returncode}):\n{p.stderr[-3000:]}")
    s, e = read_ns(start), read_ns(end)
    res = {"attach": (s - t0) / 1e6, "exit": (t1 - e) / 1e6,
           "total": (t1 - t0 - (e - s)) / 1e6}
    m = re.search(r"sites? attached .* in ([0-9.]+) ms", p.stderr)
    if m:
        res["attached"] = float(m.group(1))
    m = re.search(r"detached in ([0-9.]+) ms", p.stderr)
    if m:
        res["detach"] = float(m.group(1))
    return res, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--sites", default="1,100,1000,10000")
    ap.add_argument("--single-max", type=int, default=1000)
    ap.add_argument("--bpftrace-max", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tools", default="multi,single,bpftrace")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    runner = os.path.abspath(os.path.join(a.build, "bin", "bpfprobe-run"))
    if os.geteuid():
        sys.exit("needs root")
    bpftrace = shutil.which("bpftrace")
    work_root = tempfile.mkdtemp(prefix="bench-attach-")
    os.environ["BPFPROBE_CACHE_DIR"] = os.path.join(work_root, "cache")
    os.makedirs(os.environ["BPFPROBE_CACHE_DIR"], mode=0o700)
    rows = []
    for n in [int(x) for x in a.sites.split(",")]:
        work = os.path.join(work_root, str(n))
        os.makedirs(work)
        with open(os.path.join(work, "t.c"), "w") as f:
            f.write(target_source(n))
        t = time.time()
        subprocess.run(["gcc", "-O2", "-g", "t.c", "-o", "t"], cwd=work, check=True)
        gcc_s = time.time() - t
        t = time.time()
        p = subprocess.run([runner, "-e", SPEC, "--dry-run"], cwd=work,
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"compiling the probe for {n} sites failed:\n{p.stderr[-3000:]}")
        probe_s = time.time() - t
        print(f"{n} sites: gcc {gcc_s:.1f} s, probe compile (clang + plugin) {probe_s:.1f} s",
              flush=True)
        tools = [("multi", [runner, "--attach=multi", "-e", SPEC, "--", "./t", "3"])]
        if n <= a.single_max:
            tools.append(("single", [runner, "--attach=single", "-e", SPEC, "--", "./t", "3"]))
        if bpftrace and n <= a.bpftrace_max:
            tools.append(("bpftrace", [bpftrace, "-e", "uprobe:./t:site_f* { @ = count(); }", "-c", "./t 3"]))
        tools = [t for t in tools if t[0] in a.tools.split(",")]
        for name, argv in tools:
            runs = a.runs if name == "multi" or n <= 100 else 1
            got = []
            for _ in range(runs):
                res, out, err = run(argv, work, n)
                if name == "bpftrace":
                    m = re.search(r"@: (\d+)", out)
                    if not m or int(m.group(1)) != n:
                        sys.exit(f"bpftrace counted {m and m.group(1)} hits, expected {n}")
                else:
                    recs = len(set(re.sub(r"pid=\d+ ", "", l) for l in out.splitlines()))
                    if recs != n:
                        sys.exit(f"{name}: {recs} distinct records, expected {n}")
                got.append(res)
            med = {k: statistics.median(r[k] for r in got) for k in got[0]}
            rows.append((n, name, runs, med))
            print(f"  {name:8} " + "  ".join(f"{k} {v:9.1f} ms" for k, v in med.items()),
                  flush=True)
    print("\nsites  tool      runs   attach(ms)  exit(ms)  total(ms)")
    for n, name, runs, m in rows:
        print(f"{n:5}  {name:8}  {runs:4}  {m['attach']:11.1f}  "
              f"{m['exit']:8.1f}  {m['total']:9.1f}")
    base = {(n, name): m for n, name, _, m in rows}
    for n, name, _, m in rows:
        if name == "multi" and (n, "single") in base:
            s = base[(n, "single")]
            print(f"{n} sites: single/multi total {s['total'] / m['total']:.1f}x")
        if name == "multi" and (n, "bpftrace") in base:
            s = base[(n, "bpftrace")]
            print(f"{n} sites: bpftrace/multi total {s['total'] / m['total']:.1f}x")
    if not a.keep:
        shutil.rmtree(work_root)


if __name__ == "__main__":
    main()
