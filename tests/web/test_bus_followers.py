"""Which followers the broadcaster forgets when Redis says a message reached nobody else
(cluster/bus.py, `_gone`): only those known when the message was queued and not heard of
since, and only when the one subscriber reached can be this process. The bus is made but never
started: no Redis is needed (tests/web/test_shared_redis.py has the same against a real one)."""

from __future__ import annotations

from redis.asyncio import Redis

from robinson.engine import Roll
from robinson.web.cluster.bus import Outgoing, RedisBroadcaster
from robinson.web.cluster.messages import Moved
from robinson.web.store.rows import Step


def _move(seq: int = 0) -> Moved:
    return Moved.of(Step("t1", "g1", seq, Roll(3), 0, 1_800_000_000_000, None, (), ()))


def _queued(bus: RedisBroadcaster) -> Outgoing:
    """A move of table t1 published now, as it waits for Redis."""
    bus.publish("t1", _move())
    return bus._outbox.get_nowait()


def _bus(*followers: str) -> RedisBroadcaster:
    bus = RedisBroadcaster(Redis(), "A")  # not connected: nothing here talks to Redis
    bus._others["t1"] = {}  # its subscription to t1 is confirmed
    for who in followers:
        bus._heard("t1", who, answer=False)
    return bus


def test_the_followers_a_message_missed_are_forgotten_when_it_reached_this_process_alone() -> None:
    bus = _bus("B", "C")
    sent = _queued(bus)
    assert sent.known is not None and set(sent.known) == {"B", "C"}
    bus._gone(sent, 3)  # A, B and C
    bus._gone(sent, 2)  # one of them is gone, but which: both are kept (it is sent anyway)
    bus._gone(sent, 0)  # not even A's own subscription: nothing can be concluded
    assert bus.others("t1") == frozenset({"B", "C"}) and bus.forgotten == 0
    bus._gone(sent, 1)
    assert bus.others("t1") == frozenset() and bus.forgotten == 2
    bus.publish("t1", _move(1))
    assert bus._outbox.empty() and bus.skipped == 1  # the next change is not sent


def test_a_follower_heard_of_after_the_message_was_queued_is_kept() -> None:
    bus = _bus("B")
    sent = _queued(bus)
    bus._heard("t1", "B", answer=False)  # B followed anew (its own reconnection) meanwhile
    bus._heard("t1", "C", answer=False)  # and C began to follow
    bus._gone(sent, 1)  # the answer about the old message comes after both
    assert bus.others("t1") == frozenset({"B", "C"}) and bus.forgotten == 0


def test_nothing_is_forgotten_of_a_table_no_longer_followed_or_before_its_subscription() -> None:
    bus = _bus("B")
    sent = _queued(bus)
    bus._others.pop("t1")  # unfollowed, or the subscription lost: everything is published
    bus._gone(sent, 1)
    assert bus.forgotten == 0
    early = RedisBroadcaster(Redis(), "A")  # its subscription not confirmed yet
    early.publish("t1", _move())
    assert early._outbox.get_nowait().known is None  # so no answer can forget anyone
