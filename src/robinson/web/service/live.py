"""The in-memory side of a table: its seats, its current game (rebuilt by replay), its listeners
and who is present. What its viewers are sent is built in views.py."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from robinson import fairdice
from robinson.bots import Bot, make_bot
from robinson.engine import (
    Action,
    Event,
    GameRecord,
    Roll,
    Ruleset,
    State,
    action_from_json,
    from_text,
)
from robinson.web.protocol.limits import MAX_TOKEN, MIN_TOKEN
from robinson.web.service.clock import Clock, Timer
from robinson.web.store.rows import GameRow, Note, SeatRow, TableRow

# A seat handed to a bot by the clock after this many timed-out moves in a row: its owner takes
# it back by acting again (or with "take back").
TIMEOUT_LIMIT = 3


@functools.lru_cache(maxsize=4096)  # the same seat tokens come with every move of a table
def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Listener(Protocol):
    """A connection following a table: it has a language and the seats it holds."""

    lang: str
    seats: set[int]

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message: a dict, or the JSON text of one encoded already."""


@dataclass
class Narration:
    """A table's narrated log in one language, as it grew: each line and the kind of event it
    tells (with the seat it is about, for the page's colours), for the game `game` up to
    `version` actions and `notes` notes. Only the newest lines are kept; the turns before them
    are counted (a snapshot numbers its first turn)."""

    game: str
    version: int = 0
    notes: int = 0
    lines: list[str] = field(default_factory=list)
    kinds: list[tuple[str, int | None]] = field(default_factory=list)
    yours: list[str] = field(default_factory=list)  # each line told to its seat ("" if none)
    turns_dropped: int = 0

    KEEP: ClassVar[int] = 600  # past this many lines, the oldest half goes

    def follows(self, game: str, version: int, notes: int) -> bool:
        return (self.game, self.version, self.notes) == (game, version, notes)

    def now_at(self, version: int, notes: int) -> None:
        self.version, self.notes = version, notes

    def add(self, line: str, kind: tuple[str, int | None], you: str = "") -> None:
        self.lines.append(line)
        self.kinds.append(kind)
        self.yours.append(you)
        if len(self.lines) > self.KEEP:
            cut = self.KEEP // 2
            self.turns_dropped += sum(k == "turn_began" for k, _ in self.kinds[:cut])
            del self.lines[:cut], self.kinds[:cut], self.yours[:cut]


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
    # The seats' seeds are the stored ones, final (read after the first roll fixed them).
    seeds_final: bool = False
    # `dice_seeds` after the first roll, for the seeds it was made of: each seat's HMAC once,
    # not in every view (a profile found three HMACs a move).
    _seeds_shown: tuple[tuple[tuple[int, str], ...], list[dict[str, Any]]] | None = field(
        default=None, repr=False, compare=False
    )
    # `dice_key` for the seeds it was made of: the seats' HMACs and the key's SHA-256 once a
    # game, not at every roll (a profile found them at about 5 % of a move's main-thread CPU).
    _key_made: tuple[tuple[tuple[int, str], ...], bytes] | None = field(
        default=None, repr=False, compare=False
    )

    # The parts of the game's view that stay the same all game, by language (views.py): built
    # once, not at every move (a move's view is built while its table's data is out of cache).
    fixed_views: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)

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
        game.seeds_final = rolls > 0  # stored after the dice were fixed: all there are
        return game

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.actions)

    def last_roll(self) -> int | None:
        return next((a.face for a in reversed(self.actions) if isinstance(a, Roll)), None)

    def dice_seeds(self) -> list[dict[str, Any]]:
        """The seats' seeds (docs/fair-dice.md, the second scheme): those given so far, and
        from the first roll on every seat's, the server's marked as such (none in the first)."""
        if self.row.scheme != fairdice.SCHEME_V2:
            return []
        if self.rolls == 0:
            given = sorted(self.row.seeds.items())
            return [{"seat": s, "seed": h, "by": fairdice.BY_PLAYER} for s, h in given]
        fixed = tuple(sorted(self.row.seeds.items()))
        shown = self._seeds_shown
        if shown is None or shown[0] != fixed:
            shown = self._seeds_shown = (fixed, [e.to_json() for e in self.dice_entries()])
        return shown[1]

    def dice_entries(self) -> list[fairdice.Entry]:
        seed = bytes.fromhex(self.row.seed)
        given = {s: bytes.fromhex(h) for s, h in self.row.seeds.items()}
        return fairdice.all_contributions(seed, len(self.row.players), given)

    def dice_key(self) -> bytes:
        """What the rolls are derived from: the seed (first scheme), else the key of the seed
        and every seat's seed, fixed by the first roll (no seed is taken after it)."""
        if self.row.scheme != fairdice.SCHEME_V2:
            return bytes.fromhex(self.row.seed)
        fixed = tuple(sorted(self.row.seeds.items()))
        made = self._key_made
        if made is None or made[0] != fixed:
            key = fairdice.seeds_key(
                bytes.fromhex(self.row.seed), [e.seed for e in self.dice_entries()]
            )
            made = self._key_made = (fixed, key)
        return made[1]

    def record(self) -> GameRecord:
        dice: dict[str, Any] = {"scheme": self.row.scheme, "seed_sha256": self.row.seed_sha256}
        if self.state.over:
            dice["seed"] = self.row.seed
        if self.row.scheme == fairdice.SCHEME_V2:
            dice["seeds"] = self.dice_seeds()
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
class PresenceNews:
    """What a table's presence changes have not yet told (presence.py `_soon`): the cluster's
    counts still to take off (per seat; additions are written at once), the seats' last-seen
    times still to store, whether the viewers are owed a `state`; and the budget of broadcasts
    (a token bucket: a few at once, then a few a second)."""

    leaving: dict[int, int] = field(default_factory=dict)
    seen: dict[int, int] = field(default_factory=dict)
    owed: bool = False
    budget: float = 0.0
    filled_at: float | None = None  # the clock's monotonic seconds the budget was counted
    timer: Timer | None = None  # the broadcast waiting for the budget


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
    vacation_days: int = 0  # days each seat may pause its own clock in a game (vacation.py)
    # Seconds without a connection after which others may hand a seat to a bot.
    absent_after: float = 60.0
    # When this process took the table up (Unix ms): absence is counted from no earlier than
    # this, so a restart gives everyone the time to reconnect.
    loaded_at: int = 0
    created: int = 0  # Unix ms the table was made
    # Seats held by connections to other server processes (scaled out; web/cluster/presence.py), and
    # this process's presence changes not yet told (presence.py).
    present_elsewhere: set[int] = field(default_factory=set)
    last_used: float = 0.0  # the clock's monotonic seconds it was last asked for (unload_idle)
    news: PresenceNews = field(default_factory=PresenceNews)  # presence.py
    narration: dict[str, Narration] = field(default_factory=dict)  # per language (views.py)
    # The latest updates sent, per language: (game, version, the encoded text), for viewers
    # who come back having missed a few (views.py `greet`).
    history: dict[str, deque[tuple[str, int, str]]] = field(default_factory=dict)
    # The winner (None: nobody) of each finished game of the table, by game id: the series'
    # score that a rematch shows. Set from the stored games on load, kept as games end here.
    results: dict[str, int | None] = field(default_factory=dict)
    # Per seat: the reactions it may still send now and when that was counted (reactions.py).
    reaction_buckets: dict[int, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def from_rows(
        cls,
        table: TableRow,
        game: GameRow,
        clock: Clock,
        absent_after: float,
        live: LiveGame | None = None,
    ) -> LiveTable:
        """The table of these rows (`live`: its game already replayed from `game`)."""
        return cls(
            table.id,
            table.language,
            list(table.seats),
            live or LiveGame.from_row(game),
            clock,
            host_sha256=table.host_sha256,
            move_seconds=table.move_seconds,
            vacation_days=table.vacation_days,
            absent_after=absent_after,
            loaded_at=clock.now_ms(),
            created=table.created * 1000,
            closed=table.closed,
            last_used=clock.monotonic(),
            results=results_of(table.finished),
        )

    @property
    def wins(self) -> list[int]:
        """Games won by each seat at this table so far (the current one once it is over)."""
        won = [0] * len(self.seats)
        for winner in self.results.values():
            if winner is not None:
                won[winner] += 1
        return won

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

    def awaited(self) -> list[int]:
        """The invited seats a table made with `wait_for` still waits for before its first move
        (their invites not claimed yet); none once one was claimed last or the host started it,
        nor in a rematch. Read off the game's notes: "waiting" lists them, "started" ends it."""
        game = self.game
        if game.version or game.row.number != 1:
            return []
        waiting: list[int] = []
        for note in game.notes:
            if note.kind == "started":
                return []
            if note.kind == "waiting":
                waiting = [s for s in note.data.get("seats", []) if 0 <= s < len(self.seats)]
        return [s for s in waiting if self.seats[s].invite_sha256 is not None]

    def vacation_until(self, seat: int) -> int:
        """Unix ms the seat's vacation in this game ends (0: none taken)."""
        return self.vacations()[0].get(seat, 0)

    def vacation_left(self, seat: int) -> int:
        """Days of vacation the seat may still take in this game."""
        return max(0, self.vacation_days - self.vacations()[1].get(seat, 0))

    def vacations(self) -> tuple[dict[int, int], dict[int, int]]:
        """Every seat's vacation in this game, in one reading of the notes: when the last ends
        (Unix ms) and the days taken, by seat (a seat with none is absent)."""
        until: dict[int, int] = {}
        taken: dict[int, int] = {}
        for n in self.game.notes:
            if n.kind == "vacation" and isinstance(seat := n.data.get("seat"), int):
                until[seat] = max(until.get(seat, 0), int(n.data["until"]))
                taken[seat] = taken.get(seat, 0) + int(n.data["days"])
        return until, taken

    def watching(self) -> int:
        """Connections here that hold no seat: the spectators. All of a table's sockets reach
        one process behind deploy/nginx, so this is the table's count there."""
        return sum(1 for listener in self.listeners if not listener.seats)

    def present_anywhere(self) -> set[int]:
        """The seats some live connection holds, here or (scaled out) on another process."""
        return self.present_seats() | self.present_elsewhere

    def away_since(self, seat: int) -> int:
        """Unix ms `seat` was last connected (stored), else when the table was made."""
        return self.seats[seat].seen_at or self.created

    def absent(self, seat: int, now: int, present: set[int] | None = None) -> bool:
        """No live connection for `absent_after` seconds. Counted from no earlier than when
        this process took the table up, so that after a restart everyone can reconnect.
        `present`: `present_anywhere()` when the caller has it already."""
        if seat in (self.present_anywhere() if present is None else present):
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
            and not self.awaited()  # a waiting room: not even a bot moves yet
        )


def results_of(finished: Sequence[tuple[str, str]]) -> dict[str, int | None]:
    """The winner of each finished game, read off its stored last position."""
    return {game_id: from_text(summary).winner for game_id, summary in finished}
