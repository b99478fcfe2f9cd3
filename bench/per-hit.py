#!/usr/bin/env python3
"""bench/per-hit.py - per-hit cost of a uprobe: bpfprobe against bpftrace and perf.

usage: bench/per-hit.py [--build DIR] [--hits N] [--runs R] [--only NAME,...]

One target (a loop calling hit(it, n) N times, timing itself) probed the
same way, fetching the same two values (it->weight through a pointer, and
n), by:
  bpfprobe body      SEC("uprobe/./hot:hit(it->weight, n)") body adding
                     both to a global, through bpfprobe-run
  bpfprobe record    BPF_PROBE_RECORD of the same spec (bpfprobe-run -e:
                     one ring-buffer record per hit, printed to a file)
  bpfprobe count     the same with --count-only (a counter in a map)
  bpftrace trap      uprobe with an empty action: the trap alone
  bpftrace count     @ = count()
  bpftrace printf    printf of both values (to a file)
  perf record        perf probe -x hot 'hit it->weight n' + perf record
For each: the per-hit overhead over the unprobed run (median of R runs of
the target's own ns/iteration), the events lost (records or lines missing
from the output), the BPF run time per hit (kernel.bpf_stats_enabled,
read while the programs are attached), the xlated instructions of the
program, startup (tool started to the target's main()) and exit (the
target's end to the tool's exit). Ratios are against bpftrace printf and
perf record. Needs root, bpftrace and linux-perf (apt), bpftool, and a
built bpfprobe (plugin and bpfprobe-run). Not run by CI.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TARGET = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
struct item { long id; int weight; };
volatile long sink;
__attribute__((noinline)) int hit(struct item *it, int n)
{
	sink += it->weight + n;
	return 0;
}
static long long ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}
int main(int argc, char **argv)
{
	long long start = ns(CLOCK_REALTIME), t0, t1;
	int n = argc > 1 ? atoi(argv[1]) : 100000;
	const char *out = getenv("BENCH_OUT");
	struct item it = { 1, 42 };
	char done[4096];
	FILE *f;

	t0 = ns(CLOCK_MONOTONIC);
	for (int i = 0; i < n; i++)
		hit(&it, i);
	t1 = ns(CLOCK_MONOTONIC);
	if (out) {
		f = fopen(out, "w");
		fprintf(f, "%lld %lld %lld %lld\n", start, (t1 - t0) / n, ns(CLOCK_REALTIME), (long long)n);
		fclose(f);
		snprintf(done, sizeof(done), "%s.done", out);
		fclose(fopen(done, "w"));
		usleep(400000); /* time to read bpf_stats while attached */
	}
	f = fopen(getenv("BENCH_END") ? getenv("BENCH_END") : "/dev/null", "w");
	fprintf(f, "%lld\n", ns(CLOCK_REALTIME));
	fclose(f);
	return 0;
}
"""

BODY = r"""
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
unsigned long long total;
SEC("uprobe/./hot:hit(it->weight, n)")
int on_hit(struct pt_regs *ctx, int weight, int n)
{
	__sync_fetch_and_add(&total, weight + n);
	return 0;
}
"""

