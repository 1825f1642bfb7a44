"""The shared parts of a cluster against a real redis-server (tests/web/cluster.py): driver
leases, the broadcaster, rate counters and presence, each as two processes would use them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from robinson.engine import Roll
from robinson.web.cluster.messages import BusMessage, Moved
from robinson.web.cluster.tasks import cancel_all
from robinson.web.store.rows import Note, SeatRow, Step
from tests.web.cluster import REDIS, RedisServer

pytestmark = pytest.mark.skipif(
    REDIS is None, reason="redis-server not installed: apt-get install redis-server"
)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.kill()


def run(redis_server: RedisServer, body: Callable[[Any], Awaitable[None]]) -> None:
    """Run `body(make_client)` in an event loop; the clients are closed afterwards."""
    from redis.asyncio import Redis

    async def main() -> None:
        clients: list[Redis] = []

        def client() -> Redis:
            clients.append(Redis.from_url(redis_server.url, socket_timeout=2))
            return clients[-1]

        try:
            await asyncio.wait_for(body(client), 60)
        finally:  # a failed body leaves its parts running: they stop for sure (tasks.py)
            await cancel_all(t for t in asyncio.all_tasks() if t is not asyncio.current_task())
            for c in clients:
                await c.aclose()

    asyncio.run(main())


async def _no_resync() -> None:
    """A broadcaster's `on_resync` where the test has nothing to reload."""


async def until(check: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.05)


def test_one_lease_holder_at_a_time_and_another_takes_over_when_it_stops_renewing(
    redis_server: RedisServer,
) -> None:
    from robinson.web.cluster.leases import RedisLeases

    async def body(client: Any) -> None:
        events: list[tuple[str, str]] = []
        a, b = RedisLeases(client(), "A", ttl=1.0), RedisLeases(client(), "B", ttl=1.0)
        for name, leases in (("A", a), ("B", b)):
            await leases.start(
                lambda t, n=name: events.append((n, f"gained {t}")),
                lambda t, n=name: events.append((n, f"lost {t}")),
                lambda t, lz=leases: lz.want(t),  # an orphan: claim it (as the service does)
            )
        a.want("t1")
        await until(lambda: a.holds("t1"))
        b.want("t1")
        await asyncio.sleep(1.5)  # renewals go on: A keeps it, B never gets it
        assert a.holds("t1") and not b.holds("t1")
        # A dies without a word: its tasks stop, nothing is released
        for task in a._tasks:
            task.cancel()
        await until(lambda: b.holds("t1"))
        assert ("B", "gained t1") in events
        # B lets it go when the table needs no driver; then A (alive again) may take it
        b.release("t1")
        await asyncio.sleep(0.1)
        a._valid_until.clear()
        a._last_try.clear()
        a.want("t1")
        await until(lambda: a.holds("t1"))
        await b.stop()

    run(redis_server, body)


def test_a_lease_asked_for_again_too_soon_is_asked_for_once_the_pause_has_passed(
    redis_server: RedisServer,
) -> None:
    """B asks for a lease A holds and is refused; A lets it go (a copy nobody used there went,
    its lease with it: no expiry for the sweep to see); B asks again at once, within its pause
    after the refusal. That request is not dropped: B takes the lease once the pause is over."""
    from robinson.web.cluster.leases import REFUSED, RedisLeases

    async def body(client: Any) -> None:
        a, b = RedisLeases(client(), "A", ttl=3.0), RedisLeases(client(), "B", ttl=3.0)
        gained: list[str] = []
        await a.start(lambda t: None, lambda t: None, lambda t: None)
        await b.start(gained.append, lambda t: None, lambda t: None)
        a.want("t1")
        await until(lambda: a.holds("t1"))
        b.want("t1")  # refused: A holds it
        await asyncio.sleep(0.2)
        assert not b.holds("t1")
        a.release("t1")
        await asyncio.sleep(0.1)
        asked = time.monotonic()
        b.want("t1")  # too soon after the refusal: asked for again after the pause
        await until(lambda: b.holds("t1"), seconds=REFUSED + 2)
        assert gained == ["t1"] and time.monotonic() - asked < REFUSED + 1
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_a_lease_survives_a_redis_restart_with_its_holder(redis_server: RedisServer) -> None:
    from robinson.web.cluster.leases import RedisLeases

    async def body(client: Any) -> None:
        a, b = RedisLeases(client(), "A", ttl=1.0), RedisLeases(client(), "B", ttl=1.0)
        await a.start(lambda t: None, lambda t: None, lambda t: None)
        await b.start(lambda t: None, lambda t: None, b.want)
        a.want("t1")
        await until(lambda: a.holds("t1"))
        await asyncio.to_thread(redis_server.restart)  # every key is gone
        await asyncio.sleep(2.5)
        assert a.holds("t1") and not b.holds("t1")  # the holder wrote its lease again
        await a.stop()
        await b.stop()

    run(redis_server, body)


