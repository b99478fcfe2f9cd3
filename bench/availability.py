#!/usr/bin/env python3
"""bench/availability.py - values bpfprobe fetches vs values gdb shows.

usage: bench/availability.py BUILD_DIR [--work DIR] [--programs zlib,cjson]
                             [--compilers gcc,clang] [--places N]
                             [--no-live] [--json FILE] [--llvm DIR]

On real open-source C programs (zlib with its test/example.c driver, cJSON
with its test.c), each built with gcc -O2 -g and clang -O2 -g, it picks
probe places the driver runs through (function entries, instruction
offsets inside functions, relative source lines, lines of inlined copies,
returns), and at each place asks:

  gdb      at `break *ADDR` (the site's exact address, first hit), the value
           of every argument and local of the frame gdb selects, and of the
           first scalar members behind a struct pointer (`p->m`), of a
           struct (`s.m`) and of an array (`a[0]`); at a return, the value
           `finish` prints;
  resolve  whether `BUILD_DIR/bin/bpfprobe-resolve 'uprobe/BIN:PLACE(EXPR)'`
           resolves the same expression at that place, or the message class
           (the first words of the refusal) with which it refuses;
  live     for every resolved value, a recording probe
           (BPF_PROBE_RECORD) built with BUILD_DIR's plugin and run with
           `bpfprobe-run --json` on the same driver: the first record of the
           site must equal gdb's first hit.

It prints a table per program x compiler (gdb shows, bpfprobe fetches,
availability, refusals while gdb shows a value by class, wrong values,
values gdb calls <optimized out> that bpfprobe fetched) and lists every
wrong and suspicious value. --json FILE writes everything.

Sources: the programs' upstream tarballs as Debian ships them
(`*.orig.tar.*`), downloaded with `apt-get source --download-only` through
a private apt configuration (the system's `deb` entries as `deb-src`, its
own lists and cache under the work directory; the system's apt state is
not touched), checked against the sha256 pinned below. Nothing fetched is
kept in the repository. Needs root (BPF), gdb, gcc, clang (the LLVM of
BUILD_DIR's plugin), llvm-dwarfdump, apt-get.
"""

import argparse
import collections
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Pinned upstream sources: the Debian source package and version, its orig
# tarball (the upstream release) and that tarball's sha256.
PROGRAMS = {
    "zlib": {
        "source": "zlib",
        "version": "1:1.2.13.dfsg-1",
        "orig": "zlib_1.2.13.dfsg.orig.tar.bz2",
        "sha256": "71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1",
        "dir": "zlib-1.2.13.dfsg",
        "sources": ["adler32.c", "compress.c", "crc32.c", "deflate.c",
                    "gzclose.c", "gzlib.c", "gzread.c", "gzwrite.c",
                    "infback.c", "inffast.c", "inflate.c", "inftrees.c",
                    "trees.c", "uncompr.c", "zutil.c", "test/example.c"],
        "cflags": ["-DHAVE_UNISTD_H", "-DHAVE_STDARG_H", "-I."],
        "libs": [],
        "binary": "zlib-example",
        "args": [],
    },
    "cjson": {
        "source": "cjson",
        "version": "1.7.15-1+deb12u4",
        "orig": "cjson_1.7.15.orig.tar.gz",
        "sha256": "5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2",
        "dir": "cJSON-1.7.15",
        "sources": ["cJSON.c", "test.c"],
        "cflags": ["-I."],
        "libs": ["-lm"],
        "binary": "cjson-test",
        "args": [],
    },
}

# Functions of the C runtime start files, not of the program.
CRT = {"_start", "_init", "_fini", "deregister_tm_clones",
       "register_tm_clones", "__do_global_dtors_aux", "frame_dummy",
       "__libc_csu_init", "__libc_csu_fini", "_dl_relocate_static_pie"}

MAX_ARGS = 8  # values per recording probe
# The driver's whole environment, under gdb and under bpfprobe-run alike
# (with ASLR off in both), so that pointers compare equal.
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.STDOUT)
    kw.setdefault("text", True)
    return subprocess.run(cmd, **kw)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --------------------------------------------------------------- sources

def deb_src_entries():
    """The system's Debian `deb` entries, rewritten as `deb-src`."""
    out = []
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for stanza in open(path).read().split("\n\n"):
            lines = [l for l in stanza.splitlines()
                     if l.strip() and not l.startswith("#")]
            if any(l.strip() == "Types: deb" for l in lines) and \
                    any("debian" in l for l in lines if l.startswith("URIs:")):
                out.append("\n".join("Types: deb-src" if l.strip() == "Types: deb"
                                     else l for l in lines))
    lists = []
    for path in ["/etc/apt/sources.list"] + \
            sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        if os.path.exists(path):
            for l in open(path):
                if l.startswith("deb ") and "debian" in l:
                    lists.append("deb-src " + l[4:].strip())
    return out, lists


