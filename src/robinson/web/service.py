"""The authoritative game service: every move goes through one pipeline (DESIGN.md "The web").

    find the game -> authenticate the seat's token -> the game is not over -> it is that seat's
    turn -> the client's version is current -> the move is legal -> apply -> append to the store
    (committed) -> broadcast

A per-table asyncio lock serializes moves, so of two clients sending the same turn at once the
first is applied and the second sees `stale_version`; the store's (game, seq) key guards the same
thing across processes. Bot seats are played by a task per table through the same steps.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import DBAPIError

from robinson.bots import BOT_NAMES, make_bot
from robinson.engine import (
    Action,
    Choose,
    GameRecord,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    apply,
    expected,
    legal_actions,
    new_game,
    to_text,
)
from robinson.web import dice, texts
from robinson.web import seats as seating
from robinson.web.errors import ServiceError
from robinson.web.limits import MAX_NAME, MAX_SEATS, MIN_SEATS
from robinson.web.live import (
    TIMEOUT_LIMIT,
    Listener,
    LiveGame,
    LiveTable,
    narrate_all,
    now_ms,
    token_hash,
)
from robinson.web.store import KEEP, Conflict, GameRow, Note, SeatRow, Store, TableRow

log = logging.getLogger("robinson.web")

MOVES = ("roll", "restart", "move", "stay", "again", "stop", "jump")
MOVE_SECONDS = (5, 604800)  # the clock's range: a live game to a game by correspondence
CLOCK_POLL = 30.0  # seconds: the clock looks at the store at least this often (other processes)
TIMEOUT_BOT = "eager"  # plays a timed-out move and a seat that timed out TIMEOUT_LIMIT times
BOT_RETRY_PAUSE = 0.5  # seconds a bot waits before trying a move the database refused


def _new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass
class SeatSpec:
    name: str
    kind: str = "human"
    bot: str | None = None


class GameService:
    def __init__(self, store: Store, bot_delay: float = 0.8, absent_after: float = 60.0) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.absent_after = absent_after
        self._tables: dict[str, LiveTable] = {}
        self._game_table: dict[str, str] = {}
        self._loading = asyncio.Lock()
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_wake = asyncio.Event()
        self._clock_next: int | None = None  # Unix ms the clock loop plans to wake up
        self._background: set[asyncio.Task[None]] = set()

    # -- life cycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume every unfinished game whose next move is a bot's (after a restart)."""
        for table_id in await asyncio.to_thread(self.store.tables_with_unfinished_games):
            table = await self.table(table_id)
            self._wake_bots(table)
        self._clock_task = asyncio.create_task(self._run_clocks())

    async def stop(self) -> None:
        tasks = [t.bot_task for t in self._tables.values() if t.bot_task and not t.bot_task.done()]
        if self._clock_task is not None:
            tasks.append(self._clock_task)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

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
            name = " ".join(spec.name.split())
            if not 1 <= len(name) <= MAX_NAME:
                raise ServiceError(
                    "bad_request", f"seat {i}: a name has 1 to {MAX_NAME} characters"
                )
            if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
                # Control characters (NUL above all: PostgreSQL text cannot hold it) and lone
                # surrogates (not encodable as UTF-8) would fail in the store, not here.
                raise ServiceError(
                    "bad_request", f"seat {i}: a name has no control characters or lone surrogates"
                )
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

    async def table(self, table_id: str) -> LiveTable:
        table = self._tables.get(table_id)
        if table is not None:
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
            # Another process wrote this step: our copy is old. Reload it and refuse the move.
            row = await asyncio.to_thread(self.store.load_game, game.id)
            assert row is not None
            table.game = LiveGame.from_row(row)
            raise ServiceError(
                "stale_version", "the game moved on; here is the new state"
            ) from None
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

    # -- bots ----------------------------------------------------------------------------------

    def _wake_bots(self, table: LiveTable) -> None:
        if table.to_move_is_bot() and (table.bot_task is None or table.bot_task.done()):
            table.bot_task = asyncio.create_task(self._drive_bots(table))

    async def _drive_bots(self, table: LiveTable) -> None:
        pause = self.bot_delay
        try:
            while table.to_move_is_bot():
                await asyncio.sleep(pause)
                pause = self.bot_delay
                async with table.lock:
                    if not table.to_move_is_bot():
                        return
                    game = table.game
                    seat = game.state.to_move
                    assert seat is not None
                    if game.state.phase is Phase.ROLL:
                        action: Action = Roll(dice.face(bytes.fromhex(game.row.seed), game.rolls))
                    else:
                        # Off the event loop: the optimal bot solves its game on first use.
                        bot = table.bot_for(seat)
                        action = await asyncio.to_thread(bot.choose, game.state)
                    try:
                        await self._commit(table, action, seat)  # the driver is not woken twice
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

    # -- seats: bots, owners, invites (docs/protocol.md "Seats") -------------------------------

    async def hand_to_bot(self, table_id: str, token: object, seat: object, bot: object) -> None:
        """The owner may always; anyone else seated only when the seat is absent (no connection
        for `absent_after` seconds) or out of time, else `seat_present`."""
        table = await self.table(table_id)
        actor = self.authenticate(table, token)
        target = self._seat_index(table, seat)
        if bot not in BOT_NAMES:
            raise ServiceError("bad_request", f"bot must be one of {', '.join(BOT_NAMES)}")
        async with table.lock:
            row, now = table.seats[target], now_ms()
            if row.kind == "bot" and actor != target:
                raise ServiceError("seat_is_bot", "a bot plays this seat already")
            data: dict[str, Any] = {"seat": target, "actor": actor, "bot": str(bot)}
            if actor != target:
                if table.out_of_time(target):
                    data["out_of_time"] = True
                elif table.absent(target, now):
                    data["away"] = (now - table.away_since(target)) // 1000
                else:
                    raise ServiceError(
                        "seat_present",
                        f"{row.name} is at the table; a bot may take the seat only after "
                        f"{table.absent_after:g} s without a connection, or when out of time",
                    )
            note = Note(table.game.version, "bot", data)
            changes = [(target, {"kind": "bot", "bot": str(bot)})]
            await self._change_seats(table, changes, [note])
            self._wake_bots(table)

    async def take_back(self, table_id: str, token: object, seat: object) -> None:
        """A seat handed to a bot returns to its human: only that seat's own token can do it."""
        table = await self.table(table_id)
        own = self.authenticate(table, token)
        target = self._seat_index(table, seat)
        if own != target:
            raise ServiceError("bad_token", "only the seat's own link can take it back")
        async with table.lock:
            if table.seats[target].kind == "bot":
                await self._seat_to_human(table, target, "back")

    async def _seat_to_human(self, table: LiveTable, seat: int, kind: str) -> None:
        """The seat's owner plays again (lock held): `kind` is the note, "back" or "returned"."""
        changes = [(seat, {"kind": "human", "bot": None, "timeouts": 0})]
        await self._change_seats(table, changes, [Note(table.game.version, kind, {"seat": seat})])

    async def _change_seats(
        self, table: LiveTable, changes: list[tuple[int, dict[str, Any]]], notes: list[Note]
    ) -> None:
        """Store seat changes between moves with their notes and the new deadline (the seat to
        move may have become a bot or a human), then tell everyone. Lock held."""
        game = table.game
        kinds = {s: v["kind"] for s, v in changes if "kind" in v}
        deadline: Any = KEEP
        to_move = game.state.to_move
        if to_move in kinds and table.move_seconds is not None and not game.state.over:
            deadline = now_ms() + table.move_seconds * 1000 if kinds[to_move] == "human" else None
        await asyncio.to_thread(
            self.store.change_seats,
            game.id,
            [(table.id, s, v) for s, v in changes],
            notes,
            deadline,
        )
        if deadline is not KEEP:
            game.deadline = deadline
            self._clock_changed(deadline)
        _apply_seat_changes(table, changes)
        game.notes.extend(notes)
        table.broadcast_state(notes)

    async def claim(self, table_id: str, invite: object) -> dict[str, Any]:
        """Open an invite: the seat gets a new secret, given to this browser alone; the invite
        is spent (`seat_taken` for anyone who tries it again) and older secrets stop working."""
        table = await self.table(table_id)
        if not isinstance(invite, str) or not 8 <= len(invite) <= 200:
            raise ServiceError("bad_request", "invite is the code after '#i:' in the link")
        digest = token_hash(invite)
        async with table.lock:
            seat = next((s.seat for s in table.seats if s.invite_sha256 == digest), None)
            token = secrets.token_urlsafe(24)
            if seat is None or not await asyncio.to_thread(
                self.store.claim, table.id, seat, digest, token_hash(token)
            ):
                raise ServiceError(
                    "seat_taken",
                    "this invite was used already: the seat is taken (ask the "
                    "host for a new link if it was meant for you)",
                )
            row = table.seats[seat]
            row.token_sha256, row.invite_sha256, row.timeouts = token_hash(token), None, 0
            await self._change_seats(
                table, [], [Note(table.game.version, "claimed", {"seat": seat})]
            )
            self._drop_holders(table, seat)
            return {"seat": seat, "token": token, "link": f"/t/{table.id}#{token}"}

    def _drop_holders(self, table: LiveTable, seat: int) -> None:
        """Connections that held `seat` with its old secret hold it no more."""
        before = table.present_seats()
        for listener in list(table.listeners):
            if seat in listener.seats:
                listener.seats = listener.seats - {seat}
                listener.send(table.snapshot(listener))
        self._presence(table, before)

    async def invites(self, table_id: str, host: object, origin: str) -> dict[str, Any]:
        """The host's view: each human seat, its invite link and QR code while unclaimed."""
        table = await self.table(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "that is not the host's secret of this table")
        assert isinstance(host, str)
        present = table.present_seats()
        out = []
        for row in table.seats:
            link = None
            if row.invite_sha256 is not None:
                code = seating.invite_code(host, table.id, row.seat, row.token_sha256)
                if token_hash(code) == row.invite_sha256:
                    link = seating.invite_link(table.id, code)
            out.append(
                {
                    "seat": row.seat,
                    "name": row.name,
                    "kind": row.kind,
                    "claimed": row.invite_sha256 is None,
                    "present": row.seat in present,
                    "link": link,
                    "qr": None if link is None else seating.qr_svg(origin + link),
                }
            )
        spectator = f"/t/{table.id}"
        return {
            "table": table.id,
            "spectator": spectator,
            "spectator_qr": seating.qr_svg(origin + spectator),
            "seats": out,
        }

    async def reinvite(
        self, table_id: str, host: object, seat: object, origin: str
    ) -> dict[str, Any]:
        """The host gives an absent (or out of time, or never claimed) seat a new invite: the
        old secret and the old link stop working."""
        table = await self.table(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "that is not the host's secret of this table")
        assert isinstance(host, str)
        target = self._seat_index(table, seat)
        async with table.lock:
            row, now = table.seats[target], now_ms()
            unclaimed = row.invite_sha256 is not None and target not in table.present_seats()
            if not (unclaimed or table.absent(target, now) or table.out_of_time(target)):
                raise ServiceError(
                    "seat_present",
                    f"{row.name} is at the table; a new invite is for a seat left empty for "
                    f"{table.absent_after:g} s or out of time",
                )
            token_sha = token_hash(secrets.token_urlsafe(24))  # nobody's: the invite gives one
            code = seating.invite_code(host, table.id, target, token_sha)
            values = {"token_sha256": token_sha, "invite_sha256": token_hash(code)}
            note = Note(table.game.version, "reinvited", {"seat": target})
            await self._change_seats(table, [(target, values)], [note])
            self._drop_holders(table, target)
            link = seating.invite_link(table.id, code)
            return {"seat": target, "link": link, "qr": seating.qr_svg(origin + link)}

    async def device_link(
        self, table_id: str, token: object, seat: object, origin: str
    ) -> dict[str, Any]:
        """A seat's own link, to continue on another device (it is the seat's secret)."""
        table = await self.table(table_id)
        own = self.authenticate(table, token)
        if own != self._seat_index(table, seat):
            raise ServiceError("bad_token", "only the seat's own secret gives its link")
        link = f"/t/{table.id}#{token}"
        return {"seat": own, "link": link, "qr": seating.qr_svg(origin + link)}

    # -- clocks ----------------------------------------------------------------------------------

    def _clock_changed(self, deadline: int | None) -> None:
        """A new deadline: wake the clock loop if it would sleep past it."""
        if deadline is not None and (self._clock_next is None or deadline < self._clock_next):
            self._clock_wake.set()

    async def _run_clocks(self) -> None:
        """Make the move of every seat whose time ran out. The deadlines live in the store, so
        they survive a restart and any process sharing the database can play a timeout (the
        (game, seq) key lets only one of them in)."""
        while True:
            self._clock_wake.clear()
            pause = CLOCK_POLL
            try:
                for game_id, table_id in await asyncio.to_thread(self.store.due_games, now_ms()):
                    await self._time_out(table_id, game_id)
                upcoming = await asyncio.to_thread(self.store.next_deadline)
                if upcoming is not None:
                    pause = min(CLOCK_POLL, max(0.0, (upcoming - now_ms()) / 1000 + 0.005))
            except asyncio.CancelledError:
                raise
            except Exception:  # the clock must go on: a database outage is retried
                log.exception("the clock failed; retrying")
                pause = max(BOT_RETRY_PAUSE, 1.0)
            self._clock_next = now_ms() + int(pause * 1000)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._clock_wake.wait(), pause)

    async def _time_out(self, table_id: str, game_id: str) -> None:
        """The seat to move ran out of time: the eager bot makes its move, narrated; after
        TIMEOUT_LIMIT in a row the seat is the bot's until its owner comes back."""
        table = await self.table(table_id)
        async with table.lock:
            game = table.game
            st = game.state
            if game.id != game_id or st.over or game.deadline is None or st.to_move is None:
                return
            if game.deadline > now_ms():
                return  # someone moved in time (the deadline is a new one)
            seat = st.to_move
            row = table.seats[seat]
            if row.kind == "bot":  # a bot plays it now: no clock for bots
                await asyncio.to_thread(self.store.change_seats, game.id, [], [], None)
                game.deadline = None
                return
            if st.phase is Phase.ROLL:
                action: Action = Roll(dice.face(bytes.fromhex(game.row.seed), game.rolls))
            else:
                action = make_bot(TIMEOUT_BOT, seat).choose(st)
            count = row.timeouts + 1
            values: dict[str, Any] = {"timeouts": count}
            notes = [Note(game.version, "timeout", {"seat": seat})]
            if count >= TIMEOUT_LIMIT:
                values.update(kind="bot", bot=TIMEOUT_BOT)
                notes.append(Note(game.version, "timeout_bot", {"seat": seat, "count": count}))
            try:
                await self._commit(table, action, seat, notes, [(seat, values)])
            except ServiceError as e:  # the database failed, or another process moved first
                log.warning("timeout move of game %s not made: %s", game.id, e.message)

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
            self._wake_bots(table)
            return row.id

    # -- listeners -----------------------------------------------------------------------------

    def subscribe(self, table: LiveTable, listener: Listener) -> None:
        before = table.present_seats()
        table.listeners.add(listener)
        listener.send(table.snapshot(listener))
        self._presence(table, before)

    def unsubscribe(self, table: LiveTable, listener: Listener) -> None:
        before = table.present_seats()
        table.listeners.discard(listener)
        self._presence(table, before)

    def hold(self, table: LiveTable, listener: Listener, held: set[int]) -> None:
        """`listener` now holds the seats `held` (a hello with its tokens)."""
        before = table.present_seats()
        listener.seats = held
        self._presence(table, before)

    def _presence(self, table: LiveTable, before: set[int]) -> None:
        """Who is connected changed: remember when, and show everyone."""
        after = table.present_seats()
        if after == before:
            return
        now = now_ms()
        for seat in before ^ after:  # arrived or left: seen now
            table.seats[seat].seen_at = now
            self._in_background(asyncio.to_thread(self.store.set_seen, table.id, seat, now))
        table.broadcast_state()
        if before - after:  # someone left: tell everyone again when the seat counts as absent
            self._absence_later(table)

    def _absence_later(self, table: LiveTable) -> None:
        asyncio.get_running_loop().call_later(table.absent_after + 0.05, table.broadcast_state)

    def _in_background(self, work: Any) -> None:
        """Run `work` without waiting for it; a failure is logged (presence is not a move)."""

        async def run() -> None:
            try:
                await work
            except Exception as e:
                log.warning("a background write failed: %s", e)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

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
            steps.append(
                {
                    "action": action.to_json(),
                    "events": [e.to_json() for e in events],
                    "narration": narrate_all(lang, events, names),
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


def _apply_seat_changes(table: LiveTable, changes: list[tuple[int, dict[str, Any]]]) -> None:
    """The stored seat changes, made in memory too (after the commit)."""
    for seat, values in changes:
        for column, value in values.items():
            setattr(table.seats[seat], column, value)
