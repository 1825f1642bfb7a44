"""What the store takes and gives: plain rows, no SQL. The service builds and reads these; only
the store knows how they sit in the database.

A `Step` is one move as it travels: made by the service, written by the store, taken into each
copy of the table, and carried to the other processes (cluster/messages.py) — one value from
the click to the bus, with the seat rows and notes stored with it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Literal

from robinson.engine import Action
from robinson.fairdice import SCHEME


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored. Changed by making a new row (`dataclasses.replace`), never in place,
    so the row a step carries is the row written and the row every copy takes."""

    seat: int
    name: str
    kind: str
    bot: str | None
    token_sha256: str
    invite_sha256: str | None = None
    seen_at: int | None = None
    timeouts: int = 0


@dataclass(frozen=True)
class Note:
    """A line of the log that is not a move: who handed which seat to a bot, a timeout..."""

    version: int
    kind: str
    data: dict[str, Any]


@dataclass
class GameRow:
    id: str
    table_id: str
    number: int
    ruleset: dict[str, Any]
    players: list[str]
    first: int
    seed: str
    seed_sha256: str
    created: int
    actions: list[dict[str, Any]]
    deadline: int | None = None  # Unix ms
    notes: list[Note] = field(default_factory=list)
    scheme: str = SCHEME  # the dice scheme (fairdice.py); games before revision 0004: the first
    seeds: dict[int, str] = field(default_factory=dict)  # seat -> the hex seed it gave (v2)


@dataclass
class TableRow:
    id: str
    language: str
    created: int
    current_game: str | None
    seats: list[SeatRow]
    host_sha256: str | None = None
    move_seconds: int | None = None
    closed: int | None = None
    vacation_days: int = 0  # days each seat may pause its own clock in a game
    # The table's finished games, in order: (game id, its last position in the engine's text
    # form), for the series' score of a rematch. Read by `load_table`; empty for a new table.
    finished: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Step:
    """Step `seq` of game `game` at table `table`: `seat` made `action` at `at` (Unix ms).
    Stored with it, in the same transaction: the next move's `deadline` (Unix ms, None: no
    clock), the `notes` it caused (a timeout) and the new rows of the `seats` it changed."""

    table: str
    game: str
    seq: int
    action: Action
    seat: int
    at: int
    deadline: int | None = None
    notes: tuple[Note, ...] = ()
    seats: tuple[SeatRow, ...] = ()


class Keep(enum.Enum):
    """A deadline left as it is (a seat change that does not touch the clock)."""

    KEEP = "keep"


KEEP = Keep.KEEP


@dataclass(frozen=True)
class SeatChange:
    """Seats changed between moves, at `at` (Unix ms): their new rows, the notes telling it, and
    the new deadline of the move under way (KEEP: unchanged; None: no clock any more)."""

    table: str
    game: str
    at: int
    seats: tuple[SeatRow, ...] = ()
    notes: tuple[Note, ...] = ()
    deadline: int | Literal[Keep.KEEP] | None = KEEP
