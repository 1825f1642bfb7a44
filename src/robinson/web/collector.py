"""Keeping Python's cyclic garbage collector out of the moves' latency.

A server holding a thousand tables has a few hundred thousand live objects the collector tracks
(each open socket alone keeps some thirty coroutines and closures of the ASGI stack). CPython
3.11 scans all of them in each full collection, which then ran every few seconds and paused the
event loop for 150–250 ms: the whole p99 of a move at 1,000 tables (docs/scaling.md).

So the objects that have lived a while are frozen (`gc.freeze`: moved where no collection looks,
at no cost) every second, and a full collection of everything runs every ten minutes. A frozen
object still goes the moment its last reference does; only garbage in reference cycles among
frozen objects waits for the next full collection. A closed socket leaves such cycles (about
20 KB of them, benchmarks/socket_memory.py): after CLOSED_LIMIT sockets closed (`closed()`,
called by the socket's route) the full collection runs sooner, so that memory is returned after
close whatever the churn (at most about CLOSED_LIMIT × 20 KB waits). Counting the frozen objects
instead (`gc.get_freeze_count`) walks them all: 19 ms a call at a few hundred thousand.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("robinson.web")

FREEZE_EVERY = 1.0  # seconds between freezes of what is alive
FULL_EVERY = 600.0  # seconds between full collections of everything
CLOSED_LIMIT = 2000  # ... or sooner, once this many sockets closed since the last one

_closed = 0  # sockets closed since the last full collection


def closed() -> None:
    """A socket closed: its cycles wait among the frozen for a full collection."""
    global _closed
    _closed += 1


async def pace() -> None:
    """Run for the server's life (a task of the app's lifespan)."""
    global _closed
    gc.collect()
    gc.freeze()  # what start-up made: modules, the app, the service
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(FREEZE_EVERY)
        if _closed >= CLOSED_LIMIT or time.monotonic() - last_full >= FULL_EVERY:
            began = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
            last_full, _closed = time.monotonic(), 0
            took = (time.perf_counter() - began) * 1000
            log.debug("full collection: %d unreachable, %.0f ms", found, took)
        else:
            gc.freeze()
