"""What one server process tells the others about a table, typed: one union, discriminated on
`k`, as the client protocol is (protocol/client.py).

- `Moved`: a step was stored; it carries the whole `Step`, so the others apply it without
  reading the database (a copy that sees a gap in `seq` catches up there instead).
- `SeatsChanged`: seats changed between moves; their new rows, the notes, the new deadline.
- `SeedGiven`: a seat gave its seed for the game's dice (before the first roll).
- `NewGame`: a rematch started; the others read it from the database.
- `Seen`: seats arrived or left on the sender; when (presence itself is in cluster/presence.py).
- `Reacted`: a seated player's reaction, for the viewers on every process (never stored).
- `Reload`: read the table afresh (sent to itself by a process whose Redis came back, and `to`
  a newcomer by a process that did not publish some change while it knew of no other follower).
- `Follow`, `Here`, `Leave`: which processes follow the table (announcements, kept by the bus
  itself, never passed on): a process that follows a table says so (`Follow`), each one that
  follows it already answers (`Here`), and one that stops says so (`Leave`). A change of a
  table nobody else follows is not published (cluster/bus.py).

The bus adds the sender's process id (`p`) on the wire and drops a process's own messages.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from robinson.engine import action_from_json
from robinson.web.store.rows import KEEP, Note, SeatChange, SeatRow, Step


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True)


class Moved(_Message):
    k: Literal["move"] = "move"
    table: str
    game: str
    seq: int
    action: dict[str, Any]  # the engine's record form: {"roll": 3}
    seat: int
    at: int
    deadline: int | None = None
    notes: tuple[Note, ...] = ()
    seats: tuple[SeatRow, ...] = ()

    @classmethod
    def of(cls, step: Step) -> Moved:
        return cls(
            table=step.table,
            game=step.game,
            seq=step.seq,
            action=step.action.to_json(),
            seat=step.seat,
            at=step.at,
            deadline=step.deadline,
            notes=step.notes,
            seats=step.seats,
        )

    def step(self) -> Step:
        return Step(
            self.table,
            self.game,
            self.seq,
            action_from_json(self.action),
            self.seat,
            self.at,
            self.deadline,
            self.notes,
            self.seats,
        )


class SeatsChanged(_Message):
    k: Literal["seats"] = "seats"
    table: str
    game: str
    at: int
    seats: tuple[SeatRow, ...] = ()
    notes: tuple[Note, ...] = ()
    keep_deadline: bool = True
    deadline: int | None = None

    @classmethod
    def of(cls, change: SeatChange) -> SeatsChanged:
        keep = change.deadline is KEEP
        return cls(
            table=change.table,
            game=change.game,
            at=change.at,
            seats=change.seats,
            notes=change.notes,
            keep_deadline=keep,
            deadline=None if change.deadline is KEEP else change.deadline,
        )

    def change(self) -> SeatChange:
        deadline = KEEP if self.keep_deadline else self.deadline
        return SeatChange(self.table, self.game, self.at, self.seats, self.notes, deadline)


class SeedGiven(_Message):
    """A seat's seed for the game's dice was stored (docs/fair-dice.md)."""

    k: Literal["seed"] = "seed"
    game: str
    seat: int
    seed: str


class NewGame(_Message):
    k: Literal["game"] = "game"
    game: str


class Seen(_Message):
    k: Literal["presence"] = "presence"
    seen: dict[int, int]  # seat -> Unix ms it arrived or left


class Reacted(_Message):
    k: Literal["react"] = "react"
    seat: int
    reaction: str


class Reload(_Message):
    k: Literal["reload"] = "reload"
    to: str | None = None  # the one process that should (None: every one that reads it)


class Follow(_Message):
    k: Literal["follow"] = "follow"
    who: str  # the process id of the sender


class Here(_Message):
    k: Literal["here"] = "here"
    who: str


class Leave(_Message):
    k: Literal["leave"] = "leave"
    who: str


BusMessage = Annotated[
    Moved | SeatsChanged | SeedGiven | NewGame | Seen | Reacted | Reload | Follow | Here | Leave,
    Field(discriminator="k"),
]
bus_message: TypeAdapter[BusMessage] = TypeAdapter(BusMessage)
