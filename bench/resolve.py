#!/usr/bin/env python3
"""bench/resolve.py - kernel probe resolution against `perf probe -D`.

usage: bench/resolve.py [--build DIR] [--resolve PATH] [--plugin PATH]
                        [--clang PATH] [--vmlinux PATH] [--runs N]
                        [--perf-runs N] [--cold] [--no-install]

The same kernel probes (function entries, relative lines, member chains,
locals, strings), 1 probe and then 10 in one invocation, timed in one run,
the tools alternating round by round:
  perf           perf probe -k VMLINUX -D SPEC...
  resolve        bpfprobe-resolve --debuginfo VMLINUX SPEC...
  clang+plugin   clang -target bpf -g -O2 -fplugin=libbpfprobe.so
                 -fplugin-arg-bpfprobe-debuginfo=VMLINUX -c of a file with
                 one BPF_PROBE_RECORD per probe: what a user waits for
  clang          the same file and flags with plain SEC("kprobe/...")
                 functions in place of the probes (the plugin loaded, no
                 probe): clang itself
It prints the median wall time, the peak RSS (the child's ru_maxrss from
wait4, the "Maximum resident set size" of /usr/bin/time -v), the ratios
perf/bpfprobe against the goals of issue 19 (10 probes in one compile 80x
faster than perf, 1 probe 15x, RSS at most half of perf's), and the part of
the compile that is clang itself. It also checks that bpfprobe-resolve and
perf agree on every fetch and says where they do not.

The vmlinux is the Debian cloud kernel's debug image: the one
utils/kernel-guest.py prepare unpacked (the kernel test/Kernel probes), else
one installed under /usr/lib/debug/boot, else the newest
linux-image-*-cloud-amd64-dbg apt knows is installed (about 1 GB to
download: for the bench, never for CI; needs root). Needs perf (Debian:
linux-perf) and a build (--build DIR: bin/bpfprobe-resolve,
lib/libbpfprobe.so). Timings are warm page cache unless --cold is given,
which also measures with the vmlinux evicted from the page cache before each
run (posix_fadvise DONTNEED on that one file).
"""

import argparse
import glob
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# (bpfprobe spec, perf probe spec): the same place and values. Relative
# lines and offsets are those of one kernel series: the 6.12 list
# (bookworm's 6.12) and the 6.1 one (the 6.1 cloud kernels of test/Kernel;
# the first probe is the one of test/Kernel/seed-example.test).
PROBES_6_12 = [
    ("kprobe/vfs_read(file->f_mapping, count)",
     "vfs_read file->f_mapping count"),
    ("kprobe/vfs_write(file->f_inode->i_ino, count)",
     "vfs_write file->f_inode->i_ino count"),
    ("kprobe/generic_perform_write:29(bytes, pos, mapping->a_ops, "
     "iocb->ki_filp->f_inode->i_ino)",
     "generic_perform_write:29 bytes pos mapping->a_ops "
     "iocb->ki_filp->f_inode->i_ino"),
    ("kprobe/do_sys_openat2(dfd, how->flags, how->mode)",
     "do_sys_openat2 dfd how->flags how->mode"),
    ("kprobe/tcp_sendmsg(sk->__sk_common.skc_dport, size)",
     "tcp_sendmsg sk->__sk_common.skc_dport size"),
    ("kprobe/wake_up_new_task(p->pid, p->comm:string)",
     "wake_up_new_task p->pid p->comm:string"),
    ("kprobe/do_filp_open(dfd, pathname->name:string, op->open_flag)",
     "do_filp_open dfd pathname->name:string op->open_flag"),
    ("kprobe/kernel_clone(args->flags, args->exit_signal)",
     "kernel_clone args->flags args->exit_signal"),
    ("kprobe/__schedule:80(prev->pid, next->pid, rq->nr_running)",
     "__schedule:80 prev->pid next->pid rq->nr_running"),
    ("kprobe/filemap_read:47(iocb->ki_pos, ra->size, last_pos, "
     "mapping->nrpages)",
     "filemap_read:47 iocb->ki_pos ra->size last_pos mapping->nrpages"),
]

