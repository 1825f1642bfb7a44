"""The in-memory side of a table: its seats, its current game (rebuilt by replay), its listeners,
and the JSON views sent to clients in each viewer's language."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from robinson.bots import Bot, make_bot
from robinson.engine import (
    Action,
    Event,
    GameRecord,
    Reason,
    Roll,
    Ruleset,
    State,
    Transfer,
    Won,
    action_from_json,
    legal_actions,
    state_to_json,
)
from robinson.fairdice import SCHEME
from robinson.web.protocol.limits import MAX_TOKEN, MIN_TOKEN
from robinson.web.service import texts
from robinson.web.service.clock import Clock
from robinson.web.store.rows import GameRow, Note, SeatRow, TableRow

# A seat handed to a bot by the clock after this many timed-out moves in a row: its owner takes
# it back by acting again (or with "take back").
TIMEOUT_LIMIT = 3


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def utc(ms: int | None) -> str | None:
    """Unix ms as an ISO 8601 UTC timestamp ("2026-12-01T10:00:05.250Z"), the protocol's form."""
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Listener(Protocol):
    """A connection following a table: it has a language and the seats it holds."""

    lang: str
    seats: set[int]

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass
class LiveGame:
    row: GameRow
    ruleset: Ruleset
    state: State
    actions: list[Action]
    rolls: int
    # The events of the move that ended the game (the win and the payout), once it is over.
    final_events: list[Event] | None = None
    deadline: int | None = None  # Unix ms: when the seat to move runs out of time
    notes: list[Note] = field(default_factory=list)  # seat changes and timeouts, in order

    @classmethod
    def from_row(cls, row: GameRow) -> LiveGame:
        record = GameRecord(
            Ruleset.from_json(row.ruleset),
            tuple(row.players),
            row.first,
            tuple(action_from_json(a) for a in row.actions),
        )
        final: list[Event] | None = None
        state = record.initial_state()
        for _, after, events in record.steps():
            state, final = after, list(events)
        rolls = sum(isinstance(a, Roll) for a in record.actions)
        game = cls(row, record.ruleset, state, list(record.actions), rolls)
        game.final_events = final if state.over else None
        game.deadline = row.deadline
        game.notes = list(row.notes)
        return game

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.actions)

    def last_roll(self) -> int | None:
        return next((a.face for a in reversed(self.actions) if isinstance(a, Roll)), None)

    def record(self) -> GameRecord:
        dice: dict[str, Any] = {"scheme": SCHEME, "seed_sha256": self.row.seed_sha256}
        if self.state.over:
            dice["seed"] = self.row.seed
        meta = {
            "dice": dice,
            "game": self.row.id,
            "table": self.row.table_id,
            "number": self.row.number,
            "created": self.row.created,
        }
        return GameRecord(
            self.ruleset, tuple(self.row.players), self.row.first, tuple(self.actions), meta
        )


