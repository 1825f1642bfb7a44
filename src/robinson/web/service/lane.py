"""The heavy lane: work whose cost grows with a game or a simulation (a replay's narration, a
long record's text, simulated chances, a chart of a whole game) runs here, on threads of its
own, never on the event loop and never on the default executor that the store's reads use.

The lane has a bounded queue (past it: `busy`, 503, try again shortly) and lets each client
address have only a few jobs waiting or running at once (past that: `rate_limited`, 429), so
one client repeating an expensive request queues behind himself, not in front of everyone. A
job is counted against the address that asked for it; viewers who share one computation (the
odds service's `_once`) are counted once, for the first.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from robinson.web.protocol.errors import ServiceError

T = TypeVar("T")

WORKERS = 1  # one core of two for heavy work: the loop and the store keep the other
QUEUE = 64  # jobs waiting or running over every client
PER_CLIENT = (
    4  # jobs waiting or running for one address (a page at a game's end asks for 2-3 at once)
)
RETRY_SECONDS = 1


class Lane:
    def __init__(
        self, workers: int = WORKERS, queue: int = QUEUE, per_client: int = PER_CLIENT
    ) -> None:
        self.queue = queue
        self.per_client = per_client
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="robinson-heavy")
        self._jobs: Counter[str] = Counter()  # waiting or running, per address ("" unknown)
        self._total = 0

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[[], T], client: str | None = None) -> T:
        """`fn()` on the lane, counted against `client` (an address; None: the server's own)
        until it has run: a client who leaves while it runs does not free his slot early."""
        key = self._take(client)
        loop = asyncio.get_running_loop()
        job = self._pool.submit(fn)

        def release(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to count
                loop.call_soon_threadsafe(self._give, key)

        job.add_done_callback(release)
        return await asyncio.wrap_future(job)

    def _take(self, client: str | None) -> str:
        retry = {"Retry-After": str(RETRY_SECONDS)}
        key = client or ""
        if client is not None and self._jobs[key] >= self.per_client:
            raise ServiceError(
                "rate_limited",
                f"at most {self.per_client} long computations at once from your address; "
                f"try again in {RETRY_SECONDS} s",
                retry,
            )
        if self._total >= self.queue:
            raise ServiceError(
                "busy", f"the server has {self._total} long computations queued; try again", retry
            )
        self._jobs[key] += 1
        self._total += 1
        return key

    def _give(self, key: str) -> None:
        self._total -= 1
        self._jobs[key] -= 1
        if not self._jobs[key]:
            del self._jobs[key]
