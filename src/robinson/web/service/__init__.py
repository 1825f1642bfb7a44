"""The authority over every table (shared/DESIGN.md "The web"): what the API calls.

The service is made of parts, each a class that owns its state and is handed what it talks to;
the constructor below is the wiring diagram:

- `Tables` (tables.py): the copies held in memory, loaded on demand, dropped when unused;
- `Moves` (moves.py): the one pipeline of every change — checks, apply, store, show, publish;
- `Driver` (driver.py): bots and clocks, for the tables whose lease this process holds;
- `Presence` (presence.py): who is connected, since when a seat is away;
- `Seats` (seats.py): hand-overs, invites, the host's view;
- `Replica` (replica.py): other processes' changes into this process's copies;
- `Records` (records.py): a game's record and replay, built on the heavy `Lane` (lane.py);
- `Reactions` (reactions.py): the players' canned reactions, shown and never stored;
- `Notifier` (notifier.py): tells the seats away what happened, through the `Channel`s given
  (notices.py; Web Push and e-mail are in web/notify/).

Time and dice come in as a `Clock` and a `Dice` (clock.py). Nothing here speaks HTTP, SQL or
Redis: the API (web/api/) parses, the store (web/store/) stores, the cluster (web/cluster/)
shares.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from robinson.engine import GameRecord, State, new_game, to_text
from robinson.web.cluster import Cluster
from robinson.web.protocol.client import Move
from robinson.web.service.clock import FAIR_DICE, SYSTEM_CLOCK, Clock, Dice
from robinson.web.service.create import SeatSpec, new_table
from robinson.web.service.driver import Driver
from robinson.web.service.lane import Lane
from robinson.web.service.live import Listener, LiveTable
from robinson.web.service.moves import Moves
from robinson.web.service.notices import Channel
from robinson.web.service.notifier import Notifier
from robinson.web.service.presence import Presence
from robinson.web.service.reactions import Reactions
from robinson.web.service.records import Records
from robinson.web.service.replica import Replica
from robinson.web.service.seats import Seats
from robinson.web.service.solver import OptimalSolver
from robinson.web.service.tables import Tables
from robinson.web.service.waiting import waiting_note
from robinson.web.settings import Settings
from robinson.web.store.errors import StorageDown

if TYPE_CHECKING:
    from robinson.web.store import Store
    from robinson.web.store.writer import Writer

__all__ = ["GameService", "SeatSpec"]

log = logging.getLogger("robinson.web")

SWEEP_SECONDS = 3600  # how often abandoned tables are looked for


class GameService:
    """What the API calls. Each part owns its state; the constructor is the wiring diagram."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        cluster: Cluster | None = None,
        clock: Clock = SYSTEM_CLOCK,
        dice: Dice = FAIR_DICE,
        writer: Writer | None = None,
        channels: Sequence[Channel] = (),
    ) -> None:
        self.settings = settings = settings or Settings()
        self.store = store
        self.cluster = cluster = cluster or Cluster()
        self.clock = clock
        self.writer = writer or store.writer()
        clock.track(self.writer.busy)  # its thread's commits: a fake clock waits for them
        self.solver = OptimalSolver()
        self.tables = Tables(store, cluster, clock, settings)
        self.moves = Moves(store, self.writer, cluster, clock, dice, self.tables.game_table)
        self.driver = Driver(
            self.moves,
            self.tables,
            cluster.leases,
            store,
            clock,
            self.solver,
            settings.bot_delay,
            cluster.shared,
            settings.restart_grace,
        )
        self.moves.after_change.append(self.driver.changed)
        self.presence = Presence(self.tables, cluster, store, clock, settings.absent_after)
        self.lane = Lane()  # heavy work: replays, long records, the odds' simulations, QR codes
        self.seats = Seats(self.moves, self.tables, self.presence, store, clock, self.lane)
        self.reactions = Reactions(cluster, clock)
        self.replica = Replica(self.tables, self.moves, self.presence, self.reactions, self.adopt)
        self.records = Records(self.tables, store, self.lane)
        self.notifier = Notifier(self.tables, self.presence, cluster.leases, store, clock, channels)
        self.moves.after_change.append(self.notifier.changed)
        self._chores: list[asyncio.Task[None]] = []

    # -- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Close abandoned tables, then resume the games whose next move is a bot's. No other
        table is loaded: each loads when first asked for, so start-up does not grow with them."""
        began = self.clock.monotonic()
        replica = self.replica
        await self.cluster.bus.start(replica.on_message, replica.on_resync, replica.on_followed)
        await self.driver.start()
        await self.presence.start()
        if self.settings.expire_days > 0:
            await self.close_idle_tables()
            self._chores.append(asyncio.create_task(self._sweep()))
        resumed = await self._resume()
        log.info(
            "started: %d tables with a bot to move loaded, others load when asked (%.0f ms)",
            resumed,
            (self.clock.monotonic() - began) * 1000,
        )
        self.driver.start_clock()
        self.notifier.start()
        if self.settings.unload_after > 0:
            self._chores.append(asyncio.create_task(self.tables.unload_forever()))

    async def stop(self) -> None:
        for task in self._chores:
            task.cancel()
        await asyncio.gather(*self._chores, return_exceptions=True)
        await self.replica.stop()
        await self.notifier.stop()
        await self.driver.stop()
        self.solver.close()
        await self.presence.stop()
        await self.cluster.bus.stop()
        await self.writer.close()
        self.lane.close()

    async def adopt(self) -> None:
        """Drive every unfinished game whose next move is a bot's (here, or where nobody else
        does)."""
        await self._resume()

    async def _resume(self) -> int:
        """Only the tables whose game waits for a bot. Alone: load them and go on. Shared:
        claim each one nobody drives; only those won are loaded (the driver's lease hook), and
        those that turn out to need no driver are let go again. Returns how many."""
        resume = await asyncio.to_thread(self.store.tables_to_resume)
        for table_id in resume:
            if self.cluster.shared:
                self.cluster.leases.want(table_id)
            else:
                self.driver.wake(await self.tables.get(table_id))
        return len(resume)

    async def close_idle_tables(self) -> list[str]:
        now = self.clock.now_ms() // 1000
        before = now - int(self.settings.expire_days * 86400)
        closed = await asyncio.to_thread(self.store.close_idle, before, now)
        for table_id in closed:
            table = self.tables.held.get(table_id)
            if table is not None:
                table.closed = now
                if table.bot_task is not None:
                    table.bot_task.cancel()
        if closed:
            days = self.settings.expire_days
            log.info("closed %d tables with no move for %g days", len(closed), days)
        return closed

    async def _sweep(self) -> None:
        while True:
            await self.clock.sleep(SWEEP_SECONDS)
            try:
                await self.close_idle_tables()
            except StorageDown as e:  # the database is away: try at the next sweep
                log.warning("closing idle tables failed: %s", e)

    # -- what the API asks ---------------------------------------------------------------------

    async def create_table(
        self,
        seats: list[SeatSpec],
        ruleset: dict[str, Any],
        first: int = 0,
        language: str = "en",
        move_seconds: int | None = None,
        wait_for: Sequence[int] = (),
        vacation_days: int | None = None,
    ) -> dict[str, Any]:
        made = new_table(
            self.clock,
            self.moves.dice,
            seats,
            ruleset,
            first,
            language,
            move_seconds,
            vacation_days,
        )
        waiting = waiting_note(made.table.seats, wait_for)
        state = new_game(len(seats), made.rules, first)
        await asyncio.to_thread(self.store.create_table, made.table, made.game, to_text(state))
        table = self.tables.make(made.table, made.game)
        if waiting:  # a waiting room: the note that says for whom, and no clock running yet
            async with table.lock:
                await self.moves.change_seats(table, (), (waiting,), deadline=None)
        else:
            self.moves.changed(table)  # its bots and its clock
        self.presence.absence_later(table)  # nobody has come yet: absent after `absent_after`
        if self.cluster.shared:
            # nginx sends the table's page and sockets to the process its id hashes to, likely
            # another: unless it is used here, this copy goes at the next sweep, so that one
            # alone follows the table and publishes nothing (cluster/bus.py).
            table.last_used = -math.inf
        return made.answer

    async def table(self, table_id: str) -> LiveTable:
        return await self.tables.get(table_id)

    async def table_of_game(self, game_id: str) -> LiveTable:
        return await self.tables.of_game(game_id)

    def authenticate(self, table: LiveTable, token: object) -> int:
        return self.tables.authenticate(table, token)

    async def act(self, game_id: str, token: object, version: int, move: Move) -> int:
        """Play `move` ("roll" or an option) for the seat of `token`. Returns the new version."""
        table = await self.tables.of_game(game_id)
        seat = self.tables.authenticate(table, token)
        return await self.moves.act(table, seat, game_id, version, move)

    async def rematch(self, table_id: str, token: object) -> str:
        table = await self.tables.get(table_id)
        self.tables.authenticate(table, token)
        return await self.moves.rematch(table)

    async def record(self, game_id: str) -> GameRecord:
        return await self.records.record(game_id)

    async def position(self, game_id: str) -> tuple[GameRecord, State | None]:
        """The game's record, and its position now when it is held here (else None)."""
        return await self.records.position(game_id)

    async def record_text(self, game_id: str, client: str | None = None) -> str:
        return await self.records.record_text(game_id, client)

    async def replay(
        self,
        game_id: str,
        lang: str,
        start: int = 0,
        count: int | None = None,
        client: str | None = None,
    ) -> str:
        return await self.records.replay(game_id, lang, start, count, client)

    def subscribe(
        self,
        table: LiveTable,
        listener: Listener,
        game: str | None = None,
        version: int | None = None,
    ) -> None:
        self.presence.subscribe(table, listener, game, version)

    def unsubscribe(self, table: LiveTable, listener: Listener) -> None:
        self.presence.unsubscribe(table, listener)

    def hold(self, table: LiveTable, listener: Listener, held: set[int]) -> None:
        self.presence.hold(table, listener, held)

    def unload_idle(self) -> list[str]:
        return self.tables.unload_idle()

    async def hand_to_bot(self, table_id: str, token: object, seat: object, bot: object) -> None:
        await self.seats.hand_to_bot(table_id, token, seat, bot)

    async def give_seed(
        self, table_id: str, token: object, game: object, seat: object, seed: object
    ) -> None:
        await self.seats.give_seed(table_id, token, game, seat, seed)

    async def take_back(self, table_id: str, token: object, seat: object) -> None:
        await self.seats.take_back(table_id, token, seat)

    async def claim(self, table_id: str, invite: object) -> dict[str, Any]:
        return await self.seats.claim(table_id, invite)

    async def offer(self, table_id: str, invite: object) -> dict[str, Any]:
        return await self.seats.offer(table_id, invite)

    async def start_game(self, table_id: str, host: object) -> None:
        await self.seats.start(table_id, host)

    async def take_vacation(self, table_id: str, token: object, seat: object, days: object) -> int:
        return await self.seats.vacation(table_id, token, seat, days)

    async def invites(
        self, table_id: str, host: object, origin: str, client: str | None = None
    ) -> dict[str, Any]:
        return await self.seats.invites(table_id, host, origin, client)

    async def reinvite(
        self, table_id: str, host: object, seat: object, origin: str, client: str | None = None
    ) -> dict[str, Any]:
        return await self.seats.reinvite(table_id, host, seat, origin, client)

    async def device_link(
        self, table_id: str, token: object, seat: object, origin: str, client: str | None = None
    ) -> dict[str, Any]:
        return await self.seats.device_link(table_id, token, seat, origin, client)

    async def revoke(self, table_id: str, token: object, seat: object) -> dict[str, Any]:
        return await self.seats.revoke(table_id, token, seat)
