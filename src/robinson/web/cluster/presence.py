"""Presence across server processes: which seats some connection holds, on any process.

A local implementation (one process, no `--redis`) and a Redis one with the same interface,
chosen once in `cluster/__init__.py`. The Redis one holds nothing that cannot be lost: each
process writes its own presence again within `PRESENCE_TTL / 3` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Protocol

from robinson.web.cluster.tasks import cancel_all

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("robinson.web.cluster.presence")

PRESENCE_TTL = 6.0  # seconds a process counts as alive (for presence) after it last said so


class Presence(Protocol):
    async def change(self, table_id: str, seat: int, delta: int) -> None:
        """A connection holding `seat` (-1: a spectator) joined (+1) or left (-1) here."""

    async def totals(self, table_id: str) -> dict[int, int]:
        """Connections per seat at the table over every process (seats with none left out)."""

    async def seat(self, table_id: str, seat: int) -> tuple[int, int | None]:
        """Connections holding `seat` over every living process, and when (Unix ms) a process
        that held it was last known alive, if one died since (its player left then). Raises
        `PresenceUnknown` when that cannot be known: Redis away, or restarted so lately that
        the processes may not all have written their counts again."""

    async def elsewhere(self, table_id: str) -> set[int]:
        """The seats some connection to another living process holds."""

    async def elsewhere_many(self, table_ids: list[str]) -> dict[str, set[int]]:
        """`elsewhere` of many tables at once: one question to Redis, however many tables."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class PresenceUnknown(Exception):
    """Who is connected cannot be known now (docs/protocol.md "Seats")."""


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

    async def seat(self, table_id: str, seat: int) -> tuple[int, int | None]:
        return self._mine.get(table_id, Counter())[seat], None

    async def elsewhere(self, table_id: str) -> set[int]:
        return set()  # alone: there is no elsewhere

    async def elsewhere_many(self, table_ids: list[str]) -> dict[str, set[int]]:
        return {table_id: set() for table_id in table_ids}

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

