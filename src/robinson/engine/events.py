"""What happened: `apply` returns these, in order. They carry seats and numbers, never prose.

An interface turns each event into text by its `kind` (the message key) and its fields (the
message parameters), so one game can be narrated to each viewer in their own language.
`None` as an account in a `Transfer` means the bank.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar


class Reason(Enum):
    """Why tokens moved: the message key of a transfer."""

    TRAVEL = "travel"  # square 1
    SQUARE = "square"  # a square's own pay or receive (3, 8, 11, 14, 15, 18, 26, 33, 40)
    DUTY = "duty"  # a Friday's duty alongside his master's bank transfer (rule 6.2)
    NEIGHBOUR = "neighbour"  # square 10
    FRIDAY = "friday"  # square 29
    RESCUE = "rescue"  # square 32
    BANK = "bank"  # the winner takes the bank (8.2)
    FRIDAY_SHARE = "friday_share"  # the winner pays his Friday a third (8.3)
    NEAREST_SHARE = "nearest_share"  # the winner shares with the nearest participant (8.4)


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        # Fields are numbers, strings, a Reason or a tuple of numbers: read them directly
        # (`dataclasses.asdict` deep-copies, and a server narrates every move to every viewer).
        data: dict[str, Any] = {"kind": self.kind}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            data[name] = value.value if isinstance(value, Enum) else value
        return data


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    kind: ClassVar[str] = "turn_began"
    seat: int


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """The seat sits out this turn; `left` skips remain."""

    kind: ClassVar[str] = "skipped"
    seat: int
    left: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    seat: int
    face: int


@dataclass(frozen=True, slots=True)
class Chose(Event):
    kind: ClassVar[str] = "chose"
    seat: int
    option: str
    square: int  # the square the decision belongs to (4, 7, 20 or 23)


@dataclass(frozen=True, slots=True)
class Bounced(Event):
    """The roll passed 45 by `overshoot` and the pawn goes back that far."""

    kind: ClassVar[str] = "bounced"
    seat: int
    overshoot: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A pawn went from `start` to `end`; `cause` is roll, restart, footprint, canoe or swap."""

    kind: ClassVar[str] = "moved"
    seat: int
    start: int
    end: int
    cause: str


@dataclass(frozen=True, slots=True)
class Transfer(Event):
    """Tokens moved. `owed` is what the rule named; `amount` is what was actually paid."""

    kind: ClassVar[str] = "transfer"
    payer: int | None
    payee: int | None
    amount: int
    owed: int
    reason: Reason


@dataclass(frozen=True, slots=True)
class Shipwrecked(Event):
    kind: ClassVar[str] = "shipwrecked"
    seat: int


@dataclass(frozen=True, slots=True)
class WillSkip(Event):
    """The seat must sit out its next turn (square 12, or 7 when choices are compulsory)."""

    kind: ClassVar[str] = "will_skip"
    seat: int
    square: int
    skips: int


@dataclass(frozen=True, slots=True)
class ExtraRoll(Event):
    kind: ClassVar[str] = "extra_roll"
    seat: int
    square: int


@dataclass(frozen=True, slots=True)
class Chorus(Event):
    """Square 17: everybody says "Poor Robinson!" with the parrot."""

    kind: ClassVar[str] = "chorus"
    seat: int


@dataclass(frozen=True, slots=True)
class BecameFriday(Event):
    kind: ClassVar[str] = "became_friday"
    master: int
    friday: int
    replaced: int | None  # the master's previous Friday, if any


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """Square 36: the lander goes to 41 and `others` (who stood on 41) go to 36."""

    kind: ClassVar[str] = "swapped"
    seat: int
    others: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Died(Event):
    kind: ClassVar[str] = "died"
    seat: int
    square: int


@dataclass(frozen=True, slots=True)
class FridayReleased(Event):
    """A Friday relation ended because one of its two players died."""

    kind: ClassVar[str] = "friday_released"
    master: int
    friday: int


@dataclass(frozen=True, slots=True)
class Won(Event):
    kind: ClassVar[str] = "won"
    seat: int
    bank: int  # X, the bank the winner takes


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winner: int | None