def _moved(seq: int) -> Moved:
    """Step `seq` of a game, with a note and a seat row: every kind of field on the wire."""
    seat = SeatRow(0, "Ann ✓", "bot", "eager", "ab" * 32, timeouts=3)
    note = Note(seq, "timeout_bot", {"seat": 0, "count": 3})
    step = Step("t1", "g1", seq, Roll(seq % 6 + 1), 0, 1_800_000_000_000, None, (note,), (seat,))
    return Moved.of(step)


def test_broadcast_messages_reach_the_other_process_in_order_and_not_the_sender(
    redis_server: RedisServer,
) -> None:
    from robinson.web.cluster.bus import RedisBroadcaster

    async def body(client: Any) -> None:
        got: dict[str, list[tuple[str, BusMessage]]] = {"A": [], "B": []}
        followed: list[str] = []
        a, b = RedisBroadcaster(client(), "A"), RedisBroadcaster(client(), "B")

        await a.start(lambda t, m: got["A"].append((t, m)), _no_resync, lambda t: None)
        await b.start(lambda t, m: got["B"].append((t, m)), _no_resync, followed.append)
        a.follow("t1")
        b.follow("t1")
        await until(lambda: "t1" in followed and a.others("t1") == frozenset({"B"}))
        for seq in range(200):
            a.publish("t1", _moved(seq))
        a.publish("t2", _moved(0))  # a table B does not follow
        await until(lambda: len(got["B"]) == 200)
        assert [m for _, m in got["B"]] == [_moved(seq) for seq in range(200)]  # typed, in order
        assert all(t == "t1" for t, _ in got["B"])
        assert got["A"] == []  # its own are not delivered
        assert a.forgotten == 0  # every one reached B: B was never taken for gone
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_a_change_nobody_else_follows_is_not_published_and_a_newcomer_reloads_it(
    redis_server: RedisServer,
) -> None:
    """The common case behind nginx: one process follows a table, so its changes reach nobody
    and are not sent; a process that starts following it later is told to read it again, gets
    every change after that, and once it leaves the changes are kept in again."""
    from robinson.web.cluster.bus import RedisBroadcaster
    from robinson.web.cluster.messages import Reload

    async def body(client: Any) -> None:
        got: dict[str, list[BusMessage]] = {"A": [], "B": []}
        followed: dict[str, list[str]] = {"A": [], "B": []}

        a, b = RedisBroadcaster(client(), "A"), RedisBroadcaster(client(), "B")
        await a.start(lambda t, m: got["A"].append(m), _no_resync, followed["A"].append)
        await b.start(lambda t, m: got["B"].append(m), _no_resync, followed["B"].append)
        a.follow("t1")
        await until(lambda: a.others("t1") == frozenset())
        a.publish("t1", _moved(0))
        a.publish("t1", _moved(1))
        await asyncio.sleep(0.2)
        assert (a.skipped, a.published) == (2, 1)  # only its `Follow` went out

        b.follow("t1")
        await until(
            lambda: a.others("t1") == frozenset({"B"}) and b.others("t1") == frozenset({"A"})
        )
        await until(lambda: got["B"] == [Reload(to="B")])  # read what it may have missed
        assert followed["B"] == ["t1"]  # and B read the table once it was subscribed
        a.publish("t1", _moved(2))
        b.publish("t1", _moved(9))  # both ways now
        await until(lambda: got["B"][-1:] == [_moved(2)] and got["A"] == [_moved(9)])
        assert a.skipped == 2 and b.skipped == 0

        b.unfollow("t1")
        await until(lambda: a.others("t1") == frozenset())
        a.publish("t1", _moved(3))
        assert a.skipped == 3
        await asyncio.sleep(0.2)
        assert got["B"] == [Reload(to="B"), _moved(2)]
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_a_process_that_stops_says_it_left_and_sends_what_it_had_queued(
    redis_server: RedisServer,
) -> None:
    from robinson.web.cluster.bus import RedisBroadcaster

    async def body(client: Any) -> None:
        got: list[BusMessage] = []

        a, b = RedisBroadcaster(client(), "A"), RedisBroadcaster(client(), "B")
        await a.start(lambda t, m: got.append(m), _no_resync, lambda t: None)
        await b.start(lambda t, m: None, _no_resync, lambda t: None)
        a.follow("t1")
        b.follow("t1")
        await until(lambda: a.others("t1") == frozenset({"B"}))
        for seq in range(2000):  # sent in batches of at most 500
            b.publish("t1", _moved(seq))
        await b.stop()  # at once: the moves are still queued
        await until(lambda: a.others("t1") == frozenset())  # it said `Leave`
        assert got == [_moved(seq) for seq in range(2000)]  # after all of them
        await a.stop()

    run(redis_server, body)


