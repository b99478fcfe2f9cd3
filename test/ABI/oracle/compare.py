"""Comparing a plan with the DWARF location."""

import re

from .configs import CFA_SP_NAMES
from .isa.base import FP


# ---------------------------------------------------------------- compare

def compare(plan, dwp):
    """'agree', 'disagree: ...', 'no-oracle: ...'."""
    if dwp is None:
        return "no-oracle: no location at entry"
    known = [(o, s, l) for o, s, l in dwp if l is not None]
    if not known:
        return "no-oracle: not traceable to the entry"
    if any(l[0] == "other" for _, _, l in known):
        return "no-oracle: %s" % [l for _, _, l in known if l[0] == "other"][0][1]
    for o, s, l in known:
        # the plan piece covering byte o
        cover = None
        for po, ps, pl in plan:
            end = po + ps if ps else 1 << 30
            if po <= o < end:
                cover = (po, pl)
                break
        if cover is None:
            return "disagree: DWARF piece at %d has no plan piece" % o
        po, pl = cover
        if l[0] == "reg" and pl[0] == "reg":
            if l[1] != pl[1] or o != po:
                return "disagree: reg %d vs %d" % (l[1], pl[1])
        elif l[0] == "mem" and pl[0] == "mem":
            if l[1] != pl[1] + (o - po):
                # right-justified small values in big-endian slots
                return "disagree: stack %+d vs %+d" % (l[1], pl[1] + (o - po))
        elif l[0] == "ind" and pl[0] == "ind":
            if l[1:] != pl[1:]:
                return "disagree: by-reference pointer in %s vs %s" % (l[1:], pl[1:])
        elif l[0] == "ind-mem" and pl[0] == "ind-mem":
            if l[1] != pl[1]:
                return "disagree: by-reference pointer at %+d vs %+d" % (l[1], pl[1])
        else:
            return "disagree: %s vs %s" % (l, pl)
    return "agree"


def fp_only(dwp, by_dwarf):
    """DWARF puts (part of) the value in registers struct pt_regs does not
    hold."""
    if not dwp:
        return False
    regs = [l for _, _, l in dwp if l is not None and l[0] == "reg"]
    return bool(regs) and any(r[1] not in by_dwarf for r in regs)


def places(pieces):
    """Registers and stack slots a location occupies at entry."""
    for _, _, l in pieces:
        if l is None or l[0] == "other":
            continue
        if l[0] in ("reg", "ind"):
            yield ("reg", l[1])
        elif l[0] in ("mem", "ind-mem"):
            yield ("mem", l[1])


def same_location(a, b, by_dwarf=None):
    """Two compilers' entry locations of one parameter, when both are known:
    True or False; None when either is unknown. With by_dwarf, registers the
    table does not have are all one (FP/SIMD registers)."""
    if not a or not b:
        return None

    def norm(l):
        if by_dwarf is not None and l[0] == "reg" and l[1] not in by_dwarf:
            return ("reg", FP)
        return l
    ka = [(o, norm(l)) for o, _, l in a if l is not None and l[0] != "other"]
    kb = [(o, norm(l)) for o, _, l in b if l is not None and l[0] != "other"]
    if not ka or not kb:
        return None
    common = set(o for o, _ in ka) & set(o for o, _ in kb)
    if not common:
        return None
    return all(dict(ka)[o] == dict(kb)[o] for o in common)


def cfa_reg_namer(arch, sp_dw):
    def name_to_dw(n):
        # CFA rows name registers by LLVM's names (RSP, W29, R15D, SP_64,
        # ...): the stack pointer by name, others by their trailing number.
        u = n.upper()
        if u in CFA_SP_NAMES[arch]:
            return sp_dw
        m = re.search(r"(\d+)$", u)
        return int(m.group(1)) if m else -1
    return name_to_dw
