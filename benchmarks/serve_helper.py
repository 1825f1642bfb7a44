"""A `robinson serve` child process for the benchmarks: start, wait for it, measure, stop."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any

GENEROUS = ["--rate-tables", "1000000/minute", "--rate-actions", "100000000/minute"]
GENEROUS += ["--rate-sockets", "1000000/minute", "--rate-reads", "1000000/minute"]
GENEROUS += ["--sockets-per-address", "1000000"]  # one load client holds every socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(database: str, *options: str, env: dict[str, str] | None = None) -> Any:
    """The server process and its base URL, once /api/meta answers."""
    port = free_port()
    cmd = [sys.executable, "-c", "import sys, robinson.cli as c; sys.exit(c.main())", "serve"]
    cmd += ["--port", str(port), "--database", database, *GENEROUS, *options]
    proc = subprocess.Popen(
        cmd, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(proc.stdout.read().decode() if proc.stdout else "server exited")
        try:
            urllib.request.urlopen(f"{base}/api/meta", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("the server did not answer")


def stop(proc: Any) -> str:
    """Stop the server and return what it printed (killed if it does not stop within 60 s)."""
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate(timeout=30)
        out += b"\n(the server did not stop within 60 s of SIGTERM and was killed)\n"
    return str(out.decode(errors="replace"))


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """Resident memory of a process (VmHWM: its peak so far), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """User + system CPU time so far of a process (its threads, living and ended), or of one of
    its threads (`tid`; the main thread's id is the process id), from Linux's /proc."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
