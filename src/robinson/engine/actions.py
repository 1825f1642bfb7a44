"""The two kinds of action: a die face for the player to move, or a decision option."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from robinson.engine.decisions import OPTIONS
from robinson.engine.errors import MalformedInput

FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True)
class Roll:
    face: int

    def __post_init__(self) -> None:
        if type(self.face) is not int or self.face not in FACES:
            raise MalformedInput(
                f"a roll is a whole number from 1 to 6, got {self.face!r}",
                key="roll",
                fields={"got": self.face},
            )

    def to_json(self) -> dict[str, Any]:
        return {"roll": self.face}

    def __str__(self) -> str:
        return f"roll {self.face}"


@dataclass(frozen=True, slots=True)
class Choose:
    option: str

    def __post_init__(self) -> None:
        if self.option not in OPTIONS:
            raise MalformedInput(
                f"a choice is one of {', '.join(OPTIONS)}, got {self.option!r}",
                key="choice",
                fields={"known": ", ".join(OPTIONS), "got": self.option},
            )

    def to_json(self) -> dict[str, Any]:
        return {"choose": self.option}

    def __str__(self) -> str:
        return f"choose {self.option}"


Action = Roll | Choose


def action_from_json(data: object) -> Action:
    """Read `{"roll": r}` or `{"choose": c}` (RULES.md section 10)."""
    if isinstance(data, dict) and len(data) == 1:
        ((key, value),) = data.items()
        if key == "roll":
            return Roll(value)
        if key == "choose":
            return Choose(value)
    raise MalformedInput(
        f'an action is {{"roll": 1..6}} or {{"choose": option}}, got {data!r}',
        key="action",
        fields={"got": data},
    )
