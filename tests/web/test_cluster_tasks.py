"""cancel_all ends a task even when the task swallows a cancellation (as a Redis read that
completes at the moment it is cancelled may), where one cancel() and a wait hang for ever."""

from __future__ import annotations

import asyncio
import contextlib

from robinson.web.cluster.tasks import cancel_all


async def _swallows_once(ended: list[str]) -> None:
    with contextlib.suppress(asyncio.CancelledError):  # as a library returning a result would
        await asyncio.sleep(60)
    try:
        while True:
            await asyncio.sleep(0.05)
    finally:
        ended.append("ended")


def test_a_task_that_swallows_a_cancellation_is_cancelled_again_until_it_ends() -> None:
    async def body() -> None:
        ended: list[str] = []
        stubborn = asyncio.create_task(_swallows_once(ended))
        plain = asyncio.create_task(asyncio.sleep(60))
        await asyncio.sleep(0)
        once = stubborn.cancel() and await asyncio.wait({stubborn}, timeout=0.3)
        assert once and stubborn in once[1], "one cancel() should not have ended it"
        await asyncio.wait_for(cancel_all([stubborn, plain]), 5)
        assert stubborn.cancelled() and plain.cancelled() and ended == ["ended"]

    asyncio.run(body())


def test_tasks_already_done_are_left_as_they_are() -> None:
    async def body() -> None:
        done = asyncio.create_task(asyncio.sleep(0, result=7))
        await done
        await cancel_all([done])
        assert done.result() == 7

    asyncio.run(body())
