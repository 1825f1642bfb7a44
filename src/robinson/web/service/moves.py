"""The one pipeline every change of a game goes through, and how a copy takes stored steps in.

    authenticate (tables.py) -> the game is not over -> it is that seat's turn -> the client's
    version is current -> the move is legal -> apply -> store the `Step` (committed) -> take
    it into this copy and tell its viewers -> the hooks (the driver) -> publish it

A per-table asyncio lock serializes changes, so of two clients sending the same turn at once
the first is applied and the second sees `stale_version`; the store's (game, seq) key guards
the same thing across processes. Seat changes between moves (`change_seats`) and rematches
take the same road: stored first, then shown, then published. A step stored by another process
arrives as the same `Step` (replica.py) and enters through the same `advance`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from robinson.engine import (
    Action,
    Choose,
    Event,
    Phase,
    Roll,
    State,
    action_from_json,
    apply,
    expected,
    legal_actions,
    new_game,
    to_text,
)
from robinson.fairdice import SCHEME_V2
from robinson.web.cluster import Cluster
from robinson.web.cluster.messages import Moved, NewGame, SeatsChanged, SeedGiven
from robinson.web.protocol.client import Move
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import views
from robinson.web.service.clock import Clock, Dice
from robinson.web.service.create import new_game_row
from robinson.web.service.live import TIMEOUT_LIMIT, LiveGame, LiveTable, results_of
from robinson.web.store.errors import Conflict, StorageDown
from robinson.web.store.rows import KEEP, Keep, Note, SeatChange, SeatRow, Step

if TYPE_CHECKING:
    from robinson.web.store import Store
    from robinson.web.store.writer import Writer

log = logging.getLogger("robinson.web")

# Called after any change of a table's copy (a step, seats, a new game): the driver's hook.
OnChange = Callable[[LiveTable], None]


class Moves:
    def __init__(
        self,
        store: Store,
        writer: Writer,
        cluster: Cluster,
        clock: Clock,
        dice: Dice,
        game_table: dict[str, str],
    ) -> None:
        self.store = store
        self.writer = writer
        self.cluster = cluster
        self.clock = clock
        self.dice = dice
        self.game_table = game_table  # Tables' map: a rematch's game is added to it
        self.after_change: list[OnChange] = []

    # -- a player's move -----------------------------------------------------------------------

    async def act(self, table: LiveTable, seat: int, game_id: str, version: int, move: Move) -> int:
        """Play `move` for `seat` (authenticated). Returns the new version."""
        async with table.lock:
            game = table.game
            if game.id != game_id or game.state.over:
                raise ServiceError("game_over", "this game is over")
            if awaited := table.awaited():
                who = ", ".join(table.names[s] for s in awaited)
                raise ServiceError(
                    "not_started",
                    f"the game starts when the invited players have taken their seats (still "
                    f"waiting for {who}) or when the host starts it",
                )
            if table.seats[seat].kind == "bot" and table.seats[seat].timeouts >= TIMEOUT_LIMIT:
                # The clock gave this seat to a bot; its owner acting again takes it back.
                await self.seat_to_human(table, seat, "returned")
            to_move = game.state.to_move
            if to_move != seat and version != game.version:
                # A repeated or late click: the turn passed on since the client saw the game.
                # "stale" says what to do about it (take the new state) better than "not yours".
                raise _stale(game.version, version)
            if to_move != seat:
                raise ServiceError(
                    "not_your_turn", f"it is {table.names[to_move or 0]}'s turn (seat {to_move})"
                )
            if table.seats[seat].kind == "bot":
                raise ServiceError("seat_is_bot", "a bot plays this seat now; take it back first")
            if version != game.version:
                raise _stale(game.version, version)
            action = await self.action_for(game, move)
            row = table.seats[seat]
            seats = (replace(row, timeouts=0),) if row.timeouts else ()
            await self.commit(table, action, seat, seats=seats)
            return game.version

    async def roll(self, game: LiveGame) -> Roll:
        """The game's next die, from its committed seed (and the seats' seeds: live.py)."""
        await self.final_seeds(game)
        return Roll(self.dice.face(game.dice_key(), game.rolls))

    async def final_seeds(self, game: LiveGame) -> None:
        """Second scheme: fix the seats' seeds in the store before the first roll (none is
        taken after) and roll from exactly those, whichever process gave them."""
        if game.row.scheme != SCHEME_V2 or game.seeds_final:
            return
        try:
            seeds = await asyncio.to_thread(self.store.fix_seeds, game.id, self.clock.now_ms())
        except StorageDown as e:
            log.warning("fixing the dice seeds of game %s failed: %s", game.id, e)
            raise ServiceError(
                "storage_unavailable", "the database could not fix the dice; try again"
            ) from None
        game.row.seeds, game.seeds_final = seeds, True

    async def action_for(self, game: LiveGame, move: Move) -> Action:
        if move == "roll":
            if game.state.phase is not Phase.ROLL:
                raise ServiceError("illegal_action", f"expected {expected(game.state)}")
            return await self.roll(game)
        action = Choose(move)
        if action not in legal_actions(game.state):
            raise ServiceError("illegal_action", f"expected {expected(game.state)}")
        return action

    # -- storing a step ------------------------------------------------------------------------

    def deadline_after(
        self, table: LiveTable, state: State, seats: Sequence[SeatRow]
    ) -> int | None:
        """When the next move runs out of time: a clock, an unfinished game, a human to move
        (counting the seats this change makes)."""
        to_move = state.to_move
        if table.move_seconds is None or to_move is None or state.over:
            return None
        kind = next((r.kind for r in seats if r.seat == to_move), table.seats[to_move].kind)
        if kind != "human":
            return None
        # a seat on vacation (vacation.py): its clock starts when the vacation ends
        start = max(self.clock.now_ms(), table.vacation_until(to_move))
        return start + table.move_seconds * 1000

    async def commit(
        self,
        table: LiveTable,
        action: Action,
        seat: int,
        notes: tuple[Note, ...] = (),
        seats: tuple[SeatRow, ...] = (),
        used: bool = True,
    ) -> None:
        """Apply, make durable, then tell everyone. Called with the table's lock held. `notes`
        (a timeout) and the new rows of `seats` are stored with the move. `used`: a move asked
        for here (a player's), not one this process made of its own (a bot's, a timeout)."""
        game = table.game
        state, events = apply(game.state, action)
        step = Step(
            table.id,
            game.id,
            game.version,
            action,
            seat,
            self.clock.now_ms(),
            self.deadline_after(table, state, seats),
            notes,
            seats,
        )
        try:
            await self.writer.append(step, to_text(state), state.over, state.to_move)
        except StorageDown as e:
            # Not accepted: nobody is told of it. Should the commit have landed after all, the
            # next move meets it as a Conflict below and reloads.
            log.warning("storing a move of game %s failed: %s", game.id, e)
            raise ServiceError(
                "storage_unavailable", "the database could not store the move; try again"
            ) from None
        except Conflict:
            # Another process wrote this step: our copy is old. Catch up (telling the viewers
            # here of the steps they missed) and refuse the move.
            await self.catch_up(table)
            raise ServiceError(
                "stale_version", "the game moved on; here is the new state"
            ) from None
        self.advance(table, step, state, events)
        if used:
            # Used here. A step another process made (taken in by `take_step`) is not, nor a
            # move made here of this process's own accord (its driver's: a bot's, a timeout):
            # a copy kept only by those goes at the next sweep (its lease with it), and the
            # process its players are on alone follows the table, and drives it.
            table.last_used = self.clock.monotonic()
        if self.cluster.shared:  # alone, nobody else to tell: no bus message built per move
            self.cluster.bus.publish(table.id, Moved.of(step))

    def advance(self, table: LiveTable, step: Step, state: State, events: Sequence[Event]) -> None:
        """Take a stored step into this copy of the game and tell its viewers here (with the
        next move's deadline, the seat rows and the notes stored with it)."""
        game = table.game
        game.actions.append(step.action)
        game.state = state
        game.deadline = step.deadline
        game.notes.extend(step.notes)
        table.put_seats(step.seats)
        if state.over:
            game.final_events = list(events)
            table.results[game.id] = state.winner  # the series' score
        if isinstance(step.action, Roll):
            game.rolls += 1
        views.tell_update(table, step.action, step.seat, events, step.notes)
        self.changed(table)

    def changed(self, table: LiveTable) -> None:
        for hook in self.after_change:
            hook(table)

    # -- seats between moves -------------------------------------------------------------------

    async def change_seats(
        self,
        table: LiveTable,
        seats: tuple[SeatRow, ...],
        notes: tuple[Note, ...],
        deadline: int | Keep | None = KEEP,
    ) -> None:
        """Store seat changes between moves with their notes and the new deadline (the seat to
        move may have become a bot or a human; or `deadline`, given), then tell everyone. Lock
        held."""
        game = table.game
        state = game.state
        change = SeatChange(table.id, game.id, self.clock.now_ms(), seats, notes, deadline)
        if deadline is KEEP and any(
            r.seat == state.to_move and r.kind != table.seats[r.seat].kind for r in seats
        ):
            change = replace(change, deadline=self.deadline_after(table, state, seats))
        try:
            await asyncio.to_thread(self.store.change_seats, change)
        except StorageDown as e:
            log.warning("storing a seat change of table %s failed: %s", table.id, e)
            raise ServiceError(
                "storage_unavailable", "the database could not store the change; try again"
            ) from None
        self.take_seats(table, change)
        self.cluster.bus.publish(table.id, SeatsChanged.of(change))

    def take_seats(self, table: LiveTable, change: SeatChange) -> None:
        """A stored seat change into this copy (made here or by another process)."""
        table.put_seats(change.seats)
        if change.game == table.game.id:
            table.game.notes.extend(change.notes)
            if change.deadline is not KEEP:
                table.game.deadline = change.deadline
        views.tell_state(table, change.notes)
        self.changed(table)

    async def seat_to_human(self, table: LiveTable, seat: int, kind: str) -> None:
        """The seat's owner plays again (lock held): `kind` is the note, "back" or "returned"."""
        row = replace(table.seats[seat], kind="human", bot=None, timeouts=0)
        note = Note(table.game.version, kind, {"seat": seat})
        await self.change_seats(table, (row,), (note,))

    # -- the seats' seeds for the dice (docs/fair-dice.md) --------------------------------------

    async def give_seed(self, table: LiveTable, game_id: str, seat: int, seed: bytes) -> None:
        """Store a seat's seed for the game's dice, then show it (lock held). Refused once the
        game has a move (the first roll fixes the dice) or when the seat gave one already."""
        game = table.game
        fixed = ServiceError(
            "seeds_fixed",
            "the dice are fixed: a seat's seed counts only before the first roll, once",
        )
        if game.id != game_id or game.row.scheme != SCHEME_V2:
            raise fixed
        if game.version > 0 or game.seeds_final or seat in game.row.seeds:
            raise fixed
        try:
            stored = await asyncio.to_thread(
                self.store.add_seed, game.id, seat, seed.hex(), self.clock.now_ms()
            )
        except StorageDown as e:
            log.warning("storing a dice seed of game %s failed: %s", game.id, e)
            raise ServiceError(
                "storage_unavailable", "the database could not store the seed; try again"
            ) from None
        if not stored:  # another process stored a move or this seat's seed first
            await self.catch_up(table)
            raise fixed
        self.take_seed(table, game.id, seat, seed.hex())
        self.cluster.bus.publish(table.id, SeedGiven(game=game.id, seat=seat, seed=seed.hex()))

    def take_seed(self, table: LiveTable, game_id: str, seat: int, seed_hex: str) -> None:
        """A stored seat's seed into this copy (given here or through another process)."""
        game = table.game
        if game.id == game_id and not game.seeds_final:
            game.row.seeds[seat] = seed_hex
            views.tell_state(table, ())
            self.changed(table)

    # -- a new game ----------------------------------------------------------------------------

    async def rematch(self, table: LiveTable) -> str:
        """A new game with the same seats; the next seat starts. Returns the new game's id."""
        async with table.lock:
            old = table.game
            if not old.state.over:
                raise ServiceError("not_over", "a rematch starts when the game is over")
            first = (old.row.first + 1) % len(table.seats)
            row = new_game_row(
                self.clock,
                self.dice,
                table.id,
                old.row.number + 1,
                old.ruleset,
                table.names,
                first,
                table.move_seconds,
                table.seats[first].kind == "human",
            )
            summary = to_text(new_game(len(table.seats), old.ruleset, first))
            await asyncio.to_thread(self.store.add_game, row, summary)
            table.game = LiveGame.from_row(row)
            self.game_table[row.id] = table.id
            views.tell_snapshot(table)
            self.cluster.bus.publish(table.id, NewGame(game=row.id))
            self.changed(table)
            return row.id

    # -- steps stored elsewhere ----------------------------------------------------------------

    def take_step(self, table: LiveTable, step: Step) -> None:
        """Another process stored `step` (lock held): apply it here unless this copy has it."""
        game = table.game
        if step.game == game.id and step.seq == game.version:
            state, events = apply(game.state, step.action)
            self.advance(table, step, state, events)

    async def catch_up(self, table: LiveTable) -> None:
        """Read the game from the database and take in the steps this copy lacks, telling the
        viewers here of each, in order (as if the messages had come)."""
        game = table.game
        row = await asyncio.to_thread(self.store.load_game, game.id)
        assert row is not None
        if len(row.actions) < game.version:  # cannot be (the log only grows): start afresh
            await self.reload(table)
            return
        missed = row.actions[game.version :]
        if missed:  # seat changes and notes went with them: take the stored ones
            table_row = await asyncio.to_thread(self.store.load_table, table.id)
            if table_row is not None:
                table.seats = list(table_row.seats)
        for stored in missed:
            action = action_from_json(stored)
            seat = game.state.to_move
            assert seat is not None
            state, events = apply(game.state, action)
            step = Step(table.id, game.id, game.version, action, seat, 0, row.deadline)
            self.advance(table, step, state, events)
        game.deadline, game.notes = row.deadline, list(row.notes)
        game.row.seeds = dict(row.seeds)  # the seats' seeds (given through other processes)
        game.seeds_final = game.seeds_final or game.rolls > 0

    async def reload(self, table: LiveTable) -> None:
        """Read the table and its current game afresh; every viewer here gets a snapshot."""
        row = await asyncio.to_thread(self.store.load_table, table.id)
        if row is None or row.current_game is None:
            return
        if row.current_game != table.game.id:
            game_row = await asyncio.to_thread(self.store.load_game, row.current_game)
            assert game_row is not None
            table.game = LiveGame.from_row(game_row)
            self.game_table[game_row.id] = table.id
        else:
            await self.catch_up(table)
        table.seats = list(row.seats)
        table.results = results_of(row.finished)  # games that ended elsewhere count too
        views.tell_snapshot(table)
        self.changed(table)


def _stale(now: int, made_at: int) -> ServiceError:
    """A move made at an earlier version (built only when refused: most moves are not)."""
    return ServiceError(
        "stale_version", f"the game is at version {now}, the move was made at {made_at}"
    )
