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

**No message for a table nobody else follows.** Behind nginx, every viewer of a table reaches
one process (deploy/nginx/robinson.conf), so usually no other process holds a copy and a
PUBLISH would reach nobody. The bus keeps, per followed table, the other processes known to
follow it, from announcements on the table's channel: once its own subscription is confirmed a
process says `Follow` (and reads the table from the database, `OnFollowed`), every process
following it answers `Here`, and one that stops says `Leave`. A change of a table with no
other follower known is not published, only noted (`_skipped`); a process that then learns of
a new follower (its `Follow` or its `Here`) while such a change is noted sends that newcomer a
`Reload`. So a copy never misses a change: what was skipped before its announcement arrived is
in the database, and the newcomer reads it again; what comes after is published to it. Before
a table's subscription is confirmed, and while the subscription is lost, everything is
published (nothing is known). A process that stops says `Leave` for each of its tables (and
sends what it had queued). One killed without a word (`kill -9`, a lost machine) is forgotten
at the next change: Redis answers a PUBLISH with how many subscribers it reached, and when that
is this process alone, the followers it knew when it sent the message are gone (`_gone`). A
follower heard of after that message was queued (or heard again: it followed anew) is kept, so
a late answer never forgets a live one; and should a live one be forgotten all the same (our
own subscription lost unseen, so that the one subscriber counted was not us), it is learnt
again from its answer to our `Follow` after the reconnection, with a `Reload` for what was
skipped meanwhile. That count is one Redis server's, as docs/deploy.md deploys it (Redis
Cluster, which counts only its own node's subscribers, is not supported). Processes of a version
before these announcements never announce: a cluster must not mix them with newer ones
(docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from pydantic import ValidationError

from robinson.web.cluster.messages import BusMessage, Follow, Here, Leave, Reload, bus_message
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
DRAIN = 2.0  # seconds a stopping process waits for its queued messages to be sent


class Outgoing(NamedTuple):
    """A message waiting for Redis, with the followers known when it was queued (each with
    the number of the announcement it was last heard by; None: unknown, or nobody)."""

    table_id: str
    data: str
    known: dict[str, int] | None

    @property
    def command(self) -> tuple[str, str]:
        return CHANNEL + self.table_id, self.data


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
        self._outbox: asyncio.Queue[Outgoing] = asyncio.Queue(OUTBOX)
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._on_message: OnMessage | None = None
        self._on_resync: OnResync | None = None
        self._on_followed: OnFollowed | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        # Per table whose subscription is confirmed: the other processes known to follow it,
        # each with the number of the announcement it was last heard by (`_heard`).
        self._others: dict[str, dict[str, int]] = {}
        self._announcements = 0
        self._skipped: set[str] = set()  # tables with a change not published (nobody followed)
        self.skipped = 0  # counters for the benchmark and docs/scaling.md
        self.published = 0
        self.published_bytes = 0
        self.received = 0
        self.forgotten = 0  # followers forgotten because a PUBLISH reached none of them

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
        """Say `Leave` for every table followed (so the others stop publishing to this
        process) and send what is queued, waiting at most `DRAIN` seconds; then stop."""
        for table_id in list(self._others):
            self._put(table_id, Leave(who=self.process_id))
        self._others.clear()
        if self._tasks:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._outbox.join(), DRAIN)
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
            self._skipped.discard(table_id)
            if self._others.pop(table_id, None) is not None:  # the others may know of us
                self._put(table_id, Leave(who=self.process_id))
            self._later(self._unsubscribe(channel))

    def others(self, table_id: str) -> frozenset[str] | None:
        """The other processes known to follow the table; None until this process's own
        subscription to it is confirmed (then every change is published)."""
        known = self._others.get(table_id)
        return None if known is None else frozenset(known)

    def _later(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _subscribe(self, channel: str) -> None:
        if self._pubsub is not None:
            # A failure here is the reader's to repair: it subscribes everything again. The
            # reader hears when Redis confirms it (`_subscribed`).
            with contextlib.suppress(Exception):
                await self._pubsub.subscribe(channel)

    async def _unsubscribe(self, channel: str) -> None:
        if self._pubsub is not None and channel not in self._channels:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _connect(self) -> PubSub:
        pubsub = self.subscriber.pubsub()  # with Redis's confirmations of each subscription
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
                first = False
                while True:
                    # Blocking: a read with a timeout arms and cancels a timer per message
                    # (redis-py's `async_timeout`); a lost connection ends it with an error.
                    msg = await self._pubsub.get_message(timeout=None)
                    if msg is None:
                        continue
                    if msg["type"] == "message":
                        self._deliver(msg["channel"], msg["data"])
                    elif msg["type"] == "subscribe":
                        self._subscribed(msg["channel"])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis went away: connect again, then resync
                log.warning("redis subscription lost (%s); reconnecting", e)
                if self._pubsub is not None:
                    with contextlib.suppress(Exception):
                        await self._pubsub.aclose()  # type: ignore[no-untyped-call]
                    self._pubsub = None
                self._others.clear()  # announcements may be lost too: publish everything
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
        table_id = channel.decode()[len(CHANNEL) :]
        if isinstance(message, Follow | Here):
            self._heard(table_id, message.who, answer=isinstance(message, Follow))
            return
        if isinstance(message, Leave):
            self._others.get(table_id, {}).pop(message.who, None)
            return
        if isinstance(message, Reload) and message.to not in (None, self.process_id):
            return  # another newcomer's
        self.received += 1
        self._on_message(table_id, message)

    # -- who else follows a table ----------------------------------------------------------------

    def _subscribed(self, channel: bytes) -> None:
        """Redis confirmed a subscription: from now on this process hears every message of
        the table; it announces itself, and what came before is read from the database."""
        name = channel.decode()
        if name not in self._channels:
            return  # the placeholder channel, or a table no longer followed
        table_id = name[len(CHANNEL) :]
        self._others[table_id] = {}  # learnt again from the answers to this
        self._put(table_id, Follow(who=self.process_id))
        if self._on_followed is not None:
            self._on_followed(table_id)

    def _heard(self, table_id: str, who: str, answer: bool) -> None:
        """Process `who` follows the table (`answer`: it just started, tell it we do too)."""
        others = self._others.get(table_id)
        if others is None:
            return  # not followed here (yet): our own `Follow` will be answered
        if answer:
            self._put(table_id, Here(who=self.process_id))
        self._announcements += 1
        known = who in others
        others[who] = self._announcements  # heard now: an older message's answer keeps it
        if known:
            return
        if table_id in self._skipped:  # it may have read the table before that change
            self._skipped.discard(table_id)
            self._put(table_id, Reload(to=who))

    # -- publishing ----------------------------------------------------------------------------

    def publish(self, table_id: str, message: BusMessage) -> None:
        others = self._others.get(table_id)
        if others is not None and not others:  # nobody else follows it: noted, not sent
            self._skipped.add(table_id)
            self.skipped += 1
            return
        self._put(table_id, message)

    def _put(self, table_id: str, message: BusMessage) -> None:
        fields = message.model_dump(mode="json")
        data = json.dumps({**fields, "p": self.process_id}, separators=(",", ":"))
        others = self._others.get(table_id)
        known = dict(others) if others else None  # who should hear it, as known now
        try:
            self._outbox.put_nowait(Outgoing(table_id, data, known))
        except asyncio.QueueFull:
            log.warning("redis is behind: a message of table %s was dropped", table_id)

    def _gone(self, sent: Outgoing, reached: int) -> None:
        """Redis says the message reached `reached` subscribers. If that is this process
        alone, the followers known when it was queued are gone (killed without a `Leave`):
        forget them, unless heard of again since. None reached (our own subscription lost as
        well): nothing can be concluded."""
        others = self._others.get(sent.table_id)
        if reached != 1 or not sent.known or not others:
            return
        for who, heard in sent.known.items():
            if others.get(who) == heard:
                del others[who]
                self.forgotten += 1
                log.info("process %s no longer follows table %s: forgotten", who, sent.table_id)

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
                        reached = [await self.redis.publish(*batch[0].command)]
                    else:
                        async with self.redis.pipeline(transaction=False) as pipe:
                            for sent in batch:
                                pipe.publish(*sent.command)
                            reached = await pipe.execute()
                    self.published += len(batch)
                    self.published_bytes += sum(len(sent.data) for sent in batch)
                    for sent, count in zip(batch, reached, strict=True):
                        self._gone(sent, int(count))
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("publishing %d messages failed: %s", len(batch), e)
                    if asyncio.get_running_loop().time() > give_up:
                        break  # the others resync when their subscription comes back
                    await asyncio.sleep(RETRY_PAUSE)
            for _ in batch:  # sent or dropped: `stop` waits for this
                self._outbox.task_done()
