"""python3 test/ABI/oracle ARGS: runs the DWARF oracle (see __init__.py)."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
if not __package__:
    # Run as a directory: import the package from its parent, not the
    # modules as top-level ones (trace.py would shadow the standard one).
    HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
    sys.path.insert(0, os.path.dirname(HERE))
    from oracle.run import main
else:
    from .run import main

sys.exit(main())