def fetch_sources(prog, srcdir):
    """Path of the pinned orig tarball, downloaded with apt-get source."""
    p = PROGRAMS[prog]
    os.makedirs(srcdir, exist_ok=True)
    tar = os.path.join(srcdir, p["orig"])
    if os.path.exists(tar) and sha256(tar) == p["sha256"]:
        return tar
    apt = os.path.join(srcdir, "apt")
    for d in ("etc/sources.list.d", "lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(apt, d), exist_ok=True)
    stanzas, lists = deb_src_entries()
    with open(os.path.join(apt, "etc/sources.list.d/src.sources"), "w") as f:
        f.write("\n\n".join(stanzas) + "\n")
    with open(os.path.join(apt, "etc/sources.list"), "w") as f:
        f.write("\n".join(lists) + "\n")
    opts = ["-o", "Dir::Etc::SourceList=" + os.path.join(apt, "etc/sources.list"),
            "-o", "Dir::Etc::SourceParts=" + os.path.join(apt, "etc/sources.list.d"),
            "-o", "Dir::State::Lists=" + os.path.join(apt, "lists"),
            "-o", "Dir::Cache=" + os.path.join(apt, "cache"),
            "-o", "APT::Sandbox::User=root", "-q"]
    if not glob.glob(os.path.join(apt, "lists", "*Sources*")):
        log("apt-get update (deb-src lists, private to %s)" % apt)
        r = run(["apt-get"] + opts + ["update"])
        if r.returncode:
            sys.exit("apt-get update failed:\n" + r.stdout[-2000:])
    # The pinned Debian version first (the security archive here serves no
    # sources); any version whose orig tarball has the pinned sha256 will do.
    for what in (p["source"] + "=" + p["version"], p["source"]):
        r = run(["apt-get"] + opts + ["source", "--download-only", what],
                cwd=srcdir)
        if r.returncode == 0 and os.path.exists(tar):
            break
    if r.returncode or not os.path.exists(tar):
        sys.exit("apt-get source %s failed:\n%s" % (p["source"], r.stdout[-2000:]))
    got = sha256(tar)
    if got != p["sha256"]:
        sys.exit("%s: sha256 %s, pinned %s" % (tar, got, p["sha256"]))
    return tar


def build(prog, compiler, tar, work):
    """Unpacks and builds; returns (binary path, driver cwd maker)."""
    p = PROGRAMS[prog]
    d = os.path.join(work, "%s-%s" % (prog, compiler))
    binary = os.path.join(d, p["binary"])
    if os.path.exists(binary):
        return binary, os.path.join(d, "src", p["dir"])
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "src"))
    with tarfile.open(tar) as t:
        t.extractall(os.path.join(d, "src"))
    src = os.path.join(d, "src", p["dir"])
    cc = {"gcc": "gcc", "clang": CLANG}[compiler]
    cmd = [cc, "-O2", "-g", "-w"] + p["cflags"] + p["sources"] + \
        ["-o", binary] + p["libs"]
    r = run(cmd, cwd=src)
    if r.returncode:
        sys.exit("build of %s with %s failed:\n%s" % (prog, compiler, r.stdout))
    return binary, src


# ------------------------------------------------------------ bpfprobe-resolve

def resolve_batch(specs, mode=None):
    """Runs bpfprobe-resolve on specs; returns {spec: ("ok", lines) |
    ("error", message)}. One invocation per batch; if its merged output
    cannot be split spec by spec, one invocation per spec."""
    out = {}
    if not specs:
        return out
    cmd = [RESOLVE] + ([mode] if mode else []) + ["--"]
    r = run(cmd + specs)
    parsed = split_output(specs, r.stdout.splitlines(), mode)
    if parsed is not None:
        return parsed
    for s in specs:
        r = run(cmd + [s])
        one = split_output([s], r.stdout.splitlines(), mode)
        out[s] = one[s] if one else ("error", "unparsed output: " + r.stdout[:200])
    return out


def split_output(specs, lines, mode):
    """Splits the merged output of one bpfprobe-resolve run into each spec's
    answer; None when it cannot. Warnings and notes (with the spec and a
    caret line after them, if they have one) are set aside."""
    out = {}
    texts = set(specs)
    kept = []
    i = 0
    while i < len(lines):
        if lines[i].startswith(("warning: ", "note: ")):
            i += 1
            if i < len(lines) and lines[i] in texts:
                i += 2
            continue
        # The header before a plan in the extended notation (DWARF
        # arithmetic, selects): the plan line follows.
        if lines[i].startswith("# extended notation"):
            i += 1
            continue
        kept.append(lines[i])
        i += 1
    lines = kept
    i = 0
    for s in specs:
        if i < len(lines) and lines[i].startswith("error: "):
            msg = [lines[i][7:]]
            i += 1
            while i < len(lines) and lines[i] != s:
                msg.append(lines[i])
                i += 1
            if i >= len(lines):
                return None
            i += 2  # the spec and the caret line
            out[s] = ("error", "\n".join(msg))
            continue
        got = []
        if mode == "--lines":
            if i < len(lines) and lines[i].startswith("<"):
                got.append(lines[i])
                i += 1
                while i < len(lines) and not lines[i].startswith(("<", "error: ")):
                    got.append(lines[i])
                    i += 1
        elif mode == "--vars":
            while i < len(lines) and (lines[i].startswith("Variables at ") or
                                      lines[i].startswith("  ")):
                got.append(lines[i])
                i += 1
        else:
            m0 = None
            while i < len(lines):
                m = re.match(r"[pr]:(\S+) ", lines[i])
                if not m:
                    break
                name = m.group(1)
                if m0 is None:
                    m0 = name
                elif not (name.startswith(m0 + "__") and
                          name[len(m0) + 2:].isdigit()):
                    break
                got.append(lines[i])
                i += 1
        if not got:
            return None
        out[s] = ("ok", got)
    if i != len(lines):
        return None
    return out


def parse_site(line):
    """'p:NAME BIN:SYM+OFF a=FETCH b=FETCH' -> (name, sym, off, {arg: fetch})."""
    # Split at the spaces outside parentheses: a fetch in the extended
    # notation has spaces inside ("x=((%di + %si) == \\3 ? ... )").
    parts, cur, depth = [], "", 0
    for ch in line:
        if ch == " " and depth == 0:
            if cur:
                parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur:
        parts.append(cur)
    name = parts[0][2:]
    loc = parts[1].rsplit(":", 1)[1]
    sym, _, off = loc.partition("+")
    off = int(off, 0) if off else 0
    args = {}
    for a in parts[2:]:
        k, _, v = a.partition("=")
        args[k] = v
    return name, sym, off, args


X86_REGS = {"ax": "rax", "bx": "rbx", "cx": "rcx", "dx": "rdx", "si": "rsi",
            "di": "rdi", "bp": "rbp", "sp": "rsp", "ip": "rip"}


def plan_to_gdb(fetch, subst=None):
    """A fetch in kprobe_events syntax as a gdb expression of its value (an
    unsigned 64-bit integer of the fetch's width), or None when it is not
    of the subset this translates (registers, immediates, OFF(...)
    dereferences, integer types)."""
    body, _, typ = fetch.rpartition(":")
    # f32/f64: the bits of a float or double, as gdb's entry records them.
    m = re.fullmatch(r"([usxf])(8|16|32|64)", typ)
    if not m:
        return None
    bits = int(m.group(2))

    def tr(t):
        if subst and t == subst[0]:
            return subst[1]
        r = re.fullmatch(r"%(\w+)", t)
        if r:
            reg = X86_REGS.get(r.group(1), r.group(1))
            return "(unsigned long)$%s" % reg
        r = re.fullmatch(r"\\(-?(?:0x[0-9a-fA-F]+|\d+))", t)
        if r:
            return "(unsigned long)%d" % (int(r.group(1), 0) & ((1 << 64) - 1))
        r = re.fullmatch(r"([+-](?:0x[0-9a-fA-F]+|\d+))\((.*)\)", t)
        if r:
            inner = tr(r.group(2))
            if inner is None:
                return None
            return "*(unsigned long *)(%s + (%d))" % (inner, int(r.group(1), 0))
        return None

    e = tr(body)
    if e is None:
        return None
    return "(%s) & 0x%x" % (e, (1 << bits) - 1)


