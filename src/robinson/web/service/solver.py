"""The optimal bot's exact solve, kept off the event loop and done once per edition and count.

The optimal bot plays the exact solution of the game for its edition and number of players
(money never moves a pawn, so the money options do not count: `analysis.exact.store.pawn_rules`).
The first time a (edition, players) is needed on a machine, it is solved in a worker process
(hundreds of MB and seconds of CPU, none of it in the server), at most one solve at a time, and
written to the disk cache (`ROBINSON_CACHE_DIR`); the server then loads the small decision tables,
once, shared by every table. A bot waiting for its solve waits at its own table only.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.process
import os

from robinson.engine import Ruleset, State
from robinson.web.service.orphans import exit_with_parent

log = logging.getLogger("robinson.web")

EXACT_MAX_PLAYERS = 4  # the exact solution's reach (analysis.exact.game); beyond it: eager


def _solve_to_disk(edition: str, players: int, parent: int) -> None:
    """In the worker process: solve and write the decision tables to the disk cache (and end
    with the server, should it die meanwhile)."""
    from robinson.analysis.exact.optimal import OptimalPolicy

    exit_with_parent(parent)
    OptimalPolicy(Ruleset(edition=edition), players)


def _on_disk(edition: str, players: int) -> bool:
    from robinson.analysis.exact import store

    return store.load_tables(Ruleset(edition=edition), players) is not None


def _load(edition: str, players: int) -> None:
    from robinson.analysis.exact.optimal import OptimalPolicy

    OptimalPolicy.solve(Ruleset(edition=edition), players)  # kept by its own cache


class OptimalSolver:
    def __init__(self) -> None:
        self.solves = 0  # how many solves this server started (a figure for tests and notes)
        self._ready: set[tuple[str, int]] = set()
        self._one_at_a_time = asyncio.Lock()
        self._worker: multiprocessing.process.BaseProcess | None = None

    async def prepare(self, bot: str | None, state: State) -> None:
        """Make sure `bot`'s choice for `state` is a quick lookup; solve first if need be."""
        players = len(state.players)
        if bot != "optimal" or players > EXACT_MAX_PLAYERS:
            return
        key = (state.ruleset.edition, players)
        if key in self._ready:
            return
        async with self._one_at_a_time:
            if key in self._ready:
                return
            if not await asyncio.to_thread(_on_disk, *key):
                self.solves += 1
                log.info("solving the optimal bot for %s, %d players (solve %d)", *key, self.solves)
                await self._solve_in_worker(*key)
            await asyncio.to_thread(_load, *key)  # (solves here only if the worker could not)
            self._ready.add(key)

    async def _solve_in_worker(self, edition: str, players: int) -> None:
        # A process of its own per solve (spawn, not fork: the server has threads): its memory
        # goes back to the system when it ends, and `close` can stop it at once.
        worker = multiprocessing.get_context("spawn").Process(
            target=_solve_to_disk, args=(edition, players, os.getpid()), daemon=True
        )
        worker.start()
        self._worker = worker
        try:
            await asyncio.to_thread(worker.join)
        finally:
            self._worker = None
        if worker.exitcode != 0:
            log.warning(
                "the optimal solve for %s, %d players failed in its worker", edition, players
            )

    def close(self) -> None:
        """Stop a solve in progress (the server is stopping)."""
        worker = self._worker
        if worker is not None and worker.is_alive():
            worker.terminate()
