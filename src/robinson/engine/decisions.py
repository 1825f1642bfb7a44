"""The decisions of the game, in one table: the only place that names them (RULES.md section 5).

Four squares let the player choose when the edition's choices are optional (`Choices.OPTIONAL`);
under compulsory choices the same squares apply their forward option by force. For each decision
the table says which square's effect offers it, when it is offered, its two options in the order
interfaces show them, and its forward ("eager") option, the one a player in a hurry takes.
Everything else in the project (bots, analysis, simulator, texts, web) derives from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from robinson.engine.board import (
    BREAD_SQUARE,
    CANOE_SQUARE,
    SHIPWRECK_SQUARE,
    TREE_SQUARE,
    Effect,
)
from robinson.engine.state import Phase


class Offered(Enum):
    """When a decision is put to the player."""

    ROLL_IN_VIEW = "roll_in_view"  # standing on the square, after rolling, before moving
    ON_LANDING = "on_landing"  # right after landing on the square


@dataclass(frozen=True, slots=True)
class Decision:
    phase: Phase  # what the game waits for while the decision is pending
    effect: Effect  # the square effect that offers it
    square: int  # where that effect stands on the standard board
    offered: Offered
    options: tuple[str, str]  # in the order interfaces show them
    forward: str  # the "eager" option: always onward

    def __post_init__(self) -> None:
        if self.forward not in self.options:
            raise ValueError(f"the forward option {self.forward!r} is not one of {self.options}")

    @property
    def other(self) -> str:
        """The option that is not the forward one."""
        return self.options[1 - self.options.index(self.forward)]

    @property
    def roll_in_view(self) -> bool:
        return self.offered is Offered.ROLL_IN_VIEW

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value,
            "square": self.square,
            "offered": self.offered.value,
            "options": list(self.options),
            "forward": self.forward,
        }


DECISION_TABLE: tuple[Decision, ...] = (
    Decision(
        Phase.SHIPWRECK,
        Effect.SHIPWRECK,
        SHIPWRECK_SQUARE,
        Offered.ROLL_IN_VIEW,
        ("restart", "move"),
        "move",
    ),
    Decision(Phase.TREE, Effect.TREE, TREE_SQUARE, Offered.ROLL_IN_VIEW, ("stay", "move"), "move"),
    Decision(
        Phase.BREAD, Effect.BREAD, BREAD_SQUARE, Offered.ON_LANDING, ("again", "stop"), "again"
    ),
    Decision(Phase.CANOE, Effect.CANOE, CANOE_SQUARE, Offered.ON_LANDING, ("jump", "stay"), "jump"),
)

# Derived views of the table.
DECISION_OF: dict[Phase, Decision] = {d.phase: d for d in DECISION_TABLE}
# The options each decision offers, in the order interfaces show them.
DECISIONS: dict[Phase, tuple[str, str]] = {d.phase: d.options for d in DECISION_TABLE}
# Every option name, each once, in table order.
OPTIONS: tuple[str, ...] = tuple(dict.fromkeys(o for d in DECISION_TABLE for o in d.options))
