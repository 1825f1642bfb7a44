"""Time and dice, the two things the service takes from outside.

The service never reads the time or draws a die itself: it is handed a `Clock` and a `Dice`.
In production these are the system's clock and the fair-dice scheme (robinson.fairdice); a test
passes a clock it moves by hand (tests/web/fakes.py), so a five-second move clock runs out in
no time, and dice from a seed it chose.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

from robinson import fairdice


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now_ms(self) -> int:
        """Unix time in milliseconds: what deadlines and "last seen" are written in."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back: for "unused since"."""

    async def sleep(self, seconds: float) -> None: ...

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        """Until `event` is set or `seconds` have passed, whichever comes first."""

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Call `callback` (on the event loop) once `seconds` have passed, unless cancelled."""

    def track(self, busy: Callable[[], bool]) -> None:
        """Work on a thread of the service's own while `busy()` (the store's writer): a clock
        that moves time itself (the tests' fake) lets it finish before it counts what a change
        set off as done. The system clock has nothing to wait for."""


class SystemClock:
    def now_ms(self) -> int:
        return int(time.time() * 1000)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), seconds)

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        return asyncio.get_running_loop().call_later(seconds, callback)

    def track(self, busy: Callable[[], bool]) -> None:
        return None


class Dice(Protocol):
    def new_seed(self) -> bytes:
        """A new game's secret seed."""

    def face(self, seed: bytes, index: int) -> int:
        """The `index`-th roll (from 0) of the game with `seed`: 1 to 6."""


class FairDice:
    """The published scheme (docs/fair-dice.md): a random seed, committed by its hash."""

    def new_seed(self) -> bytes:
        return fairdice.new_seed()

    def face(self, seed: bytes, index: int) -> int:
        return fairdice.face(seed, index)


SYSTEM_CLOCK = SystemClock()
FAIR_DICE = FairDice()
