"""The chances at a table: `GET /api/games/{game}/odds?version=N` and the chart of a whole game.

Exact chances are a lookup in the solved chains on disk (`robinson.analysis.odds`); the first
solve of a (rules, policy) on a machine takes seconds, so it runs in a worker process, never on
the event loop: until it is done the endpoints answer 202 with `{"status": "computing"}` and the
page says so. Lookups and simulations (5 to 8 living players) run on the heavy lane (lane.py: its
own threads, a bounded queue, a few jobs per client address; the compiled simulator lets go of
the GIL), so bots, clocks, moves and the store's reads never wait for them. A game's past never
changes, so answers are kept per (game, version, policy) in a small cache, and the chart of a
game grows with it: a new version adds the points of the turns since the last one's start
(`Chart`), it does not replay the game.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from robinson.analysis.odds import DEFAULT_GAMES, EXACT_LIVING, ODDS_POLICIES, tables
from robinson.analysis.odds.history import Chart
from robinson.engine import GameRecord, RobinsonError, Ruleset, State
from robinson.web.protocol.errors import ServiceError
from robinson.web.service.lane import Lane
from robinson.web.service.orphans import exit_with_parent

log = logging.getLogger("robinson.web")

CACHE_ENTRIES = 4096
Key = tuple[str, int, str, str]  # (game, version, policy, "odds" or "history")
SWINGS = 3
CHARTS = 256  # games whose chart is kept, to be grown by their next versions


class Computing(Exception):
    """The chain these chances need is being solved (in a worker process)."""


class OddsService:
    def __init__(self, games: int = DEFAULT_GAMES, lane: Lane | None = None) -> None:
        self.games = games
        self.lane = lane or Lane()
        # (game, policy) -> its chart so far, and the JSON text of each settled point
        self._charts: OrderedDict[tuple[str, str], tuple[Chart, list[str]]] = OrderedDict()
        self._charting = threading.Lock()
        self._answers: OrderedDict[Key, Any] = OrderedDict()
        self._running: dict[Key, asyncio.Future[Any]] = {}
        self._solving: dict[tuple[str, str, int], Future[float]] = {}
        self._pool: ProcessPoolExecutor | None = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # -- the endpoints -------------------------------------------------------------------------

    async def odds(
        self,
        game_id: str,
        record: GameRecord,
        version: int | None,
        policy: str,
        client: str | None = None,
        now: State | None = None,
    ) -> dict[str, Any]:
        """The chances after `version` actions (the last one when None), as `robinson odds`
        prints them, plus the version. Raises `Computing` while the chain is being solved."""
        policy = _policy(policy)
        last = len(record.actions)
        if version is None:
            version = last
        if type(version) is not int or not 0 <= version <= last:
            raise ServiceError(
                "bad_request", f"version must be a whole number from 0 to {last}, got {version!r}"
            )
        prefix = GameRecord(record.ruleset, record.players, record.first, record.actions[:version])

        async def compute() -> dict[str, Any]:
            if now is not None and version == last:  # the position now: no replay
                state = now
            else:  # a past one: replayed, at a cost that grows with it
                state = await self.lane.run(prefix.replay, client)
            if not state.over and len(state.living) <= EXACT_LIVING:
                self._need(record.ruleset, policy, len(state.living))
            return {
                "version": version,
                **await self.lane.run(lambda: self._compute(state, policy), client),
            }

        answer: dict[str, Any] = await self._once((game_id, version, policy, "odds"), compute)
        return answer

    async def history(
        self, game_id: str, record: GameRecord, policy: str, client: str | None = None
    ) -> str:
        """Every seat's chances at the start of every turn, and the biggest swings: the JSON
        text of protocol/server.py's `OddsHistory` (a long game's chart is large, and each
        point is encoded once, when its turn has started)."""
        from robinson.analysis.odds.history import biggest_swings

        policy = _policy(policy)
        version = len(record.actions)

        def chart() -> str:
            with self._charting:  # the lane's threads share the kept charts
                kept, encoded = self._charts.get((game_id, policy), (None, []))
            if kept is not None and kept.version > version:
                kept, encoded = None, []  # asked for an older version: one of its own
            grown = (kept or Chart.empty(record)).grown(record, policy)
            settled = encoded[: len(grown.settled)]
            settled += [_dumps(p.to_json()) for p in grown.settled[len(settled) :]]
            with self._charting:
                self._charts[(game_id, policy)] = (grown, settled)
                self._charts.move_to_end((game_id, policy))
                while len(self._charts) > CHARTS:
                    self._charts.popitem(last=False)
            points = ",".join([*settled, *(_dumps(p.to_json()) for p in grown.tail)])
            swings = _dumps([s.to_json() for s in biggest_swings(grown.points(), SWINGS)])
            head = _dumps({"version": version, "policy": policy})[:-1]
            return f'{head},"points":[{points}],"swings":{swings}}}'

        async def compute() -> str:
            self._need(record.ruleset, policy, min(len(record.players), EXACT_LIVING))
            return await self.lane.run(chart, client)

        text: str = await self._once((game_id, version, policy, "history"), compute)
        return text

    # -- helpers -------------------------------------------------------------------------------

    def _compute(self, state: State, policy: str) -> dict[str, Any]:
        from robinson.analysis.odds import position_odds

        try:
            return position_odds(state, policy, self.games)
        except RobinsonError as e:
            raise ServiceError("bad_request", str(e)) from None

    async def _once(self, key: Key, compute: Callable[[], Awaitable[Any]]) -> Any:
        """The kept answer for `key`, or the one being computed (viewers asking for the same
        position at once share one computation), or a new computation."""
        if key in self._answers:
            self._answers.move_to_end(key)
            return self._answers[key]
        task = self._running.get(key)
        if task is None:
            task = self._running[key] = asyncio.ensure_future(compute())
            task.add_done_callback(lambda _: self._running.pop(key, None))
        answer = await asyncio.shield(task)  # a viewer who leaves does not cancel the others'
        self._answers[key] = answer
        while len(self._answers) > CACHE_ENTRIES:
            self._answers.popitem(last=False)
        return answer

    def _need(self, ruleset: Ruleset, policy: str, m: int) -> None:
        """Raise `Computing` unless the chains of up to m living players are on disk; start
        their solve in the worker process if nobody has yet."""
        rules = tables.rules_ruleset(ruleset)
        if tables.ready(rules, policy, m):
            return
        key = (tables.rules_key(rules), policy, m)
        running = self._solving.get(key)
        if running is not None and running.done():
            del self._solving[key]
            error = running.exception()
            if error is not None:
                log.warning("solving the chances of %s (%s) failed: %s", key[0], policy, error)
                raise ServiceError("bad_request", f"the chances cannot be solved here: {error}")
            if tables.ready(rules, policy, m):
                return
            running = None
        if running is None:
            log.info("solving the chances of %s (%s) in a worker process", key[0], policy)
            self._solving[key] = self._worker().submit(tables.ensure, rules, policy, m)
        raise Computing

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server has threads; one task per process gives the solve's
            # memory back as soon as it is done.
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                max_tasks_per_child=1,
                initializer=exit_with_parent,  # no worker outlives a server that died
                initargs=(os.getpid(),),
            )
        return self._pool


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _policy(policy: str) -> str:
    if policy not in ODDS_POLICIES:
        raise ServiceError(
            "bad_request", f"unknown policy {policy!r}: expected one of {', '.join(ODDS_POLICIES)}"
        )
    return policy
