"""One model per instruction set, by architecture."""

from .x86 import X86
from .riscv import RISCV
from .loongarch import LoongArch
from .mips import Mips
from .ppc import PPC
from .s390x import S390x
from .aarch64 import AArch64
from .arm import Arm


ISAS = {"x86_64": lambda: X86(64), "i386": lambda: X86(32), "aarch64": AArch64, "arm": Arm,
        "riscv64": RISCV, "s390x": S390x, "powerpc64le": PPC, "mips64": Mips,
        "loongarch64": LoongArch}
