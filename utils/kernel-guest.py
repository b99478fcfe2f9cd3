#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Boots Debian's own cloud kernel in QEMU to run kernel probes for real.

The host kernel of our machines has no kprobes; Debian's cloud kernel has
them, and it boots from an initramfs without modules. This one script is the
whole harness of test/Kernel:

  kernel-guest.py prepare           fetch and unpack the pinned kernels
  kernel-guest.py pins [--update]   show the pins (--update: move them to
                                    the newest packages apt offers)
  kernel-guest.py info              print what the cache holds (key=value)
  kernel-guest.py run --put FILE... --script run.sh --out DIR
                                    boot, run run.sh in /work, collect /out

The kernels are pinned: utils/kernel-guest.pins (or $BPFPROBE_KERNEL_PINS)
names each package at one version with its archive path and SHA256, because
test/Kernel checks offsets and lines of that exact build. The roles: the
"current" kernel (the image and its -dbg package), the "stale" one (an older
6.1 image: another build-id, for the refusal test) and the "newer" one
(6.12: struct file laid out differently, for the CO-RE tests). `prepare`
fetches exactly those versions even when apt offers newer ones: with apt
while its index lists them, else by URL from deb.debian.org's pools
(security, then main, where a point release copies security updates) or
snapshot.debian.org; every .deb's SHA256 must equal the pin's. When no
source has a pinned package, prepare fails naming the pin and how to move
it, and leaves the reason in <cache>/PREPARE-FAILED: `info` reports it as
missing, lit says why the kernel-guest tests are skipped, and
BPFPROBE_REQUIRE_LIVE=1 makes that fatal.

Moving a pin is a change of its own: `kernel-guest.py pins --update`
rewrites the file with apt's newest packages, then `prepare`, run test/Kernel
(lit -j1), and update the offsets and lines the seed and inlined-copies
tests expect (and the release their comments name), in one commit.

The cache (default /var/cache/bpfprobe/kernel, or $BPFPROBE_KERNEL_CACHE)
holds one directory per kernel release, unpacked from Debian's packages:
  <release>/boot/vmlinuz-<release>             the image (linux-image-<release>)
  <release>/lib/modules/<release>/...          its modules
  <release>/usr/lib/debug/boot/vmlinux-<release>   DWARF (from -dbg, only
  <release>/usr/lib/debug/lib/modules/...          vmlinux and the probed .ko)
  <release>/READY                              package version, written last
A release whose READY differs from its pin counts as missing; `prepare`
replaces it and removes releases no pin names.

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
DEFAULT_PINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernel-guest.pins")
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


# ---- pins: the exact packages test/Kernel was written against ----

ROLES = ("current", "stale", "newer")
PIN_FIELDS = ("Role", "Package", "Version", "Filename", "SHA256")


class PinError(Exception):
    pass


def pins_path():
    return os.environ.get("BPFPROBE_KERNEL_PINS", DEFAULT_PINS)


def pin_release(pkg):
    """linux-image-6.1.0-57-cloud-amd64-dbg -> 6.1.0-57-cloud-amd64."""
    m = re.match(r"linux-image-(.+-cloud-amd64)(?:-dbg|-unsigned)?$", pkg)
    return m.group(1) if m else None


def read_pins():
    """{role: (release, [stanza, ...])} from the pins file; the current
    role's image and -dbg package share one version."""
    path = pins_path()
    try:
        text = open(path).read()
    except OSError as e:
        raise PinError("cannot read the kernel pins %s: %s" % (path, e.strerror))
    text = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    roles = {}
    for chunk in re.split(r"\n\s*\n", text):
        if not chunk.strip():
            continue
        pin = {}
        for line in chunk.strip().splitlines():
            key, sep, value = line.partition(":")
            if not sep or key.strip() not in PIN_FIELDS:
                raise PinError("%s: expected one of %s in '%s'"
                               % (path, ", ".join(PIN_FIELDS), line.strip()))
            pin[key.strip()] = value.strip()
        where = "%s: the stanza of %s" % (path, pin.get("Package", "?"))
        for field in PIN_FIELDS:
            if not pin.get(field):
                raise PinError("%s has no %s" % (where, field))
        if pin["Role"] not in ROLES:
            raise PinError("%s has role '%s', expected %s"
                           % (where, pin["Role"], ", ".join(ROLES)))
        rel = pin_release(pin["Package"])
        if not rel:
            raise PinError("%s: expected a linux-image-*-cloud-amd64 package" % where)
        if not re.fullmatch(r"[0-9a-f]{64}", pin["SHA256"]):
            raise PinError("%s: SHA256 is not 64 hex digits" % where)
        have = roles.setdefault(pin["Role"], (rel, []))
        if have[0] != rel:
            raise PinError("%s: role %s names two releases, %s and %s"
                           % (path, pin["Role"], have[0], rel))
        have[1].append(pin)
    for role in ROLES:
        if role not in roles:
            raise PinError("%s pins no '%s' kernel" % (path, role))
    cur = roles["current"][1]
    if (sorted(p["Package"].endswith("-dbg") for p in cur) != [False, True]
            or len({p["Version"] for p in cur}) != 1):
        raise PinError("%s: the current kernel needs its image and its -dbg "
                       "package, at one version" % path)
    return roles


