#!/usr/bin/env python3
"""Writes an IR module whose body function carries a fetch plan in
llvm.global.annotations, as the front end leaves it, for the pass's
diagnostic tests (test/Pass/diag-*.ll): opt reads plans from IR, where
anyone can write them.

usage: plan-ir.py [--body 'i32 @on_f(ptr %ctx, i32 %x)'] [--ret 'ret i32 0']
                  [--extra 'IR line']... [--raw TEXT] [KEY=VALUE]...

KEY=VALUE lines follow a valid x86_64 uprobe plan's defaults (program, body,
section, kind, arch, ...), replacing a default of the same key; `arg=` lines
(fields separated by '\\t' in the argument) are appended. --raw replaces the
whole plan text.
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("--body", default="i32 @on_f(ptr %ctx, i32 %x)")
p.add_argument("--ret", default="ret i32 0")
p.add_argument("--extra", action="append", default=[])
p.add_argument("--raw")
p.add_argument("kv", nargs="*")
a = p.parse_args()

name = a.body.split("@", 1)[1].split("(", 1)[0]
plan = {
    "program": "on_f", "body": name, "section": "uprobe/./demo:f",
    "kind": "uprobe", "target": "./demo", "symbol": "f", "offset": "0",
    "address": "0", "symbol_size": "0", "arch": "x86_64", "build_id": "",
    "source": "cc", "spec": "uprobe/./demo:f(int)", "space": "user",
    "record": "0",
}
args = []
for kv in a.kv:
    k, v = kv.split("=", 1)
    if k == "arg":
        args.append(v.replace("\\t", "\t"))
    else:
        plan[k] = v
if a.raw is not None:
    text = a.raw.replace("\\n", "\n").replace("\\t", "\t")
else:
    text = "bpfprobe-plan 2\n" + "".join("%s=%s\n" % kv for kv in plan.items())
    text += "".join("arg=%s\n" % v for v in args)
data = ("bpfprobe.plan:" + text).encode() + b"\0"


def ir_string(b):
    return "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else "\\%02X" % c
                   for c in b)


print('target triple = "bpf"')
for line in a.extra:
    print(line)
print('@.plan = private unnamed_addr constant [%d x i8] c"%s", section "llvm.metadata"'
      % (len(data), ir_string(data)))
print('@.file = private unnamed_addr constant [4 x i8] c"t.c\\00", section "llvm.metadata"')
print("@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] "
      "[{ ptr, ptr, ptr, i32, ptr } { ptr @%s, ptr @.plan, ptr @.file, i32 1, ptr null }], "
      'section "llvm.metadata"' % name)
print("define %s {\nentry:\n  %s\n}" % (a.body, a.ret))
