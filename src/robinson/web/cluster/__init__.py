"""What a server process shares with the others, chosen once at start: alone (no `--redis`), or
one of many behind a load balancer sharing a database and a Redis (docs/deploy.md).

`Cluster` bundles the three shared parts, each a small interface with a local and a Redis
implementation: the broadcaster (bus.py, its messages typed in messages.py), the driver leases
(leases.py) and presence (presence.py); the rate limits of tables and sockets keep their
windows in the same Redis (web/api/ratelimit.py). The game service and the app use only the
interfaces, so one process alone behaves as before.
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, field
from typing import Any

from robinson.web.cluster.bus import Broadcaster, LocalBroadcaster, RedisBroadcaster
from robinson.web.cluster.leases import Leases, LocalLeases, RedisLeases
from robinson.web.cluster.presence import LocalPresence, Presence, RedisPresence


class RedisUnavailable(Exception):
    """The Redis URL is wrong or nobody answers there. Says which."""


def process_id() -> str:
    """Unique per process start; says where it runs (for people reading Redis, and the tests)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


@dataclass
class Cluster:
    bus: Broadcaster = field(default_factory=LocalBroadcaster)
    leases: Leases = field(default_factory=LocalLeases)
    presence: Presence = field(default_factory=LocalPresence)
    process: str = field(default_factory=process_id)
    redis: Any = None  # the clients, when there are (closed by `close`)
    subscriber: Any = None

    @property
    def shared(self) -> bool:
        """Whether other processes may serve the same tables."""
        return self.redis is not None

    async def close(self) -> None:
        for client in (self.redis, self.subscriber):
            if client is not None:
                await client.aclose()


async def connect(url: str | None) -> Cluster:
    """A Cluster on Redis at `url`, or one process alone when `url` is None."""
    if url is None:
        return Cluster()
    from redis.asyncio import Redis

    try:
        redis = Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
    except ValueError as e:
        raise RedisUnavailable(
            f"{_safe(url)} is not a Redis URL ({e}); expected e.g. redis://localhost:6379/0"
        ) from None
    try:
        await redis.ping()
    except Exception as e:
        await redis.aclose()
        raise RedisUnavailable(f"cannot reach Redis at {_safe(url)}: {e}") from None
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    # The subscription's own client does not reconnect quietly: the broadcaster must know.
    subscriber = Redis.from_url(url, socket_connect_timeout=2.0, retry=Retry(NoBackoff(), 0))
    me = process_id()
    return Cluster(
        bus=RedisBroadcaster(redis, me, subscriber),
        leases=RedisLeases(redis, me),
        presence=RedisPresence(redis, me),
        process=me,
        redis=redis,
        subscriber=subscriber,
    )


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()
