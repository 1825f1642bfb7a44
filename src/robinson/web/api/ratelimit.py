"""Rate limits per client address (the `limits` library's sliding window counter).

Four things are counted: creating tables, acting (moves, seat hand-overs, rematches, over REST
and WebSocket alike, and the seat requests: whoami, offers, claims, invites, device links),
opening table sockets, and reads whose cost may grow with a game (a table's view, records,
replays, chances and a socket's `hello`, which sends a snapshot), the last generously. What is
the same for every table (meta, catalogs, pages) is not counted. Over a
limit the answer is `rate_limited` (429) with `Retry-After` in whole seconds. The address is the
client's as uvicorn reports it: from `X-Forwarded-For` when the proxy is a trusted one
(127.0.0.1 by default, as in deploy/nginx), else the TCP peer, so behind an untrusted proxy
every client shares the proxy's address.

Alone, a process counts in memory (`LocalWindows`, the same algorithm as `limits`). With
`--redis` the windows of tables and sockets live in that Redis, so N processes behind one load
balancer allow those limits once, not N times. Moves are counted in each process (`SHARED`): a
table's viewers reach one process (deploy/nginx), so one player's moves are counted where he
plays, and a move costs no Redis command; an address playing at tables held by several
processes may act up to the limit on each. The sliding window counter (two counters per address
and kind, weighted) costs one script call and O(1) memory per address, where a moving window
keeps every hit (600 a minute for moves). Redis holds nothing that cannot be lost: should it not
answer, each process counts alone until it is back (a limit per process is better than none, or
than refusing everyone).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from robinson.web.protocol.errors import ServiceError
from robinson.web.settings import Rates

__all__ = ["KINDS", "Limiter", "LocalWindows", "Rates", "check_rate"]

if TYPE_CHECKING:  # `limits` takes a while to import: `robinson --help` does not need it
    from limits import RateLimitItem
    from limits.aio.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger("robinson.web")

KINDS = {
    "tables": "tables created",
    "actions": "moves or seat requests",
    "sockets": "connections opened",
    "reads": "table views, records, replays, chances or hellos",
}
SHARED = frozenset({"tables", "sockets"})  # counted over every process (with Redis)
PREFIX = "robinson:rl"  # the Redis keys of the windows begin with this


def check_rate(text: str) -> RateLimitItem:
    """A rate from the command line, or ValueError saying what was expected."""
    from limits import parse

    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"a rate is N/second, N/minute or N/hour, got {text!r}") from None


def storage_uri(redis_url: str) -> str:
    """The `limits` storage URI of a redis-py URL (redis://, rediss:// or unix://)."""
    if redis_url.startswith("unix://"):
        return "async+redis+" + redis_url
    return "async+" + redis_url


class LocalWindows:
    """One kind's sliding window counters in this process: what `limits` computes (the count of
    the current fixed window plus the previous one's, weighted by how much of it still overlaps
    the sliding window), kept in two dicts. A profile found `limits`' in-memory storage at about
    a tenth of a move's main-thread CPU: a lock, six wrappers and a new task per hit that scans
    every key for expiry. Here a hit is two lookups and an old window goes as a whole."""

    def __init__(
        self, amount: int, period: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.amount, self.period, self._clock = amount, period, clock
        self._index: int | None = None
        self._current: dict[str, int] = {}
        self._previous: dict[str, int] = {}

    def hit(self, key: str) -> float | None:
        """Count one for `key`: None when allowed, else the seconds until one would be (a
        refused hit is not counted)."""
        index, into = divmod(self._clock(), self.period)
        if index != self._index:
            follows = self._index is not None and index == self._index + 1
            self._previous = self._current if follows else {}
            self._current, self._index = {}, int(index)
        before, now = self._previous.get(key, 0), self._current.get(key, 0)
        if before * (1 - into / self.period) + now + 1 <= self.amount:
            self._current[key] = now + 1
            return None
        # At most a window, as `limits` says it (Retry-After within the period); when this
        # window alone is full, a client asking then may be told to wait a little more.
        room = self.amount - 1 - now  # what the previous window may still weigh
        if room < 0:  # this window alone is full: its count becomes the previous one's
            return self.period - into
        return min(self.period, max(0.0, self.period * (1 - room / before) - into))


class Limiter:
    def __init__(self, rates: Rates, redis_url: str | None = None) -> None:
        from limits.aio.storage import RedisStorage
        from limits.aio.strategies import SlidingWindowCounterRateLimiter

        self.items = {kind: check_rate(getattr(rates, kind)) for kind in KINDS}
        self._local = {
            kind: LocalWindows(item.amount, item.get_expiry()) for kind, item in self.items.items()
        }
        self._shared: SlidingWindowCounterRateLimiter | None = None
        if redis_url is not None:
            storage = RedisStorage(
                storage_uri(redis_url),
                implementation="redispy",  # the client the rest of the server uses
                key_prefix=PREFIX,
                wrap_exceptions=True,
                socket_timeout=1.0,
                socket_connect_timeout=1.0,
            )
            self._shared = SlidingWindowCounterRateLimiter(storage)

    async def hit(self, kind: str, address: str | None) -> None:
        """Count one; raise `rate_limited` when this address is over its limit."""
        item = self.items[kind]
        key = address or "unknown"
        wait = await self._shared_wait(item, kind, key)
        if wait is None:
            wait = self._local[kind].hit(key)
        elif wait < 0:
            wait = None
        if wait is None:
            return
        seconds = max(1, math.ceil(wait))
        raise ServiceError(
            "rate_limited",
            f"too many {KINDS[kind]} from your address (at most {item.amount} per "
            f"{item.get_expiry()} s); try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
        )

    async def _shared_wait(self, item: RateLimitItem, kind: str, key: str) -> float | None:
        """For a kind counted over every process: -1 when the shared window allows the hit, else
        the seconds to wait. None when it is counted here (a kind of this process's, no Redis,
        or Redis failing)."""
        if self._shared is None or kind not in SHARED:
            return None
        from limits.errors import StorageError

        try:
            if await self._shared.hit(item, kind, key):
                return -1.0
            reset = (await self._shared.get_window_stats(item, kind, key)).reset_time
            return max(0.0, reset - time.time())
        except StorageError as e:
            log.warning("rate limits in redis failed (%s); counting in this process", e)
            return None
