#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Boots Debian's own cloud kernel in QEMU to run kernel probes for real.

The host kernel of our machines has no kprobes; Debian's cloud kernel has
them, and it boots from an initramfs without modules. This one script is the
whole harness of test/Kernel:

  kernel-guest.py prepare           download and unpack the kernels (apt)
  kernel-guest.py info              print what the cache holds (key=value)
  kernel-guest.py run --put FILE... --script run.sh --out DIR
                                    boot, run run.sh in /work, collect /out

The cache (default /var/cache/bpfprobe/kernel, or $BPFPROBE_KERNEL_CACHE)
holds one directory per kernel release, unpacked from Debian's packages:
  <release>/boot/vmlinuz-<release>             the image (linux-image-<release>)
  <release>/lib/modules/<release>/...          its modules
  <release>/usr/lib/debug/boot/vmlinux-<release>   DWARF (from -dbg, only
  <release>/usr/lib/debug/lib/modules/...          vmlinux and the probed .ko)
  <release>/READY                              package version, written last
`prepare` takes the newest 6.1 cloud ABI for which apt offers the image and
the -dbg package at one version (the "current" kernel), and the image of the
next older ABI (the "stale" kernel, another build-id, for the refusal test).

`run` builds a gzip newc initramfs (static busybox, bpfprobe-run and the
libraries ldd lists, the --put files in /work, run.sh), boots it on one vCPU
(TCG unless a real KVM is there and BPFPROBE_GUEST_ACCEL=kvm), and waits
(--timeout) for the guest to power off. /init runs run.sh with /work as the
current directory and its output in /out/guest.log; every file under /out
comes back through the second serial port into --out DIR.
"""
import argparse
import glob
import gzip
import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

DEFAULT_CACHE = "/var/cache/bpfprobe/kernel"
# The module test/Kernel probes: tiny, no dependencies, no hardware (a RAM
# disk: brd rd_nr=1 rd_size=N gives /dev/ram0).
PROBED_MODULES = ["kernel/drivers/block/brd.ko"]
BEGIN = "=== bpfprobe-guest-file "
END = "=== bpfprobe-guest-end"


def die(msg):
    sys.stderr.write("kernel-guest.py: %s\n" % msg)
    sys.exit(1)


def cache_dir():
    return os.environ.get("BPFPROBE_KERNEL_CACHE", DEFAULT_CACHE)


# ---- prepare: apt ----

def apt_candidate(pkg):
    out = subprocess.run(["apt-cache", "policy", pkg], capture_output=True,
                         text=True).stdout
    m = re.search(r"Candidate:\s*(\S+)", out)
    return m.group(1) if m and m.group(1) != "(none)" else None


def cloud_abis():
    """6.1.0-N-cloud-amd64 releases apt offers an image for, newest first."""
    out = subprocess.run(["apt-cache", "search", "--names-only",
                          r"^linux-image-[0-9.]+-[0-9]+-cloud-amd64$"],
                         capture_output=True, text=True).stdout
    rels = re.findall(r"^linux-image-(\d+\.\d+\.\d+-\d+-cloud-amd64) ", out, re.M)
    key = lambda r: [int(x) for x in re.findall(r"\d+", r)]
    return sorted(set(rels), key=key, reverse=True)


def choose_releases():
    current = stale = None
    for rel in cloud_abis():
        img = apt_candidate("linux-image-%s" % rel)
        if not img:
            continue
        if current is None:
            if apt_candidate("linux-image-%s-dbg" % rel) == img:
                current = (rel, img)
        elif stale is None:
            stale = (rel, img)
            break
    if not current:
        die("apt offers no linux-image-*-cloud-amd64 with a -dbg package of "
            "the same version (run apt-get update)")
    if not stale:
        die("apt offers no second, older linux-image-*-cloud-amd64")
    return current, stale


def newer_release():
    """The newest Debian cloud kernel newer than 6.1 (bookworm's 6.12:
    struct file and others laid out differently) apt offers an image of,
    for the CO-RE portability tests: (release, package, version) or None."""
    out = subprocess.run(["apt-cache", "search", "--names-only",
                          r"^linux-image-[0-9.]+\+deb[0-9]+-cloud-amd64(-unsigned)?$"],
                         capture_output=True, text=True).stdout
    rels = re.findall(r"^linux-image-(\d+\.\d+\.\d+\+deb\d+-cloud-amd64)(?:-unsigned)? ",
                      out, re.M)
    key = lambda r: [int(x) for x in re.findall(r"\d+", r)]
    for rel in sorted(set(rels), key=key, reverse=True):
        for pkg in ("linux-image-%s" % rel, "linux-image-%s-unsigned" % rel):
            ver = apt_candidate(pkg)
            if ver:
                return rel, pkg, ver
    return None


def unpack(rel, version, with_dbg, pkg=None):
    top = os.path.join(cache_dir(), rel)
    ready = os.path.join(top, "READY")
    want = "%s%s\n" % (version, " dbg" if with_dbg else "")
    if os.path.exists(ready) and open(ready).read() == want:
        print("kernel-guest.py: %s %s is cached in %s" % (rel, version, top))
        return
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    debs = tempfile.mkdtemp(prefix="deb.", dir=cache_dir())
    try:
        pkgs = ["%s=%s" % (pkg or "linux-image-%s" % rel, version)]
        if with_dbg:
            pkgs.append("linux-image-%s-dbg=%s" % (rel, version))
        print("kernel-guest.py: downloading %s" % " ".join(pkgs))
        subprocess.run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root"] + pkgs, cwd=debs,
                       check=True, stdout=subprocess.DEVNULL)
        for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
            if "-dbg_" in os.path.basename(deb):
                # ~280 MB: take only vmlinux and the probed modules' DWARF.
                want_paths = ["./usr/lib/debug/boot/vmlinux-%s" % rel] + [
                    "./usr/lib/debug/lib/modules/%s/%s" % (rel, m)
                    for m in PROBED_MODULES]
                tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                                       stdout=subprocess.PIPE)
                subprocess.run(["tar", "-x", "-C", top] + want_paths,
                               stdin=tar.stdout, check=True)
                if tar.wait():
                    die("dpkg-deb failed on %s" % deb)
            else:
                subprocess.run(["dpkg-deb", "-x", deb, top], check=True)
    finally:
        shutil.rmtree(debs, ignore_errors=True)
    with open(ready, "w") as f:
        f.write(want)
    print("kernel-guest.py: unpacked %s %s into %s" % (rel, version, top))


def cmd_prepare(args):
    os.makedirs(cache_dir(), exist_ok=True)
    (rel, ver), (srel, sver) = choose_releases()
    unpack(rel, ver, True)
    unpack(srel, sver, False)
    newer = newer_release()
    if newer:
        unpack(newer[0], newer[2], False, pkg=newer[1])
    else:
        print("kernel-guest.py: apt offers no cloud kernel newer than 6.1; "
              "the CO-RE portability tests on a newer kernel will not run")
    keep = [rel, srel] + ([newer[0]] if newer else [])
    # The roles, for `info`; releases apt no longer picks are removed.
    with open(os.path.join(cache_dir(), "ROLES"), "w") as f:
        f.write("current=%s\nstale=%s\n" % (rel, srel))
        if newer:
            f.write("newer=%s\n" % newer[0])
    for old in glob.glob(os.path.join(cache_dir(), "*-cloud-amd64")):
        if os.path.basename(old) not in keep:
            shutil.rmtree(old, ignore_errors=True)


# ---- info ----

def roles():
    try:
        text = open(os.path.join(cache_dir(), "ROLES")).read()
    except OSError:
        return {}
    return dict(l.split("=", 1) for l in text.split() if "=" in l)


def kernel_files(rel):
    top = os.path.join(cache_dir(), rel)
    return {
        "vmlinuz": os.path.join(top, "boot", "vmlinuz-%s" % rel),
        "vmlinux": os.path.join(top, "usr/lib/debug/boot/vmlinux-%s" % rel),
        "modules": os.path.join(top, "lib/modules", rel),
        "debug_modules": os.path.join(top, "usr/lib/debug/lib/modules", rel),
        "ready": os.path.join(top, "READY"),
    }


def host_kvm_usable():
    """The issue's rule: KVM only where it is real; a nested (PVM) /dev/kvm
    makes QEMU 7.2 abort or crawl. Opt in with BPFPROBE_GUEST_ACCEL=kvm."""
    return (os.environ.get("BPFPROBE_GUEST_ACCEL") == "kvm" and
            os.path.exists("/dev/kvm") and
            any(os.path.isdir("/sys/module/%s" % m) for m in ("kvm_intel", "kvm_amd")))


def info():
    """What the lit config needs; missing pieces are named in 'missing'."""
    r = roles()
    res = {"cache": cache_dir(), "accel": "kvm" if host_kvm_usable() else "tcg"}
    missing = []
    for tool in ("qemu-system-x86_64", "perf"):
        if not shutil.which(tool):
            missing.append(tool)
    if not os.path.exists(busybox()):
        missing.append("static busybox (busybox-static)")
    cur, stale = r.get("current"), r.get("stale")
    if not cur:
        missing.append("%s/ROLES (run utils/kernel-guest.py prepare)" % cache_dir())
    else:
        files = kernel_files(cur)
        res["release"] = cur
        for k in ("vmlinuz", "vmlinux", "modules", "debug_modules"):
            res[k] = files[k]
        for k in ("ready", "vmlinuz", "vmlinux"):
            if not os.path.exists(files[k]):
                missing.append(files[k])
    if stale:
        sf = kernel_files(stale)
        res["stale_release"] = stale
        res["stale_vmlinuz"] = sf["vmlinuz"]
        res["stale_modules"] = sf["modules"]
        if not os.path.exists(sf["vmlinuz"]):
            missing.append(sf["vmlinuz"])
    res["missing"] = "; ".join(missing)
    return res


def cmd_info(args):
    for k, v in info().items():
        print("%s=%s" % (k, v))


# ---- run: initramfs and QEMU ----

def busybox():
    return "/bin/busybox"


class Cpio:
    """A newc cpio archive (what the kernel unpacks as its initramfs)."""

    def __init__(self):
        self.buf = io.BytesIO()
        self.ino = 1
        self.seen = set()

    def _entry(self, name, mode, data=b""):
        name = name.lstrip("/")
        if name in self.seen:
            return
        self.seen.add(name)
        nb = name.encode() + b"\0"
        hdr = "070701" + "".join("%08x" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(nb), 0))
        self.ino += 1
        self.buf.write(hdr.encode() + nb)
        self.buf.write(b"\0" * ((4 - (110 + len(nb)) % 4) % 4))
        self.buf.write(data)
        self.buf.write(b"\0" * ((4 - len(data) % 4) % 4))

    def dir(self, name):
        parts = name.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            self._entry("/".join(parts[:i]), stat.S_IFDIR | 0o755)

    def file(self, name, data, mode=0o644):
        self.dir(os.path.dirname(name.strip("/")) or ".")
        self._entry(name, stat.S_IFREG | mode, data)

    def copy(self, src, name=None):
        st = os.stat(src)
        with open(src, "rb") as f:
            self.file(name or src, f.read(), st.st_mode & 0o777)

    def symlink(self, name, target):
        self.dir(os.path.dirname(name.strip("/")))
        self._entry(name, stat.S_IFLNK | 0o777, target.encode())

    def close(self):
        self._entry("TRAILER!!!", 0)
        return gzip.compress(self.buf.getvalue(), 6)


def libraries(binary):
    """The shared libraries ldd lists, with the dynamic loader."""
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    libs = []
    for line in out.splitlines():
        m = re.search(r"(/\S+) \(0x", line)
        if m:
            libs.append(m.group(1))
    return libs


INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mkdir -p /proc /sys /dev /tmp /out
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mount -t bpf bpf /sys/fs/bpf
mount -t tmpfs tmp /tmp
stty -F /dev/ttyS1 raw -echo 2>/dev/null
echo "bpfprobe-guest: $(uname -r) up" > /dev/ttyS0
cd /work
sh /work/run.sh > /out/guest.log 2>&1
echo "run.sh exit status $?" >> /out/guest.log
{
  for f in /out/*; do
    echo "%(begin)s${f#/out/}"
    cat "$f"
  done
  echo "%(end)s"
} > /dev/ttyS1
sync
poweroff -f
""" % {"begin": BEGIN, "end": END}