PROBES_6_1 = [
    ("kprobe/generic_perform_write+184(file->f_mapping->a_ops, bytes, "
     "offset)",
     "generic_perform_write+184 file->f_mapping->a_ops bytes offset"),
    ("kprobe/vfs_read(file->f_mapping, count)",
     "vfs_read file->f_mapping count"),
    ("kprobe/vfs_write(file->f_inode->i_ino, count)",
     "vfs_write file->f_inode->i_ino count"),
    ("kprobe/generic_perform_write:37(bytes, pos, mapping->a_ops, "
     "iocb->ki_filp->f_inode->i_ino)",
     "generic_perform_write:37 bytes pos mapping->a_ops "
     "iocb->ki_filp->f_inode->i_ino"),
    ("kprobe/do_sys_openat2(dfd, how->flags, how->mode)",
     "do_sys_openat2 dfd how->flags how->mode"),
    ("kprobe/tcp_sendmsg(sk->__sk_common.skc_dport, size)",
     "tcp_sendmsg sk->__sk_common.skc_dport size"),
    ("kprobe/wake_up_new_task(p->pid, p->comm:string)",
     "wake_up_new_task p->pid p->comm:string"),
    ("kprobe/do_filp_open(dfd, pathname->name:string, op->open_flag)",
     "do_filp_open dfd pathname->name:string op->open_flag"),
    ("kprobe/__schedule:87(prev->pid, next->pid, rq->nr_running)",
     "__schedule:87 prev->pid next->pid rq->nr_running"),
    ("kprobe/filemap_read+230(iocb->ki_pos, ra->size, mapping->nrpages, "
     "already_read)",
     "filemap_read+230 iocb->ki_pos ra->size mapping->nrpages already_read"),
]


def probes_for(vmlinux):
    """The probe list of the vmlinux's kernel series."""
    m = re.search(r"vmlinux-(\d+)\.(\d+)", os.path.basename(vmlinux))
    return PROBES_6_1 if m and m.groups() == ("6", "1") else PROBES_6_12

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    sys.exit("bench/resolve.py: " + msg)


def find_resolve(given, build):
    if given:
        return given
    if build:
        return os.path.join(build, "bin", "bpfprobe-resolve")
    if os.environ.get("BPFPROBE_RESOLVE"):
        return os.environ["BPFPROBE_RESOLVE"]
    built = glob.glob(os.path.join(REPO, "build*", "bin", "bpfprobe-resolve"))
    if built:
        return max(built, key=os.path.getmtime)
    on_path = shutil.which("bpfprobe-resolve")
    if on_path:
        return on_path
    die("no bpfprobe-resolve: build it (ninja -C build bpfprobe-resolve) "
        "or pass --resolve PATH")


def release_key(name):
    """linux-image-6.12.117+deb12-cloud-amd64-dbg -> (6, 12, 117, 12)."""
    m = re.match(r"linux-image-(.*)-cloud-amd64-dbg$", name)
    return tuple(int(n) for n in re.findall(r"\d+", m.group(1))) if m else ()


def install_vmlinux():
    """Installs the newest Debian cloud kernel debug image; returns its
    vmlinux."""
    out = subprocess.run(["apt-cache", "search", "--names-only",
                          r"^linux-image-.*-cloud-amd64-dbg$"],
                         capture_output=True, text=True, check=True).stdout
    # Versioned packages only: "linux-image-6.12.117+deb12-cloud-amd64-dbg",
    # not the meta packages "linux-image-cloud-amd64-dbg" and
    # "linux-image-6.12-cloud-amd64-dbg".
    names = [l.split()[0] for l in out.splitlines() if l.strip()]
    names = [n for n in names
             if re.match(r"linux-image-\d+\.\d+\.\d+.*-cloud-amd64-dbg$", n)]
    if not names:
        die("apt knows no linux-image-*-cloud-amd64-dbg package "
            "(run apt-get update, or pass --vmlinux PATH)")
    pkg = max(names, key=release_key)
    if os.geteuid() != 0:
        die("no kernel debug image installed; as root run: apt-get install "
            "-y %s (or pass --vmlinux PATH)" % pkg)
    print("installing %s (about 1 GB) ..." % pkg, flush=True)
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends",
                    pkg], check=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    release = re.match(r"linux-image-(.*)-dbg$", pkg).group(1)
    path = "/usr/lib/debug/boot/vmlinux-%s" % release
    if not os.path.exists(path):
        die("%s installed but %s is missing" % (pkg, path))
    return path