def test_a_follower_killed_without_a_word_is_forgotten_at_the_next_change(
    redis_server: RedisServer,
) -> None:
    """A process killed with -9 says no `Leave`: the first change published after that reaches
    only its sender, which then forgets it, so the changes after it are not sent to nobody; a
    newcomer is still told to read again what was skipped."""
    from robinson.web.cluster.bus import CHANNEL, RedisBroadcaster
    from robinson.web.cluster.messages import Reload

    async def body(client: Any) -> None:
        got: list[BusMessage] = []
        a, b = RedisBroadcaster(client(), "A"), RedisBroadcaster(client(), "B")
        await a.start(lambda t, m: None, _no_resync, lambda t: None)
        await b.start(lambda t, m: None, _no_resync, lambda t: None)
        a.follow("t1")
        b.follow("t1")
        await until(lambda: a.others("t1") == frozenset({"B"}))
        # B dies: its tasks stop and its connection drops, with nothing said
        await cancel_all(b._tasks)
        assert b._pubsub is not None
        await b._pubsub.aclose()  # type: ignore[no-untyped-call]
        admin = client()
        deadline = time.monotonic() + 20
        while (await admin.pubsub_numsub(CHANNEL + "t1"))[0][1] != 1:  # A's subscription alone
            assert time.monotonic() < deadline, "B's subscription did not end"
            await asyncio.sleep(0.05)

        a.publish("t1", _moved(0))  # sent (B is still known), and it reaches A alone
        await until(lambda: a.others("t1") == frozenset())
        assert (a.forgotten, a.skipped) == (1, 0)
        a.publish("t1", _moved(1))
        assert a.skipped == 1  # nobody else follows it now: not sent

        c = RedisBroadcaster(client(), "C")
        await c.start(lambda t, m: got.append(m), _no_resync, lambda t: None)
        c.follow("t1")
        await until(lambda: got == [Reload(to="C")])  # what was skipped, read again
        a.publish("t1", _moved(2))
        await until(lambda: got[-1:] == [_moved(2)])
        assert a.forgotten == 1  # C, alive, is kept
        await a.stop()
        await c.stop()

    run(redis_server, body)


