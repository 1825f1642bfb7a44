"""The in-process rate windows (web/api/ratelimit.py LocalWindows), on a clock we move: the
same sliding window counter as `limits` (and Redis), so one process counts as a cluster does."""

from __future__ import annotations

import asyncio

import pytest

from robinson.web.api.ratelimit import Limiter, LocalWindows
from robinson.web.protocol.errors import ServiceError
from robinson.web.settings import Rates


class Clock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_window_allows_its_amount_then_says_how_long_to_wait() -> None:
    clock = Clock(600.0)  # the start of a 60-s window
    windows = LocalWindows(3, 60, clock)
    assert [windows.hit("a") for _ in range(3)] == [None, None, None]
    wait = windows.hit("a")
    assert wait == 60  # the window's end: at most a window, as `limits` says it
    assert windows.hit("b") is None  # each key has its own count
    clock.now += 60 + 20 + 0.001  # the window's end, then a third of it for 3 to weigh 2
    assert windows.hit("a") is None


def test_the_previous_window_still_counts_by_how_much_it_overlaps() -> None:
    clock = Clock(600.0)
    windows = LocalWindows(10, 60, clock)
    for _ in range(10):
        assert windows.hit("a") is None
    clock.now = 660.0 + 6  # a tenth into the next window: the previous 10 weigh 9
    assert windows.hit("a") is None  # 9 + 1 = 10 allowed
    wait = windows.hit("a")  # 9 + 1 + 1 > 10: the previous must weigh 8, a fifth in
    assert wait == pytest.approx(6.0)
    clock.now += 6.0
    assert windows.hit("a") is None


def test_a_refused_hit_is_not_counted() -> None:
    clock = Clock(600.0)
    windows = LocalWindows(1, 60, clock)
    assert windows.hit("a") is None
    for _ in range(50):
        assert windows.hit("a") is not None
    clock.now = 720.0 + 1  # two windows on: nothing of the first is left
    assert windows.hit("a") is None


def test_windows_older_than_the_previous_are_dropped_whole() -> None:
    clock = Clock(600.0)
    windows = LocalWindows(5, 60, clock)
    for key in ("a", "b", "c"):
        windows.hit(key)
    clock.now = 600.0 + 3 * 60
    windows.hit("d")
    assert windows._previous == {} and windows._current == {"d": 1}


def test_the_limiter_refuses_with_retry_after_in_whole_seconds() -> None:
    limiter = Limiter(Rates(actions="2/minute"))

    async def body() -> None:
        await limiter.hit("actions", "10.0.0.1")
        await limiter.hit("actions", "10.0.0.1")
        with pytest.raises(ServiceError) as refused:
            await limiter.hit("actions", "10.0.0.1")
        assert refused.value.code == "rate_limited"
        assert 1 <= int(refused.value.headers["Retry-After"]) <= 120
        await limiter.hit("actions", "10.0.0.2")
        await limiter.hit("reads", "10.0.0.1")

    asyncio.run(body())
