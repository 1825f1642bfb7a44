"""The garbage collector's pacing (web/collector.py): what is alive is frozen every second, and
the full collection of everything, every FULL_EVERY, still frees garbage in reference cycles."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from robinson.web import collector


@pytest.fixture(autouse=True)
def _thawed() -> Iterator[None]:
    yield
    gc.unfreeze()  # the rest of the test session collects as usual


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_what_is_alive_is_frozen_and_a_full_collection_frees_cycles_among_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(collector, "FREEZE_EVERY", 0.01)
    monkeypatch.setattr(collector, "FULL_EVERY", 3600.0)

    async def scenario() -> None:
        task = asyncio.create_task(collector.pace())
        await asyncio.sleep(0.03)  # start-up's collection and freeze are done
        gone = cycle()  # garbage now, but only a collection that looks at it can free it
        await asyncio.sleep(0.05)
        gc.collect()  # an ordinary full collection (as CPython runs by itself)
        assert gc.get_freeze_count() > 0
        assert gone() is not None  # frozen: the paced freezes left it where none looks
        monkeypatch.setattr(collector, "FULL_EVERY", 0.0)
        await asyncio.sleep(0.05)
        assert gone() is None  # the full collection did
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    gc.disable()  # no young collection may free it first
    try:
        asyncio.run(scenario())
    finally:
        gc.enable()


def test_garbage_growing_among_the_frozen_is_collected_before_full_every(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Sockets opened and closed by the thousand leave cycles among the frozen (issue 22:
    memory returned after close): when the frozen objects grew by GROWTH (and SLACK), the full
    collection comes at once, not FULL_EVERY later."""
    monkeypatch.setattr(collector, "FREEZE_EVERY", 0.01)
    monkeypatch.setattr(collector, "FULL_EVERY", 3600.0)
    monkeypatch.setattr(collector, "SLACK", 1000)

    async def scenario() -> None:
        task = asyncio.create_task(collector.pace())
        await asyncio.sleep(0.03)
        few = [cycle() for _ in range(10)]  # a little garbage: it waits for FULL_EVERY
        await asyncio.sleep(0.05)
        assert all(ref() is not None for ref in few)
        base = gc.get_freeze_count()
        many = [cycle() for _ in range(int(base * (collector.GROWTH - 1)) + 2000)]
        await asyncio.sleep(0.1)
        assert all(ref() is None for ref in many + few)  # collected for the growth
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    gc.disable()
    try:
        asyncio.run(scenario())
    finally:
        gc.enable()
