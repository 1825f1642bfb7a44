"""Rate limits per client address (the `limits` library's moving window, in memory).

Three things are counted: creating tables, acting (moves, seat hand-overs, rematches, over REST
and WebSocket alike) and opening table sockets. Over a limit the answer is `rate_limited` (429)
with `Retry-After` in whole seconds. The address is the client's as uvicorn reports it: from
`X-Forwarded-For` when the proxy is a trusted one (127.0.0.1 by default, as in deploy/nginx),
else the TCP peer, so behind an untrusted proxy every client shares the proxy's address.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from robinson.web.errors import ServiceError

if TYPE_CHECKING:  # `limits` takes a while to import: `robinson --help` does not need it
    from limits import RateLimitItem

KINDS = {"tables": "tables created", "actions": "moves", "sockets": "connections opened"}


@dataclass(frozen=True)
class Rates:
    """Each as "N/second", "N/minute", "N/hour" (the `limits` notation)."""

    tables: str = "30/minute"
    actions: str = "600/minute"
    sockets: str = "120/minute"


def check_rate(text: str) -> RateLimitItem:
    """A rate from the command line, or ValueError saying what was expected."""
    from limits import parse

    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"a rate is N/second, N/minute or N/hour, got {text!r}") from None


class Limiter:
    def __init__(self, rates: Rates) -> None:
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self.items = {kind: check_rate(getattr(rates, kind)) for kind in KINDS}
        self._window = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, kind: str, address: str | None) -> None:
        """Count one; raise `rate_limited` when this address is over its limit."""
        item = self.items[kind]
        key = address or "unknown"
        if self._window.hit(item, kind, key):
            return
        reset = self._window.get_window_stats(item, kind, key).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise ServiceError(
            "rate_limited",
            f"too many {KINDS[kind]} from your address (at most {item.amount} per "
            f"{item.get_expiry()} s); try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )
