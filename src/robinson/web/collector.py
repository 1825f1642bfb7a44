"""Keeping Python's cyclic garbage collector out of the moves' latency.

A server holding a thousand tables has a few hundred thousand live objects the collector tracks
(each open socket alone keeps some thirty coroutines and closures of the ASGI stack). CPython
3.11 scans all of them in each full collection, which then ran every few seconds and paused the
event loop for 150–250 ms: the whole p99 of a move at 1,000 tables (docs/scaling.md).

So the objects that have lived a while are frozen (`gc.freeze`: moved where no collection looks,
at no cost) every second, and a full collection of everything runs every ten minutes. A frozen
object still goes the moment its last reference does; only garbage in reference cycles among
frozen objects waits for the next full collection. A closed socket leaves such cycles (about
20 KB of them, benchmarks/socket_memory.py): when the frozen objects have grown by a quarter since
the last full collection (sockets opened and closed by the thousand), it runs sooner, so that
memory is returned after close whatever the churn, at one collection per such growth.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("robinson.web")

FREEZE_EVERY = 1.0  # seconds between freezes of what is alive
FULL_EVERY = 600.0  # seconds between full collections of everything
GROWTH = 1.25  # ... or sooner, when the frozen objects grew by a quarter since the last one
SLACK = 20_000  # (and by this many at least: a small server never collects for growth)


async def pace() -> None:
    """Run for the server's life (a task of the app's lifespan)."""
    gc.collect()
    gc.freeze()  # what start-up made: modules, the app, the service
    last_full, kept = time.monotonic(), gc.get_freeze_count()
    while True:
        await asyncio.sleep(FREEZE_EVERY)
        grown = gc.get_freeze_count() > max(kept * GROWTH, kept + SLACK)
        if grown or time.monotonic() - last_full >= FULL_EVERY:
            began = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
            last_full, kept = time.monotonic(), gc.get_freeze_count()
            took = (time.perf_counter() - began) * 1000
            log.debug("full collection: %d unreachable, %.0f ms", found, took)
        else:
            gc.freeze()