def refusal_class(msg):
    """The reason of a refusal, its first words, names and numbers taken
    out: "cannot fetch 'x' at f+0x12 (inlined g): its location uses
    DW_OP_entry_value (...)" -> "its location uses DW_OP_entry_value"."""
    if msg.startswith("place: "):
        return "place: " + refusal_class(msg[7:])
    first = msg.splitlines()[0]
    first = re.sub(r"^cannot fetch '[^']*'( at [^:]*)?: ", "", first)
    first = re.sub(r"^'[^']*' is optimized out at [^:]*: ", "optimized out: ", first)
    first = re.sub(r"'[^']*'", "X", first)
    first = re.sub(r"/\S*/", "", first)  # paths: their file names only
    first = re.sub(r"0x[0-9a-fA-F]+|\d+", "N", first)
    first = re.sub(r" at [\w.]+\+N", "", first)
    first = re.split(r"[;(]", first)[0]
    return " ".join(first.split()[:8])


# ------------------------------------------------------------------ places

def functions(binary):
    """{name: (address, size)} of the program's functions."""
    r = run(["nm", "--defined-only", "-S", binary])
    fns = {}
    for l in r.stdout.splitlines():
        parts = l.split()
        if len(parts) == 4 and parts[2] in "tT":
            name = parts[3]
            if name in CRT or "." in name or name.startswith("_"):
                continue
            size = int(parts[1], 16)
            if size:
                fns[name] = (int(parts[0], 16), size)
    return fns


SYMS = {}


def all_symbols(binary):
    """{name: address} of every function symbol, clones included."""
    r = run(["nm", "--defined-only", binary])
    out = {}
    for l in r.stdout.splitlines():
        parts = l.split()
        if len(parts) == 3 and parts[1] in "tT":
            out[parts[2]] = int(parts[0], 16)
    return out


def line_rows(binary):
    """Sorted addresses of the line table's rows (instruction boundaries)."""
    r = run([DWARFDUMP, "--debug-line", binary], stderr=subprocess.DEVNULL)
    addrs = set()
    for l in r.stdout.splitlines():
        m = re.match(r"0x([0-9a-f]{16})\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s*(.*)", l)
        if m and "end_sequence" not in m.group(2):
            addrs.add(int(m.group(1), 16))
    return sorted(addrs)


def spread(items, n):
    """n items spread evenly over the list, first and last excluded."""
    if len(items) <= n:
        return list(items)
    step = len(items) / (n + 1)
    return [items[int(step * (k + 1))] for k in range(n)]


def gdb_pass(binary, sites, cwd, tag, work, novars=False):
    """Runs the driver once under gdb; returns {key: hit}."""
    inp = os.path.join(work, "gdb-%s.in.json" % tag)
    outp = os.path.join(work, "gdb-%s.out.json" % tag)
    rundir = os.path.join(work, "run-gdb-%s" % tag)
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    json.dump({"binary": binary, "args": ARGS[binary], "cwd": rundir,
               "env": ENV, "sites": sites, "out": outp}, open(inp, "w"))
    if novars:
        cfg = json.load(open(inp))
        cfg["novars"] = True
        json.dump(cfg, open(inp, "w"))
    env = dict(os.environ, AVAIL_GDB_IN=inp)
    r = run(["gdb", "-nx", "-batch", "-x", os.path.join(HERE, "availability_gdb.py")],
            env=env, timeout=600)
    if not os.path.exists(outp):
        sys.exit("gdb run failed:\n" + r.stdout[-3000:])
    return json.load(open(outp))


def choose_places(binary, cwd, work, tag, max_places):
    """Places in functions the driver runs: [(kind, place, fn)]."""
    fns = functions(binary)
    SYMS.clear()
    SYMS.update(all_symbols(binary))
    hits = gdb_pass(binary, [{"key": n, "addr": a} for n, (a, _) in fns.items()],
                    cwd, tag + "-entries", work)["hits"]
    hit = sorted(n for n in fns if n in hits)
    rows = line_rows(binary)
    base = "uprobe/%s:" % binary
    per_fn = {}
    lines_out = resolve_batch([base + f for f in hit], "--lines")
    for f in hit:
        a, size = fns[f]
        places = [("entry", f, None), ("return", f, None)]
        inner = [x for x in rows if a < x < a + size]
        for x in spread(inner, 3):
            places.append(("offset", "%s+0x%x" % (f, x - a), None))
        res = lines_out.get(base + f)
        rel, inl = [], []
        decl_file = None
        if res and res[0] == "ok":
            for l in res[1]:
                m = re.match(r"<[^@]*@(.*):\d+>$", l)
                if m:
                    decl_file = os.path.basename(m.group(1))
                m = re.match(r"\s+(\d+)\s+(\d+)(\s|$)", l)
                if m and int(m.group(1)) > 0:
                    rel.append((int(m.group(1)), int(m.group(2))))
                m = re.match(r"\s+-\s+(\S+):(\d+)", l)
                if m:
                    inl.append("%s:%s" % (os.path.basename(m.group(1)), m.group(2)))
        for n, absl in spread(rel, 3):
            if decl_file:
                places.append(("line", "%s:%d" % (f, n), "%s:%d" % (decl_file, absl)))
        for x in spread(inl, 3):
            places.append(("inlined-line", x, x))
        per_fn[f] = places
    # A share of the places for each kind; within a kind, every function's
    # first place before any function's second.
    # Every function's entry (cheap, and where gdb's entry rules show), then
    # max_places places of the other kinds.
    share = {"return": 0.2, "offset": 0.3, "line": 0.3, "inlined-line": 0.2}
    pools = {}
    for kind in share:
        pool = []
        for rank in range(4):
            for f in hit:
                mine = [(p, ls) for k, p, ls in per_fn[f] if k == kind]
                if rank < len(mine):
                    pool.append((kind, mine[rank][0], f, mine[rank][1]))
        pools[kind] = pool
    out = [("entry", f, f, None) for f in hit]
    seen = {item[:2] for item in out}
    budget = max_places
    max_places += len(out)
    for kind, frac in share.items():
        for item in spread(pools[kind], int(budget * frac + 0.5)):
            if item[:2] not in seen:
                seen.add(item[:2])
                out.append(item)
    # What a kind could not use goes to the others.
    for kind in share:
        for item in pools[kind]:
            if len(out) >= max_places:
                break
            if item[:2] not in seen:
                seen.add(item[:2])
                out.append(item)
    return out, fns