def ready_text(pins):
    """What <release>/READY holds once these packages are unpacked."""
    dbg = any(p["Package"].endswith("-dbg") for p in pins)
    return "%s%s\n" % (pins[0]["Version"], " dbg" if dbg else "")


def how_to_move_pins():
    return ("to move the pins deliberately: utils/kernel-guest.py pins --update, "
            "then prepare, run test/Kernel and update the offsets and lines it "
            "expects (utils/kernel-guest.pins)")


# ---- prepare: fetch the pinned packages (apt, else the archive by URL) ----

DEBIAN_MIRROR = "https://deb.debian.org"
SNAPSHOT = "https://snapshot.debian.org"


def apt_has(pin):
    """apt's index lists this exact version (apt-get download can fetch it)."""
    # `apt-cache show P=V` exits 0 with no output for an unknown version.
    out = subprocess.run(["apt-cache", "show", "--no-all-versions",
                          "%s=%s" % (pin["Package"], pin["Version"])],
                         capture_output=True, text=True).stdout
    return ("\nVersion: %s\n" % pin["Version"]) in "\n" + out


def archive_urls(pin):
    """Where the .deb is when apt's index has moved on: the security
    archive's pool, the main archive's pool (a point release copies security
    updates there), and snapshot.debian.org (every version ever published;
    its machine-readable API gives the file's hash)."""
    fn = pin["Filename"]
    urls = []
    if fn.startswith("pool/updates/"):
        urls.append("%s/debian-security/%s" % (DEBIAN_MIRROR, fn))
        urls.append("%s/debian/pool/%s" % (DEBIAN_MIRROR, fn[len("pool/updates/"):]))
    else:
        urls.append("%s/debian/%s" % (DEBIAN_MIRROR, fn))
    urls.append(None)  # snapshot.debian.org, looked up when reached
    return urls


def snapshot_url(pin):
    import json
    import urllib.parse
    import urllib.request
    api = "%s/mr/binary/%s/%s/binfiles" % (
        SNAPSHOT, urllib.parse.quote(pin["Package"]), urllib.parse.quote(pin["Version"]))
    with urllib.request.urlopen(api, timeout=60) as r:
        files = json.load(r).get("result", [])
    for f in files:
        if f.get("architecture") in ("amd64", "all") and f.get("hash"):
            return "%s/file/%s" % (SNAPSHOT, f["hash"])
    raise OSError("%s lists no amd64 file" % api)


def sha256_of(path):
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download(url, dest):
    import urllib.request
    with urllib.request.urlopen(url, timeout=60) as r, open(dest, "wb") as f:
        shutil.copyfileobj(r, f, 1 << 20)


