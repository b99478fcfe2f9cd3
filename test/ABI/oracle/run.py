"""One configuration's run, and the command line."""

import argparse
import os
import re
import shutil
import sys

from .configs import CONFIGS, SP_NAME, load_table
from .signatures import bpf_source, c_source, gen_signatures
from .util import run
from .dwarf import FrameInfo, param_location, parse_cfa_tables, parse_dwarf
from .isa import ISAS
from .trace import Trace, parse_disasm
from .plan import parse_plans, plan_pieces, type_size
from .compare import cfa_reg_namer, compare, fp_only, places, same_location


def run_config(cfg, args, tools):
    arch, label = cfg["arch"], cfg["label"]
    wd = os.path.join(args.workdir, re.sub(r"[^a-z0-9]+", "_", label))
    os.makedirs(wd, exist_ok=True)
    seed = sum(map(ord, label))
    sigs = gen_signatures(args.n, seed)
    with open(os.path.join(wd, "f.c"), "w") as f:
        f.write(c_source(sigs))
    bpf, cols = bpf_source(sigs, cfg["kind"])
    with open(os.path.join(wd, "p.bpf.c"), "w") as f:
        f.write(bpf)
    by_name, by_dwarf = load_table(arch)
    sp_name = SP_NAME[arch]
    sp_dw = by_name[sp_name]
    word = 4 if arch in ("i386", "arm", "ia32-compat", "arm-compat") else 8
    isa_name = {"ia32-compat": "i386", "arm-compat": "arm"}.get(arch, arch)

    # The plugin's plans.
    # The BPF object has the probed machine's byte order (the plugin checks).
    bpf_target = "bpfeb" if arch == "s390x" else "bpfel"
    cmd = [tools["clang"], "-target", bpf_target, "-fsyntax-only", "-fplugin=" + args.plugin,
           "-fplugin-arg-bpfprobe-arch=" + arch, "-fplugin-arg-bpfprobe-print-plan",
           "-Wno-everything", "-ferror-limit=0"]
    cc = args.cc or cfg.get("cc")
    if cc:
        cmd.append("-fplugin-arg-bpfprobe-cc=" + cc)
    r = run(cmd + [os.path.join(wd, "p.bpf.c")])
    plans = parse_plans(r.stdout)
    bpf_lines = bpf.splitlines()
    ref_by_fn = {}
    for m in re.finditer(r"p\.bpf\.c:(\d+):(\d+): error: (.*)", r.stderr):
        line, col, msg = int(m.group(1)), int(m.group(2)), m.group(3)
        mm = re.search(r"f(\d+)\(", bpf_lines[line - 1])
        if not mm:
            continue
        i = int(mm.group(1))
        j = max([k for k, c in enumerate(cols[i]) if c <= col] or [0])
        ref_by_fn[i] = (j, msg)

    # A refused probe has no plan: ask again for the parameters before the
    # refused one, so they are still compared.
    prefixes = [ps[:ref_by_fn[i][0]] if i in ref_by_fn else [] for i, ps in enumerate(sigs)]
    if any(prefixes):
        bpf2, _ = bpf_source(prefixes, cfg["kind"])
        with open(os.path.join(wd, "prefix.bpf.c"), "w") as f:
            f.write(bpf2)
        r2 = run(cmd + [os.path.join(wd, "prefix.bpf.c")])
        for i, v in parse_plans(r2.stdout).items():
            if i in ref_by_fn and i not in plans:
                plans[i] = v

    # The compilers' DWARF and code: every compiler's entry locations are
    # computed, so a refusal can be checked against both.
    compilers = [("clang", [tools["clang"], "--target=" + cfg["triple"]] + cfg["flags"])]
    if not args.no_gcc and cfg.get("gcc") and shutil.which(cfg["gcc"]):
        compilers.append(("gcc", [cfg["gcc"]] + cfg["flags"] + cfg["gcc_flags"]))
    locs = {}
    for cname, cc in compilers:
        obj = os.path.join(wd, "f-%s.o" % cname)
        r = run(cc + ["-g", "-O2", "-c", os.path.join(wd, "f.c"), "-o", obj])
        if r.returncode:
            print("%s: %s failed:\n%s" % (label, cname, r.stderr[-2000:]), file=sys.stderr)
            continue
        funcs = parse_dwarf(obj, tools["dwarfdump"], word)
        cfa, cie = parse_cfa_tables(obj, tools["dwarfdump"])
        code = parse_disasm(obj, tools["objdump"])
        isa = ISAS[isa_name]()
        namer = cfa_reg_namer(arch, sp_dw)
        per_fn = {}
        for i, ps in enumerate(sigs):
            fn = funcs.get("f%d" % i)
            if fn is None:
                continue
            frame = FrameInfo(fn, cfa, cie, sp_dw, namer, word)
            trace = Trace(code["f%d" % i], isa) if "f%d" % i in code else None
            out = []
            for j in range(len(ps)):
                p = fn["params"][j] if j < len(fn["params"]) else None
                loc, derived = param_location(p, fn, frame, trace, p["size"], word) \
                    if p else (None, False)
                out.append([loc, p["size"] if p else None, derived])
            # A location the tracer carried back that another parameter's
            # DWARF also claims at entry: one of the two descriptions is
            # wrong; the carried one is dropped (both, if both were carried).
            drop = set()
            for j, (loc, _, derived) in enumerate(out):
                if not (derived and loc):
                    continue
                mine = set(places(loc))
                if any(j2 != j and loc2 and mine & set(places(loc2))
                       for j2, (loc2, _, _) in enumerate(out)):
                    drop.add(j)
            for j in drop:
                out[j][0] = [(o, s, None) for o, s, _ in out[j][0]]
            per_fn[i] = out
        locs[cname] = per_fn

    # A register that one compiler's late-starting location list names
    # (carried back by the tracer), where the other compiler's DWARF says at
    # entry, directly, something else: Clang's late labels name registers
    # that hold another argument at that point, so the carried one is the
    # suspect and is dropped (and counted). Memory is never dropped, so a
    # real difference between the compilers on the stack stays visible.
    vetoed = []
    for cname in locs:
        for i, per in locs[cname].items():
            for j, entry in enumerate(per):
                loc, _, derived = entry
                if not (derived == "at" and loc and
                        any(l and l[0] in ("reg", "ind") for _, _, l in loc)):
                    continue
                for c2 in locs:
                    if c2 == cname or i not in locs[c2]:
                        continue
                    loc2, _, derived2 = locs[c2][i][j]
                    if loc2 and not derived2 and same_location(loc, loc2, by_dwarf) is False:
                        vetoed.append("%s f%d p%d: %s (%s: %s)" % (cname, i, j, loc, c2, loc2))
                        entry[0] = [(o, s, None) for o, s, _ in loc]
    for cname in locs:
        for i in locs[cname]:
            locs[cname][i] = [(loc, size) for loc, size, _ in locs[cname][i]]

    results = {}
    for cname in locs:
        stats = {"params": 0, "agree": 0, "disagree": 0, "refused-ok": 0, "refused-cc": 0,
                 "refused-bad": 0, "refused-limit": 0, "no-oracle": 0, "not-compared": 0,
                 "vetoed": sum(1 for v in vetoed if v.startswith(cname + " "))}
        notes = ["dropped (the other compiler's DWARF says otherwise at entry): " + v
                 for v in vetoed if v.startswith(cname + " ")] if args.verbose else []
        for i, ps in enumerate(sigs):
            if i not in locs[cname]:
                continue
            stop = ref_by_fn[i][0] if i in ref_by_fn else len(ps)
            for j in range(len(ps)):
                dw, dsize = locs[cname][i][j]
                stats["params"] += 1
                if j > stop:
                    stats["not-compared"] += 1
                    continue
                if j == stop and i in ref_by_fn:
                    msg = ref_by_fn[i][1]
                    others = [locs[c][i][j][0] for c in locs if c != cname and i in locs[c]]
                    unknown = dw is None or all(l is None or l[0] == "other" for _, _, l in dw)
                    if "BPF stack" in msg:
                        # the prologue's own limit, not the ABI: counted apart
                        stats["refused-limit"] += 1
                    elif fp_only(dw, by_dwarf) or any(
                            fp_only(o, by_dwarf) and (unknown or same_location(dw, o, by_dwarf))
                            for o in others):
                        # in an FP register (by the other compiler's DWARF
                        # when this one's says nothing about that part and
                        # agrees on the rest)
                        stats["refused-ok"] += 1
                    elif (any(same_location(dw, o, by_dwarf) is False for o in others) or
                          any(fp_only(o, by_dwarf) for o in others)) and "compiler" in msg:
                        # The compilers place it differently: a rule the
                        # table cannot know (the refusal must say so).
                        stats["refused-cc"] += 1
                        if args.verbose:
                            notes.append("f%d p%d (%s): refused (%s); compilers differ: %s" %
                                         (i, j, ps[j], msg, [dw] + others))
                    elif dw is None or any(l is None or l[0] == "other" for _, _, l in dw) or (
                            "compiler" in msg and not all(
                                o and all(l is not None and l[0] != "other" for _, _, l in o)
                                for o in others)):
                        # A refusal is unjustified only if DWARF shows every
                        # byte of the value in a readable place (and, for
                        # one that says the compilers differ, that both put
                        # it in the same place).
                        stats["no-oracle"] += 1
                        if args.verbose:
                            notes.append("f%d p%d (%s): refused (%s), no oracle" % (i, j, ps[j], msg))
                    else:
                        stats["refused-bad"] += 1
                        notes.append("f%d p%d (%s): refused (%s) but DWARF says %s" %
                                     (i, j, ps[j], msg, dw))
                    continue
                expr, typ = plans[i][j]
                pl = plan_pieces(expr, typ, by_name, sp_name, word)
                psize = type_size(typ)
                verdict = compare(pl, dw)
                if verdict == "agree" and dsize is not None and psize is not None and \
                        psize != dsize:
                    verdict = "disagree: %d bytes vs DWARF's %d" % (psize, dsize)
                if verdict == "agree":
                    stats["agree"] += 1
                elif verdict.startswith("no-oracle"):
                    stats["no-oracle"] += 1
                    if args.verbose:
                        notes.append("f%d p%d (%s): %s" % (i, j, ps[j], verdict))
                else:
                    stats["disagree"] += 1
                    notes.append("f%d p%d (%s): plan %s:%s, DWARF %s: %s" %
                                 (i, j, ps[j], expr, typ, dw, verdict))
        results[cname] = (stats, notes)
    return len(sigs), results