# -------------------------------------------------------------------- live

def live_run(binary, items, work, tag):
    """items: [(place, kind, [expr...])]. Returns {(program, expr): value} of
    the first record of each program, {program: address}, and failures."""
    first = {}
    addrs = {}
    failed = []
    probes = []
    for place, kind, exprs in items:
        for c in range(0, len(exprs), MAX_ARGS):
            probes.append((place, kind, exprs[c:c + MAX_ARGS]))

    def attempt(batch, name):
        src = os.path.join(work, "live-%s-%s.bpf.c" % (tag, name))
        obj = src[:-2] + ".o"
        with open(src, "w") as f:
            f.write("#include <linux/bpf.h>\n#include <linux/ptrace.h>\n"
                    "#include <bpf/bpf_helpers.h>\n#include <bpfprobe/bpfprobe.h>\n")
            for n, (place, kind, exprs) in enumerate(batch):
                k = "uretprobe" if kind == "return" else "uprobe"
                spec = "%s/%s:%s(%s)" % (k, binary, place, ", ".join(exprs))
                f.write('BPF_PROBE_RECORD_NAMED(p%d, "%s");\n' % (n, spec))
            f.write('char LICENSE[] SEC("license") = "GPL";\n')
        r = run([CLANG, "-O2", "-g", "-target", "bpf", "-I", os.path.join(REPO, "include"),
                 "-I", "/usr/include/x86_64-linux-gnu", "-fplugin=" + PLUGIN,
                 "-c", src, "-o", obj])
        if r.returncode:
            return ("compile", r.stdout)
        meta = run([RUN, "--dump-metadata", obj])
        rundir = os.path.join(work, "run-live-%s-%s" % (tag, name))
        shutil.rmtree(rundir, ignore_errors=True)
        os.makedirs(rundir)
        # The driver's own output goes to a file, not into the records.
        r = run([RUN, "--json", "--no-printk", obj, "--", "sh", "-c",
                 'exec "$@" > driver.out', "sh", "env", "-i"] +
                ["%s=%s" % kv for kv in ENV.items()] +
                ["setarch", "-R", binary] + ARGS[binary],
                cwd=rundir, stderr=subprocess.PIPE, timeout=600)
        if r.returncode:
            return ("run", r.stderr[-3000:])
        prog_addr = parse_meta(meta.stdout)
        progs = {}
        for l in r.stdout.splitlines():
            try:
                # A double's -0 is a JSON integer: keep its sign.
                ev = json.loads(l, parse_int=lambda s: -0.0 if s == "-0" else int(s))
            except ValueError:
                continue
            if isinstance(ev, dict) and ev.get("type") == "summary" and \
                    ev.get("lost_records"):
                log("[%s] live %s: %d records lost (ring buffer full): "
                    "those sites may show 'no record'" %
                    (tag, name, ev["lost_records"]))
            if not isinstance(ev, dict) or ev.get("type") != "record":
                continue
            key = (name, ev["program"])
            if key in progs:
                continue
            progs[key] = ev["args"]
        return ("ok", batch, prog_addr, progs)

    def go(batch, name):
        res = attempt(batch, name)
        if res[0] == "ok":
            _, batch, prog_addr, progs = res
            for n, (place, kind, exprs) in enumerate(batch):
                for prog, addr in prog_addr.items():
                    if prog == "p%d" % n or prog.startswith("p%d__" % n):
                        rec = progs.get((name, prog))
                        key = (kind, place, addr)
                        # A record's fields are named by the arguments'
                        # labels ("s->strm" is "strm"), in argument order.
                        vals = list(rec.values()) if rec else []
                        for i, e in enumerate(exprs):
                            # Another probe of the place may have recorded
                            # it at this site already.
                            if first.get((key, e), ("",))[0] == "value":
                                continue
                            first[(key, e)] = ("value", vals[i]) if i < len(vals) \
                                else ("no record", None)
            return
        if len(batch) == 1 and len(batch[0][2]) > 1 and res[0] == "compile":
            # One probe: its values in halves (the prologue's stack budget
            # holds fewer of the larger ones).
            place, kind, exprs = batch[0]
            h = len(exprs) // 2
            go([(place, kind, exprs[:h])], name + "a")
            go([(place, kind, exprs[h:])], name + "b")
            return
        if len(batch) == 1:
            failed.append((batch[0], res[0], res[1][-1500:]))
            for e in batch[0][2]:
                first[((batch[0][1], batch[0][0], None), e)] = (res[0] + " failed", res[1][-300:])
            return
        h = len(batch) // 2
        go(batch[:h], name + "a")
        go(batch[h:], name + "b")

    go(probes, "all")
    return first, failed


def parse_meta(text):
    """{program: address} from bpfprobe-run --dump-metadata."""
    out = {}
    prog = None
    for l in text.splitlines():
        m = re.search(r"\bprogram[\s:=]+['\"]?(\w+)", l)
        if m:
            prog = m.group(1)
        m = re.search(r"\baddress[\s:=]+(0x[0-9a-fA-F]+|\d+)", l)
        if m and prog:
            out[prog] = int(m.group(1), 0)
            prog = None
    return out


# ------------------------------------------------------------------ compare

def as_int(v):
    if v is None:
        return None
    if isinstance(v, str):
        v = v.strip('"')
        return int(v, 16) if v.startswith(("0x", "-0x")) else int(v, 0)
    if isinstance(v, bool):
        return int(v)
    return int(v)


