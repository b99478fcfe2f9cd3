"""The configurations the oracle runs, and the bpfprobe tables it reads."""

import os
import re

# The source tree: test/ABI/oracle/ is three levels down.
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _cfg(label, arch, triple, gcc, kind="uprobe", flags=(), cc=None, gcc_flags=()):
    return {"label": label, "arch": arch, "triple": triple, "gcc": gcc, "kind": kind,
            "flags": list(flags), "cc": cc, "gcc_flags": list(gcc_flags)}


# label, bpfprobe arch, clang triple, gcc driver, probe kind, flags for both
# compilers, the plugin's -fplugin-arg-bpfprobe-cc= (None: the probe kind's
# default), flags for gcc only.
ARMHF_GCC = ["-march=armv7-a", "-mfpu=vfpv3-d16", "-mfloat-abi=hard"]
CONFIGS = [
    _cfg("x86_64", "x86_64", "x86_64-linux-gnu", "x86_64-linux-gnu-gcc"),
    _cfg("i386", "i386", "i686-linux-gnu", "i686-linux-gnu-gcc"),
    # the i386 kernel's convention: kprobes default to regparm3
    _cfg("i386(-mregparm=3)", "i386", "i686-linux-gnu", "i686-linux-gnu-gcc", kind="kprobe",
         flags=["-mregparm=3"]),
    # 32-bit x86 user code under an x86_64 kernel: the same code, the 64-bit pt_regs
    _cfg("ia32-compat", "ia32-compat", "i686-linux-gnu", "i686-linux-gnu-gcc"),
    _cfg("aarch64", "aarch64", "aarch64-linux-gnu", "aarch64-linux-gnu-gcc"),
    # armel (the base standard, soft-float), probed with -cc=aapcs
    _cfg("arm", "arm", "arm-linux-gnueabi", "arm-linux-gnueabi-gcc", cc="aapcs"),
    # armhf: the VFP variant, which puts floating-point values in VFP
    # registers; the uprobe default refuses them. gcc: the VFP
    # variant (Debian's armel gcc with armhf's defaults), the uprobe default
    _cfg("arm(hf)", "arm", "arm-linux-gnueabihf", "arm-linux-gnueabi-gcc", gcc_flags=ARMHF_GCC),
    # 32-bit arm user code under an arm64 kernel (armhf)
    _cfg("arm-compat", "arm-compat", "arm-linux-gnueabihf", "arm-linux-gnueabi-gcc",
         gcc_flags=ARMHF_GCC),
    _cfg("riscv64", "riscv64", "riscv64-linux-gnu", "riscv64-linux-gnu-gcc"),
    _cfg("s390x", "s390x", "s390x-linux-gnu", "s390x-linux-gnu-gcc"),
    _cfg("powerpc64le", "powerpc64le", "powerpc64le-linux-gnu", "powerpc64le-linux-gnu-gcc"),
    _cfg("mips64", "mips64", "mips64el-linux-gnuabi64", "mips64el-linux-gnuabi64-gcc"),
    # Without linker relaxation: clang 22 (unlike 19) relaxes by default on
    # LoongArch, and a relocatable object's location and range lists then
    # carry R_LARCH_ADD/SUB_ULEB128 pairs that only the linker resolves;
    # llvm-dwarfdump reads those lists as empty ranges, so nearly every
    # parameter had no oracle. Relaxation shortens address materialization
    # and calls; where arguments are at entry does not depend on it.
    _cfg("loongarch64", "loongarch64", "loongarch64-linux-gnu", "loongarch64-linux-gnu-gcc",
         flags=["-mno-relax"]),
]
TABLE_FILES = {
    "x86_64": "ArchX86_64.cpp", "i386": "ArchI386.cpp", "ia32-compat": "ArchIA32Compat.cpp",
    "aarch64": "ArchAArch64.cpp", "arm": "ArchARM.cpp", "arm-compat": "ArchARMCompat.cpp",
    "riscv64": "ArchRISCV64.cpp", "s390x": "ArchS390x.cpp",
    "powerpc64le": "ArchPPC64LE.cpp", "mips64": "ArchMips64.cpp",
    "loongarch64": "ArchLoongArch64.cpp",
}
# Stack pointer names in the tables.
SP_NAME = {"x86_64": "sp", "i386": "sp", "ia32-compat": "sp", "aarch64": "sp", "arm": "sp",
           "arm-compat": "sp", "riscv64": "sp", "s390x": "r15", "powerpc64le": "gpr1",
           "mips64": "r29", "loongarch64": "r3"}
# How llvm-dwarfdump names the stack pointer in CFA rules.
CFA_SP_NAMES = {"x86_64": {"RSP"}, "i386": {"ESP"}, "ia32-compat": {"ESP"},
                "aarch64": {"SP", "WSP"}, "arm": {"SP"}, "arm-compat": {"SP"},
                "riscv64": {"X2"}, "s390x": {"R15", "R15D"}, "powerpc64le": {"R1", "X1"},
                "mips64": {"SP_64", "SP"}, "loongarch64": {"R3"}}


def load_table(arch):
    """name -> dwarf number, dwarf number -> name, from the table source."""
    text = open(os.path.join(SRC, "lib", "Target", TABLE_FILES[arch])).read()
    by_name, by_dwarf = {}, {}
    for m in re.finditer(r'^\s*\{"([^"]+)",\s*(\d+),\s*(\d+),\s*(-?\d+),\s*"([^"]*)"\}', text, re.M):
        name, dw = m.group(1), int(m.group(4))
        by_name[name] = dw
        if dw >= 0:
            by_dwarf[dw] = name
    return by_name, by_dwarf
