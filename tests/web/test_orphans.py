"""A server's worker processes end with it (web/service/orphans.py). An idle pool worker of a
server that died waited for work for hours, holding the server's stdout (a test reading that
output to its end hung on it). Here a process stands for the server: its worker, started as
the server starts them, ends within seconds of the "server" being killed with -9; a worker
without the watch sleeps on (the control)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

from robinson.web.service.orphans import exit_with_parent
from tests.tiers import SYSTEM

# Processes standing for a server and its worker, and seconds of real time waiting for one to
# end: `make test`, not the fast tier.
pytestmark = SYSTEM


def _worker(watch: bool, pids: Any) -> None:
    if watch:
        exit_with_parent(os.getppid())
    pids.put(os.getpid())
    time.sleep(120)  # waiting for work that will never come


def _server(watch: bool, pids: Any) -> None:
    ctx = multiprocessing.get_context("spawn")
    ctx.Process(target=_worker, args=(watch, pids), daemon=False).start()
    time.sleep(120)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _orphan_after_kill(watch: bool) -> bool:
    """Whether the worker still lives 10 s after its server was killed with -9."""
    ctx = multiprocessing.get_context("spawn")
    pids: Any = ctx.Queue()
    server = ctx.Process(target=_server, args=(watch, pids))
    server.start()
    worker = pids.get(timeout=60)
    assert server.pid is not None
    os.kill(server.pid, signal.SIGKILL)
    server.join(10)
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)
    return alive


def test_a_watched_worker_ends_with_its_server_and_an_unwatched_one_does_not() -> None:
    assert not _orphan_after_kill(watch=True)
    assert _orphan_after_kill(watch=False)  # the control: without the watch it lives on
