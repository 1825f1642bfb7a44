"""The tables this process holds in memory: loaded when first asked for, dropped when unused.

A table's copy (`LiveTable`) is made from the store's rows and followed on the bus while it is
held, so that other processes' changes reach it (replica.py). Which game belongs to which table
is remembered here too, for the moves that name a game.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from robinson.web.cluster import Cluster
from robinson.web.protocol.errors import ServiceError
from robinson.web.service.clock import Clock
from robinson.web.service.live import LiveGame, LiveTable
from robinson.web.settings import Settings
from robinson.web.store.rows import GameRow, TableRow

if TYPE_CHECKING:
    from robinson.web.store import Store

log = logging.getLogger("robinson.web")

# Called with a table just loaded from the store (presence counts its absences from then).
OnLoaded = Callable[[LiveTable], None]


class Tables:
    def __init__(self, store: Store, cluster: Cluster, clock: Clock, settings: Settings) -> None:
        self.store = store
        self.cluster = cluster
        self.clock = clock
        self.settings = settings
        self.held: dict[str, LiveTable] = {}
        self.game_table: dict[str, str] = {}  # game id -> table id, for every game seen
        self.on_loaded: list[OnLoaded] = []
        # Another part's reason to keep a table in memory (news of another process waiting).
        self.busy: list[Callable[[str], bool]] = []
        self._loading = asyncio.Lock()

    def make(self, table: TableRow, game: GameRow, replayed: LiveGame | None = None) -> LiveTable:
        """A new copy of a table from its rows (its game `replayed` from them already, or
        now), held from now on."""
        after = self.settings.absent_after
        live = LiveTable.from_rows(table, game, self.clock, after, replayed)
        self.remember(live)
        return live

    def remember(self, table: LiveTable) -> None:
        self.held[table.id] = table
        self.game_table[table.game.id] = table.id
        self.cluster.bus.follow(table.id)  # keep this copy current while it is held

    def forget(self, table_id: str) -> None:
        """Drop a table from memory: stop following it, and let its lease go (whoever needs
        it next, a move or a clock, loads it again and asks for the lease)."""
        table = self.held.pop(table_id, None)
        if table is not None:
            self.game_table.pop(table.game.id, None)
            self.cluster.bus.unfollow(table_id)
            if self.cluster.shared and self.cluster.leases.holds(table_id):
                self.cluster.leases.release(table_id)

    async def get(self, table_id: str, used: bool = True) -> LiveTable:
        """The table, loaded if it is not held. `used=False`: asked for by this process's own
        driver (a bot to play, a clock run out, a lease whose holder died), which keeps no copy
        in memory: one loaded for it goes at the next sweep unless used meanwhile, like a copy
        kept only by such moves (Moves.commit)."""
        table = self.held.get(table_id)
        if table is not None:
            if used:
                table.last_used = self.clock.monotonic()
            return table
        async with self._loading:
            table = self.held.get(table_id)
            if table is not None:
                return table
            row = await asyncio.to_thread(self.store.load_table, table_id)
            if row is None or row.current_game is None:
                raise ServiceError("unknown_game", f"there is no table {table_id!r}")
            game = await asyncio.to_thread(self.store.load_game, row.current_game)
            assert game is not None
            # The replay of its record grows with the game: on a thread, not the loop.
            table = self.make(row, game, await asyncio.to_thread(LiveGame.from_row, game))
            if not used:
                table.last_used = -math.inf
            for hook in self.on_loaded:
                hook(table)
            return table

    async def of_game(self, game_id: str) -> LiveTable:
        table_id = self.game_table.get(game_id)
        if table_id is None:
            row = await asyncio.to_thread(self.store.load_game, game_id)
            if row is None:
                raise ServiceError("unknown_game", f"there is no game {game_id!r}")
            table_id = row.table_id
        return await self.get(table_id)

    def authenticate(self, table: LiveTable, token: object) -> int:
        """The seat of `token` at an open table, else `bad_token` or `table_closed`."""
        seat = table.seat_of(token)
        if seat is None:
            raise ServiceError("bad_token", "that token is not a seat at this table")
        if table.closed is not None:  # every change goes through here: none on a closed table
            raise ServiceError(
                "table_closed",
                f"this table was closed after {self.settings.expire_days:g} days without a "
                "move; its games and records stay",
            )
        return seat

    def unload_idle(self) -> list[str]:
        """Drop from memory the tables unused for `unload_after` seconds: nobody watching,
        no move or bot under way, no other process's news waiting. Memory then follows the
        tables in play, not every table ever opened (the database keeps them all)."""
        cutoff = self.clock.monotonic() - self.settings.unload_after
        idle = [
            t.id
            for t in self.held.values()
            if t.last_used < cutoff
            and not t.listeners
            and not t.lock.locked()
            and (t.bot_task is None or t.bot_task.done())
            and not any(busy(t.id) for busy in self.busy)
        ]
        for table_id in idle:
            self.forget(table_id)
        if idle:  # the older games of those tables, too
            gone = set(idle)
            self.game_table = {g: t for g, t in self.game_table.items() if t not in gone}
            log.info("unloaded %d idle tables (%d stay in memory)", len(idle), len(self.held))
        return idle

    async def unload_forever(self) -> None:
        while True:
            await self.clock.sleep(min(60.0, self.settings.unload_after / 2))
            self.unload_idle()