SPEC = "uprobe/./hot:hit(it->weight, n)"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def prog_stats(min_cnt):
    """run_cnt, run_time_ns, xlated insns of the programs run >= min_cnt."""
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True,
                         text=True).stdout
    progs = [p for p in json.loads(out or "[]")
             if p.get("run_cnt", 0) >= min_cnt and p.get("type") in ("kprobe",)]
    if not progs:
        return None
    return (sum(p["run_cnt"] for p in progs), sum(p["run_time_ns"] for p in progs),
            max(p.get("bytes_xlated", 0) for p in progs) // 8)


def run_tool(name, argv, work, hits, out_file, count_lines):
    """Runs argv (which runs ./hot), returns a dict of measurements."""
    res = os.path.join(work, "res.txt")
    end = os.path.join(work, "end.txt")
    for p in (res, res + ".done", end):
        if os.path.exists(p):
            os.unlink(p)
    env = dict(os.environ, BENCH_OUT=res, BENCH_END=end)
    t_start = time.time_ns()
    with open(os.path.join(work, "tool.err"), "w") as err:
        proc = subprocess.Popen(argv, cwd=work, env=env, stdout=subprocess.DEVNULL
                                if not out_file else open(out_file, "w"), stderr=err)
        stats = None
        while proc.poll() is None:
            if stats is None and os.path.exists(res + ".done"):
                stats = prog_stats(int(hits * 0.99))
            time.sleep(0.005)
    t_exit = time.time_ns()
    with open(res) as f:
        start, per_iter, loop_end, n = map(int, f.read().split())
    with open(end) as f:
        target_end = int(f.read())
    errtext = open(os.path.join(work, "tool.err")).read()
    r = {"name": name, "ns_iter": per_iter, "startup_ms": (start - t_start) / 1e6,
         "exit_ms": (t_exit - target_end) / 1e6, "stats": stats, "err": errtext}
    if count_lines:
        r["events"] = count_lines()
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--hits", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    run = os.path.join(build, "bin", "bpfprobe-run")
    plugin = os.path.join(build, "lib", "libbpfprobe.so")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for tool in ("bpftrace", "perf", "bpftool"):
        if not shutil.which(tool):
            sys.exit("per-hit.py: %s is missing (apt-get install bpftrace linux-perf bpftool)" % tool)
    work = tempfile.mkdtemp(prefix="bpfprobe-per-hit.")
    with open(os.path.join(work, "hot.c"), "w") as f:
        f.write(TARGET)
    with open(os.path.join(work, "body.bpf.c"), "w") as f:
        f.write(BODY)
    sh(["gcc", "-g", "-O2", "hot.c", "-o", "hot"], cwd=work)
    # The clang the plugin was built for (bpftrace pulls in another LLVM).
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    m = re.search(r"^BPFPROBE_LLVM_VERSION:\w+=(\d+)", cache, re.M)
    clang = "/usr/lib/llvm-%s/bin/clang" % (m.group(1) if m else "19")
    multiarch = subprocess.run(["gcc", "-print-multiarch"], capture_output=True,
                               text=True).stdout.strip()
    sh([clang, "-target", "bpf", "-O2", "-g", "-I/usr/include/" + multiarch,
        "-I" + os.path.join(src, "include"), "-fplugin=" + plugin, "-c", "body.bpf.c",
        "-o", "body.o"], cwd=work)
    subprocess.run(["sysctl", "-q", "kernel.bpf_stats_enabled=1"], check=False)
    env_cache = os.path.join(work, "cache")
    os.environ["BPFPROBE_CACHE_DIR"] = env_cache
    # Compile the one-liners once, so startup is the cached case.
    sh([run, "-e", SPEC, "--", "true"], cwd=work, stdout=subprocess.DEVNULL,
       stderr=subprocess.DEVNULL)
    hits = str(a.hits)
    rec_out = os.path.join(work, "records.txt")
    bt_out = os.path.join(work, "bpftrace.txt")

    def lines(path):
        return lambda: sum(1 for l in open(path) if re.match(r"^-?\d+ -?\d+$", l))

    def perf_events():
        out = subprocess.run(["perf", "script", "-i", os.path.join(work, "perf.data")],
                             capture_output=True, text=True, cwd=work).stdout
        return out.count("\n")

    configs = [
        ("unprobed", ["./hot", hits], None, None),
        ("bpfprobe body", [run, "body.o", "--", "./hot", hits], None, None),
        ("bpfprobe record", [run, "-e", SPEC, "--", "./hot", hits], rec_out,
         lambda: sum(1 for l in open(rec_out) if l.startswith("hit "))),
        ("bpfprobe count", [run, "--count-only", "-e", SPEC, "--", "./hot", hits], None, None),
        ("bpftrace trap", ["bpftrace", "-e", "uprobe:./hot:hit { }", "-c", "./hot " + hits],
         None, None),
        ("bpftrace count", ["bpftrace", "-e", "uprobe:./hot:hit { @ = count(); }",
                            "-c", "./hot " + hits], None, None),
        ("bpftrace printf", ["bpftrace", "-o", bt_out, "-e",
                             'uprobe:./hot:hit { printf("%d %d\\n", *(int32*)(arg0 + 8), arg1); }',
                             "-c", "./hot " + hits], None, lines(bt_out)),
        ("perf record", ["perf", "record", "-q", "-o", os.path.join(work, "perf.data"), "-e",
                         "probe_hot:hit", "--", "./hot", hits], None, perf_events),
    ]
    only = set(a.only.split(",")) if a.only else None
    t = time.time()
    subprocess.run(["perf", "probe", "-q", "-d", "probe_hot:*"], cwd=work,
                   stderr=subprocess.DEVNULL)
    sh(["perf", "probe", "-q", "-x", "./hot", "hit it->weight n"], cwd=work)
    perf_probe_ms = (time.time() - t) * 1000
    results = {}
    for name, argv, out_file, counter in configs:
        if only and name not in only and name != "unprobed":
            continue
        rs = [run_tool(name, argv, work, a.hits, out_file, counter) for _ in range(a.runs)]
        med = statistics.median(r["ns_iter"] for r in rs)
        results[name] = {
            "ns_iter": med,
            "startup_ms": statistics.median(r["startup_ms"] for r in rs),
            "exit_ms": statistics.median(r["exit_ms"] for r in rs),
            "stats": next((r["stats"] for r in rs if r["stats"]), None),
            "lost": (max(a.hits - r["events"] for r in rs) if counter else None),
            "err": rs[-1]["err"],
        }
    subprocess.run(["perf", "probe", "-q", "-d", "probe_hot:*"], cwd=work,
                   stderr=subprocess.DEVNULL)
    base = results["unprobed"]["ns_iter"]
    trap = results.get("bpftrace trap", {}).get("ns_iter")
    print("per-hit cost, %d hits, median of %d runs; unprobed %.0f ns/iteration" %
          (a.hits, a.runs, base))
    hdr = "%-16s %10s %10s %8s %10s %6s %10s %8s %8s %8s" % (
        "tool", "ns/hit", "beyond", "lost", "bpf ns", "insns", "startup", "exit",
        "/bpftr.", "/perf")
    print(hdr)
    ref_bt = results.get("bpftrace printf", {}).get("ns_iter")
    ref_perf = results.get("perf record", {}).get("ns_iter")
    for name, r in results.items():
        if name == "unprobed":
            continue
        over = r["ns_iter"] - base
        beyond = (r["ns_iter"] - trap) if trap else float("nan")
        st = r["stats"]
        bpf_ns = "%.0f" % (st[1] / st[0]) if st and st[0] else "-"
        insns = str(st[2]) if st else "-"
        rb = "%.2f" % (over / (ref_bt - base)) if ref_bt and ref_bt > base else "-"
        rp = "%.2f" % (over / (ref_perf - base)) if ref_perf and ref_perf > base else "-"
        lost = "-" if r["lost"] is None else str(r["lost"])
        print("%-16s %10.0f %10.0f %8s %10s %6s %9.0fms %6.0fms %8s %8s" % (
            name, over, beyond, lost, bpf_ns, insns, r["startup_ms"], r["exit_ms"], rb, rp))
    print("ns/hit: over the unprobed run; beyond: over 'bpftrace trap' (the uprobe trap "
          "alone); bpf ns: BPF run time per hit (bpf_stats); startup: tool started to the "
          "target's main(); exit: the target's end to the tool's exit; perf probe -x took "
          "%.0f ms before perf record; ratios: ns/hit over bpftrace printf's and perf "
          "record's" % perf_probe_ms)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
