"""The in-memory side of a table: its seats, its current game (rebuilt by replay), its listeners,
and the JSON views sent to clients in each viewer's language."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field
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
from robinson.web import texts
from robinson.web.dice import SCHEME
from robinson.web.limits import MAX_TOKEN, MIN_TOKEN
from robinson.web.store import GameRow, SeatRow, TableRow


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    closed: int | None = None  # when it was closed unfinished (store: tables.closed)
    _bots: dict[tuple[int, str], Bot] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, table: TableRow, game: GameRow) -> LiveTable:
        return cls(
            table.id, table.language, table.seats, LiveGame.from_row(game), closed=table.closed
        )

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
            "players": [
                {"seat": i, "kind": seat.kind, "bot": seat.bot, **player}
                for i, (seat, player) in enumerate(
                    zip(self.seats, state_to_json(st, self.names)["players"], strict=True)
                )
            ],
        }

    def snapshot(self, listener: Listener) -> dict[str, Any]:
        """Everything a (re)connecting viewer needs, including the narration so far."""
        lines: list[str] = []
        kinds: list[tuple[str, int | None]] = []  # the event of each line, for the page's log
        for _, _, events in self.game.record().steps():
            for e, line in zip(
                events, texts.narrate_each(listener.lang, events, self.names), strict=True
            ):
                if line:
                    lines.append(line)
                    kinds.append((e.kind, _actor(e)))
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

    def broadcast_update(self, action: Action, seat: int, events: Sequence[Event]) -> None:
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


def narrate_all(lang: str, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    return texts.narrate_all(lang, events, names)
