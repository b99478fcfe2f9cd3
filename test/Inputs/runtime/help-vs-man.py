#!/usr/bin/env python3
"""usage: help-vs-man.py HELP.txt MANPAGE

Lists the options of a --help text (lines that start with blanks and an
option) that the man page does not mention (roff's '\\-' read as '-')."""
import re
import sys

helptext = open(sys.argv[1]).read()
opts = set(re.findall(r"^\s+(-[-\w]+)", helptext, re.M))
man = open(sys.argv[2]).read().replace("\\-", "-")
missing = sorted(o for o in opts if not re.search(re.escape(o) + r"(?![-\w])", man))
print("options: %d" % len(opts))
print("missing from the man page: %s" % (" ".join(missing) or "none"))