def build_initramfs(put, script, run_binary):
    c = Cpio()
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "proc", "sys", "dev", "tmp",
              "out", "work", "root"):
        c.dir(d)
    c.copy(busybox(), "/bin/busybox")
    c.symlink("/bin/sh", "busybox")
    c.file("/init", INIT.encode(), 0o755)
    binaries = [run_binary]
    for b in binaries:
        c.copy(b, "/bin/" + os.path.basename(b))
        for lib in libraries(b):
            real = os.path.realpath(lib)
            c.copy(real, lib)
    for p in put:
        # NAME or SRC=NAME: the file lands in /work/NAME.
        src, _, name = p.partition("=")
        name = name or os.path.basename(src)
        c.copy(src, "/work/" + name)
    c.copy(script, "/work/run.sh")
    return c.close()


def cmd_run(args):
    inf = info()
    rel = args.release or inf.get("release")
    if args.stale:
        rel = inf.get("stale_release")
    if not rel:
        die("no kernel in the cache: %s" % inf["missing"])
    vmlinuz = kernel_files(rel)["vmlinuz"]
    if not os.path.exists(vmlinuz):
        die("%s is missing (run utils/kernel-guest.py prepare)" % vmlinuz)
    run_binary = args.run_binary or shutil.which("bpfprobe-run")
    if not run_binary:
        die("bpfprobe-run not found in PATH (pass --run-binary)")
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="kernel-guest.")
    try:
        initrd = os.path.join(work, "initrd.gz")
        with open(initrd, "wb") as f:
            f.write(build_initramfs(args.put, args.script, run_binary))
        serial1 = os.path.join(work, "serial1")
        console = os.path.join(args.out, "console.txt")
        accel = "kvm" if host_kvm_usable() else "tcg"
        cmd = ["qemu-system-x86_64", "-accel", accel, "-cpu",
               "host" if accel == "kvm" else "max", "-m", "1G", "-smp", "1",
               "-kernel", vmlinuz, "-initrd", initrd,
               "-append", "console=ttyS0 quiet panic=-1 oops=panic " + args.append,
               "-display", "none", "-monitor", "none", "-nodefaults",
               "-serial", "file:%s" % console, "-serial", "file:%s" % serial1,
               "-no-reboot"]
        start = time.time()
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=args.timeout)
        except subprocess.TimeoutExpired:
            die("the guest did not power off within %d s; its console is in %s"
                % (args.timeout, console))
        took = time.time() - start
        if proc.returncode:
            die("qemu exited with %d: %s" % (proc.returncode,
                                             proc.stdout.decode(errors="replace")))
        data = open(serial1, "rb").read().decode(errors="replace").replace("\r", "")
        if END not in data:
            die("the guest powered off without its results (%.0f s); its console is in %s"
                % (took, console))
        files = {}
        cur = None
        for line in data.split("\n"):
            if line.startswith(BEGIN):
                cur = line[len(BEGIN):]
                files[cur] = []
            elif line == END:
                break
            elif cur is not None:
                files[cur].append(line)
        for name, lines in files.items():
            with open(os.path.join(args.out, os.path.basename(name)), "w") as f:
                f.write("".join(l + "\n" for l in lines))
        sys.stderr.write("kernel-guest.py: %s guest (%s) ran in %.1f s; results in %s\n"
                         % (rel, accel, took, args.out))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("prepare").set_defaults(fn=cmd_prepare)
    sub.add_parser("info").set_defaults(fn=cmd_info)
    r = sub.add_parser("run")
    r.add_argument("--put", nargs="*", default=[],
                   help="files for /work (SRC or SRC=NAME)")
    r.add_argument("--script", required=True, help="shell script run in /work")
    r.add_argument("--out", required=True, help="directory for /out's files")
    r.add_argument("--release", help="kernel release (default: the current one)")
    r.add_argument("--stale", action="store_true",
                   help="boot the cache's older kernel instead")
    r.add_argument("--run-binary", help="bpfprobe-run to copy into the guest")
    r.add_argument("--append", default="", help="more kernel command line")
    r.add_argument("--timeout", type=int, default=300)
    r.set_defaults(fn=cmd_run)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
