"""The generated C functions: parameter types, the compiled source and the BPF probes on it."""

import random


STRUCTS = """
struct s1 { char a; };
struct s2 { short a; };
struct s3 { char a; short b; };
struct s4 { int a; };
struct s6 { short a, b, c; };
struct s8 { int a, b; };
struct s12 { int a, b, c; };
struct s16 { long long a, b; };
struct sp { void *p; int n; };
struct s24 { long a, b, c; };
struct sll { char c; long long x; };
union u8 { int i; char c[8]; };
struct s3c { char c[3]; };
struct nest { struct s4 a; char b; };
struct sf { float f; int i; };
struct sd { double d; };
struct ff { float a, b; };
struct hfa3 { float a, b, c; };
union uf { float f; int i; };
union ud { double d; long l; };
struct nd { struct sd in; int x; };
struct dl { double d; long l; };
struct sld { long double x; };
"""
SCALARS = ["char", "signed char", "unsigned char", "short", "unsigned short", "int",
           "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
           "void *", "char *"]
AGGS = ["struct s1", "struct s2", "struct s3", "struct s4", "struct s6", "struct s8",
        "struct s12", "struct s16", "struct sp", "struct s24", "struct sll", "union u8",
        "struct s3c", "struct nest"]
# Floating point, alone or in aggregates: where each ABI refuses it and
# where it plans it (long double alone is not fetched anywhere: only 32- and
# 64-bit floating-point values are, so it is not generated).
FLOATY = ["double", "float", "struct sf", "struct sd", "struct ff", "struct hfa3", "union uf",
          "union ud", "struct nd", "struct dl", "struct sld"]


def gen_signatures(n, seed):
    rnd = random.Random(seed)
    sigs = []
    for i in range(n):
        k = rnd.randint(1, 12)
        ps = []
        for _ in range(k):
            r = rnd.random()
            if r < 0.6:
                ps.append(rnd.choice(SCALARS))
            elif r < 0.93:
                ps.append(rnd.choice(AGGS))
            else:
                ps.append(rnd.choice(FLOATY))
        sigs.append(ps)
    return sigs


def c_source(sigs):
    out = [STRUCTS]
    for i, ps in enumerate(sigs):
        rev = list(reversed(range(len(ps))))
        out.append("void sink%d(%s);" % (i, ", ".join(ps[j] for j in rev)))
        params = ", ".join("%s p%d" % (t, j) for j, t in enumerate(ps))
        out.append("void f%d(%s) { sink%d(%s); }" % (i, params, i,
                                                     ", ".join("p%d" % j for j in rev)))
    return "\n".join(out) + "\n"


def bpf_source(sigs, kind):
    out = ["struct pt_regs;", STRUCTS]
    cols = []
    for i, ps in enumerate(sigs):
        if not ps:
            cols.append([])
            continue
        target = ("f%d" % i) if kind == "kprobe" else "./x:f%d" % i
        line = '__attribute__((section("%s/%s(' % (kind, target)
        starts = []
        for j, t in enumerate(ps):
            if j:
                line += ", "
            starts.append(len(line) + 1)  # 1-based column
            line += t
        line += ')")))'
        cols.append(starts)
        out.append(line)
        params = []
        for j, t in enumerate(ps):
            if t.endswith("*"):
                params.append("void *a%d" % j)
            elif t.startswith("struct") or t.startswith("union"):
                params.append("const void *a%d" % j)
            else:
                params.append("long long a%d" % j)
        out.append("int p%d(struct pt_regs *ctx, %s) { return 0; }" % (i, ", ".join(params)))
    return "\n".join(out) + "\n", cols