class _Copies:
    """Each process's copy of a table's version, kept as the replica keeps it (a step in order
    is taken, one ahead of it reads the store, a `Reload` reads the store, following begins
    with a read), against a store of steps (its length is the game's version)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.store: list[int] = []
        self.copy: dict[str, int | None] = dict.fromkeys(names)  # None: not following

    def on_message(self, name: str, message: BusMessage) -> None:
        from robinson.web.cluster.messages import Reload

        have = self.copy[name]
        if have is None:
            return
        if isinstance(message, Reload):
            self.copy[name] = len(self.store)
        elif isinstance(message, Moved):
            if message.seq == have:
                self.copy[name] = have + 1
            elif message.seq > have:
                self.copy[name] = len(self.store)  # a gap: catch up from the store

    def on_followed(self, name: str) -> None:
        if self.copy[name] is not None:
            self.copy[name] = len(self.store)

    def commit(self, name: str, bus: Any) -> None:
        """A change made by `name`: stored, taken into its copy, then published."""
        self.store.append(len(self.store))
        self.copy[name] = len(self.store)
        bus.publish("t1", _moved(len(self.store) - 1))

    def behind(self) -> dict[str, int]:
        return {n: c for n, c in self.copy.items() if c is not None and c != len(self.store)}


async def _buses(client: Any, copies: _Copies) -> dict[str, Any]:
    from robinson.web.cluster.bus import RedisBroadcaster

    buses = {n: RedisBroadcaster(client(), n) for n in copies.copy}
    for n, bus in buses.items():
        await bus.start(
            lambda t, m, n=n: copies.on_message(n, m),
            _no_resync,
            lambda t, n=n: copies.on_followed(n),
        )
    return buses


def test_a_newcomer_reads_again_what_was_skipped_while_its_announcement_was_on_its_way(
    redis_server: RedisServer,
) -> None:
    """A makes changes without a pause while B starts following: those made after B read the
    table and before B's `Follow` reached A were not published, and A makes none after that
    would reveal the gap. B's copy is current all the same: A told it to read again."""

    async def body(client: Any) -> None:
        copies = _Copies(("A", "B"))
        buses = await _buses(client, copies)
        a, b = buses["A"], buses["B"]
        try:
            copies.copy["A"] = -1
            a.follow("t1")
            await until(lambda: a.others("t1") == frozenset())
            copies.copy["B"] = -1
            b.follow("t1")
            while a.others("t1") != frozenset({"B"}):  # until A hears of B, and no more
                copies.commit("A", a)
                await asyncio.sleep(0)
            assert a.skipped > 0
            await until(lambda: copies.behind() == {}, 10)  # a reload, not another move
        finally:
            for bus in buses.values():
                await bus.stop()

    run(redis_server, body)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_copy_misses_a_change_whoever_follows_and_leaves_meanwhile(
    redis_server: RedisServer, seed: int
) -> None:
    """The announcements under churn: three processes follow and leave one table at random
    while those that follow it make changes (each stored first, as `Moves.commit` does), with
    random pauses so that announcements, changes and subscriptions cross. At every quiet moment
    each copy is the store's version: nothing published or skipped was missed."""
    import random

    async def body(client: Any) -> None:
        rng = random.Random(seed)
        copies = _Copies(("A", "B", "C"))
        buses = await _buses(client, copies)
        try:
            skipped = 0
            for step in range(240):
                name = rng.choice(tuple(buses))
                bus, have = buses[name], copies.copy[name]
                roll = rng.random()
                if have is None and roll < 0.5:
                    copies.copy[name] = -1  # following: its first read comes with the confirmation
                    bus.follow("t1")
                elif have is not None and roll < 0.15:
                    copies.copy[name] = None
                    bus.unfollow("t1")
                elif have is not None and have >= 0:
                    if have < len(copies.store):  # a conflict: the copy was behind
                        copies.copy[name] = len(copies.store)
                    else:
                        before = bus.skipped
                        copies.commit(name, bus)
                        skipped += bus.skipped - before
                await asyncio.sleep(rng.choice((0, 0, 0.001, 0.003)))
                if step % 40 == 39:  # a quiet moment: every copy catches up with no more moves
                    await until(lambda: copies.behind() == {}, 10)
            assert len(copies.store) > 50 and skipped > 0  # changes made, some not published
        finally:
            for bus in buses.values():
                await bus.stop()

    run(redis_server, body)


def test_a_reload_for_another_process_is_not_applied(redis_server: RedisServer) -> None:
    from robinson.web.cluster.bus import CHANNEL, RedisBroadcaster
    from robinson.web.cluster.messages import Reload

    async def body(client: Any) -> None:
        got: list[BusMessage] = []
        followed: list[str] = []

        b = RedisBroadcaster(client(), "B")
        await b.start(lambda t, m: got.append(m), _no_resync, followed.append)
        b.follow("t1")
        await until(lambda: followed == ["t1"])
        raw = client()
        for to in ("C", "B", None):
            data = Reload(to=to).model_dump_json()[:-1] + ',"p":"A"}'
            await raw.publish(CHANNEL + "t1", data)
        await until(lambda: len(got) == 2)
        assert got == [Reload(to="B"), Reload()]
        await b.stop()

    run(redis_server, body)