def float_bits(v, size):
    """The IEEE bits of a float or double as bpfprobe-run prints it: a JSON
    number, or "inf", "-nan(0x8000000000000)"."""
    if isinstance(v, str):
        v = v.strip('"')
        m = re.fullmatch(r"(-?)nan\(0x([0-9a-fA-F]+)\)", v)
        if m:
            mant_bits = 23 if size == 4 else 52
            exp = (1 << (size * 8 - 1 - mant_bits)) - 1
            return (int(m.group(1) == "-") << (size * 8 - 1)) | \
                (exp << mant_bits) | int(m.group(2), 16)
    fmt = {4: "<f", 8: "<d"}[size]
    return int.from_bytes(struct.pack(fmt, float(v)), "little")


def same(gdb_ent, bpf_val, raw=False):
    """Whether bpf_val is gdb's value: a live record's value, or with raw
    an integer of the value's bits (a plan evaluated by gdb, gdb's own
    value from another run)."""
    size = gdb_ent.get("size", 8)
    mask = (1 << (8 * size)) - 1
    if isinstance(gdb_ent, dict) and "value" not in gdb_ent:
        return False
    try:
        if gdb_ent.get("kind") == "float" and not raw:
            b = float_bits(bpf_val, size)
        else:
            b = as_int(bpf_val)
    except (ValueError, TypeError, KeyError, OverflowError, struct.error):
        return False
    return (b & mask) == (gdb_ent["value"] & mask)


def gkey(kind, place, addr):
    """The key of gdb's first hit of a site."""
    if kind == "return":
        return "r%d" % addr
    if kind in ("line", "inlined-line"):
        return "L:%s@%d" % (place, addr)
    return "%d" % addr


