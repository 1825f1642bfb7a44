"""Stopping the cluster's background tasks for sure.

A task talking to Redis can swallow a cancellation: when it arrives just as a read completes,
a timeout wrapper in the client (or Python 3.11's `asyncio.wait_for`) may return the result
instead of raising, and the loop goes on to its next sleep. Waiting for such a task after one
`cancel()` waits for ever (a test saw `RedisPresence.stop` hang after a Redis restart). So:
cancel again until every task has ended; each new cancellation lands at the task's next await.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

RETRY = 0.2  # seconds between cancellations of a task that is still running


async def cancel_all(tasks: Iterable[asyncio.Task[object]]) -> None:
    """Cancel every task and return once all have ended (whatever they raised)."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=RETRY)
