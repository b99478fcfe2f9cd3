#!/usr/bin/env python3
"""bench/resolve.py - bpfprobe-resolve against `perf probe -D` on a kernel.

usage: bench/resolve.py [--resolve PATH] [--vmlinux PATH] [--runs N]
                        [--perf-runs N] [--cold] [--no-install]

Resolves the same kernel probes (function entries, relative lines, member
chains, locals, strings) with `bpfprobe-resolve --debuginfo VMLINUX` and
with `perf probe -k VMLINUX -D`, 1 probe and 10 probes per invocation, and
prints the median wall time, the peak RSS (getrusage of the child, the
"Maximum resident set size" of /usr/bin/time -v) and the ratios
perf/bpfprobe. It also checks that the two agree on every fetch and says
where they do not.

The vmlinux is the Debian cloud kernel's debug image: if none is installed
under /usr/lib/debug/boot, the newest linux-image-*-cloud-amd64-dbg that
apt knows is installed (about 1 GB to download, 340 MB of vmlinux: for the
bench, never for CI). Needs root for that, perf (Debian: linux-perf) and a
built bpfprobe-resolve. Timings are warm page cache unless --cold is given,
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

# (bpfprobe spec, perf probe spec): the same place and values.
PROBES = [
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

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    sys.exit("bench/resolve.py: " + msg)


def find_resolve(given):
    if given:
        return given
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


def measure(cmd, runs, cold_file=None):
    """Median wall time, peak RSS (KiB), and the output of the last run."""
    walls, rss = [], []
    for _ in range(runs):
        if cold_file:
            evict(cold_file)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=out, stderr=err)
            # wait4 gives this child's own rusage: ru_maxrss is the "Maximum
            # resident set size" /usr/bin/time -v prints.
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
            proc.returncode = os.waitstatus_to_exitcode(status)
            rss.append(usage.ru_maxrss)
            out.seek(0)
            err.seek(0)
            text, errors = out.read().decode(), err.read().decode()
        if proc.returncode != 0:
            die("%s failed (%d):\n%s%s" % (" ".join(cmd[:3]), proc.returncode,
                                          text, errors))
    return statistics.median(walls), max(rss), text, errors


def resolve_cmd(resolve, vmlinux, probes):
    return [resolve, "--debuginfo", vmlinux] + [b for b, _ in probes]


def perf_cmd(perf, vmlinux, probes):
    cmd = [perf, "probe", "-k", vmlinux]
    for _, p in probes:
        cmd += ["-D", p]
    return cmd


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--resolve", help="the bpfprobe-resolve to time")
    ap.add_argument("--vmlinux", help="the kernel image with DWARF")
    ap.add_argument("--perf", default=shutil.which("perf"),
                    help="perf (default: from PATH)")
    ap.add_argument("--runs", type=int, default=7,
                    help="runs of bpfprobe-resolve per case (median)")
    ap.add_argument("--perf-runs", type=int, default=3,
                    help="runs of perf probe per case (median)")
    ap.add_argument("--cold", action="store_true",
                    help="also time with the vmlinux out of the page cache")
    ap.add_argument("--no-install", action="store_true",
                    help="do not apt-get install the kernel debug image")
    opts = ap.parse_args()
    if not opts.perf:
        die("perf not found (Debian: apt-get install linux-perf)")
    resolve = find_resolve(opts.resolve)
    vmlinux = find_vmlinux(opts.vmlinux, not opts.no_install)

    print("date:       %s" % time.strftime("%Y-%m-%d %H:%M %Z"))
    print("machine:    %s" % machine())
    print("vmlinux:    %s (%d MB)" % (vmlinux, os.path.getsize(vmlinux) >> 20))
    print("bpfprobe:   %s" % resolve)
    print("perf:       %s" % subprocess.run([opts.perf, "version"],
                                            capture_output=True,
                                            text=True).stdout.strip())
    print()

    modes = [("warm", None)] + ([("cold", vmlinux)] if opts.cold else [])
    rows = []
    for count in (1, 10):
        probes = PROBES[:count]
        ours_cmd = resolve_cmd(resolve, vmlinux, probes)
        perf_cmd_ = perf_cmd(opts.perf, vmlinux, probes)
        # Warm-up (and the page cache for the warm runs).
        subprocess.run(ours_cmd, capture_output=True)
        subprocess.run(perf_cmd_, capture_output=True)
        for mode, cold in modes:
            ow, orss, oout, _ = measure(ours_cmd, opts.runs, cold)
            pw, prss, pout, perr = measure(perf_cmd_, opts.perf_runs, cold)
            rows.append((count, mode, ow, orss, pw, prss))
        same, total, notes = compare(oout, pout + perr, probes)
        print("%d probe%s: %d of %d fetches identical to perf's"
              % (count, "" if count == 1 else "s", same, total))
        for n in notes:
            print(n)
        if notes:
            print("  (where they differ, compare with the variable's DWARF "
                  "location, llvm-dwarfdump --name=VAR -c VMLINUX: perf "
                  "drops the arithmetic of DW_OP_stack_value locations)")
        if count == 10:
            stats = subprocess.run(ours_cmd[:1] + ["--stats"] + ours_cmd[1:],
                                   capture_output=True, text=True).stderr
            print(stats.strip())
            print()
            print("bpfprobe-resolve:")
            print(oout.rstrip())
            print("perf probe -D:")
            print((pout + perr).rstrip())
        print()

    print("%-10s %-5s %14s %14s %12s %12s %9s %9s" % (
        "probes", "cache", "bpfprobe wall", "perf wall", "bpfprobe RSS",
        "perf RSS", "time x", "RSS x"))
    for count, mode, ow, orss, pw, prss in rows:
        print("%-10d %-5s %12.3f s %12.3f s %9.1f MB %9.1f MB %8.1fx %8.1fx" % (
            count, mode, ow, pw, orss / 1024, prss / 1024, pw / ow,
            prss / orss))
    print("\n(time x and RSS x are perf / bpfprobe; wall is the median of %d "
          "bpfprobe and %d perf runs, RSS the peak)" % (opts.runs,
                                                       opts.perf_runs))


if __name__ == "__main__":
    main()
