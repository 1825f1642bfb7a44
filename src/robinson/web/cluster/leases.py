"""The driver lease: which process plays a table's bots (and runs its clocks and timeouts).

Humans' moves may reach any process; the (game, seq) key of the store lets exactly one write of
a step in. Bots and clocks are different: somebody must *start* them, and exactly one process
should. That process holds the table's lease.

- `LocalLeases`: one process alone holds every lease (today's behaviour).
- `RedisLeases`: a key `robinson:lease:{table}` = the holder's process id, with a short time to
  live (`TTL`), renewed every `TTL / 3` in one round trip for all the tables a process drives.
  A sorted set `robinson:leases` lists each driven table with its lease's expiry (Redis's own
  clock, so the machines' clocks need not agree). Every process looks at it every `SWEEP`
  seconds; a table whose lease ran out (its process died) is claimed by whoever gets there
  first. So a dead process's tables go on within TTL + SWEEP (3.5 s) plus one bot pause.

A holder counts its lease as valid only until `TTL - MARGIN` after it *sent* the last renewal
that succeeded; a process cut off from Redis stops driving before anyone else may start. Should
two ever drive at once anyway (a process frozen longer than that), the store's key still refuses
the second write of a step: the loser reloads and stops. A Redis restart loses every lease; the
holders take theirs again at the next renewal (nobody else had the key), and the sorted set is
written again with them. Nothing in Redis is needed to know what must be driven: a process that
starts, or sees Redis come back, looks in the database (`GameService.adopt`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from robinson.web.cluster.tasks import cancel_all

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("robinson.web.cluster.leases")

TTL = 3.0  # seconds a lease lives without renewal
MARGIN = 0.5  # a holder stops this much before its lease could have run out
SWEEP = 0.5  # seconds between looks for tables whose lease ran out
REFUSED = 1.0  # seconds before a table another process holds is asked for again
SWEEP_BATCH = 50
KEY = "robinson:lease:"
EXPIRIES = "robinson:leases"

# Take the lease when it is free or already ours; note its expiry (Redis time, ms) in the set.
_CLAIM = """
local now = redis.call('TIME')
local expiry = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + tonumber(ARGV[2])
local out = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == false or holder == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    redis.call('ZADD', ARGV[3], expiry, ARGV[3 + i])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

# Give a lease up (only our own, or one nobody holds) and drop the table from the set.
_RELEASE = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', ARGV[2], ARGV[3])
  return 1
end
return 0
"""

# The tables whose lease has run out by Redis's clock.
_EXPIRED = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ms, 'LIMIT', 0, tonumber(ARGV[1]))
"""

Callback = Callable[[str], None]


class Leases(Protocol):
    def holds(self, table_id: str) -> bool:
        """Whether this process may drive the table now."""

    def want(self, table_id: str) -> None:
        """The table needs a driver: take its lease if nobody holds it (in the background)."""

    def release(self, table_id: str) -> None:
        """The table needs no driver any more (game over, no bot): give the lease up."""

    async def start(self, gained: Callback, lost: Callback, orphaned: Callback) -> None: ...

    async def stop(self) -> None: ...


class LocalLeases:
    """One process: it drives everything."""

    def holds(self, table_id: str) -> bool:
        return True

    def want(self, table_id: str) -> None:
        return None

    def release(self, table_id: str) -> None:
        return None

    async def start(self, gained: Callback, lost: Callback, orphaned: Callback) -> None:
        return None

    async def stop(self) -> None:
        return None