def fetch(pin, role, into):
    """The pinned .deb in directory `into`, its SHA256 checked; exits with
    the pin, every place tried and how to move the pin when none has it."""
    name = "%s=%s" % (pin["Package"], pin["Version"])
    dest = os.path.join(into, os.path.basename(pin["Filename"]))
    tried = []
    if apt_has(pin):
        print("kernel-guest.py: downloading %s (apt)" % name)
        before = set(os.listdir(into))
        r = subprocess.run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", name],
                           cwd=into, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        new = sorted(set(os.listdir(into)) - before)
        if r.returncode == 0 and len(new) == 1:
            os.rename(os.path.join(into, new[0]), dest)
        else:
            tried.append("apt-get download: %s" % (r.stderr.strip().splitlines() or ["failed"])[-1])
    else:
        tried.append("apt's index (apt-cache policy %s) does not list %s"
                     % (pin["Package"], pin["Version"]))
    if not os.path.exists(dest):
        for url in archive_urls(pin):
            try:
                if url is None:
                    url = snapshot_url(pin)
                print("kernel-guest.py: downloading %s from %s" % (name, url))
                download(url, dest)
                break
            except Exception as e:  # HTTPError, URLError, timeouts, bad JSON
                why = ("HTTP %d %s" % (e.code, e.reason) if hasattr(e, "code")
                       else getattr(e, "reason", None) or e)
                tried.append("%s: %s" % (url or SNAPSHOT, why))
                if os.path.exists(dest):
                    os.unlink(dest)
    if not os.path.exists(dest):
        raise PinError("cannot fetch the pinned %s kernel %s (%s): %s; %s"
                       % (role, name, pins_path(), "; ".join(tried), how_to_move_pins()))
    got = sha256_of(dest)
    if got != pin["SHA256"]:
        raise PinError("%s downloaded with SHA256 %s, the pin in %s says %s (a "
                       "corrupt download, or a pin edited by hand: copy the field "
                       "from apt-cache show %s)" % (name, got, pins_path(), pin["SHA256"], name))
    return dest


def unpack(role, rel, pins):
    top = os.path.join(cache_dir(), rel)
    ready = os.path.join(top, "READY")
    want = ready_text(pins)
    if os.path.exists(ready) and open(ready).read() == want:
        print("kernel-guest.py: %s %s is cached in %s" % (rel, pins[0]["Version"], top))
        return
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(top)
    debs = tempfile.mkdtemp(prefix="deb.", dir=cache_dir())
    try:
        for pin in pins:
            deb = fetch(pin, role, debs)
            if pin["Package"].endswith("-dbg"):
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
    print("kernel-guest.py: unpacked %s %s into %s" % (rel, pins[0]["Version"], top))


def cmd_prepare(args):
    os.makedirs(cache_dir(), exist_ok=True)
    failed = os.path.join(cache_dir(), "PREPARE-FAILED")
    try:
        pins = read_pins()
        for role in ROLES:
            unpack(role, *pins[role])
    except PinError as e:
        # `info` (and so lit) gives this reason while the cache is not
        # what the pins say.
        with open(failed, "w") as f:
            f.write("%s\n" % e)
        die(str(e))
    if os.path.exists(failed):
        os.unlink(failed)
    keep = [pins[role][0] for role in ROLES]
    for old in glob.glob(os.path.join(cache_dir(), "*-cloud-amd64")):
        if os.path.basename(old) not in keep:
            shutil.rmtree(old, ignore_errors=True)
    stale_roles = os.path.join(cache_dir(), "ROLES")  # before the pins
    if os.path.exists(stale_roles):
        os.unlink(stale_roles)


# ---- pins: what apt offers, to move them deliberately ----

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


def latest_current_and_stale():
    """The newest 6.1 cloud ABI apt offers with its -dbg package at the
    image's version, and the next older ABI's image."""
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


def latest_newer():
    """The newest Debian cloud kernel newer than 6.1 (bookworm's 6.12:
    struct file and others laid out differently) apt offers an image of:
    (package, version)."""
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
                return pkg, ver
    die("apt offers no cloud kernel newer than 6.1 (run apt-get update)")


def apt_stanza(role, pkg, ver):
    out = subprocess.run(["apt-cache", "show", "--no-all-versions", "%s=%s" % (pkg, ver)],
                         capture_output=True, text=True).stdout
    fields = dict(re.findall(r"^(Filename|SHA256): (\S+)$", out, re.M))
    if len(fields) != 2:
        die("apt-cache show %s=%s gave no Filename and SHA256" % (pkg, ver))
    return ("Role: %s\nPackage: %s\nVersion: %s\nFilename: %s\nSHA256: %s\n"
            % (role, pkg, ver, fields["Filename"], fields["SHA256"]))