def test_a_message_no_version_of_ours_reads_is_skipped_and_the_next_one_arrives(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    from robinson.web.cluster.bus import CHANNEL, RedisBroadcaster

    async def body(client: Any) -> None:
        got: list[BusMessage] = []
        followed: list[str] = []

        a, b = RedisBroadcaster(client(), "A"), RedisBroadcaster(client(), "B")
        await a.start(lambda t, m: None, _no_resync, lambda t: None)
        await b.start(lambda t, m: got.append(m), _no_resync, followed.append)
        b.follow("t1")
        await until(lambda: "t1" in followed)
        raw = client()
        for junk in ("not json", "[1, 2]", '{"k": "teleport", "p": "C"}', '{"k": "move"}'):
            await raw.publish(CHANNEL + "t1", junk)
        a.publish("t1", _moved(3))
        await until(lambda: got == [_moved(3)])
        unreadable = [r for r in caplog.records if "unreadable message" in r.getMessage()]
        assert len(unreadable) == 4
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_the_broadcaster_resyncs_after_redis_restarts(redis_server: RedisServer) -> None:
    from robinson.web.cluster.bus import RedisBroadcaster

    async def body(client: Any) -> None:
        resyncs: list[str] = []
        got: list[BusMessage] = []
        followed: list[str] = []

        async def resync() -> None:
            resyncs.append("B")

        a, b = RedisBroadcaster(client(), "A"), RedisBroadcaster(client(), "B", client())
        await a.start(lambda t, m: None, _no_resync, lambda t: None)
        await b.start(lambda t, m: got.append(m), resync, followed.append)
        b.follow("t1")
        await until(lambda: "t1" in followed)
        await asyncio.to_thread(redis_server.restart)
        await until(lambda: resyncs == ["B"])  # B was told it may have missed messages
        a.publish("t1", _moved(7))
        await until(lambda: _moved(7) in got)  # and it follows t1 again
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_rate_limits_count_the_hits_of_every_process_together(
    redis_server: RedisServer,
) -> None:
    """Two processes' limiters on one Redis: 5 a minute from one address in all, not each."""
    from robinson.web.api.ratelimit import Limiter, Rates
    from robinson.web.protocol.errors import ServiceError

    async def body(client: Any) -> None:
        rates = Rates(tables="5/minute")
        a, b = Limiter(rates, redis_server.url), Limiter(rates, redis_server.url)
        address = f"10.0.0.{time.time_ns() % 250}"
        for i in range(5):
            await (a if i % 2 else b).hit("tables", address)
        for limiter in (a, b):
            with pytest.raises(ServiceError) as refused:
                await limiter.hit("tables", address)
            assert refused.value.code == "rate_limited"
            assert 1 <= int(refused.value.headers["Retry-After"]) <= 60
        await a.hit("tables", "10.9.9.9")  # another address has its own window
        await a.hit("actions", address)  # and another kind

    run(redis_server, body)


def test_rate_limits_count_in_the_process_while_redis_is_away(
    redis_server: RedisServer,
) -> None:
    from robinson.web.api.ratelimit import Limiter, Rates
    from robinson.web.protocol.errors import ServiceError

    async def body(client: Any) -> None:
        limiter = Limiter(Rates(tables="2/minute"), "redis://127.0.0.1:1/0")  # nobody there
        await limiter.hit("tables", "10.1.1.1")
        await limiter.hit("tables", "10.1.1.1")
        with pytest.raises(ServiceError) as refused:
            await limiter.hit("tables", "10.1.1.1")
        assert refused.value.code == "rate_limited"

    run(redis_server, body)


def test_presence_is_summed_over_processes_and_a_dead_process_vanishes(
    redis_server: RedisServer,
) -> None:
    from robinson.web.cluster.presence import RedisPresence

    async def body(client: Any) -> None:
        a, b = RedisPresence(client(), "A", ttl=1.0), RedisPresence(client(), "B", ttl=1.0)
        await a.start()
        await b.start()
        await a.change("t1", 0, +1)
        await b.change("t1", 0, +1)
        await b.change("t1", -1, +1)
        assert await a.totals("t1") == {0: 2, -1: 1}
        await b.change("t1", 0, -1)
        assert await b.totals("t1") == {0: 1, -1: 1}
        # Redis restarted: each process writes its own counts again
        await asyncio.to_thread(redis_server.restart)
        deadline = time.monotonic() + 10
        while await a.totals("t1") != {0: 1, -1: 1}:
            assert time.monotonic() < deadline, "presence not written again"
            await asyncio.sleep(0.1)
        # B dies without a word: its spectator vanishes within its TTL
        assert b._task is not None
        b._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await b._task
        deadline = time.monotonic() + 10
        while await a.totals("t1") != {0: 1}:
            assert time.monotonic() < deadline, "a dead process's presence stayed"
            await asyncio.sleep(0.1)
        await a.stop()

    run(redis_server, body)


def test_the_presence_of_many_tables_is_read_in_one_command(redis_server: RedisServer) -> None:
    """A process's sweep asks for every table it shows at once: one script call, whatever the
    number of tables, each table's seats held by the other processes only."""
    from robinson.web.cluster.presence import RedisPresence

    async def body(client: Any) -> None:
        a, b = RedisPresence(client(), "A"), RedisPresence(client(), "B")
        await a.start()
        await b.start()
        await a.change("t1", 1, +1)
        await a.change("t2", 2, +1)
        await b.change("t2", 0, +1)  # B's own: not "elsewhere" for B
        await asyncio.sleep(0.5)  # the first refresh of each is done (the next is 2 s later)
        await b.elsewhere_many(["t0"])  # the script is loaded into Redis on its first call
        info = client()
        before = (await info.info("commandstats")).get("cmdstat_evalsha", {}).get("calls", 0)
        many = await b.elsewhere_many(["t1", "t2", "t3"])
        after = (await info.info("commandstats")).get("cmdstat_evalsha", {}).get("calls", 0)
        assert many == {"t1": {1}, "t2": {2}, "t3": set()}
        assert after - before == 1
        assert await b.elsewhere("t2") == {2} and await a.elsewhere("t2") == {0}
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_a_seats_presence_fails_closed_while_redis_is_away_or_just_restarted(
    redis_server: RedisServer,
) -> None:
    """Issue 22: a hand-over asks `seat`, which never guesses: it raises while Redis does not
    answer, and after a restart until every process had the time to write its counts again."""
    from robinson.web.cluster.presence import PresenceUnknown, RedisPresence

    async def body(client: Any) -> None:
        a, b = RedisPresence(client(), "A", ttl=1.0), RedisPresence(client(), "B", ttl=1.0)
        await a.start()
        await b.start()
        await a.change("t1", 0, +1)
        await asyncio.sleep(1.1)  # Redis has counted for one TTL
        assert await b.seat("t1", 0) == (1, None)
        assert await b.seat("t1", 1) == (0, None)
        redis_server.kill()
        with pytest.raises(PresenceUnknown):
            await b.seat("t1", 0)
        await asyncio.to_thread(redis_server.start)  # empty: A's count is not written yet
        with pytest.raises(PresenceUnknown):
            await b.seat("t1", 0)
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(PresenceUnknown):
                assert await b.seat("t1", 0) == (1, None)  # never (0, None) meanwhile
                break
            assert time.monotonic() < deadline, "presence not known again"
            await asyncio.sleep(0.05)
        await a.stop()
        await b.stop()

    run(redis_server, body)


def test_a_seat_held_by_a_process_that_died_left_when_that_process_was_last_alive(
    redis_server: RedisServer,
) -> None:
    from robinson.web.cluster.presence import RedisPresence

    async def body(client: Any) -> None:
        a, b = RedisPresence(client(), "A", ttl=1.0), RedisPresence(client(), "B", ttl=1.0)
        await a.start()
        await b.start()
        await a.change("t1", 2, +1)
        await asyncio.sleep(1.1)
        assert a._task is not None
        a._task.cancel()  # A dies without a word
        with contextlib.suppress(asyncio.CancelledError):
            await a._task
        died = time.time() * 1000
        assert (await b.seat("t1", 2))[0] == 1  # its key lives for one more TTL: still there
        deadline = time.monotonic() + 10
        while (found := await b.seat("t1", 2))[0] != 0:
            assert time.monotonic() < deadline, "a dead process's seat stayed"
            await asyncio.sleep(0.05)
        left = found[1]
        assert left is not None and died - 1000 <= left <= died  # its last beat, not now
        assert await b.seat("t1", 2) == (0, left)  # every reader learns it, not only the first
        await b.stop()

    run(redis_server, body)
