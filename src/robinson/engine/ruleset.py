"""Editions and options: the ruleset is data, validated when it is made.

The sources differ on two points only (RULES.md section 9): what the fever does, and whether the
"may" of the decision squares (`decisions.DECISION_TABLE`) offers a choice or compels. An
`Edition` is a board (`board.Board`, the squares as data) plus these two switches; a `Ruleset` is
an edition plus the money options. Editions live in a small registry found by name,
the way python-chess keeps its variants.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from robinson.engine.board import STANDARD_BOARD, Board
from robinson.engine.errors import BadRuleset

MIN_PLAYERS = 2
MAX_PLAYERS = 8


class Fever(Enum):
    """What landing on the fever square does."""

    EXTRA_ROLL = "extra_roll"
    SKIP_TURN = "skip_turn"


class Choices(Enum):
    """Whether the decision squares offer the player a decision or apply by force."""

    OPTIONAL = "optional"
    COMPULSORY = "compulsory"


class Share(Enum):
    """How much of the bank the winner shares with the nearest participant(s)."""

    HALF = "half"
    THIRD = "third"

    @property
    def divisor(self) -> int:
        return 2 if self is Share.HALF else 3


@dataclass(frozen=True, slots=True)
class Edition:
    name: str
    fever: Fever
    choices: Choices
    source: str
    board: Board = STANDARD_BOARD

    @property
    def optional(self) -> bool:
        return self.choices is Choices.OPTIONAL


EDITIONS: dict[str, Edition] = {
    e.name: e
    for e in (
        Edition("standard", Fever.SKIP_TURN, Choices.OPTIONAL, "the recommended reading"),
        Edition("lv", Fever.EXTRA_ROLL, Choices.OPTIONAL, "the Latvian text, literally"),
        Edition("cs", Fever.EXTRA_ROLL, Choices.OPTIONAL, "the Czech text, literally"),
        Edition("ca", Fever.SKIP_TURN, Choices.OPTIONAL, "the Catalan text, literally"),
        Edition("classic", Fever.SKIP_TURN, Choices.COMPULSORY, "the lost original, reconstructed"),
    )
}


def find_edition(name: str) -> Edition:
    """The edition called `name`, or `BadRuleset` listing the known names."""
    try:
        return EDITIONS[name]
    except (KeyError, TypeError):
        known = ", ".join(EDITIONS)
        raise BadRuleset(
            f"unknown edition {name!r}: expected one of {known}",
            key="edition",
            fields={"got": name, "known": known},
        ) from None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """An edition plus options. Construction validates; an invalid ruleset cannot exist."""

    edition: str = "standard"
    start_tokens: int = 30
    stake: int = 10
    share: str = "half"

    def __post_init__(self) -> None:
        find_edition(self.edition)
        for field in ("start_tokens", "stake"):
            value = getattr(self, field)
            if type(value) is not int:
                raise BadRuleset(
                    f"{field} must be a whole number, got {value!r}",
                    key=f"ruleset.{field}.whole",
                    fields={"got": value},
                )
        if self.start_tokens < 0:
            raise BadRuleset(
                f"start_tokens must be 0 or more, got {self.start_tokens}",
                key="ruleset.start_tokens",
                fields={"got": self.start_tokens},
            )
        if not 0 <= self.stake <= self.start_tokens:
            raise BadRuleset(
                f"stake must be between 0 and start_tokens ({self.start_tokens}), got {self.stake}",
                key="ruleset.stake",
                fields={"start": self.start_tokens, "got": self.stake},
            )
        if self.share not in {s.value for s in Share}:
            raise BadRuleset(
                f"share must be 'half' or 'third', got {self.share!r}",
                key="ruleset.share",
                fields={"got": self.share},
            )

    @property
    def rules(self) -> Edition:
        return find_edition(self.edition)

    @property
    def board(self) -> Board:
        return self.rules.board

    @property
    def fever(self) -> Fever:
        return self.rules.fever

    @property
    def optional_choices(self) -> bool:
        return self.rules.optional

    @property
    def share_divisor(self) -> int:
        return Share(self.share).divisor

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "start_tokens": self.start_tokens,
            "stake": self.stake,
            "share": self.share,
        }

    @classmethod
    def from_json(cls, data: object) -> Ruleset:
        """Read the `ruleset` object of a game record; omitted options take their defaults."""
        if not isinstance(data, dict):
            raise BadRuleset(
                f"ruleset must be an object with an 'edition', got {data!r}",
                key="ruleset.object",
            )
        allowed = {"edition", "start_tokens", "stake", "share"}
        unknown = set(data) - allowed
        if unknown:
            raise BadRuleset(
                f"unknown ruleset field(s) {sorted(unknown)}: expected {sorted(allowed)}",
                key="ruleset.unknown",
                fields={"unknown": ", ".join(sorted(unknown)), "known": ", ".join(sorted(allowed))},
            )
        if "edition" not in data:
            raise BadRuleset("ruleset needs an 'edition'", key="ruleset.needs")
        return cls(**data)


def check_player_count(n: int) -> None:
    if type(n) is not int or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise BadRuleset(
            f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n!r}",
            key="players",
            fields={"min": MIN_PLAYERS, "max": MAX_PLAYERS, "got": n},
        )
