#!/usr/bin/env python3
"""usage: with-debuginfod.py DIR -- CMD [ARG...]

Starts a real debuginfod (elfutils) that scans DIR (-F), listening on a free
port and reached through 127.0.0.1, waits until its first scan is complete
(its /metrics say so), then runs CMD with DEBUGINFOD_URLS=http://127.0.0.1:PORT
and DEBUGINFOD_CACHE_PATH set to a fresh temporary directory. The server is
stopped however CMD ends: a `finally` here (which also stops CMD when this
script is interrupted), SIGTERM/SIGINT/SIGHUP turned into an exit, and
PR_SET_PDEATHSIG so the server dies with this script even on SIGKILL.
Exits with CMD's status; 125 when the server could not be started.
"""
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def die_with_parent():
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_PDEATHSIG = 1
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def metrics(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                timeout=2) as r:
        values = {}
        for line in r.read().decode().splitlines():
            if line and not line.startswith("#"):
                key, _, value = line.rpartition(" ")
                values[key] = float(value)
        return values


def scanned(m):
    """The first traversal is over and no file waits to be scanned."""
    return (m.get('thread_work_total{role="traverse"}', 0) >= 1 and
            m.get('thread_work_pending{role="scan"}', 1) == 0 and
            m.get('thread_busy{role="scan"}', 1) == 0)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.stderr.write(__doc__)
        return 2
    scan_dir, cmd = sys.argv[1], sys.argv[3:]

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)

    with tempfile.TemporaryDirectory(prefix="bpfprobe-debuginfod.") as tmp:
        log_path = os.path.join(tmp, "server.log")
        server_env = dict(os.environ)
        server_env.pop("DEBUGINFOD_URLS", None)  # no federation
        server = child = None
        try:
            # The port is free when chosen; another process may take it
            # before debuginfod binds it, so a few attempts.
            for attempt in range(5):
                port = free_port()
                db = os.path.join(tmp, "db%d.sqlite" % attempt)
                with open(log_path, "w") as log:
                    server = subprocess.Popen(
                        ["debuginfod", "-F", "-p", str(port), "-d", db,
                         "-t", "0", "-g", "0", "-c", "1", scan_dir],
                        stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                        env=server_env, preexec_fn=die_with_parent)
                deadline = time.monotonic() + 60
                ready = False
                while time.monotonic() < deadline and server.poll() is None:
                    try:
                        if scanned(metrics(port)):
                            ready = True
                            break
                    except OSError:
                        pass
                    time.sleep(0.1)
                if ready:
                    break
                stop(server)
            else:
                with open(log_path) as log:
                    sys.stderr.write("with-debuginfod: debuginfod did not "
                                     "start or scan %s; its log:\n%s" %
                                     (scan_dir, log.read()))
                return 125

            env = dict(os.environ)
            env["DEBUGINFOD_URLS"] = "http://127.0.0.1:%d" % port
            env["DEBUGINFOD_CACHE_PATH"] = os.path.join(tmp, "cache")
            sys.stdout.flush()
            child = subprocess.Popen(cmd, env=env)
            return child.wait()
        finally:
            if child is not None:
                stop(child)
            if server is not None:
                stop(server)


if __name__ == "__main__":
    sys.exit(main())
