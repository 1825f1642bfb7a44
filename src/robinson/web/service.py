"""The authoritative game service: every move goes through one pipeline (DESIGN.md "The web").

    find the game -> authenticate the seat's token -> the game is not over -> it is that seat's
    turn -> the client's version is current -> the move is legal -> apply -> append to the store
    (committed) -> broadcast

A per-table asyncio lock serializes moves, so of two clients sending the same turn at once the
first is applied and the second sees `stale_version`; the store's (game, seq) key guards the same
thing across processes. Bot seats are played by a task per table through the same steps.

Several processes may serve one table (web/cluster.py, docs/deploy.md). The hooks are few: a
committed change is published on the table's channel after the local broadcast (`_publish`); a
message from another process is applied to this process's copy in order (`_on_bus`), a copy
that misses a step catching up from the database (`_catch_up`); and only the holder of the
table's driver lease plays its bots (`_wake_bots`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import DBAPIError

from robinson.bots import BOT_NAMES
from robinson.engine import (
    OPTIONS,
    Action,
    Choose,
    Event,
    GameRecord,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    State,
    apply,
    expected,
    legal_actions,
    new_game,
    to_text,
)
from robinson.web import dice, names, texts
from robinson.web import seats as seating
from robinson.web.cluster import Cluster
from robinson.web.driving import Driving
from robinson.web.errors import ServiceError
from robinson.web.limits import MAX_SEATS, MIN_SEATS, MOVE_SECONDS
from robinson.web.live import (
    TIMEOUT_LIMIT,
    LiveGame,
    LiveTable,
    now_ms,
    token_hash,
)
from robinson.web.parts import BusHandler
from robinson.web.replication import Replication
from robinson.web.seating import Seating, _apply_seat_changes
from robinson.web.solver import OptimalSolver
from robinson.web.store import Conflict, GameRow, Note, SeatRow, Store, TableRow

log = logging.getLogger("robinson.web")

MOVES = ("roll", *OPTIONS)  # the die, then the engine's decision options
SWEEP_SECONDS = 3600  # how often abandoned tables are looked for
UNLOAD_AFTER = 600.0  # seconds a table nobody uses stays in memory (it loads again when asked)


def _new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass
class SeatSpec:
    name: str
    kind: str = "human"
    bot: str | None = None


class GameService(Seating, Driving, Replication):
    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.8,
        cluster: Cluster | None = None,
        absent_after: float = 60.0,
        expire_days: float = 30,
        unload_after: float = UNLOAD_AFTER,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.cluster = cluster or Cluster()
        self.absent_after = absent_after
        self.expire_days = expire_days  # 0: tables are never closed
        self.unload_after = unload_after  # seconds unused before a table leaves memory; 0: never
        self._tables: dict[str, LiveTable] = {}
        self._game_table: dict[str, str] = {}
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.solver = OptimalSolver()
        # Messages of other processes waiting for their table's lock, and who applies them.
        self._inbox: dict[str, deque[dict[str, Any]]] = {}
        self._draining: dict[str, asyncio.Task[None]] = {}
        self._chores: set[asyncio.Task[Any]] = set()
        # More kinds of bus message (beyond move, seats, game) may be handled by other modules.
        self.bus_handlers: dict[str, BusHandler] = {"presence": self._presence_elsewhere}
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_wake = asyncio.Event()
        self._clock_next: int | None = None  # Unix ms the clock loop plans to wake up

    # -- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Close abandoned tables, then resume the games whose next move is a bot's. No other
        table is loaded: each loads when first asked for, so start-up does not grow with them."""
        began = time.perf_counter()
        cluster = self.cluster
        await cluster.bus.start(self._on_bus, self._resync)
        await cluster.leases.start(self._lease_gained, self._lease_lost, self._orphaned)
        await cluster.presence.start()
        if self.expire_days > 0:
            await self.close_idle_tables()
            self._sweeper = asyncio.create_task(self._sweep())
        resumed = await self._resume()
        log.info(
            "started: %d tables with a bot to move loaded, others load when asked (%.0f ms)",
            resumed,
            (time.perf_counter() - began) * 1000,
        )
        self._clock_task = asyncio.create_task(self._run_clocks())
        if cluster.shared:
            self._chores.add(asyncio.create_task(self._sweep_presence()))
        if self.unload_after > 0:
            self._chores.add(asyncio.create_task(self._unload_idle()))

    async def adopt(self) -> None:
        """Drive every unfinished game whose next move is a bot's (here, or where nobody else
        does)."""
        await self._resume()

    async def _resume(self) -> int:
        """Only the tables whose game waits for a bot. Alone: load them and go on. Shared:
        claim each one nobody drives; only those won are loaded (`_lease_gained`), and those
        that turn out to need no driver are let go again (`_wake_bots`). Returns how many."""
        resume = await asyncio.to_thread(self.store.tables_to_resume)
        for table_id in resume:
            if self.cluster.shared:
                self.cluster.leases.want(table_id)
            else:
                self._wake_bots(await self.table(table_id))
        return len(resume)

    async def close_idle_tables(self) -> list[str]:
        now = int(time.time())
        before = now - int(self.expire_days * 86400)
        closed = await asyncio.to_thread(self.store.close_idle, before, now)
        for table_id in closed:
            table = self._tables.get(table_id)
            if table is not None:
                table.closed = now
                if table.bot_task is not None:
                    table.bot_task.cancel()
        if closed:
            log.info("closed %d tables with no move for %g days", len(closed), self.expire_days)
        return closed

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.close_idle_tables()
            except DBAPIError as e:  # the database is away: try at the next sweep
                log.warning("closing idle tables failed: %s", e.orig)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        tasks = [t.bot_task for t in self._tables.values() if t.bot_task and not t.bot_task.done()]
        if self._clock_task is not None:
            tasks.append(self._clock_task)
        tasks += [*self._draining.values(), *self._chores]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.solver.close()
        await self.cluster.leases.stop()
        await self.cluster.presence.stop()
        await self.cluster.bus.stop()

    # -- tables --------------------------------------------------------------------------------

    async def create_table(
        self,
        seats: list[SeatSpec],
        ruleset: dict[str, Any],
        first: int = 0,
        language: str = "en",
        move_seconds: int | None = None,
    ) -> dict[str, Any]:
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise ServiceError(
                "bad_request", f"a table has {MIN_SEATS} to {MAX_SEATS} seats, got {len(seats)}"
            )
        try:
            rules = Ruleset.from_json(ruleset)
        except RobinsonError as e:
            raise ServiceError("bad_request", str(e)) from None
        if not 0 <= first < len(seats):
            raise ServiceError("bad_request", f"first must be a seat from 0 to {len(seats) - 1}")
        try:
            texts.check_language(language)
        except ValueError as e:
            raise ServiceError("bad_request", str(e)) from None
        low, high = MOVE_SECONDS
        if move_seconds is not None and (
            type(move_seconds) is not int or not low <= move_seconds <= high
        ):
            raise ServiceError(
                "bad_request", f"move_seconds is null (no clock) or {low} to {high} seconds"
            )
        table_id = _new_id()
        host = secrets.token_urlsafe(24)
        rows, tokens, invites = [], [], []
        for i, spec in enumerate(seats):
            name = names.clean(i, spec.name)
            if spec.kind not in ("human", "bot"):
                raise ServiceError("bad_request", f"seat {i}: kind is 'human' or 'bot'")
            bot = spec.bot if spec.kind == "bot" else None
            if spec.kind == "bot" and bot not in BOT_NAMES:
                raise ServiceError(
                    "bad_request", f"seat {i}: bot must be one of {', '.join(BOT_NAMES)}"
                )
            token = secrets.token_urlsafe(24)
            tokens.append(token)
            row = SeatRow(i, name, spec.kind, bot, token_hash(token))
            invite = None
            if spec.kind == "human":  # a bot's seat is taken over with its token, as before
                invite = seating.invite_code(host, table_id, i, row.token_sha256)
                row.invite_sha256 = token_hash(invite)
            invites.append(invite)
            rows.append(row)
        names.check_distinct([r.name for r in rows])
        table_row = TableRow(
            table_id, language, int(time.time()), None, rows, token_hash(host), move_seconds
        )
        game_row = self._new_game_row(table_row.id, 1, rules, [s.name for s in rows], first)
        if move_seconds is not None and rows[first].kind == "human":
            game_row.deadline = now_ms() + move_seconds * 1000
        summary = to_text(new_game(len(rows), rules, first))
        await asyncio.to_thread(self.store.create_table, table_row, game_row, summary)
        table = LiveTable.from_rows(table_row, game_row, self.absent_after)
        self._remember(table)
        self._wake_bots(table)
        self._clock_changed(game_row.deadline)
        self._absence_later(table)  # nobody has come yet: absent after `absent_after`
        return {
            "table": table.id,
            "game": table.game.id,
            "spectator": f"/t/{table.id}",
            "host": host,
            "host_link": f"/t/{table.id}#{seating.HOST_PREFIX}{host}",
            "move_seconds": move_seconds,
            "seats": [
                {
                    "seat": r.seat,
                    "name": r.name,
                    "kind": r.kind,
                    "bot": r.bot,
                    "token": tok,
                    "link": f"/t/{table.id}#{tok}",
                    "invite": None if code is None else seating.invite_link(table.id, code),
                }
                for r, tok, code in zip(rows, tokens, invites, strict=True)
            ],
        }

    def _new_game_row(
        self, table_id: str, number: int, rules: Ruleset, names: list[str], first: int
    ) -> GameRow:
        seed = dice.new_seed()
        return GameRow(
            id=_new_id(),
            table_id=table_id,
            number=number,
            ruleset=rules.to_json(),
            players=names,
            first=first,
            seed=seed.hex(),
            seed_sha256=dice.commitment(seed),
            created=int(time.time()),
            actions=[],
        )

    def _remember(self, table: LiveTable) -> None:
        self._tables[table.id] = table
        self._game_table[table.game.id] = table.id
        self.cluster.bus.follow(table.id)  # keep this copy current while it is held

    def _forget(self, table_id: str) -> None:
        """Drop a table from memory: stop following it, and let its lease go (whoever needs
        it next, a move or a clock, loads it again and asks for the lease)."""
        table = self._tables.pop(table_id, None)
        if table is not None:
            self._game_table.pop(table.game.id, None)
            self.cluster.bus.unfollow(table_id)
            if self.cluster.shared and self.cluster.leases.holds(table_id):
                self.cluster.leases.release(table_id)

    def unload_idle(self) -> list[str]:
        """Drop from memory the tables unused for `unload_after` seconds: nobody watching,
        no move or bot under way, no other process's news waiting. Memory then follows the
        tables in play, not every table ever opened (the database keeps them all)."""
        cutoff = time.monotonic() - self.unload_after
        idle = [
            t.id
            for t in self._tables.values()
            if t.last_used < cutoff
            and not t.listeners
            and not t.lock.locked()
            and (t.bot_task is None or t.bot_task.done())
            and t.id not in self._inbox
        ]
        for table_id in idle:
            self._forget(table_id)
        if idle:  # the older games of those tables, too
            gone = set(idle)
            self._game_table = {g: t for g, t in self._game_table.items() if t not in gone}
            log.info("unloaded %d idle tables (%d stay in memory)", len(idle), len(self._tables))
        return idle

    async def _unload_idle(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, self.unload_after / 2))
            self.unload_idle()

    async def table(self, table_id: str) -> LiveTable:
        table = self._tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        async with self._loading:
            table = self._tables.get(table_id)
            if table is not None:
                return table
            row = await asyncio.to_thread(self.store.load_table, table_id)
            if row is None or row.current_game is None:
                raise ServiceError("unknown_game", f"there is no table {table_id!r}")
            game = await asyncio.to_thread(self.store.load_game, row.current_game)
            assert game is not None
            table = LiveTable.from_rows(row, game, self.absent_after)
            self._remember(table)
            self._absence_later(table)  # absence counts from now on: its flags flip then
            if self.cluster.shared:  # who is connected to the other processes
                self._chore(self._refresh_presence(table))
            return table

    async def table_of_game(self, game_id: str) -> LiveTable:
        table_id = self._game_table.get(game_id)
        if table_id is None:
            row = await asyncio.to_thread(self.store.load_game, game_id)
            if row is None:
                raise ServiceError("unknown_game", f"there is no game {game_id!r}")
            table_id = row.table_id
        return await self.table(table_id)

    def authenticate(self, table: LiveTable, token: object) -> int:
        seat = table.seat_of(token)
        if seat is None:
            raise ServiceError("bad_token", "that token is not a seat at this table")
        if table.closed is not None:  # every change goes through here: none on a closed table
            raise ServiceError(
                "table_closed",
                f"this table was closed after {self.expire_days:g} days without a move; "
                "its games and records stay",
            )
        return seat

    # -- the pipeline --------------------------------------------------------------------------

    async def act(self, game_id: str, token: object, version: object, move: object) -> int:
        """Play `move` ("roll" or an option) for the seat of `token`. Returns the new version."""
        table = await self.table_of_game(game_id)
        seat = self.authenticate(table, token)
        async with table.lock:
            game = table.game
            if game.id != game_id or game.state.over:
                raise ServiceError("game_over", "this game is over")
            if table.seats[seat].kind == "bot" and table.seats[seat].timeouts >= TIMEOUT_LIMIT:
                # The clock gave this seat to a bot; its owner acting again takes it back.
                await self._seat_to_human(table, seat, "returned")
            to_move = game.state.to_move
            if to_move != seat and version != game.version:
                # A repeated or late click: the turn passed on since the client saw the game.
                # "stale" says what to do about it (take the new state) better than "not yours".
                raise ServiceError(
                    "stale_version",
                    f"the game is at version {game.version}, the move was made at {version!r}",
                )
            if to_move != seat:
                raise ServiceError(
                    "not_your_turn", f"it is {table.names[to_move or 0]}'s turn (seat {to_move})"
                )
            if table.seats[seat].kind == "bot":
                raise ServiceError("seat_is_bot", "a bot plays this seat now; take it back first")
            if type(version) is not int or version != game.version:
                raise ServiceError(
                    "stale_version",
                    f"the game is at version {game.version}, the move was made at {version!r}",
                )
            action = self._action_for(game, move)
            changes = [(seat, {"timeouts": 0})] if table.seats[seat].timeouts else []
            await self._commit(table, action, seat, seat_changes=changes)
            return game.version

    def _action_for(self, game: LiveGame, move: object) -> Action:
        if move not in MOVES:
            raise ServiceError("malformed", f"a move is one of {', '.join(MOVES)}, got {move!r}")
        legal = legal_actions(game.state)
        if move == "roll":
            if game.state.phase is not Phase.ROLL:
                raise ServiceError("illegal_action", f"expected {expected(game.state)}")
            return Roll(dice.face(bytes.fromhex(game.row.seed), game.rolls))
        action = Choose(str(move))
        if action not in legal:
            raise ServiceError("illegal_action", f"expected {expected(game.state)}")
        return action

    async def _commit(
        self,
        table: LiveTable,
        action: Action,
        seat: int,
        notes: list[Note] | None = None,
        seat_changes: list[tuple[int, dict[str, Any]]] | None = None,
    ) -> None:
        """Apply, make durable, then tell everyone. Called with the table's lock held.
        `notes` (a timeout) and `seat_changes` (column values) are stored with the move."""
        game = table.game
        notes = notes or []
        seat_changes = seat_changes or []
        state, events = apply(game.state, action)
        kinds = {s: v["kind"] for s, v in seat_changes if "kind" in v}
        deadline = None
        to_move = state.to_move
        if (
            table.move_seconds is not None
            and to_move is not None
            and not state.over
            and kinds.get(to_move, table.seats[to_move].kind) == "human"
        ):
            deadline = now_ms() + table.move_seconds * 1000
        try:
            await asyncio.to_thread(
                functools.partial(
                    self.store.append,
                    game.id,
                    game.version,
                    action.to_json(),
                    seat,
                    to_text(state),
                    state.over,
                    deadline=deadline,
                    seats_changed=[(table.id, s, v) for s, v in seat_changes],
                    new_notes=notes,
                    to_move=state.to_move,
                )
            )
        except DBAPIError as e:
            # Not accepted: nobody is told of it. Should the commit have landed after all, the
            # next move meets it as a Conflict below and reloads.
            log.warning("storing a move of game %s failed: %s", game.id, e.orig)
            raise ServiceError(
                "storage_unavailable", "the database could not store the move; try again"
            ) from None
        except Conflict:
            # Another process wrote this step: our copy is old. Catch up (telling the viewers
            # here of the steps they missed) and refuse the move.
            await self._catch_up(table)
            raise ServiceError(
                "stale_version", "the game moved on; here is the new state"
            ) from None
        self._advance(table, action, seat, state, events, deadline, notes, seat_changes)
        self._publish(
            table,
            {
                "k": "move",
                "game": game.id,
                "seq": game.version - 1,
                "action": action.to_json(),
                "seat": seat,
                "deadline": deadline,
                "notes": [vars(n) for n in notes],
                "seat_changes": seat_changes,
            },
        )

    def _advance(
        self,
        table: LiveTable,
        action: Action,
        seat: int,
        state: State,
        events: Sequence[Event],
        deadline: int | None = None,
        notes: Sequence[Note] = (),
        seat_changes: Sequence[tuple[int, dict[str, Any]]] = (),
    ) -> None:
        """Take a stored step into this copy of the game and tell its viewers here (with the
        next move's deadline, the seat changes and the notes stored with it)."""
        game = table.game
        table.last_used = time.monotonic()
        game.actions.append(action)
        game.state = state
        game.deadline = deadline
        game.notes.extend(notes)
        _apply_seat_changes(table, seat_changes)
        if state.over:
            game.final_events = list(events)
        if isinstance(action, Roll):
            game.rolls += 1
        table.broadcast_update(action, seat, events, notes)
        self._wake_bots(table)
        self._clock_changed(deadline)

    def _publish(self, table: LiveTable, message: dict[str, Any]) -> None:
        self.cluster.bus.publish(table.id, message)

    def _chore(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def _seat_index(self, table: LiveTable, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < len(table.seats):
            raise ServiceError("bad_request", f"seat must be 0 to {len(table.seats) - 1}")
        return seat

    async def rematch(self, table_id: str, token: object) -> str:
        """A new game with the same seats; the next seat starts. Returns the new game's id."""
        table = await self.table(table_id)
        self.authenticate(table, token)
        async with table.lock:
            old = table.game
            if not old.state.over:
                raise ServiceError("not_over", "a rematch starts when the game is over")
            first = (old.row.first + 1) % len(table.seats)
            row = self._new_game_row(table.id, old.row.number + 1, old.ruleset, table.names, first)
            if table.move_seconds is not None and table.seats[first].kind == "human":
                row.deadline = now_ms() + table.move_seconds * 1000
            await asyncio.to_thread(
                self.store.add_game, row, to_text(new_game(len(table.seats), old.ruleset, first))
            )
            table.game = LiveGame.from_row(row)
            self._game_table[row.id] = table.id
            self._clock_changed(row.deadline)
            table.broadcast(table.snapshot)
            self._publish(table, {"k": "game", "game": row.id})
            self._wake_bots(table)
            return row.id

    # -- records -------------------------------------------------------------------------------

    async def record(self, game_id: str) -> GameRecord:
        table = await self.table_of_game(game_id)
        if table.game.id == game_id:
            return table.game.record()
        row = await asyncio.to_thread(self.store.load_game, game_id)
        assert row is not None
        return LiveGame.from_row(row).record()

    async def replay(self, game_id: str, lang: str) -> dict[str, Any]:
        """Every step of a finished game with its narration, for the replay view."""
        table = await self.table_of_game(game_id)
        record = await self.record(game_id)
        if "seed" not in record.meta["dice"]:
            raise ServiceError("not_over", "a replay is shown once the game is over")
        names = list(record.players)
        steps = []
        for action, state, events in record.steps():
            each = texts.narrate_each(lang, events, names)
            steps.append(
                {
                    "action": action.to_json(),
                    "events": [e.to_json() for e in events],
                    "narration": [line for line in each if line],
                    "told": texts.told(each),
                    "state": _state_json(state),
                }
            )
        return {
            "game": game_id,
            "record": record.to_json(),
            "seats": [{"kind": s.kind, "bot": s.bot} for s in table.seats],
            "initial": _state_json(record.initial_state()),
            "steps": steps,
        }


def _state_json(state: Any) -> dict[str, Any]:
    from robinson.engine import state_to_json

    data = state_to_json(state, tuple(str(i) for i in range(len(state.players))))
    for p in data["players"]:
        del p["name"]
    return data