@dataclass
class LiveTable:
    id: str
    language: str
    seats: list[SeatRow]
    game: LiveGame
    clock: Clock
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    closed: int | None = None  # when it was closed unfinished (store: tables.closed)
    _bots: dict[tuple[int, str], Bot] = field(default_factory=dict)
    host_sha256: str | None = None
    move_seconds: int | None = None
    # Seconds without a connection after which others may hand a seat to a bot.
    absent_after: float = 60.0
    # When this process took the table up (Unix ms): absence is counted from no earlier than
    # this, so a restart gives everyone the time to reconnect.
    loaded_at: int = 0
    created: int = 0  # Unix ms the table was made
    # Seats held by connections to other server processes (scaled out; web/shared.py), and
    # this process's presence changes not yet written there (service `_presence`).
    present_elsewhere: set[int] = field(default_factory=set)
    last_used: float = 0.0  # the clock's monotonic seconds it was last asked for (unload_idle)
    presence_pending: list[tuple[int, int]] = field(default_factory=list)

    @classmethod
    def from_rows(
        cls, table: TableRow, game: GameRow, clock: Clock, absent_after: float
    ) -> LiveTable:
        return cls(
            table.id,
            table.language,
            list(table.seats),
            LiveGame.from_row(game),
            clock,
            host_sha256=table.host_sha256,
            move_seconds=table.move_seconds,
            absent_after=absent_after,
            loaded_at=clock.now_ms(),
            created=table.created * 1000,
            closed=table.closed,
            last_used=clock.monotonic(),
        )

    def put_seats(self, rows: Sequence[SeatRow]) -> None:
        """Take in new rows of some seats (stored already)."""
        for row in rows:
            self.seats[row.seat] = row

    def seen(self, seat: int, at: int) -> None:
        self.seats[seat] = replace(self.seats[seat], seen_at=at)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, token: object) -> int | None:
        if not isinstance(token, str) or not MIN_TOKEN <= len(token) <= MAX_TOKEN:
            return None
        digest = token_hash(token)
        for s in self.seats:
            if hmac.compare_digest(s.token_sha256, digest):
                return s.seat
        return None

    def bot_for(self, seat: int) -> Bot:
        name = self.seats[seat].bot or "heuristic"
        key = (seat, name)
        if key not in self._bots:
            self._bots[key] = make_bot(name, seat)
        return self._bots[key]

    def is_host(self, host: object) -> bool:
        if self.host_sha256 is None or not isinstance(host, str) or not 8 <= len(host) <= 200:
            return False
        return hmac.compare_digest(self.host_sha256, token_hash(host))

    # -- presence ------------------------------------------------------------------------------

    def present_seats(self) -> set[int]:
        """The seats some live connection to this process holds."""
        held: set[int] = set()
        for listener in self.listeners:
            held |= listener.seats
        return held

    def present_anywhere(self) -> set[int]:
        """The seats some live connection holds, here or (scaled out) on another process."""
        return self.present_seats() | self.present_elsewhere

    def away_since(self, seat: int) -> int:
        """Unix ms `seat` was last connected (stored), else when the table was made."""
        return self.seats[seat].seen_at or self.created

    def absent(self, seat: int, now: int) -> bool:
        """No live connection for `absent_after` seconds. Counted from no earlier than when
        this process took the table up, so that after a restart everyone can reconnect."""
        if seat in self.present_anywhere():
            return False
        since = max(self.away_since(seat), self.loaded_at)
        return now - since >= self.absent_after * 1000

    def out_of_time(self, seat: int) -> bool:
        """The seat's last turn ran out of time and it has not acted since."""
        return self.seats[seat].timeouts > 0

    def to_move_is_bot(self) -> bool:
        st = self.game.state
        return (
            self.closed is None
            and not st.over
            and st.to_move is not None
            and self.seats[st.to_move].kind == "bot"
        )

    # -- views ---------------------------------------------------------------------------------

    def game_view(self, lang: str) -> dict[str, Any]:
        game, st = self.game, self.game.state
        legal = (
            []
            if st.over
            else ["roll" if isinstance(a, Roll) else a.option for a in legal_actions(st)]
        )
        if legal and legal[0] == "roll":
            legal = ["roll"]
        present = self.present_anywhere()
        now = self.clock.now_ms()
        clock = None
        if game.deadline is not None and not st.over and st.to_move is not None:
            clock = {"seat": st.to_move, "deadline": utc(game.deadline), "now": utc(now)}
        return {
            "id": game.id,
            "number": game.row.number,
            "ruleset": game.ruleset.to_json(),
            "rules": texts.rules_summary(lang, game.ruleset),
            "first": game.row.first,
            "version": game.version,
            "phase": st.phase.value,
            "to_move": st.to_move,
            "pending_roll": st.pending_roll,
            "last_roll": game.last_roll(),
            "bank": st.bank,
            "over": st.over,
            "winner": st.winner,
            "legal": legal,
            "prompt": texts.prompt(lang, st, self.names),
            "seed_sha256": game.row.seed_sha256,
            "seed": game.row.seed if st.over else None,
            "payout": payout_steps(lang, game.final_events or [], self.names),
            "move_seconds": self.move_seconds,
            "absent_after": self.absent_after,
            "clock": clock,
            "players": [
                {
                    "seat": i,
                    "kind": seat.kind,
                    "bot": seat.bot,
                    "present": i in present,
                    "away_since": None if i in present else utc(self.away_since(i)),
                    "absent": self.absent(i, now),
                    "timeouts": seat.timeouts,
                    "claimed": seat.invite_sha256 is None,
                    **player,
                }
                for i, (seat, player) in enumerate(
                    zip(self.seats, state_to_json(st, self.names)["players"], strict=True)
                )
            ],
        }

    def snapshot(self, listener: Listener) -> dict[str, Any]:
        """Everything a (re)connecting viewer needs, including the narration so far."""
        lines: list[str] = []
        kinds: list[tuple[str, int | None]] = []  # the event of each line, for the page's log
        notes = sorted(self.game.notes, key=lambda n: n.version)  # stable: same version in order
        at = 0

        def note(item: Note) -> None:
            lines.append(texts.note(listener.lang, item, self.names))
            kinds.append(("note", item.data.get("seat")))

        for version, (_, _, events) in enumerate(self.game.record().steps()):
            while at < len(notes) and notes[at].version <= version:
                note(notes[at])
                at += 1
            for e, line in zip(
                events, texts.narrate_each(listener.lang, events, self.names), strict=True
            ):
                if line:
                    lines.append(line)
                    kinds.append((e.kind, _actor(e)))
        for item in notes[at:]:
            note(item)
        dropped = kinds[:-300]
        return {
            "type": "snapshot",
            "table": self.id,
            "language": self.language,
            "lang": listener.lang,
            "you": sorted(listener.seats),
            "game": self.game_view(listener.lang),
            "log": lines[-300:],
            "log_kinds": [list(k) for k in kinds[-300:]],
            "log_turn": 1 + sum(kind == "turn_began" for kind, _ in dropped),
        }

    def broadcast(self, build: Any) -> None:
        """Send `build(lang, listener)` to every listener, building once per language when the
        message does not depend on the listener."""
        for listener in list(self.listeners):
            listener.send(build(listener))

    def broadcast_state(self, notes: Sequence[Note] = ()) -> None:
        """The seats changed (a bot took one, its human came back, presence): the new view and
        the narration of what happened, in each listener's language."""
        self.broadcast(
            lambda listener: {
                "type": "state",
                "state": self.game_view(listener.lang),
                "narration": [texts.note(listener.lang, n, self.names) for n in notes],
            }
        )

    def broadcast_update(
        self, action: Action, seat: int, events: Sequence[Event], notes: Sequence[Note] = ()
    ) -> None:
        per_lang: dict[str, dict[str, Any]] = {}
        events_json = [e.to_json() for e in events]
        for listener in list(self.listeners):
            msg = per_lang.get(listener.lang)
            if msg is None:
                each = texts.narrate_each(listener.lang, events, self.names)
                msg = {
                    "type": "update",
                    "game": self.game.id,
                    "version": self.game.version,
                    "seat": seat,
                    "action": action.to_json(),
                    "events": events_json,
                    "narration": [line for line in each if line],
                    "told": texts.told(each),
                    "notes": [texts.note(listener.lang, n, self.names) for n in notes],
                    "state": self.game_view(listener.lang),
                }
                per_lang[listener.lang] = msg
            listener.send(msg)


PAYOUT_REASONS = (Reason.BANK, Reason.FRIDAY_SHARE, Reason.NEAREST_SHARE)


def payout_steps(lang: str, events: Sequence[Event], names: Sequence[str]) -> list[dict[str, Any]]:
    """The end of a game as separate steps for the page to show one by one: the winner reaches
    home, takes the bank, then pays Friday's or the nearest players' shares (in event order)."""
    steps: list[dict[str, Any]] = []
    for e in events:
        if isinstance(e, Won) or (isinstance(e, Transfer) and e.reason in PAYOUT_REASONS):
            steps.append({**e.to_json(), "text": texts.narrate(lang, e, names)})
    return steps


def _actor(e: Event) -> int | None:
    """Who an event is about (the page colours its log line): the seat, a transfer's player."""
    data = e.to_json()
    for key in ("seat", "payer", "payee", "master", "winner"):
        if data.get(key) is not None:
            return int(data[key])
    return None
