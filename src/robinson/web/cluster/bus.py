"""The broadcaster: how a change of a table reaches the viewers on every server process.

A process keeps a copy (`LiveTable`) of each table it has loaded. The process that commits a
change tells its own viewers at once, then publishes a small message on the table's channel; the
other processes that hold a copy apply it to theirs and tell their viewers (docs/deploy.md).

- `LocalBroadcaster`: one process alone (no `--redis`): there is nobody else to tell.
- `RedisBroadcaster`: Redis pub/sub, one channel per table (`robinson:t:{table}`), followed by a
  process while it holds that table in memory. Messages carry the game's step number, so a copy
  that misses one (Redis restarted, a message in flight while it loaded) sees the gap and reloads
  from the database: the database stays the truth and Redis holds nothing that cannot be lost.

Messages are the typed union of cluster/messages.py, sent as JSON with the sending process's
id `p` added (a process ignores its own messages).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from robinson.web.cluster.messages import BusMessage, bus_message
from robinson.web.cluster.tasks import cancel_all

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("robinson.web.cluster.bus")

# Called with (table id, message) for each message of another process, in publishing order.
OnMessage = Callable[[str, BusMessage], None]
# Called after the subscriptions were lost and made again: messages may have been missed.
OnResync = Callable[[], Awaitable[None]]
# Called with a table id once its channel is followed: what was published before is in the
# database, where the copy looks once, so a move made while it loaded is not missed.
OnFollowed = Callable[[str], None]

CHANNEL = "robinson:t:"
OUTBOX = 10_000  # messages waiting for Redis; past that they are dropped (the others resync)
RETRY_PAUSE = 0.5  # seconds between attempts to reach Redis again
GIVE_UP = 60.0  # seconds a message waits for Redis before it is dropped


class Broadcaster(Protocol):
    async def start(
        self, on_message: OnMessage, on_resync: OnResync, on_followed: OnFollowed
    ) -> None: ...

    async def stop(self) -> None: ...

    def follow(self, table_id: str) -> None:
        """This process holds a copy of the table: deliver the table's messages from now on."""

    def unfollow(self, table_id: str) -> None: ...

    def publish(self, table_id: str, message: BusMessage) -> None:
        """Queue `message` for the other processes (never blocks, never raises)."""


class LocalBroadcaster:
    """One process: its viewers are told directly by the table; nothing else to do."""

    async def start(
        self, on_message: OnMessage, on_resync: OnResync, on_followed: OnFollowed
    ) -> None:
        return None

    async def stop(self) -> None:
        return None

    def follow(self, table_id: str) -> None:
        return None

    def unfollow(self, table_id: str) -> None:
        return None

    def publish(self, table_id: str, message: BusMessage) -> None:
        return None


