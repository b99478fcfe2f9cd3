#!/usr/bin/env python3
"""libbpf's bpf_tracing.h as a second oracle for the pt_regs offsets.

Compiles test/Inputs/abi/pt-regs-libbpf.bpf.c with -D__TARGET_ARCH_<x> and
the arch's uapi headers (Debian's linux-libc-dev-<arch>-cross), reads the
context offset of each PT_REGS_PARM1..5 / RC / SP / IP load from the
disassembly, and compares them with the pt_regs offsets of the registers
bpfprobe's table names for the same role (first five argument registers of
the convention libbpf models, the return register, the stack pointer, the
instruction pointer).

  python3 test/ABI/oracle/libbpf.py --clang clang --objdump llvm-objdump [--arch NAME...]
"""
import argparse, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))  # test/ABI/oracle/
INPUT = os.path.join(SRC, "test", "Inputs", "abi", "pt-regs-libbpf.bpf.c")

# bpfprobe arch, libbpf macro, include dir, table file, expected register
# names: PARM1..5, RC, SP, IP (None: not compared, with the reason).
CONFIGS = [
    ("x86_64", "x86", "/usr/include/x86_64-linux-gnu", "ArchX86_64.cpp",
     ["di", "si", "dx", "cx", "r8", "ax", "sp", "ip"], []),
    # libbpf models the i386 kernel (-mregparm=3): eax, edx, ecx; it has no
    # PARM4/5 for it. Compiled with -D__i386__ for the uapi struct.
    ("i386", "x86", "/usr/i686-linux-gnu/include", "ArchI386.cpp",
     ["ax", "dx", "cx", None, None, "ax", "sp", "ip"], ["-D__i386__", "-DNO_PARM45"]),
    ("aarch64", "arm64", "/usr/aarch64-linux-gnu/include", "ArchAArch64.cpp",
     ["x0", "x1", "x2", "x3", "x4", "x0", "sp", "pc"], []),
    # libbpf's PT_REGS_IP on arm is uregs[12], ARM_ip (the r12 scratch
    # register), not the pc: compared as such.
    ("arm", "arm", "/usr/arm-linux-gnueabi/include", "ArchARM.cpp",
     ["r0", "r1", "r2", "r3", "r4", "r0", "sp", "ip"], []),
    ("riscv64", "riscv", "/usr/riscv64-linux-gnu/include", "ArchRISCV64.cpp",
     ["a0", "a1", "a2", "a3", "a4", "a0", "sp", "epc"], []),
    ("s390x", "s390", "/usr/s390x-linux-gnu/include", "ArchS390x.cpp",
     ["r2", "r3", "r4", "r5", "r6", "r2", "r15", "psw.addr"], []),
    # libbpf's powerpc PT_REGS_SP names a member the uapi struct lacks.
    ("powerpc64le", "powerpc", "/usr/powerpc64le-linux-gnu/include", "ArchPPC64LE.cpp",
     ["gpr3", "gpr4", "gpr5", "gpr6", "gpr7", "gpr3", None, "nip"], ["-DNO_SP"]),
    # The uapi mips struct orders the fields after regs[32] differently from
    # the kernel's (the BPF context); PT_REGS_IP through it is not compared.
    ("mips64", "mips", "/usr/mips64el-linux-gnuabi64/include", "ArchMips64.cpp",
     ["r4", "r5", "r6", "r7", "r8", "r2", "r29", None], ["-DNO_IP"]),
]


# Field kinds of the 32-bit uapi struct pt_regs ('l' long, 'i' int).
UAPI32 = {"i386": "lllllll" + "iiii" + "ll" + "i" + "ll" + "i", "arm": "l" * 18}


def bpf_to_32bit(arch, off):
    at = 0
    for i, k in enumerate(UAPI32[arch]):
        size = 8 if k == "l" else 4
        at = (at + size - 1) // size * size
        if at == off:
            return 4 * i
        at += size
    return -1


def table_offsets(fname):
    text = open(os.path.join(SRC, "lib", "Target", fname)).read()
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r'^\s*\{"([^"]+)",\s*(\d+),\s*(\d+),\s*(-?\d+),\s*"([^"]*)"\}', text, re.M)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--objdump", default="llvm-objdump-19")
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--arch", action="append")
    args = ap.parse_args()
    bad = False
    roles = ["PARM1", "PARM2", "PARM3", "PARM4", "PARM5", "RC", "SP", "IP"]
    for arch, macro, inc, table, want, extra in CONFIGS:
        if args.arch and arch not in args.arch:
            continue
        if not os.path.isdir(inc):
            print("%s: %s is missing (install linux-libc-dev-<arch>-cross)" % (arch, inc))
            bad = True
            continue
        obj = os.path.join(args.workdir, arch + ".o")
        cmd = [args.clang, "-target", "bpf", "-O2", "-c", INPUT, "-o", obj,
               "-D__TARGET_ARCH_" + macro, "-nostdinc", "-isystem", inc,
               "-isystem", "/usr/include"] + extra
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            print("%s: compile failed:\n%s" % (arch, r.stderr[-1500:]))
            bad = True
            continue
        dis = subprocess.run([args.objdump, "-d", "--no-show-raw-insn", obj],
                             capture_output=True, text=True).stdout
        # r2 = *(u64 *)(r1 + 112) ... *(u64 *)(r3 + 8) = r2 : pair each ctx
        # load with the out[] slot it is stored to.
        loads, got = {}, {}
        for line in dis.splitlines():
            m = re.search(r"(r\d+) = \*\(u(\d+) \*\)\(r1 \+ (0x[0-9a-f]+|\d+)\)", line)
            if m:
                loads[m.group(1)] = (int(m.group(3), 0), int(m.group(2)) // 8)
                continue
            m = re.search(r"\*\(u\d+ \*\)\((r\d+) \+ (0x[0-9a-f]+|\d+)\) = (r\d+)", line)
            if m and m.group(3) in loads:
                slot = int(m.group(2), 0) // 8
                got[slot] = loads[m.group(3)]
        offs = table_offsets(table)
        agree = compared = 0
        for k, (role, reg) in enumerate(zip(roles, want)):
            if reg is None:
                continue
            compared += 1
            lb = got.get(k + 1)
            mine = offs[reg]
            if arch in ("i386", "arm") and lb is not None:
                # 32-bit uapi structs of `long` have 8-byte longs under
                # -target bpf: map the BPF layout's offset back to the field
                # index, and that to the 32-bit offset (every field is 4
                # bytes there).
                lb = (bpf_to_32bit(arch, lb[0]), lb[1])
            if lb is None:
                print("  %s %s: no load found in the libbpf program" % (arch, role))
                bad = True
            elif lb[0] != mine:
                print("  %s %s: libbpf reads +%d, the table has %%%s at +%d" % (arch, role, lb[0], reg, mine))
                bad = True
            else:
                agree += 1
        print("%-12s libbpf __TARGET_ARCH_%-8s compared=%d agree=%d" % (arch, macro, compared, agree))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