class RedisLeases:
    def __init__(self, redis: Redis, process_id: str, ttl: float = TTL) -> None:
        self.redis = redis
        self.process_id = process_id
        self.ttl = ttl
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)
        self._expired = redis.register_script(_EXPIRED)
        self._valid_until: dict[str, float] = {}  # held tables -> local monotonic deadline
        self._asking_again: set[str] = set()  # tables wanted while just tried: tried again
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._gained: Callback = lambda _t: None
        self._lost: Callback = lambda _t: None
        self._orphaned: Callback = lambda _t: None
        self._last_try: dict[str, float] = {}

    def holds(self, table_id: str) -> bool:
        return self._valid_until.get(table_id, 0.0) > time.monotonic()

    @property
    def held(self) -> list[str]:
        return [t for t in self._valid_until if self.holds(t)]

    def want(self, table_id: str) -> None:
        if table_id in self._valid_until:
            return  # ours already (or being renewed)
        wait = self._last_try.get(table_id, -1e9) + SWEEP - time.monotonic()
        if wait > 0:
            # Just tried (or refused: another process holds it). Never dropped: asked again
            # once that passes, since its holder may let it go meanwhile without its lease
            # running out (a copy nobody uses there goes, tables.py), which the sweep would
            # not see, and a bot then to move would wait for a driver forever.
            if table_id not in self._asking_again:
                self._asking_again.add(table_id)
                self._later(self._ask_again(table_id, wait))
            return
        self._last_try[table_id] = time.monotonic()
        self._later(self._try([table_id]))

    async def _ask_again(self, table_id: str, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            self._asking_again.discard(table_id)
        self.want(table_id)

    def _later(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def release(self, table_id: str) -> None:
        # Also for a table we never held: an orphan that needs no driver leaves the set.
        self._valid_until.pop(table_id, None)
        self._later(self._give_up(table_id))

    async def _give_up(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self._release(keys=[KEY + table_id], args=[self.process_id, EXPIRIES, table_id])

    async def _try(self, table_ids: list[str]) -> None:
        """Claim or renew `table_ids`; tell the service what it gained and lost."""
        if not table_ids:
            return
        sent = time.monotonic()
        try:
            result = await self._claim(
                keys=[KEY + t for t in table_ids],
                args=[self.process_id, int(self.ttl * 1000), EXPIRIES, *table_ids],
            )
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("redis did not answer a lease claim: %s", e)
            return
        for table_id, ok in zip(table_ids, result, strict=True):
            had = self.holds(table_id)
            if ok:
                self._valid_until[table_id] = sent + self.ttl - MARGIN
                if not had:
                    self._gained(table_id)
            elif table_id in self._valid_until:
                del self._valid_until[table_id]
                self._lost(table_id)
            else:  # another process drives it: asked for again no sooner than REFUSED
                self._last_try[table_id] = time.monotonic() + REFUSED - SWEEP

    async def start(self, gained: Callback, lost: Callback, orphaned: Callback) -> None:
        self._gained, self._lost, self._orphaned = gained, lost, orphaned
        self._tasks = [
            asyncio.create_task(self._renew(), name="lease-renew"),
            asyncio.create_task(self._sweep(), name="lease-sweep"),
        ]

    async def stop(self) -> None:
        await cancel_all([*self._tasks, *self._pending])
        # A clean stop hands the tables on at once instead of after the TTL: all in one round
        # trip, and never more than a second (Redis may be away; then the TTL does it).
        held, self._valid_until = list(self._valid_until), {}
        if held:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._give_up_all(held), 1.0)

    async def _give_up_all(self, table_ids: list[str]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                await self._release(
                    keys=[KEY + table_id],
                    args=[self.process_id, EXPIRIES, table_id],
                    client=pipe,
                )
            await pipe.execute()

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            tables = list(self._valid_until)
            # A renewal that fails (Redis away) leaves the deadline to pass: `holds` turns
            # false and the drivers stop by themselves; the next success counts as a gain.
            for i in range(0, len(tables), 1000):
                await self._try(tables[i : i + 1000])

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            try:
                expired = await self._expired(keys=[EXPIRIES], args=[SWEEP_BATCH])
            except asyncio.CancelledError:
                raise
            except Exception:
                continue  # Redis away: the renewal loop says so in the log
            for raw in expired:
                table_id = raw.decode() if isinstance(raw, bytes) else str(raw)
                if table_id not in self._valid_until:
                    self._last_try.pop(table_id, None)  # claim it now, whatever we knew
                    self._orphaned(table_id)