def cmd_pins(args):
    if not args.update:
        try:
            pins = read_pins()
        except PinError as e:
            die(str(e))
        for role in ROLES:
            for pin in pins[role][1]:
                print("%-8s %s=%s %s" % (role, pin["Package"], pin["Version"],
                                         "(in apt's index)" if apt_has(pin) else
                                         "(not in apt's index: fetched from the archive by URL)"))
        return
    (rel, ver), (srel, sver) = latest_current_and_stale()
    npkg, nver = latest_newer()
    stanzas = [apt_stanza("current", "linux-image-%s" % rel, ver),
               apt_stanza("current", "linux-image-%s-dbg" % rel, ver),
               apt_stanza("stale", "linux-image-%s" % srel, sver),
               apt_stanza("newer", npkg, nver)]
    # The file's comment header stays; the stanzas are apt's newest.
    path = pins_path()
    try:
        header = "".join(l for l in open(path).readlines() if l.startswith("#"))
    except OSError:
        header = ""
    with open(path + ".tmp", "w") as f:
        f.write(header + "\n" + "\n".join(stanzas))
    os.rename(path + ".tmp", path)
    print("kernel-guest.py: %s now pins %s %s (stale %s %s, newer %s %s); run "
          "prepare and test/Kernel, and update what the tests expect"
          % (path, rel, ver, srel, sver, npkg, nver))


# ---- info ----

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


def cached_as_pinned(rel, pins):
    """None when <release> in the cache holds the pinned packages, else
    what is wrong (the reason prepare last failed, if it did)."""
    ready = kernel_files(rel)["ready"]
    try:
        have = open(ready).read()
    except OSError:
        have = None
    if have == ready_text(pins):
        return None
    try:
        failed = open(os.path.join(cache_dir(), "PREPARE-FAILED")).read().strip()
    except OSError:
        failed = ""
    if failed:
        return failed
    if have is None:
        return "%s is missing (run utils/kernel-guest.py prepare)" % ready
    return ("%s holds %s, %s pins %s (run utils/kernel-guest.py prepare)"
            % (ready, have.strip(), pins_path(), ready_text(pins).strip()))


def info():
    """What the lit config needs, for the pinned kernels; missing pieces
    are named in 'missing' (current and stale: the kernel-guest feature)
    and 'newer_missing' (the CO-RE tests on a newer kernel)."""
    res = {"cache": cache_dir(), "accel": "kvm" if host_kvm_usable() else "tcg"}
    missing = []
    for tool in ("qemu-system-x86_64", "perf"):
        if not shutil.which(tool):
            missing.append(tool)
    if not os.path.exists(busybox()):
        missing.append("static busybox (busybox-static)")
    try:
        pins = read_pins()
    except PinError as e:
        res["missing"] = "; ".join(missing + [str(e)])
        res["newer_missing"] = str(e)
        return res
    cur, cur_pins = pins["current"]
    files = kernel_files(cur)
    res["release"] = cur
    res["version"] = cur_pins[0]["Version"]
    for k in ("vmlinuz", "vmlinux", "modules", "debug_modules"):
        res[k] = files[k]
    why = cached_as_pinned(cur, cur_pins)
    if why:
        missing.append(why)
    else:
        for k in ("vmlinuz", "vmlinux"):
            if not os.path.exists(files[k]):
                missing.append(files[k])
    stale, stale_pins = pins["stale"]
    sf = kernel_files(stale)
    res["stale_release"] = stale
    res["stale_vmlinuz"] = sf["vmlinuz"]
    res["stale_modules"] = sf["modules"]
    why = cached_as_pinned(stale, stale_pins)
    if why:
        missing.append(why)
    elif not os.path.exists(sf["vmlinuz"]):
        missing.append(sf["vmlinuz"])
    newer, newer_pins = pins["newer"]
    nf = kernel_files(newer)
    why = cached_as_pinned(newer, newer_pins)
    if not why and not os.path.exists(nf["vmlinuz"]):
        why = "%s is missing" % nf["vmlinuz"]
    if why:
        res["newer_missing"] = why
    else:
        res["newer_release"] = newer
        res["newer_vmlinuz"] = nf["vmlinuz"]
    res["missing"] = "; ".join(dict.fromkeys(missing))
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
    pn = sub.add_parser("pins", help="show the pins and whether apt's index has them")
    pn.add_argument("--update", action="store_true",
                    help="rewrite the pins file with the newest packages apt offers")
    pn.set_defaults(fn=cmd_pins)
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
