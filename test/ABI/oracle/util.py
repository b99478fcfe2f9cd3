"""Running the tools."""

import subprocess


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)