# Every field of a living process, but those of the process ARGV[1] if given. The fields of a
# dead process are removed, and each seat it held is noted in `robinson:left:{table}` as left
# when that process last said it lived (its `robinson:beat:`): the moment its player left.
# With ARGV[2] = "strict" the reply is {fields, left} per table, and an error while Redis may
# not hold every process's counts (it answered `robinson:presence:since` less than ARGV[3] ms
# ago: restarted, each process writing its counts again). A script may read keys it was not
# given when Redis is one server, as here (not a Redis Cluster).
_READ = """
local strict = ARGV[2] == 'strict'
if strict then
  local since = redis.call('GET', 'robinson:presence:since')
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if not since or now - tonumber(since) < tonumber(ARGV[3]) then
    return redis.error_reply('presence not known yet')
  end
end
-- of each key in KEYS: one reply per table, in order
local alive = {}
local replies = {}
for k = 1, #KEYS do
  local all = redis.call('HGETALL', KEYS[k])
  local out = {}
  local leftkey = 'robinson:left:' .. string.sub(KEYS[k], 19)
  for i = 1, #all, 2 do
    local process = string.match(all[i], '^(.*):[^:]*$')
    if alive[process] == nil then
      alive[process] = redis.call('EXISTS', 'robinson:alive:' .. process) == 1
    end
    if alive[process] then
      if process ~= ARGV[1] then
        table.insert(out, all[i]); table.insert(out, all[i + 1])
      end
    else
      redis.call('HDEL', KEYS[k], all[i])
      local beat = redis.call('GET', 'robinson:beat:' .. process)
      local seat = string.match(all[i], ':([^:]*)$')
      if beat and tonumber(all[i + 1]) > 0 then
        local before = redis.call('HGET', leftkey, seat)
        if not before or tonumber(before) < tonumber(beat) then
          redis.call('HSET', leftkey, seat, beat)
          redis.call('EXPIRE', leftkey, 86400)
        end
      end
    end
  end
  if strict then
    replies[k] = {out, redis.call('HGETALL', leftkey)}
  else
    replies[k] = out
  end
end
return replies
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
        # One write at a time, each of the count as it is when written: two quick changes of
        # a seat cannot land in Redis out of order.
        self._writing = asyncio.Lock()

    async def change(self, table_id: str, seat: int, delta: int) -> None:
        await super().change(table_id, seat, delta)
        async with self._writing:
            count = self._mine.get(table_id, Counter())[seat]
            with contextlib.suppress(Exception):  # Redis away: written again when it is back
                await self._put(table_id, {seat: count})

    async def _put(self, table_id: str, counts: dict[int, int]) -> None:
        args: list[str | int] = []
        for seat, count in counts.items():
            args += [f"{self.process_id}:{seat}", count]
        await self._write(keys=[f"robinson:presence:{table_id}"], args=args)

    async def _alive(self) -> bool:
        """Say this process lives (and when: its beat, kept a day, the moment its players left
        should it die); True when the key was there already (Redis kept it)."""
        key = f"robinson:alive:{self.process_id}"
        now = int(time.time() * 1000)
        await self.redis.set(f"robinson:beat:{self.process_id}", now, ex=86400)
        if not await self.redis.exists(key):
            # Our counts are (re)written now (first start, or Redis lost them): the cluster's
            # presence is not whole until every process had its turn (`seat` says so).
            await self.redis.set("robinson:presence:since", now)
        previous = await self.redis.set(key, 1, px=int(self.ttl * 1000), get=True)
        return previous is not None

    async def seat(self, table_id: str, seat: int) -> tuple[int, int | None]:
        if seat in self._mine.get(table_id, Counter()):
            return self._mine[table_id][seat], None  # held here: no need to ask
        key = f"robinson:presence:{table_id}"
        args: list[str | int] = ["", "strict", int(self.ttl * 1000)]
        try:
            [(flat, left)] = await self._read(keys=[key], args=args)
        except Exception as e:
            raise PresenceUnknown(str(e) or type(e).__name__) from None
        count = sum(int(n) for f, n in zip(flat[::2], flat[1::2], strict=True) if _seat(f) == seat)
        left_at = {_int(f): int(v) for f, v in zip(left[::2], left[1::2], strict=True)}
        return count, left_at.get(seat)

    async def totals(self, table_id: str) -> dict[int, int]:
        try:
            return await self._counts(table_id)
        except Exception:
            return await super().totals(table_id)  # Redis away: what this process knows

    async def elsewhere(self, table_id: str) -> set[int]:
        try:
            counts = await self._counts(table_id, skip=self.process_id)
        except Exception:
            return set()  # Redis away: only this process's own dots
        return {seat for seat, count in counts.items() if count > 0}

    async def elsewhere_many(self, table_ids: list[str]) -> dict[str, set[int]]:
        if not table_ids:
            return {}
        try:
            many = await self._counts_many(table_ids, skip=self.process_id)
        except Exception:
            return {table_id: set() for table_id in table_ids}
        return {t: {seat for seat, n in counts.items() if n > 0} for t, counts in many.items()}

    async def _counts(self, table_id: str, skip: str = "") -> dict[int, int]:
        return (await self._counts_many([table_id], skip))[table_id]

    async def _counts_many(self, table_ids: list[str], skip: str) -> dict[str, dict[int, int]]:
        keys = [f"robinson:presence:{t}" for t in table_ids]
        replies = await self._read(keys=keys, args=[skip])
        result: dict[str, dict[int, int]] = {}
        for table_id, flat in zip(table_ids, replies, strict=True):
            out: Counter[int] = Counter()
            for field, count in zip(flat[::2], flat[1::2], strict=True):
                out[_seat(field)] += int(count)
            result[table_id] = dict(out)
        return result

    async def start(self) -> None:
        self._task = asyncio.create_task(self._refresh(), name="presence-refresh")

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_all([self._task])
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


def _int(value: bytes | str) -> int:
    return int(value.decode() if isinstance(value, bytes) else value)


def _seat(field: bytes | str) -> int:
    """The seat of a field "{process}:{seat}"."""
    name = field.decode() if isinstance(field, bytes) else str(field)
    return int(name.rsplit(":", 1)[1])
