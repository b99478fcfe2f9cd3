"""The plan side: the plugin's printed plans, parsed into locations."""

import re


# ---------------------------------------------------------------- plan side

def parse_plan_expr(e, by_name, sp_name):
    """'%di' / '+8(%sp)' / '+0(%x4)' / '{%r0,+0(%sp)}' -> list of locs in order."""
    if e.startswith("{"):
        parts = re.findall(r"[^,{}]+(?:\([^()]*(?:\([^()]*\))?[^()]*\))?", e[1:-1])
        return [parse_plan_expr(x.strip(), by_name, sp_name)[0] for x in parts if x.strip()]
    m = re.fullmatch(r"%(\S+)", e)
    if m:
        return [("reg", by_name[m.group(1)])]
    m = re.fullmatch(r"\+(-?\d+)\(%(\S+)\)", e)
    if m:
        reg = m.group(2)
        if reg == sp_name:
            return [("mem", int(m.group(1)))]
        return [("ind", by_name[reg], int(m.group(1)))]
    m = re.fullmatch(r"\+(-?\d+)\(\+(-?\d+)\(%(\S+)\)\)", e)
    if m and m.group(3) == sp_name:
        return [("ind-mem", int(m.group(2)))]
    return [("other", e)]


def parse_plans(out):
    plans = {}
    for line in out.splitlines():
        m = re.match(r"[pr]:p(\d+) \S+ (.*)$", line)
        if not m:
            continue
        args = re.split(r" (?=a\d+=)", m.group(2))
        vals = []
        for a in args:
            name, v = a.split("=", 1)
            expr, typ = re.match(r"(.*):([^:]+)$", v).groups()
            vals.append((expr, typ))
        plans[int(m.group(1))] = vals
    return plans


def type_size(typ):
    m = re.match(r"[sux](\d+)$", typ)
    if m:
        return int(m.group(1)) // 8
    m = re.match(r"x8\[(\d+)\]", typ)
    return int(m.group(1)) if m else None


def plan_pieces(expr, typ, by_name, sp_name, word):
    """-> [(offset, size, loc)] in memory order."""
    locs = parse_plan_expr(expr, by_name, sp_name)
    size = type_size(typ)
    if len(locs) == 1:
        return [(0, size, locs[0])]
    out, off = [], 0
    for i, l in enumerate(locs):
        sz = word if l[0] == "reg" and i < len(locs) - 1 else None
        out.append((off, sz, l))
        off += sz if sz else 0
    return out