def main():
    ap = argparse.ArgumentParser(description=sys.modules[__package__].__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang", default=shutil.which("clang-19") or "clang")
    ap.add_argument("--dwarfdump", default=shutil.which("llvm-dwarfdump-19") or "llvm-dwarfdump")
    ap.add_argument("--objdump", default=shutil.which("llvm-objdump-19") or "llvm-objdump")
    ap.add_argument("--arch", action="append", help="configuration labels to run")
    ap.add_argument("-n", type=int, default=220)
    ap.add_argument("--workdir", default="abi-oracle.out")
    ap.add_argument("--no-gcc", action="store_true")
    ap.add_argument("--compiler", action="append",
                    help="report only these compilers' DWARF (clang, gcc)")
    ap.add_argument("--cc", help="probe with this -fplugin-arg-bpfprobe-cc= instead of the "
                    "configuration's (to see the oracle fail with a wrong convention)")
    ap.add_argument("--coverage", metavar="FILE",
                    help="bounds per configuration and compiler, lines of 'LABEL COMPILER "
                    "AGREE_MIN NO_ORACLE_MAX': fewer agreements or more parameters the oracle "
                    "could not answer fail the run, and so does a reported configuration "
                    "without a line (an oracle that stops answering must not pass)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    tools = {"clang": args.clang, "dwarfdump": args.dwarfdump, "objdump": args.objdump}
    bad = False
    bounds = {}
    if args.coverage:
        # "llvm-N:" in front of a line: for clang N only (its DWARF differs).
        m = re.search(r"version (\d+)\.", run([args.clang, "--version"]).stdout)
        major = "llvm-%s:" % (m.group(1) if m else "?")
        with open(args.coverage) as f:
            lines = [l.split("#", 1)[0].split() for l in f]
        for words in sorted((w for w in lines if w), key=lambda w: w[0].endswith(":")):
            if words[0].endswith(":"):
                if words[0] != major:
                    continue
                words = words[1:]
            bounds[(words[0], words[1])] = (int(words[2]), int(words[3]))
    for cfg in CONFIGS:
        label = cfg["label"]
        if args.arch and label not in args.arch:
            continue
        if args.compiler and "gcc" in args.compiler and cfg.get("gcc") and \
                not shutil.which(cfg["gcc"]):
            print("%s: %s is not installed" % (label, cfg["gcc"]), file=sys.stderr)
            bad = True
            continue
        n, results = run_config(cfg, args, tools)
        for cname, (s, notes) in sorted(results.items()):
            if args.compiler and cname not in args.compiler:
                continue
            print("%-22s %-5s signatures=%d params=%d agree=%d disagree=%d refused(justified)=%d "
                  "refused(compilers-differ)=%d refused(unjustified)=%d refused(stack-budget)=%d "
                  "no-oracle=%d not-compared=%d dropped=%d" %
                  (label, cname, n, s["params"], s["agree"], s["disagree"], s["refused-ok"],
                   s["refused-cc"], s["refused-bad"], s["refused-limit"], s["no-oracle"],
                   s["not-compared"], s["vetoed"]))
            for note in notes[:40 if not args.verbose else None]:
                print("  " + note)
            if s["disagree"] or s["refused-bad"]:
                bad = True
            if s["agree"] < 1:
                bad = True
            if args.coverage:
                if (label, cname) not in bounds:
                    print("coverage %s %s: no bounds in %s" % (label, cname, args.coverage))
                    bad = True
                    continue
                lo, hi = bounds[(label, cname)]
                ok = s["agree"] >= lo and s["no-oracle"] <= hi
                print("coverage %s %s: agree=%d (min %d) no-oracle=%d (max %d): %s" %
                      (label, cname, s["agree"], lo, s["no-oracle"], hi,
                       "ok" if ok else "OUT OF BOUNDS"))
                bad |= not ok
    return 1 if bad else 0

