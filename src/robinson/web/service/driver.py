"""Who acts for a table unasked: its bots and its clock, both driven by the one process that
holds the table's driver lease (cluster/leases.py; alone, a process holds them all).

Every move made here goes through the one pipeline (moves.py `commit`). What a table needs is
`needs_driver`: a bot seat or a clock in an unfinished game. The holder plays the bots
(`drive_bots`) and the timeouts (`time_out`); another process that finds a table's deadline
passed only asks for the lease, so a timeout is made by the holder, or by whoever takes a dead
holder's lease over (within the lease's TTL plus a sweep, ~3.5 s). The store's (game, seq) key
still lets only one write of a step in, should two ever try.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from robinson.bots import make_bot
from robinson.engine import Action, Phase
from robinson.web.cluster.leases import Leases
from robinson.web.protocol.errors import ServiceError
from robinson.web.service.clock import Clock
from robinson.web.service.live import TIMEOUT_LIMIT, LiveTable
from robinson.web.service.moves import Moves
from robinson.web.service.solver import OptimalSolver
from robinson.web.service.tables import Tables
from robinson.web.store.rows import Note, SeatChange

if TYPE_CHECKING:
    from robinson.web.store import Store

log = logging.getLogger("robinson.web")

CLOCK_POLL = 30.0  # seconds: the clock looks at the store at least this often (other processes)
LEASE_WAIT = 0.5  # seconds the clock looks again at a due table another process drives
TIMEOUT_BOT = "eager"  # plays a timed-out move and a seat that timed out TIMEOUT_LIMIT times
BOT_RETRY_PAUSE = 0.5  # seconds a bot or the clock waits after the database refused a move
# Seconds a process that does not hold a dead driver's table in memory lets the processes that
# do (its viewers are there) claim its lease first.
ORPHAN_GRACE = 1.0


class Driver:
    def __init__(
        self,
        moves: Moves,
        tables: Tables,
        leases: Leases,
        store: Store,
        clock: Clock,
        solver: OptimalSolver,
        bot_delay: float,
        shared: bool,
        restart_grace: float = 0.0,
    ) -> None:
        self.moves = moves
        self.tables = tables
        self.leases = leases
        self.store = store
        self.clock = clock
        self.solver = solver
        self.bot_delay = bot_delay
        self.shared = shared  # other processes may drive tables: let unneeded leases go
        self.restart_grace = restart_grace  # seconds after start for a move due meanwhile
        self._started = 0  # Unix ms the clock started here (deadlines set before: a restart)
        self.chores: set[asyncio.Task[None]] = set()
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_wake = asyncio.Event()
        self._clock_next: int | None = None  # Unix ms the clock loop plans to wake up
        self._orphans_waiting: set[str] = set()  # dead drivers' tables we let others claim first

    async def start(self) -> None:
        await self.leases.start(self._lease_gained, self._lease_lost, self._orphaned)

    def start_clock(self) -> None:
        """Play the timeouts from now on (after start-up has resumed the tables)."""
        self._started = self.clock.now_ms()
        self._clock_task = asyncio.create_task(self._run_clocks())

    async def stop(self) -> None:
        tasks = [t.bot_task for t in self.tables.held.values() if t.bot_task]
        if self._clock_task is not None:
            tasks.append(self._clock_task)
        tasks += self.chores
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.leases.stop()

    def changed(self, table: LiveTable) -> None:
        """After any change of a table: its lease and bots (`wake`), its clock."""
        self.wake(table)
        self.clock_changed(table.game.deadline)

    # -- the lease -----------------------------------------------------------------------------

    def needs_driver(self, table: LiveTable) -> bool:
        """Whether somebody must act for the table unasked: an unfinished game of an open table
        with a bot seat (to play) or a clock (to play a timeout)."""
        if table.closed is not None or table.game.state.over:
            return False
        return table.move_seconds is not None or any(s.kind == "bot" for s in table.seats)

    def wake(self, table: LiveTable) -> None:
        """Hold the lease if the table needs a driver (and let it go if not), and start its
        bots if one is to move."""
        if not self.leases.holds(table.id):
            if self.needs_driver(table):
                self.leases.want(table.id)  # `_lease_gained` wakes us if we get it
            return
        if not self.needs_driver(table) and self.shared:
            self.leases.release(table.id)  # let the lease go: nothing to drive here
            return
        if table.to_move_is_bot() and (table.bot_task is None or table.bot_task.done()):
            table.bot_task = asyncio.create_task(self.drive_bots(table))

    def _lease_gained(self, table_id: str) -> None:
        self._chore(self._wake_table(table_id))
        self._clock_wake.set()  # a deadline of this table may have passed while nobody drove it

    def _lease_lost(self, table_id: str) -> None:
        table = self.tables.held.get(table_id)
        if table is not None and table.bot_task is not None:
            table.bot_task.cancel()

    def _orphaned(self, table_id: str) -> None:
        """Its driver's lease ran out (the process died): take it on if it still needs one.
        A process that holds the table (its viewers are there) claims it at once; the others
        only after ORPHAN_GRACE, and load it only if they got the lease: so the table goes on
        where it is watched, and a dead process's tables are not loaded by every process."""
        if table_id in self.tables.held:
            self._chore(self._wake_table(table_id, orphan=True))
        elif table_id not in self._orphans_waiting:
            self._orphans_waiting.add(table_id)
            self._chore(self._claim_after_grace(table_id))

    async def _claim_after_grace(self, table_id: str) -> None:
        try:
            await self.clock.sleep(ORPHAN_GRACE)
        finally:
            self._orphans_waiting.discard(table_id)
        if table_id in self.tables.held:  # loaded meanwhile (a viewer came): as a holder
            self._chore(self._wake_table(table_id, orphan=True))
        else:  # `_lease_gained` loads it if the lease is ours (an orphan that needs no
            self.leases.want(table_id)  # driver is let go there)

    async def _wake_table(self, table_id: str, orphan: bool = False) -> None:
        try:
            table = await self.tables.get(table_id, used=False)
        except ServiceError:
            self.leases.release(table_id)  # no such table (any more): forget it
            return
        if orphan and not self.needs_driver(table):
            self.leases.release(table_id)
        else:
            self.wake(table)

    def _chore(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    # -- bots ----------------------------------------------------------------------------------

    async def drive_bots(self, table: LiveTable) -> None:
        pause = self.bot_delay
        try:
            while table.to_move_is_bot() and self.leases.holds(table.id):
                await self.clock.sleep(pause)
                pause = self.bot_delay
                async with table.lock:
                    if not table.to_move_is_bot() or not self.leases.holds(table.id):
                        return
                    game = table.game
                    seat = game.state.to_move
                    assert seat is not None
                    if game.state.phase is Phase.ROLL:
                        try:
                            action: Action = await self.moves.roll(game)
                        except ServiceError:  # the dice could not be fixed: storage failed
                            pause = max(self.bot_delay, BOT_RETRY_PAUSE)
                            continue
                    else:
                        # The optimal bot's solve runs in a worker process (solver.py); the
                        # choice itself is a lookup, off the event loop all the same.
                        await self.solver.prepare(table.seats[seat].bot, game.state)
                        bot = table.bot_for(seat)
                        action = await asyncio.to_thread(bot.choose, game.state)
                    try:
                        await self.moves.commit(table, action, seat, used=False)
                    except ServiceError as e:
                        if e.code not in ("storage_unavailable", "stale_version"):
                            raise
                        # The database failed (the move was not made), or another process
                        # moved first (the game was reloaded): look again after a pause.
                        pause = max(self.bot_delay, BOT_RETRY_PAUSE)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot task must never die silently
            log.exception("bot driver of table %s failed", table.id)

    # -- clocks --------------------------------------------------------------------------------

    def clock_changed(self, deadline: int | None) -> None:
        """A new deadline: wake the clock loop if it would sleep past it."""
        if deadline is not None and (self._clock_next is None or deadline < self._clock_next):
            self._clock_wake.set()

    async def _run_clocks(self) -> None:
        """Make the move of every seat whose time ran out, for the tables this process drives.
        The deadlines live in the store, so they survive a restart; a due table driven by
        nobody is claimed here (and played once the lease is ours)."""
        while True:
            self._clock_wake.clear()
            pause = CLOCK_POLL
            try:
                elsewhere = failed = False
                now = self.clock.now_ms()
                for game_id, table_id in await asyncio.to_thread(self.store.due_games, now):
                    if self.leases.holds(table_id):
                        try:
                            await self.time_out(table_id, game_id)
                        except asyncio.CancelledError:
                            raise
                        except Exception:  # one game's failure must not stop the others'
                            log.exception(
                                "the clock of game %s (table %s) failed", game_id, table_id
                            )
                            failed = True
                    else:
                        self.leases.want(table_id)  # its driver plays it; if none, we will
                        elsewhere = True
                upcoming = await asyncio.to_thread(self.store.next_deadline)
                if upcoming is not None:
                    wait = (upcoming - self.clock.now_ms()) / 1000 + 0.005
                    pause = min(CLOCK_POLL, max(0.0, wait))
                if elsewhere:  # still due until its driver moves: do not spin on it
                    pause = max(pause, LEASE_WAIT)
                if failed:  # still due: look again after a pause, not at once
                    pause = max(pause, 1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # the clock must go on: a database outage is retried
                log.exception("the clock failed; retrying")
                pause = max(BOT_RETRY_PAUSE, 1.0)
            self._clock_next = self.clock.now_ms() + int(pause * 1000)
            await self.clock.wait(self._clock_wake, pause)

    async def time_out(self, table_id: str, game_id: str) -> None:
        """The seat to move ran out of time: the eager bot makes its move, narrated; after
        TIMEOUT_LIMIT in a row the seat is the bot's until its owner comes back."""
        table = await self.tables.get(table_id, used=False)
        async with table.lock:
            game = table.game
            st = game.state
            if game.id != game_id or st.over or game.deadline is None or st.to_move is None:
                return
            if game.deadline > self.clock.now_ms():
                return  # someone moved in time (the deadline is a new one)
            seat = st.to_move
            row = table.seats[seat]
            if row.kind == "bot" or table.closed is not None:  # no clock for bots, or closed
                change = SeatChange(table.id, game.id, self.clock.now_ms(), deadline=None)
                await asyncio.to_thread(self.store.change_seats, change)
                game.deadline = None
                return
            if await self._grace(table, seat, game.deadline):
                return
            try:
                roll = await self.moves.roll(game) if st.phase is Phase.ROLL else None
            except ServiceError as e:  # the dice could not be fixed: storage failed
                log.warning("timeout move of game %s not made: %s", game.id, e.message)
                return
            action: Action = roll or make_bot(TIMEOUT_BOT, seat).choose(st)
            count = row.timeouts + 1
            new_row = replace(row, timeouts=count)
            notes = [Note(game.version, "timeout", {"seat": seat})]
            if count >= TIMEOUT_LIMIT:
                new_row = replace(new_row, kind="bot", bot=TIMEOUT_BOT)
                notes.append(Note(game.version, "timeout_bot", {"seat": seat, "count": count}))
            try:
                await self.moves.commit(table, action, seat, tuple(notes), (new_row,), used=False)
            except ServiceError as e:  # the database failed, or another process moved first
                log.warning("timeout move of game %s not made: %s", game.id, e.message)

    async def _grace(self, table: LiveTable, seat: int, deadline: int) -> bool:
        """A deadline set before this process started (the server was down, or restarting)
        that falls within `restart_grace` of the start: nobody could reconnect in time, so it
        moves to the start plus the grace, narrated; no timeout is played. Lock held."""
        start, now = self._started, self.clock.now_ms()
        until = start + int(self.restart_grace * 1000)
        set_before = deadline - (table.move_seconds or 0) * 1000 < start
        if not set_before or deadline >= until or until <= now:
            return False
        data = {"seat": seat, "seconds": (until - now + 999) // 1000}
        note = Note(table.game.version, "clock_restart", data)
        await self.moves.change_seats(table, (), (note,), deadline=until)
        return True