class RedisBroadcaster:
    """Redis pub/sub. One connection reads every followed channel; a publisher task sends the
    queued messages in order (pipelined), so a move never waits for Redis."""

    def __init__(self, redis: Redis, process_id: str, subscriber: Redis | None = None) -> None:
        """`subscriber`: a client for the subscription that does not retry by itself (its
        quiet reconnection would hide that messages were lost; the reader then resyncs)."""
        self.redis = redis
        self.subscriber = subscriber or redis
        self.process_id = process_id
        # How every message this process publishes ends (`publish` puts "p" last).
        self._own = b',"p":' + json.dumps(process_id).encode() + b"}"
        self._channels: set[str] = set()
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(OUTBOX)
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._on_message: OnMessage | None = None
        self._on_resync: OnResync | None = None
        self._on_followed: OnFollowed | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        self.published = 0  # counters for the benchmark and docs/scaling.md
        self.published_bytes = 0
        self.received = 0

    async def start(
        self, on_message: OnMessage, on_resync: OnResync, on_followed: OnFollowed
    ) -> None:
        self._on_message, self._on_resync = on_message, on_resync
        self._on_followed = on_followed
        self._tasks = [
            asyncio.create_task(self._read(), name="bus-reader"),
            asyncio.create_task(self._send(), name="bus-publisher"),
        ]

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    # -- subscriptions -------------------------------------------------------------------------

    def follow(self, table_id: str) -> None:
        channel = CHANNEL + table_id
        if channel not in self._channels:
            self._channels.add(channel)
            self._later(self._subscribe(channel))

    def unfollow(self, table_id: str) -> None:
        channel = CHANNEL + table_id
        if channel in self._channels:
            self._channels.discard(channel)
            self._later(self._unsubscribe(channel))

    def _later(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _subscribe(self, channel: str) -> None:
        if self._pubsub is not None:
            # A failure here is the reader's to repair: it subscribes everything again.
            with contextlib.suppress(Exception):
                await self._pubsub.subscribe(channel)
                # Whatever was published before this point is in the database: the copy
                # looks there once, so a move made while it loaded is not missed.
                if self._on_followed is not None and channel in self._channels:
                    self._on_followed(channel[len(CHANNEL) :])

    async def _unsubscribe(self, channel: str) -> None:
        if self._pubsub is not None and channel not in self._channels:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _connect(self) -> PubSub:
        pubsub = self.subscriber.pubsub(ignore_subscribe_messages=True)
        # A placeholder channel of our own: a PubSub with no subscription cannot be read.
        await pubsub.subscribe(f"robinson:p:{self.process_id}", *self._channels)
        return pubsub

    async def _read(self) -> None:
        first = True
        while True:
            try:
                self._pubsub = await self._connect()
                if not first and self._on_resync is not None:
                    await self._on_resync()  # messages may have been lost meanwhile
                elif self._on_followed is not None:
                    for channel in list(self._channels):  # followed before we were connected
                        self._on_followed(channel[len(CHANNEL) :])
                first = False
                while True:
                    # Blocking: a read with a timeout arms and cancels a timer per message
                    # (redis-py's `async_timeout`); a lost connection ends it with an error.
                    msg = await self._pubsub.get_message(timeout=None)
                    if msg is not None and msg["type"] == "message":
                        self._deliver(msg["channel"], msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis went away: connect again, then resync
                log.warning("redis subscription lost (%s); reconnecting", e)
                if self._pubsub is not None:
                    with contextlib.suppress(Exception):
                        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
                    self._pubsub = None
                first = False
                await asyncio.sleep(RETRY_PAUSE)

    def _deliver(self, channel: bytes, data: bytes) -> None:
        if data.endswith(self._own) or self._on_message is None:  # ours, back from Redis
            return  # (`publish` writes every message so: not even parsed)
        try:
            message = bus_message.validate_json(data)  # parsed and checked in one pass
        except ValidationError as e:  # another version's message, or garbage
            log.warning("unreadable message on %r: %s", channel, e)
            return
        self.received += 1
        table_id = channel.decode()[len(CHANNEL) :]
        self._on_message(table_id, message)

    # -- publishing ----------------------------------------------------------------------------

    def publish(self, table_id: str, message: BusMessage) -> None:
        fields = message.model_dump(mode="json")
        data = json.dumps({**fields, "p": self.process_id}, separators=(",", ":"))
        try:
            self._outbox.put_nowait((CHANNEL + table_id, data))
        except asyncio.QueueFull:
            log.warning("redis is behind: a message of table %s was dropped", table_id)

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            # Sent again until Redis takes it (an old step is ignored by whoever has it), so the
            # last move before an outage is not lost to the others; dropped after GIVE_UP.
            give_up = asyncio.get_running_loop().time() + GIVE_UP
            while True:
                try:
                    if len(batch) == 1:  # the usual case: one command costs less than a pipeline
                        await self.redis.publish(*batch[0])
                    else:
                        async with self.redis.pipeline(transaction=False) as pipe:
                            for channel, data in batch:
                                pipe.publish(channel, data)
                            await pipe.execute()
                    self.published += len(batch)
                    self.published_bytes += sum(len(d) for _, d in batch)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("publishing %d messages failed: %s", len(batch), e)
                    if asyncio.get_running_loop().time() > give_up:
                        break  # the others resync when their subscription comes back
                    await asyncio.sleep(RETRY_PAUSE)