def measure(prog, compiler, args, work):
    tag = "%s-%s" % (prog, compiler)
    t0 = time.time()
    binary, src = BUILT[(prog, compiler)]
    log("[%s] choosing places" % tag)
    places, fns = choose_places(binary, src, work, tag, args.places)
    base = lambda kind: "%s/%s:" % ("uretprobe" if kind == "return" else "uprobe", binary)
    # Sites of each place: its addresses, from --vars (one block per site).
    spec_of = {}
    linespec = {}
    for kind, place, f, ls in places:
        if ls:
            linespec[(kind, place)] = ls
        if kind != "return":
            spec_of[base(kind) + place] = (kind, place, f)
    vres = resolve_batch(list(spec_of), "--vars")
    sites = {}  # (kind, place) -> [address]
    place_err = {}
    for s_, (kind, place, f) in spec_of.items():
        r = vres.get(s_)
        if not r or r[0] != "ok":
            place_err[(kind, place)] = r[1] if r else "no answer"
            sites[(kind, place)] = []
            continue
        sites[(kind, place)] = [int(m.group(1), 16) for m in
                                (re.search(r"\((0x[0-9a-f]+)\):$", l) for l in r[1]
                                 if l.startswith("Variables at ")) if m]
    for kind, place, f, ls in places:
        if kind == "return":
            sites[(kind, place)] = [fns[f][0]]
    # gdb: a breakpoint at each site's address; for a line, gdb's own
    # `break FILE:LINE` (its locations, and the frame it selects there).
    gsites = {}
    for (kind, place), addrs in sites.items():
        if (kind, place) in linespec:
            gsites["L:" + place] = {"key": "L:" + place, "linespec": linespec[(kind, place)]}
            continue
        for a in addrs:
            key = gkey(kind, place, a)
            gsites[key] = {"key": key, "addr": a, "ret": kind == "return"}
    log("[%s] %d places, %d sites; gdb" % (tag, len(places), len(gsites)))
    g = gdb_pass(binary, list(gsites.values()), src, tag, work)
    hits, locs = g["hits"], g["locations"]
    fn_of = dict((k[:2], k[2]) for k in places)
    placement = {"gdb_only": [], "bpf_only": []}
    values = []  # dicts: kind, place, addr, expr, gdb entry, bpf answer
    for (kind, place), addrs in sites.items():
        at = list(addrs)
        no_site = set()
        if (kind, place) in linespec:
            # Where gdb stopped for this line but bpfprobe has no site:
            # its values count as refused (placement). For a relative line
            # (FUNC:N) only gdb's locations inside FUNC are its places.
            lo, size = fns[fn_of[(kind, place)]]
            for k in hits:
                if k.startswith("L:%s@" % place):
                    pc = int(k.rsplit("@", 1)[1])
                    if pc not in addrs and (kind == "inlined-line" or lo <= pc < lo + size):
                        no_site.add(pc)
                        at.append(pc)
            placement["gdb_only"] += ["%s 0x%x" % (place, pc) for pc in sorted(no_site)]
            placement["bpf_only"] += ["%s 0x%x" % (place, a) for a in addrs
                                      if a not in locs.get("L:" + place, [])]
        for a in at:
            h = hits.get(gkey(kind, place, a))
            if not h:
                continue
            ents = [h.get("ret", {"state": "none"})] if kind == "return" else h.get("vars", [])
            for e in ents:
                if e.get("state") in ("value", "optimized out", "aggregate",
                                      "synthetic pointer"):
                    v = {"kind": kind, "place": place, "addr": a,
                         "expr": e.get("expr", "$retval"), "gdb": e,
                         "function": h.get("function"), "inline": h.get("inline")}
                    if (kind, place) in place_err:
                        v["bpf"] = ("refused", "place: " + place_err[(kind, place)])
                    elif a in no_site:
                        v["bpf"] = ("refused", "place: no site at this address "
                                    "(gdb's break puts a location here)")
                    values.append(v)
    specs = sorted({base(v["kind"]) + "%s(%s)" % (v["place"], v["expr"]) for v in values
                    if "bpf" not in v})
    log("[%s] %d values at %d hit sites; resolving %d specs" %
        (tag, len(values), len({(v['kind'], v['addr']) for v in values}), len(specs)))
    res = {}
    for c in range(0, len(specs), 200):
        res.update(resolve_batch(specs[c:c + 200]))
    for v in values:
        if "bpf" in v:
            continue
        s_ = base(v["kind"]) + "%s(%s)" % (v["place"], v["expr"])
        r = res.get(s_, ("error", "no answer"))
        if r[0] == "ok":
            plan = None
            for l in r[1]:
                name, sym, off, fetch = parse_site(l)
                if SYMS.get(sym) is not None and SYMS[sym] + off == v["addr"] \
                        or (v["kind"] == "return"):
                    plan = fetch
                    break
            if plan is None:
                v["bpf"] = ("other-site", "; ".join(r[1]))
            else:
                v["bpf"] = ("resolved", " ".join("%s" % x for x in plan.values()))
                v["check"] = plan_to_gdb(list(plan.values())[0]) if len(plan) == 1 else None
        else:
            v["bpf"] = ("refused", r[1])
    # bpfprobe's plans evaluated by gdb at gdb's first hit of each site.
    checks = collections.defaultdict(list)
    for n, v in enumerate(values):
        if v.get("check"):
            v["check_id"] = str(n)
            if (v["kind"], v["place"]) in linespec:
                checks["L:" + v["place"]].append({"id": str(n), "expr": v["check"],
                                                  "pc": v["addr"]})
            else:
                checks[gkey(v["kind"], v["place"], v["addr"])].append(
                    {"id": str(n), "expr": v["check"]})
    # Where gdb stops in an inline frame and bpfprobe's plan reads a value
    # through the callers' call sites (an entry value: a select on the
    # return address), the plan with that select replaced by what gdb gives
    # for the outer frame's parameter at its entry, evaluated by gdb in the
    # outer frame: the cross-check of gdb_inline_misread for values derived
    # from an entry value (`current_item` = `item@entry->child`).
    sels = {}
    for v in values:
        if v["bpf"][0] == "resolved" and v.get("inline") and \
                re.fullmatch(r"\w+", v["expr"]) and v["bpf"][1].startswith("((("):
            body = v["bpf"][1].rpartition(":")[0]
            if "- %ip) ==" in body:
                sels[(v["kind"], v["place"], v["addr"], body)] = v["expr"]
    for n, v in enumerate(values):
        if v["bpf"][0] != "resolved" or not v.get("inline") or v.get("check"):
            continue
        for (k, p, a, body), name in sels.items():
            if (k, p, a) == (v["kind"], v["place"], v["addr"]) and body in v["bpf"][1]:
                e = plan_to_gdb(v["bpf"][1], (body, "(unsigned long)(%s@entry)" % name))
                if e:
                    v["outer_check_id"] = "o%d" % n
                    c = {"id": v["outer_check_id"], "expr": e, "outer": True}
                    if (v["kind"], v["place"]) in linespec:
                        checks["L:" + v["place"]].append(dict(c, pc=v["addr"]))
                    else:
                        checks[gkey(v["kind"], v["place"], v["addr"])].append(c)
                break
    if checks:
        csites = [dict(gsites[k], checks=c) for k, c in checks.items()]
        log("[%s] gdb: %d plans checked at %d sites" % (tag, sum(map(len, checks.values())), len(csites)))
        # The plan and gdb's own value are compared within this one run
        # (stack garbage differs from run to run).
        chits = gdb_pass(binary, csites, src, tag + "-plans", work)["hits"]
        for v in values:
            if "outer_check_id" in v:
                h = chits.get(gkey(v["kind"], v["place"], v["addr"]), {})
                oc = h.get("checks", {}).get(v["outer_check_id"])
                if isinstance(oc, int):
                    v["outer_check"] = oc
            if "check_id" in v:
                h = chits.get(gkey(v["kind"], v["place"], v["addr"]), {})
                v["plan_in_gdb"] = h.get("checks", {}).get(v["check_id"])
                ents = [h.get("ret", {})] if v["kind"] == "return" else h.get("vars", [])
                g2 = next((e for e in ents if e.get("expr", "$retval") == v["expr"]), None)
                if g2 and g2.get("state") == "value":
                    v["gdb2"] = g2
    # Live values.
    sites_hit = {(v["kind"], v["addr"]) for v in values}
    live_fail = []
    if not args.no_live:
        # One probe per place, or for a line per site gdb stopped at: the
        # copies of a line have different scopes, and a probe whose values
        # come from two scopes has no site that has them all.
        items = collections.OrderedDict()
        for v in values:
            if v["bpf"][0] == "resolved" and v["gdb"]["state"] in ("value", "optimized out"):
                key = (v["place"], v["kind"],
                       v["addr"] if v["kind"] in ("line", "inlined-line") else None)
                items.setdefault(key, [])
                if v["expr"] not in items[key]:
                    items[key].append(v["expr"])
        log("[%s] live: %d probes" % (tag, len(items)))
        first, live_fail = live_run(binary, [(p, k, e) for (p, k, _), e in items.items()],
                                    work, tag)
        byaddr = collections.defaultdict(dict)
        for (key, e), val in first.items():
            byaddr[(key[0], key[1])][(key[2], e)] = val
        for v in values:
            if v["bpf"][0] != "resolved":
                continue
            got = byaddr.get((v["kind"], v["place"]), {})
            val = got.get((v["addr"], v["expr"]))
            if val is None and v["kind"] == "return":
                val = next((x for (a, e), x in got.items() if e == v["expr"]), None)
            if val is None:
                val = got.get((None, v["expr"]), ("no record", None))
            v["live"] = val
    log("[%s] done in %.0f s" % (tag, time.time() - t0))
    return {"program": prog, "compiler": compiler, "binary": binary,
            "placement": placement, "syms": dict(SYMS),
            "places": places, "place_errors": {"%s %s" % k: e for k, e in place_err.items()},
            "values": values, "live_failures": live_fail}


def refusal_class_at(v, syms):
    """refusal_class, and whether the refusal names another site than the
    one gdb stopped at (a line's other inlined copy)."""
    msg = v["bpf"][1]
    c = refusal_class(msg)
    m = re.search(r" at ([\w.]+)\+0x([0-9a-f]+)", msg.splitlines()[0])
    if m and m.group(1) in syms and syms[m.group(1)] + int(m.group(2), 16) != v["addr"]:
        c = "[about another site] " + c
    return c


