"""Keeping Python's cyclic garbage collector out of the moves' latency.

A server holding a thousand tables has a few hundred thousand live objects the collector tracks
(each open socket alone keeps some thirty coroutines and closures of the ASGI stack). CPython
3.11 scans all of them in each full collection, which then ran every few seconds and paused the
event loop for 150–250 ms: the whole p99 of a move at 1,000 tables (docs/scaling.md).

So the objects that have lived a while are frozen (`gc.freeze`: moved where no collection looks,
at no cost) every FREEZE_EVERY, and a full collection of everything runs every ten minutes.

The young collections go too, nearly: a freeze also restarts the count of new objects, and the
threshold of a young collection is raised to YOUNG while the server runs, more than a quarter
of a second makes at 1,000 moves a second, so what a move leaves alive is frozen before any
collection looks at it. At 1,000 tables the young collections had cost 0.06 ms a move (7 % of
the loop thread, `gc.callbacks`: 1.1 ms each, touching objects long out of the caches) to find
about 100 objects a second in cycles; those now wait for the full collection. A burst of more
than YOUNG new objects between two freezes still brings a young collection, as usual. A frozen
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

FREEZE_EVERY = 0.25  # seconds between freezes of what is alive
YOUNG = 20_000  # new objects (net) that bring a young collection while the server runs
FULL_EVERY = 600.0  # seconds between full collections of everything
CLOSED_LIMIT = 2000  # ... or sooner, once this many sockets closed since the last one

_closed = 0  # sockets closed since the last full collection
_pacing = 0  # pace() tasks running
_usual = gc.get_threshold()  # the thresholds before the first of them


def closed() -> None:
    """A socket closed: its cycles wait among the frozen for a full collection."""
    global _closed
    _closed += 1


async def pace() -> None:
    """Run for the server's life (a task of the app's lifespan)."""
    global _pacing, _usual
    gc.collect()
    gc.freeze()  # what start-up made: modules, the app, the service
    if _pacing == 0:
        _usual = gc.get_threshold()
        gc.set_threshold(YOUNG, *_usual[1:])
    _pacing += 1  # two apps in one process (tests): the last to stop puts it back
    try:
        await _paced(time.monotonic())
    finally:
        _pacing -= 1
        if _pacing == 0:
            gc.set_threshold(*_usual)  # a test's process goes on as before


async def _paced(last_full: float) -> None:
    global _closed
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
