"""The compiler's DWARF as the oracle for bpfprobe's calling-convention tables.

For each configuration (an architecture, a convention, compiler flags):
generate >= 200 C functions with mixed integer, pointer and struct-by-value
parameters (1-12 of them), compile them with clang and the Debian cross gcc
(when installed) with -g -O2, find where each parameter is at the
function's entry address, and compare with the plan the bpfprobe plugin
prints for a probe on that function by its C types
(-fplugin-arg-bpfprobe-print-plan).

Where a parameter is at entry: a location list entry that starts at the
entry address is taken as it is. Other descriptions (a single location for
the whole function, a list whose first entry starts after the prologue, a
slot of the parameter save area the callee stores a register into) only
hold later; the tracer (machine-code side, below) follows the function's
straight-line code from the entry to carry them back to the entry. What it
cannot follow has no oracle, never a guess.

Verdicts: agree; disagree (a different register or stack slot, or a
different size than DWARF's type); a refusal is justified when DWARF puts
(part of) the value in a register struct pt_regs does not hold (FP/SIMD),
or when the two compilers put it in different places (a rule the table
cannot know; the refusal's message must say so); any other refusal where
DWARF shows a readable place is unjustified. The exit status is 1 on any
disagreement or unjustified refusal.

  python3 test/ABI/oracle --plugin build/lib/libbpfprobe.so [--arch LABEL...] [-n 220]
                [--workdir DIR] [--no-gcc] [--compiler clang|gcc] [--cc NAME] [-v]

The package: configs (the configurations and the tables' register names),
signatures (the generated functions), dwarf (where DWARF puts each
parameter), isa/ (one model per instruction set), trace (the function's
code from its entry), plan (the plugin's plans), compare, run (one
configuration, the command line). libbpf.py is the second oracle, for the
pt_regs offsets (libbpf's bpf_tracing.h).

DWARF register numbers map to kprobe_events names through the tables'
RegInfo rows (lib/Target/Arch*.cpp), read from the source tree; a wrong
DWARF number in a table therefore shows up as a disagreement.
"""
import argparse