def find_vmlinux(given, may_install):
    if given:
        return given
    # What utils/kernel-guest.py prepare unpacked: the kernel of test/Kernel.
    cache = os.environ.get("BPFPROBE_KERNEL_CACHE",
                           "/var/cache/bpfprobe/kernel")
    for ready in sorted(glob.glob(os.path.join(cache, "*", "READY"))):
        top = os.path.dirname(ready)
        if open(ready).read().split()[-1:] != ["dbg"]:
            continue
        path = os.path.join(top, "usr/lib/debug/boot",
                            "vmlinux-" + os.path.basename(top))
        if os.path.exists(path):
            return path
    found = sorted(glob.glob("/usr/lib/debug/boot/vmlinux-*-cloud-amd64"),
                   key=lambda p: release_key(
                       "linux-image-%s-dbg" % os.path.basename(p)[8:]))
    if found:
        return found[-1]
    if not may_install:
        die("no /usr/lib/debug/boot/vmlinux-*-cloud-amd64; pass --vmlinux "
            "PATH or drop --no-install")
    return install_vmlinux()


def evict(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def run_once(cmd, cold_file=None):
    """Wall time, peak RSS (KiB), stdout and stderr of one run."""
    if cold_file:
        evict(cold_file)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        # wait4 gives this child's own rusage: ru_maxrss is the "Maximum
        # resident set size" /usr/bin/time -v prints (clang runs cc1 in its
        # own process).
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode()
    if code != 0:
        die("%s failed (%d):\n%s%s" % (" ".join(cmd[:3]), code, text, errors))
    return wall, usage.ru_maxrss, text, errors


def resolve_cmd(resolve, vmlinux, probes):
    return [resolve, "--debuginfo", vmlinux] + [b for b, _ in probes]


def perf_cmd(perf, vmlinux, probes):
    cmd = [perf, "probe", "-k", vmlinux]
    for _, p in probes:
        cmd += ["-D", p]
    return cmd


BPF_HEADER = """#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpfprobe/bpfprobe.h>

char LICENSE[] SEC("license") = "GPL";
"""


def bpf_sources(probes, work):
    """Two BPF files: one probe per spec, and the same functions as plain
    kprobe programs (what clang compiles without the plugin's work)."""
    with_probes = BPF_HEADER
    plain = BPF_HEADER
    for i, (spec, _) in enumerate(probes):
        with_probes += 'BPF_PROBE_RECORD_NAMED(p%d, "%s");\n' % (i, spec)
        function = re.match(r"kprobe/([A-Za-z0-9_]+)", spec).group(1)
        plain += ('SEC("kprobe/%s") int p%d(struct pt_regs *ctx) '
                  '{ return 0; }\n' % (function, i))
    paths = []
    for name, text in (("probes", with_probes), ("plain", plain)):
        path = os.path.join(work, "%s-%d.bpf.c" % (name, len(probes)))
        with open(path, "w") as f:
            f.write(text)
        paths.append(path)
    return paths


def clang_cmd(clang, plugin, vmlinux, source, work):
    include = os.path.join(REPO, "include")
    multiarch = "/usr/include/%s-linux-gnu" % platform.machine()
    return [clang, "-target", "bpf", "-I", include, "-I", multiarch,
            "-fplugin=" + plugin, "-g", "-O2",
            "-fplugin-arg-bpfprobe-debuginfo=" + vmlinux, "-c", source,
            "-o", os.path.join(work, os.path.basename(source) + ".o")]


def parse_events(text):
    """kprobe_events lines -> [(place, [(fetch, width)])]."""
    events = []
    for line in text.splitlines():
        if not line.startswith(("p:", "r:")):
            continue
        fields = line.split()
        place = re.sub(r"\+0$", "", fields[1])
        args = []
        for a in fields[2:]:
            value = a.split("=", 1)[1]
            fetch, _, typ = value.rpartition(":")
            width = "string" if typ == "string" else re.sub(r"\D", "", typ)
            args.append((fetch, width))
        events.append((place, args))
    return events


def compare(ours, perfs, probes):
    """Lines saying where the plans agree and where they differ."""
    a, b = parse_events(ours), parse_events(perfs)
    same, total, notes = 0, 0, []
    for (bp, _), (place1, args1), (place2, args2) in zip(probes, a, b):
        if place1 != place2:
            notes.append("  %s: placed at %s by bpfprobe, %s by perf"
                         % (bp, place1, place2))
        names = re.search(r"\((.*)\)$", bp).group(1).split(", ")
        for name, x, y in zip(names, args1, args2):
            total += 1
            if x == y:
                same += 1
            else:
                notes.append("  %s: %s  bpfprobe %s:%s, perf %s:%s"
                             % (bp.split("(")[0], name, x[0], x[1], y[0],
                                y[1]))
    return same, total, notes


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 30
    return "%s, %d CPUs, %d GiB RAM, Linux %s" % (cpu, os.cpu_count(), mem,
                                                  platform.release())


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", help="a build directory (bin/bpfprobe-resolve, "
                    "lib/libbpfprobe.so)")
    ap.add_argument("--resolve", help="the bpfprobe-resolve to time")
    ap.add_argument("--plugin", help="the libbpfprobe.so to time")
    ap.add_argument("--clang", help="the clang that loads it (default: "
                    "clang of the LLVM the build uses, else from PATH)")
    ap.add_argument("--vmlinux", help="the kernel image with DWARF")
    ap.add_argument("--perf", default=shutil.which("perf"),
                    help="perf (default: from PATH)")
    ap.add_argument("--runs", type=int, default=7,
                    help="rounds: runs of each bpfprobe case (median)")
    ap.add_argument("--perf-runs", type=int, default=3,
                    help="runs of perf probe per case, in the first rounds")
    ap.add_argument("--cold", action="store_true",
                    help="also time with the vmlinux out of the page cache")
    ap.add_argument("--no-install", action="store_true",
                    help="do not apt-get install the kernel debug image")
    opts = ap.parse_args()
    if not opts.perf:
        die("perf not found (Debian: apt-get install linux-perf)")
    resolve = find_resolve(opts.resolve, opts.build)
    build = opts.build or os.path.dirname(os.path.dirname(resolve))
    plugin = opts.plugin or os.path.join(build, "lib", "libbpfprobe.so")
    if not os.path.exists(plugin):
        die("no plugin at %s: pass --build DIR or --plugin PATH" % plugin)
    clang = opts.clang
    if not clang:
        # The LLVM the build was configured for (its lit configuration).
        site = os.path.join(build, "test", "lit.site.cfg.py")
        m = re.search(r'^config.llvm_tools_dir = "(.*)"$',
                      open(site).read() if os.path.exists(site) else "",
                      re.M)
        clang = (os.path.join(m.group(1), "clang") if m
                 else shutil.which("clang"))
    vmlinux = find_vmlinux(opts.vmlinux, not opts.no_install)
    all_probes = probes_for(vmlinux)
    work = tempfile.mkdtemp(prefix="bpfprobe-bench-resolve.")

    print("date:       %s" % time.strftime("%Y-%m-%d %H:%M %Z"))
    print("machine:    %s" % machine())
    print("load:       %s (1, 5, 15 min)" % " ".join(
        "%.1f" % x for x in os.getloadavg()))
    print("vmlinux:    %s (%d MB)" % (vmlinux, os.path.getsize(vmlinux) >> 20))
    print("bpfprobe:   %s, %s" % (resolve, plugin))
    print("clang:      %s" % clang)
    print("perf:       %s" % subprocess.run([opts.perf, "version"],
                                            capture_output=True,
                                            text=True).stdout.strip())
    print()

    modes = [("warm", None)] + ([("cold", vmlinux)] if opts.cold else [])
    tools = ("perf", "resolve", "clang+plugin", "clang")
    results = {}  # (count, mode, tool) -> [(wall, rss)]
    for count in (1, 10):
        probes = all_probes[:count]
        with_probes, plain = bpf_sources(probes, work)
        cmds = {
            "perf": perf_cmd(opts.perf, vmlinux, probes),
            "resolve": resolve_cmd(resolve, vmlinux, probes),
            "clang+plugin": clang_cmd(clang, plugin, vmlinux, with_probes,
                                      work),
            "clang": clang_cmd(clang, plugin, vmlinux, plain, work),
        }
        # Warm-up (and the page cache for the warm runs).
        outputs = {t: run_once(cmds[t]) for t in tools}
        for mode, cold in modes:
            # Round by round, each tool once: load from other processes
            # falls on all of them alike.
            for r in range(opts.runs):
                for t in tools:
                    if t == "perf" and r >= opts.perf_runs:
                        continue
                    wall, rss, out, err = run_once(cmds[t], cold)
                    results.setdefault((count, mode, t), []).append(
                        (wall, rss))
        oout = outputs["resolve"][2]
        pout = outputs["perf"][2] + outputs["perf"][3]
        same, total, notes = compare(oout, pout, probes)
        print("%d probe%s: %d of %d fetches identical to perf's"
              % (count, "" if count == 1 else "s", same, total))
        for n in notes:
            print(n)
        if notes:
            print("  (where they differ, compare with the variable's DWARF "
                  "location, llvm-dwarfdump --name=VAR -c VMLINUX: perf "
                  "drops the arithmetic of DW_OP_stack_value locations)")
        stats = subprocess.run(cmds["resolve"][:1] + ["--stats"] +
                               cmds["resolve"][1:], capture_output=True,
                               text=True).stderr
        print(stats.strip())
        if count == 10:
            print()
            print("bpfprobe-resolve:")
            print(oout.rstrip())
            print("perf probe -D:")
            print(pout.rstrip())
        print()

    print("%-6s %-5s %-13s %10s %10s %11s %10s" % (
        "probes", "cache", "tool", "wall", "RSS", "perf/tool", "RSS perf/"))
    for count in (1, 10):
        for mode, _ in modes:
            pw = median([w for w, _ in results[(count, mode, "perf")]])
            prss = max(r for _, r in results[(count, mode, "perf")])
            for t in tools:
                walls = [w for w, _ in results[(count, mode, t)]]
                rss = max(r for _, r in results[(count, mode, t)])
                w = median(walls)
                print("%-6d %-5s %-13s %8.3f s %7.1f MB %10.1fx %9.1fx" % (
                    count, mode, t, w, rss / 1024, pw / w, prss / rss))
    print("\n(wall: median of %d bpfprobe and %d perf runs, alternating; "
          "RSS: the peak; perf/tool: perf's median over the tool's)"
          % (opts.runs, opts.perf_runs))

    print()
    goals = {1: 15, 10: 80}
    for count in (1, 10):
        key = (count, "warm")
        pw = median([w for w, _ in results[key + ("perf",)]])
        prss = max(r for _, r in results[key + ("perf",)])
        cw = median([w for w, _ in results[key + ("clang+plugin",)]])
        crss = max(r for _, r in results[key + ("clang+plugin",)])
        bare = median([w for w, _ in results[key + ("clang",)]])
        rw = median([w for w, _ in results[key + ("resolve",)]])
        print("%2d probe%s, warm: the compile is %.1fx faster than perf "
              "(goal %dx: %s), its RSS %.0f%% of perf's (goal 50%%: %s); "
              "clang itself %.0f ms of its %.0f ms, the probes %.0f ms "
              "(bpfprobe-resolve alone: %.0f ms)" % (
                  count, " " if count == 1 else "s", pw / cw, goals[count],
                  "met" if pw / cw >= goals[count] else "NOT met",
                  100.0 * crss / prss,
                  "met" if crss * 2 <= prss else "NOT met", bare * 1000,
                  cw * 1000, (cw - bare) * 1000, rw * 1000))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
