#!/usr/bin/env python3
"""Every value bpfprobe fetches at every line of a program, compared with gdb.

usage: expr-vs-gdb.py --build BUILD [--source FILE] [--lines A-B]
                      [--compilers gcc,clang] [--opts O1,O2,O3] [-- ARGS...]

For each compiler and optimization level, builds FILE (default
test/Inputs/dwarf/ops.c, whose locals exist only as DWARF expressions) with
-g, asks `bpfprobe-resolve --vars` which variables each line has, keeps the
ones bpfprobe can fetch, probes them all at once (BPF_PROBE_RECORD per line,
`bpfprobe-run`), and prints them with gdb at the same lines (`break
FILE:LINE`). A line that gdb or bpfprobe places at several addresses is
skipped, and so are pointers and structs; both runs are without address
randomization (gdb's default; `setarch -R` for bpfprobe-run), and a line hit
several times is compared hit by hit (a line where gdb stops more or less
often than the probe, a line placement difference, is reported and
skipped). Prints each disagreement and the
totals; exits 1 on any. Needs root
(uprobes), gdb and the compilers.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def fetchable(resolve, spec):
    """Variables of the single site of spec that bpfprobe fetches."""
    v = run([resolve, '--vars', spec])
    if v.returncode or len(re.findall(r'^Variables at', v.stdout, re.M)) != 1:
        return []
    # Scalars only: addresses differ between gdb's run (no ASLR) and ours,
    # and a record holds no struct.
    names = [n for t, n in re.findall(r'^\s+(?:param|local)\s+(.*?)\s(\w+)$', v.stdout, re.M)
             if '*' not in t and '[' not in t
             and not t.startswith(('struct', 'union', 'const struct'))]
    return [n for n in names if run([resolve, '%s(%s)' % (spec, n)]).returncode == 0]


GDB_LOOP = '''python
import gdb
probes = %r
while True:
    try:
        line = gdb.selected_frame().find_sal().line
        for l, names in probes:
            if l == line:
                vals = []
                for n in names:
                    try:
                        vals.append("%%s=%%d" %% (n, int(gdb.parse_and_eval(n))))
                    except Exception:
                        vals.append("%%s=ERR" %% n)
                print("GDB %%d %%s" %% (line, " ".join(vals)))
        gdb.execute("continue")
    except Exception:
        break
end
'''


def compare(binary, src, lines, args, build, cflags):
    resolve = os.path.join(build, 'bin', 'bpfprobe-resolve')
    base = os.path.basename(src)
    probes = []
    for ln in lines:
        names = fetchable(resolve, 'uprobe/%s:%s:%d' % (binary, base, ln))
        if names:
            probes.append((ln, names))
    if not probes:
        return 0, 0
    bpf = '#include <linux/bpf.h>\n#include <linux/ptrace.h>\n' \
          '#include <bpf/bpf_helpers.h>\n#include <bpfprobe/bpfprobe.h>\n'
    for i, (ln, names) in enumerate(probes):
        bpf += 'BPF_PROBE_RECORD_NAMED(p%d, "uprobe/%s:%s:%d(%s)");\n' % (
            i, binary, base, ln, ', '.join(names))
    bpf += 'char LICENSE[] SEC("license") = "GPL";\n'
    d = os.path.dirname(binary)
    with open(os.path.join(d, 'cmp.bpf.c'), 'w') as f:
        f.write(bpf)
    obj = os.path.join(d, 'cmp.bpf.o')
    r = run(cflags + ['-c', os.path.join(d, 'cmp.bpf.c'), '-o', obj])
    if r.returncode:
        sys.exit('cannot build the probes:\n' + r.stderr)
    # Without address randomization, as gdb runs it: a register that still
    # holds an address then has the same value in both runs.
    out = run([os.path.join(build, 'bin', 'bpfprobe-run'), '--no-printk', obj,
               '--', 'setarch', os.uname().machine, '-R', binary] + args).stdout
    recs = {}  # line -> the records of its hits, in order
    for l in out.splitlines():
        m = re.match(re.escape(base) + r':(\d+) pid=\d+ (.*)', l)
        if m:
            recs.setdefault(int(m.group(1)), []).append(
                dict(kv.split('=', 1) for kv in m.group(2).split(' ')))
    script = 'set pagination off\nset confirm off\n'
    script += ''.join('break %s:%d\n' % (base, ln) for ln, _ in probes)
    script += 'run %s\n' % ' '.join(args) + GDB_LOOP % (probes,)
    with open(os.path.join(d, 'cmp.gdb'), 'w') as f:
        f.write(script)
    gout = run(['gdb', '-batch', '-x', os.path.join(d, 'cmp.gdb'), binary]).stdout
    agree = differ = 0
    hits = re.findall(r'^GDB (\d+) ', gout, re.M)
    placed = {}  # line -> whether gdb and bpfprobe stopped there as often
    hit = {}  # line -> hits seen so far: gdb's k-th hit against the k-th record
    for l in gout.splitlines():
        m = re.match(r'GDB (\d+) (.*)', l)
        if not m:
            continue
        ln = int(m.group(1))
        if ln not in placed:
            placed[ln] = hits.count(str(ln)) == len(recs.get(ln, []))
            if not placed[ln]:
                print('SKIP %s %s:%d: gdb stops %d times, bpfprobe %d (line placement)'
                      % (binary, base, ln, hits.count(str(ln)), len(recs.get(ln, []))))
        if not placed[ln]:
            continue
        k = hit[ln] = hit.get(ln, -1) + 1
        rec = recs.get(ln, [])
        rec = rec[k] if k < len(rec) else {}
        for kv in m.group(2).split(' '):
            n, val = kv.split('=', 1)
            if val == 'ERR':
                continue
            got = rec.get(n)
            try:
                same = got is not None and int(got) % 2**64 == int(val) % 2**64
            except ValueError:
                same = False
            if same:
                agree += 1
            else:
                differ += 1
                print('DIFF %s %s:%d %s: gdb %s, bpfprobe %s' % (binary, base, ln, n, val, got))
    return agree, differ


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--source', default=os.path.join(ROOT, 'test/Inputs/dwarf/ops.c'))
    ap.add_argument('--lines', default='1-60')
    ap.add_argument('--compilers', default='gcc,clang')
    ap.add_argument('--opts', default='O1,O2,O3')
    ap.add_argument('args', nargs='*', default=['-1000', '77', '0xabcdef'])
    o = ap.parse_args()
    a, b = map(int, o.lines.split('-'))
    clang = '/usr/lib/llvm-19/bin/clang'
    cflags = [clang, '-target', 'bpf', '-O2', '-g', '-I' + os.path.join(ROOT, 'include'),
              '-I/usr/include/%s-linux-gnu' % os.uname().machine,
              '-fplugin=' + os.path.join(o.build, 'lib', 'libbpfprobe.so')]
    total_a = total_d = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cc in o.compilers.split(','):
            for opt in o.opts.split(','):
                binary = os.path.join(tmp, '%s-%s' % (cc, opt))
                r = run([clang if cc == 'clang' else cc, '-g', '-' + opt, o.source, '-o', binary])
                if r.returncode:
                    sys.exit(r.stderr)
                ag, df = compare(binary, o.source, range(a, b + 1), o.args, o.build, cflags)
                print('%-6s -%s: %d values, %d agree with gdb, %d differ' % (cc, opt, ag + df, ag, df))
                total_a += ag
                total_d += df
    print('total: %d values, %d agree with gdb, %d differ' % (total_a + total_d, total_a, total_d))
    return 1 if total_d else 0


if __name__ == '__main__':
    sys.exit(main())