def gdb_inline_misread(v):
    """Whether a value that differs from gdb's is gdb 13's misreading of
    DW_OP_entry_value in an inline frame, checked mechanically: gdb stopped
    in an inlined function, bpfprobe's plan takes the value from the
    callers' call sites (its select on the return address, `- %ip) ==`),
    and the value equals, live, what gdb itself gives in the outer frame
    for the same expression through that frame's parameter at its entry
    (`item@entry->child`). Counted in a column of its own, never as agree."""
    g = v["gdb"]
    lv = v.get("live")
    if not v.get("inline") or "- %ip) ==" not in v["bpf"][1]:
        return False
    if not lv or lv[0] != "value" or lv[1] is None:
        return False
    # The outer frame's `x@entry` for the same expression, or (a value
    # derived from another one's entry value) bpfprobe's plan with that
    # entry value taken from gdb's outer frame, evaluated by gdb.
    outer = g.get("outer_entry", v.get("outer_check"))
    return outer is not None and same(dict(g, value=outer), lv[1], raw=g.get("kind") == "float")


def summarize(m):
    shows = [v for v in m["values"] if v["gdb"]["state"] == "value"]
    opt = [v for v in m["values"] if v["gdb"]["state"] == "optimized out"]
    aggr = [v for v in m["values"] if v["gdb"]["state"] == "aggregate"]
    fetched = [v for v in shows if v["bpf"][0] == "resolved"]
    refused = collections.Counter(refusal_class_at(v, m["syms"]) for v in shows
                                  if v["bpf"][0] == "refused")
    other = [v for v in shows if v["bpf"][0] == "other-site"]
    wrong, match, nolive, rundep = [], 0, collections.Counter(), []
    inline_misread = []
    plan_checked = plan_agree = 0
    varies = []
    for v in fetched:
        pg = v.get("plan_in_gdb")
        plan_ok = None
        if isinstance(pg, int):
            plan_checked += 1
            plan_ok = same(v.get("gdb2", v["gdb"]), pg, raw=True)
            plan_agree += plan_ok
        if "gdb2" in v and not same(v["gdb"], v["gdb2"]["value"], raw=True):
            varies.append(v)  # gdb itself sees another value in the 2nd run
        lv = v.get("live")
        live_ok = None
        if lv is None:
            nolive["not run"] += 1
        elif lv[0] != "value":
            nolive[lv[0]] += 1
        elif lv[1] is None:
            nolive["fault"] += 1
        else:
            live_ok = same(v["gdb"], lv[1])
            match += live_ok
        if plan_ok is False or (live_ok is False and plan_ok is None):
            if gdb_inline_misread(v):
                inline_misread.append(v)
            else:
                wrong.append(v)
        elif live_ok is False:
            rundep.append(v)
    suspicious = [v for v in opt if v["bpf"][0] == "resolved"]
    by_kind = collections.OrderedDict()
    for kind in ("entry", "offset", "line", "inlined-line", "return"):
        k_shows = [v for v in shows if v["kind"] == kind]
        by_kind[kind] = [len(k_shows), sum(1 for v in k_shows if v["bpf"][0] == "resolved"),
                         len({v["addr"] for v in m["values"] if v["kind"] == kind})]
    synthetic = [v for v in m["values"] if v["gdb"]["state"] == "synthetic pointer"]
    return {"gdb_shows": len(shows), "fetched": len(fetched),
            "availability": 100.0 * len(fetched) / len(shows) if shows else 0.0,
            "refused_by_class": dict(refused.most_common()),
            "resolved_elsewhere": len(other),
            "live_match": match, "live_not_compared": dict(nolive),
            "plan_checked": plan_checked, "plan_agree": plan_agree,
            "live_differs_plan_agrees": rundep,
            "gdb_runs_differ": varies,
            "wrong": wrong, "gdb_inline_misread": inline_misread,
            "gdb_optimized_out": len(opt),
            "optimized_out_but_fetched": suspicious,
            "optimized_out_refused": len(opt) - len(suspicious),
            "by_kind": by_kind, "synthetic_pointers": len(synthetic),
            "aggregates": len(aggr),
            "aggregates_fetched": sum(1 for v in aggr if v["bpf"][0] == "resolved"),
            "places": len(m["places"]),
            "placement_gdb_only": len(m["placement"]["gdb_only"]),
            "placement_bpf_only": len(m["placement"]["bpf_only"]),
            "sites_hit": len({(v["kind"], v["addr"]) for v in m["values"]})}


def describe(v):
    g = v["gdb"]
    return "%s %s @0x%x (%s%s) %s: gdb %s%s, live %s, plan in gdb %s [%s]" % (
        v["kind"], v["place"], v["addr"], v.get("function"),
        ", inlined" if v.get("inline") else "", v["expr"],
        g.get("value", g.get("state")),
        " (0x%x)" % g["value"] if isinstance(g.get("value"), int) else "",
        v.get("live", ("-",))[-1], v.get("plan_in_gdb"), v["bpf"][1])


