#!/usr/bin/env python3
"""Compares the long options a tool's --help lists with those its man page
documents: prints each option only one of them has, and "same N options"
when they agree (test/Runtime/man-options.test).

usage: man-vs-help.py HELP-TEXT MAN-PAGE
"""
import re
import sys


def help_options(text):
    """The options --help lists: those that begin an option line
    ("  --json", "  -v, --verbose"), not those its prose mentions."""
    opts = set()
    for line in text.splitlines():
        m = re.match(r"\s+(?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)", line)
        if m:
            opts.add(m.group(1))
    return opts


def man_options(text):
    """The options the man page lists: the tag line after each .TP
    (groff writes '-' as '\\-')."""
    opts = set()
    lines = text.replace("\\-", "-").splitlines()
    for prev, line in zip(lines, lines[1:]):
        if prev.strip() == ".TP" and line.startswith("."):
            opts.update(re.findall(r"(?<![A-Za-z0-9-])(--[a-z][a-z0-9-]*)", line))
    return opts


def main():
    help_text = open(sys.argv[1]).read()
    man_text = open(sys.argv[2]).read()
    h, m = help_options(help_text), man_options(man_text)
    for o in sorted(h - m):
        print("only in --help: %s" % o)
    for o in sorted(m - h):
        print("only in the man page: %s" % o)
    if h == m:
        print("same %d options" % len(h))
    return 0 if h == m else 1


if __name__ == "__main__":
    sys.exit(main())
