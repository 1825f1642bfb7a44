"""Stand-ins for time and dice, handed to an in-process `GameService` (web/service/clock.py).

`FakeClock` moves only when a test says so: `await clock.advance(5)` runs, in order, every sleep,
wait and timer that falls due within those five seconds, letting the event loop settle after
each, so a five-second move clock runs out at once and the test reads what happened.
`SeededDice` rolls from a seed the test chose, through the same fair-dice scheme.

"Settled" includes the work the service hands to threads: the clock counts what the event
loop's `run_in_executor` has under way (`asyncio.to_thread`) and asks the store's writer,
which has a thread of its own, whether it is writing (`track`), so a test reads the store
right after `advance` without polling for it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Any

from robinson import fairdice

START_MS = 1_800_000_000_000  # 2027-01-15: any fixed moment


class FakeTimer:
    def __init__(self, callback: Callable[[], object]) -> None:
        self._callback: Callable[[], object] | None = callback

    def cancel(self) -> None:
        self._callback = None

    def fire(self) -> None:
        if self._callback is not None:
            self._callback()


class FakeClock:
    def __init__(self, now_ms: int = START_MS) -> None:
        self._now = now_ms / 1000
        self._due: list[tuple[float, int, Callable[[], object]]] = []
        self._order = itertools.count()  # ties keep their order
        self._loop: asyncio.AbstractEventLoop | None = None
        self._in_threads: set[asyncio.Future[object]] = set()  # executor work under way
        self._busy: list[Callable[[], bool]] = []  # threads of the service's own (`track`)

    def _watch_threads(self) -> None:
        """Count the running loop's executor work (once per loop): `settle` waits for it. Done
        at every use of the clock inside a loop, so the service's first call counts too."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not in a loop (a fixture making rows): nothing to watch
            return
        if loop is self._loop:
            return
        self._loop = loop
        submit = loop.run_in_executor

        def run_in_executor(executor: Any, func: Callable[..., Any], *args: Any) -> Any:
            future = submit(executor, func, *args)
            self._in_threads.add(future)
            future.add_done_callback(self._in_threads.discard)
            return future

        loop.run_in_executor = run_in_executor  # type: ignore[method-assign,assignment]

    def track(self, busy: Callable[[], bool]) -> None:
        self._busy.append(busy)

    def now_ms(self) -> int:
        self._watch_threads()
        return round(self._now * 1000)

    def monotonic(self) -> float:
        self._watch_threads()
        return self._now

    def call_later(self, seconds: float, callback: Callable[[], object]) -> FakeTimer:
        self._watch_threads()
        timer = FakeTimer(callback)
        heapq.heappush(self._due, (self._now + max(0.0, seconds), next(self._order), timer.fire))
        return timer

    async def sleep(self, seconds: float) -> None:
        self._watch_threads()
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken = asyncio.get_running_loop().create_future()
        self.call_later(seconds, lambda: woken.done() or woken.set_result(None))
        await woken

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        waiter = asyncio.ensure_future(event.wait())
        sleeper = asyncio.ensure_future(self.sleep(seconds))
        try:
            await asyncio.wait({waiter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            sleeper.cancel()

    async def settle(self) -> None:
        """Let the tasks run until no thread has work of theirs under way and they all wait on
        something unchanged for a while (the clock's timers, a lock, an event): what a move
        set off, the store's writes included, is done then. Bounded: at most about ten seconds
        of real time (a loaded machine's slow commit)."""
        self._watch_threads()
        stable, last = 0, None
        for _ in range(5000):
            await asyncio.sleep(0.002)
            if self._in_threads or any(busy() for busy in self._busy):
                stable = 0
                continue
            now = frozenset(
                (id(t), id(t._fut_waiter))  # type: ignore[attr-defined]  # what it awaits
                for t in asyncio.all_tasks()
                if not t.done() and t is not asyncio.current_task()
            )
            stable = stable + 1 if now == last else 0
            last = now
            if stable >= 5:
                return

    async def advance(self, seconds: float) -> None:
        """Move time on by `seconds`, running what falls due on the way, in order."""
        end = self._now + seconds
        await self.settle()
        while self._due and self._due[0][0] <= end:
            at, _, callback = heapq.heappop(self._due)
            self._now = max(self._now, at)
            callback()
            await self.settle()
        self._now = end
        await self.settle()


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Poll in real time (for the store's threads; the fake clock does not move here)."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition did not come true")


class SeededDice:
    """The fair-dice scheme from fixed seeds, one per game in order: scripted games."""

    def __init__(self, *seeds: bytes) -> None:
        self._seeds = list(seeds)
        self._made = 0

    def new_seed(self) -> bytes:
        seed = self._seeds[self._made % len(self._seeds)] if self._seeds else bytes(32)
        self._made += 1
        return seed

    def face(self, seed: bytes, index: int) -> int:
        return fairdice.face(seed, index)