def main():
    global RESOLVE, RUN, PLUGIN, CLANG, DWARFDUMP, ARGS, BUILT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build_dir")
    ap.add_argument("--work", default=None,
                    help="work directory (default: a fresh one under /tmp)")
    ap.add_argument("--src-cache", default=os.path.expanduser("~/.cache/bpfprobe-availability"),
                    help="where the downloaded tarballs are kept")
    ap.add_argument("--programs", default="zlib,cjson")
    ap.add_argument("--compilers", default="gcc,clang")
    ap.add_argument("--places", type=int, default=150,
                    help="probe places per program and compiler besides the "
                    "entry of every function the driver calls (default 150)")
    ap.add_argument("--no-live", action="store_true")
    ap.add_argument("--json", default=None)
    ap.add_argument("--llvm", default="/usr/lib/llvm-19/bin")
    args = ap.parse_args()
    bd = os.path.abspath(args.build_dir)
    RESOLVE = os.path.join(bd, "bin", "bpfprobe-resolve")
    RUN = os.path.join(bd, "bin", "bpfprobe-run")
    PLUGIN = os.path.join(bd, "lib", "libbpfprobe.so")
    CLANG = os.path.join(args.llvm, "clang")
    DWARFDUMP = os.path.join(args.llvm, "llvm-dwarfdump")
    for p in (RESOLVE, RUN, PLUGIN, CLANG, DWARFDUMP):
        if not os.path.exists(p):
            sys.exit("missing %s" % p)
    if os.geteuid() != 0 and not args.no_live:
        sys.exit("the live comparison loads BPF programs: run as root, or --no-live")
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="bpfprobe-avail-"))
    os.makedirs(work, exist_ok=True)
    log("work directory: %s" % work)
    t0 = time.time()
    ARGS, BUILT = {}, {}
    progs = args.programs.split(",")
    comps = args.compilers.split(",")
    jobs = []
    for prog in progs:
        tar = fetch_sources(prog, args.src_cache)
        for comp in comps:
            jobs.append((prog, comp, tar))
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for (prog, comp, _), res in zip(jobs, ex.map(lambda j: build(j[0], j[1], j[2], work), jobs)):
            BUILT[(prog, comp)] = res
            ARGS[res[0]] = PROGRAMS[prog]["args"]
    results = []
    for prog, comp, _ in jobs:
        results.append(measure(prog, comp, args, work))
    # Report.
    print("Availability vs gdb (%s, %s; %.0f s)" % (bd, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                     time.time() - t0))
    # gdb-inl: values that differ from gdb's where gdb misreads an entry
    # value in an inline frame (gdb_inline_misread: bpfprobe's value is the
    # one gdb gives in the outer frame); neither agree nor wrong.
    hdr = "%-14s %6s %5s %9s %8s %7s %5s %6s %7s %8s %6s" % (
        "program", "places", "sites", "gdb-shows", "fetched", "avail", "live=", "wrong",
        "gdb-inl", "gdb-opt", "opt+bpf")
    print(hdr)
    summaries = []
    tot = collections.Counter()
    for m in results:
        s = summarize(m)
        summaries.append(s)
        print("%-14s %6d %5d %9d %8d %6.1f%% %5d %6d %7d %8d %6d" % (
            "%s/%s" % (m["program"], m["compiler"]), s["places"], s["sites_hit"],
            s["gdb_shows"], s["fetched"], s["availability"], s["live_match"],
            len(s["wrong"]), len(s["gdb_inline_misread"]), s["gdb_optimized_out"],
            len(s["optimized_out_but_fetched"])))
        for k in ("gdb_shows", "fetched", "live_match", "gdb_optimized_out", "places", "sites_hit"):
            tot[k] += s[k]
        tot["wrong"] += len(s["wrong"])
        tot["inline_misread"] += len(s["gdb_inline_misread"])
        tot["opt_fetched"] += len(s["optimized_out_but_fetched"])
    print("%-14s %6d %5d %9d %8d %6.1f%% %5d %6d %7d %8d %6d" % (
        "total", tot["places"], tot["sites_hit"], tot["gdb_shows"], tot["fetched"],
        100.0 * tot["fetched"] / max(1, tot["gdb_shows"]), tot["live_match"], tot["wrong"],
        tot["inline_misread"], tot["gdb_optimized_out"], tot["opt_fetched"]))
    print("\nline placement: sites where gdb's `break FILE:LINE` stops and bpfprobe has "
          "none / bpfprobe sites where gdb puts no location")
    for m, s in zip(results, summaries):
        print("  %-14s %d / %d" % ("%s/%s" % (m["program"], m["compiler"]),
                                    s["placement_gdb_only"], s["placement_bpf_only"]))
    print("\nby place kind: gdb-shows/fetched (sites hit)")
    print("%-14s" % "program" + "".join("%18s" % k for k in summaries[0]["by_kind"]))
    for m, s in zip(results, summaries):
        print("%-14s" % ("%s/%s" % (m["program"], m["compiler"])) + "".join(
            "%18s" % ("%d/%d (%d)" % tuple(x)) for x in s["by_kind"].values()))
    for m, s in zip(results, summaries):
        print("\n%s/%s: refused while gdb shows a value, by class:" % (m["program"], m["compiler"]))
        for c, n in s["refused_by_class"].items():
            print("  %4d  %s" % (n, c))
        if s["resolved_elsewhere"]:
            print("  %4d  (resolved, but not at the site gdb stopped at)" % s["resolved_elsewhere"])
        if s["live_not_compared"]:
            print("  fetched but not compared live: %s" % s["live_not_compared"])
        print("  aggregates gdb shows: %d (bpfprobe resolved %d; not counted above)" %
              (s["aggregates"], s["aggregates_fetched"]))
        if s["synthetic_pointers"]:
            print("  implicit pointers (gdb: <synthetic pointer>, not counted; what they "
                  "point at is, as *p): %d" % s["synthetic_pointers"])
        for v in s["wrong"]:
            print("  WRONG: " + describe(v))
        for v in s["gdb_inline_misread"]:
            print("  gdb misreads an entry value in an inline frame (the outer frame's "
                  "@entry gives 0x%x, bpfprobe's value): %s" % (
                      v["gdb"].get("outer_entry", v.get("outer_check")), describe(v)))
        print("  plans evaluated by gdb at its stop: %d, equal to gdb's value: %d" %
              (s["plan_checked"], s["plan_agree"]))
        for v in s["live_differs_plan_agrees"]:
            print("  live value differs, but the plan read in gdb gives gdb's value "
                  "(memory differs between the runs): " + describe(v))
        if s["gdb_runs_differ"]:
            print("  values gdb itself shows differently in two runs (uninitialized): %s" %
                  ", ".join("%s %s" % (v["place"], v["expr"]) for v in s["gdb_runs_differ"]))
        for v in s["optimized_out_but_fetched"]:
            oe = v["gdb"].get("outer_entry")
            print("  gdb <optimized out>, bpfprobe fetched%s: %s" % (
                "" if oe is None else
                " (the outer frame's @entry gives 0x%x%s)" % (
                    oe, ", the live value" if v.get("live") and v["live"][0] == "value"
                    and v["live"][1] is not None and same(dict(v["gdb"], value=oe), v["live"][1])
                    else ""),
                describe(v)))
        for f in m["live_failures"]:
            print("  live probe failed (%s): %s %s(%s): %s" % (
                f[1], f[0][1], f[0][0], ", ".join(f[0][2]), f[2].strip().splitlines()[-1:]))
    if args.json:
        def enc(o):
            return list(o) if isinstance(o, tuple) else str(o)
        json.dump({"build_dir": bd, "results": results, "summaries": summaries},
                  open(args.json, "w"), indent=1, default=enc)
    return 1 if tot["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
