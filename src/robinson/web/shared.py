"""Counts that must hold across server processes: rate-limit windows and presence.

Each has a local implementation (one process, no `--redis`) and a Redis one with the same
interface, chosen once in `web/cluster.py`. Both Redis ones hold nothing that cannot be lost:
a rate-limit window lost to a Redis restart starts again from zero, and each process writes its
own presence again within `PRESENCE_TTL / 3` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("robinson.web.shared")

PRESENCE_TTL = 6.0  # seconds a process counts as alive (for presence) after it last said so


class Counters(Protocol):
    async def hit(self, key: str, window: float, weight: int = 1) -> int:
        """Count an event under `key` in the current fixed window of `window` seconds; return
        the count of this window so far, over every process (a rate limit compares it)."""


class LocalCounters:
    def __init__(self) -> None:
        self._counts: dict[tuple[str, int], int] = {}
        self._pruned = 0.0

    async def hit(self, key: str, window: float, weight: int = 1) -> int:
        now = time.time()
        slot = int(now // window)
        if now - self._pruned > 60:  # forget windows long gone
            self._counts = {k: v for k, v in self._counts.items() if k[1] >= slot - 1}
            self._pruned = now
        count = self._counts.get((key, slot), 0) + weight
        self._counts[(key, slot)] = count
        return count


class RedisCounters:
    """INCRBY on a key per window, which expires with the window. Should Redis not answer, the
    process counts alone (a limit per process is better than none, or than refusing all)."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._fallback = LocalCounters()

    async def hit(self, key: str, window: float, weight: int = 1) -> int:
        slot = int(time.time() // window)
        name = f"robinson:rl:{key}:{slot}"
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.incrby(name, weight)
                pipe.pexpire(name, int(window * 2000), nx=True)
                count, _ = await pipe.execute()
            return int(count)
        except Exception as e:  # redis.exceptions.RedisError, OSError and their kin
            log.warning("rate counter in redis failed (%s); counting in this process", e)
            return await self._fallback.hit(key, window, weight)


class Presence(Protocol):
    async def change(self, table_id: str, seat: int, delta: int) -> None:
        """A connection holding `seat` (-1: a spectator) joined (+1) or left (-1) here."""

    async def totals(self, table_id: str) -> dict[int, int]:
        """Connections per seat at the table over every process (seats with none left out)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalPresence:
    def __init__(self) -> None:
        self._mine: dict[str, Counter[int]] = {}

    async def change(self, table_id: str, seat: int, delta: int) -> None:
        counts = self._mine.setdefault(table_id, Counter())
        counts[seat] += delta
        if counts[seat] <= 0:
            del counts[seat]
        if not counts:
            del self._mine[table_id]

    async def totals(self, table_id: str) -> dict[int, int]:
        return dict(self._mine.get(table_id, {}))

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


# A hash per table: field "{process}:{seat}" -> count. Whether a process lives is one key of its
# own, `robinson:alive:{process}`, written every TTL / 3 seconds: the refresh costs one command
# per process, not one per table, and a dead process's fields are ignored (and removed) at once
# when its key runs out.
_WRITE = """
for i = 1, #ARGV, 2 do
  if tonumber(ARGV[i + 1]) > 0 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  else
    redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return 1
"""

# Every field of a living process (the others are removed here). A script may read keys it was
# not given when Redis is one server, as here (not a Redis Cluster).
_READ = """
local all = redis.call('HGETALL', KEYS[1])
local alive = {}
local out = {}
for i = 1, #all, 2 do
  local process = string.match(all[i], '^(.*):[^:]*$')
  if alive[process] == nil then
    alive[process] = redis.call('EXISTS', 'robinson:alive:' .. process) == 1
  end
  if alive[process] then
    table.insert(out, all[i]); table.insert(out, all[i + 1])
  else
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return out
"""


class RedisPresence(LocalPresence):
    """This process's counts (kept locally, as LocalPresence does) written to Redis on each
    change; a key of its own says it lives. Should that key be found missing when it is written
    again (Redis restarted), every count of this process is written again."""

    def __init__(self, redis: Redis, process_id: str, ttl: float = PRESENCE_TTL) -> None:
        super().__init__()
        self.redis = redis
        self.process_id = process_id
        self.ttl = ttl
        self._write = redis.register_script(_WRITE)
        self._read = redis.register_script(_READ)
        self._task: asyncio.Task[None] | None = None

    async def change(self, table_id: str, seat: int, delta: int) -> None:
        await super().change(table_id, seat, delta)
        count = self._mine.get(table_id, Counter())[seat]
        with contextlib.suppress(Exception):  # Redis away: written again when it is back
            await self._put(table_id, {seat: count})

    async def _put(self, table_id: str, counts: dict[int, int]) -> None:
        args: list[str | int] = []
        for seat, count in counts.items():
            args += [f"{self.process_id}:{seat}", count]
        await self._write(keys=[f"robinson:presence:{table_id}"], args=args)

    async def _alive(self) -> bool:
        """Say this process lives; True when the key was there already (Redis kept it)."""
        key = f"robinson:alive:{self.process_id}"
        previous = await self.redis.set(key, 1, px=int(self.ttl * 1000), get=True)
        return previous is not None

    async def totals(self, table_id: str) -> dict[int, int]:
        try:
            flat = await self._read(keys=[f"robinson:presence:{table_id}"])
        except Exception:
            return await super().totals(table_id)  # Redis away: what this process knows
        out: Counter[int] = Counter()
        for field, count in zip(flat[::2], flat[1::2], strict=True):
            name = field.decode() if isinstance(field, bytes) else str(field)
            out[int(name.rsplit(":", 1)[1])] += int(count)
        return dict(out)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._refresh(), name="presence-refresh")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        # A clean stop takes ours away at once: without the key, our fields count for nothing.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.delete(f"robinson:alive:{self.process_id}"), 1.0)

    async def _refresh(self) -> None:
        while True:
            try:
                if not await self._alive():  # first time, or Redis lost everything
                    for table_id, counts in list(self._mine.items()):
                        await self._put(table_id, dict(counts))
            except asyncio.CancelledError:
                raise
            except Exception:
                pass  # Redis away: try again next round
            await asyncio.sleep(self.ttl / 3)
