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

Alone, a process counts in memory. With `--redis` the windows of tables and sockets live in that
Redis, so N processes behind one load balancer allow those limits once, not N times. Moves are
counted in each process (`SHARED`): a table's viewers reach one process (deploy/nginx), so one
player's moves are counted where he plays, and a move costs no Redis command; an address
playing at tables held by several processes may act up to the limit on each. The sliding
window counter (two counters per address and kind, weighted) costs one script call and O(1)
memory per address, where a moving window keeps every hit (600 a minute for moves). Redis holds
nothing that cannot be lost: should it not answer, each process counts alone until it is back
(a limit per process is better than none, or than refusing everyone).
"""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING

from robinson.web.protocol.errors import ServiceError
from robinson.web.settings import Rates

__all__ = ["KINDS", "Limiter", "Rates", "check_rate"]

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


class Limiter:
    def __init__(self, rates: Rates, redis_url: str | None = None) -> None:
        from limits.aio.storage import MemoryStorage, RedisStorage
        from limits.aio.strategies import SlidingWindowCounterRateLimiter

        self.items = {kind: check_rate(getattr(rates, kind)) for kind in KINDS}
        self._local = SlidingWindowCounterRateLimiter(MemoryStorage())
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
        window = await self._window(item, kind, key)
        if window is None:
            return
        reset = (await window.get_window_stats(item, kind, key)).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise ServiceError(
            "rate_limited",
            f"too many {KINDS[kind]} from your address (at most {item.amount} per "
            f"{item.get_expiry()} s); try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )

    async def _window(
        self, item: RateLimitItem, kind: str, key: str
    ) -> SlidingWindowCounterRateLimiter | None:
        """Count the hit in the shared window (else this process's); None when it is allowed,
        else the window that refused it."""
        from limits.errors import StorageError

        if self._shared is not None and kind in SHARED:
            try:
                return None if await self._shared.hit(item, kind, key) else self._shared
            except StorageError as e:
                log.warning("rate limits in redis failed (%s); counting in this process", e)
        return None if await self._local.hit(item, kind, key) else self._local
