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


def test_sockets_closed_by_the_thousand_bring_the_full_collection_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Closed sockets leave cycles among the frozen (issue 22: memory returned after close):
    after CLOSED_LIMIT closes the full collection comes at once, not FULL_EVERY later."""
    monkeypatch.setattr(collector, "FREEZE_EVERY", 0.01)
    monkeypatch.setattr(collector, "FULL_EVERY", 3600.0)
    monkeypatch.setattr(collector, "CLOSED_LIMIT", 3)
    monkeypatch.setattr(collector, "_closed", 0)

    async def scenario() -> None:
        task = asyncio.create_task(collector.pace())
        await asyncio.sleep(0.03)
        gone = cycle()  # a closed socket's cycle, say
        await asyncio.sleep(0.05)
        collector.closed()
        collector.closed()
        await asyncio.sleep(0.05)
        assert gone() is not None  # two closes: it waits
        collector.closed()
        await asyncio.sleep(0.05)
        assert gone() is None  # the third brought the full collection
        assert collector._closed == 0
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    gc.disable()
    try:
        asyncio.run(scenario())
    finally:
        gc.enable()


def test_young_collections_wait_for_the_freeze_while_the_server_runs_and_come_back_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While paced, a young collection needs YOUNG new objects (the freeze every FREEZE_EVERY
    takes them first); two servers in one process, and the usual threshold once both stop."""
    monkeypatch.setattr(collector, "FREEZE_EVERY", 0.01)
    before = gc.get_threshold()

    async def scenario() -> None:
        first = asyncio.create_task(collector.pace())
        await asyncio.sleep(0.03)
        assert gc.get_threshold() == (collector.YOUNG, *before[1:])
        second = asyncio.create_task(collector.pace())
        await asyncio.sleep(0.03)
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
        assert gc.get_threshold()[0] == collector.YOUNG  # the other still runs
        kept: list[Node] = []
        for _ in range(3):
            kept.extend(Node() for _ in range(1000))  # a few moves' new objects, alive
            assert gc.get_count()[0] >= 1000  # counted ...
            await asyncio.sleep(0.02)
            assert gc.get_count()[0] < 1000  # ... until the next freeze started again
        second.cancel()
        await asyncio.gather(second, return_exceptions=True)

    asyncio.run(scenario())
    assert gc.get_threshold() == before
