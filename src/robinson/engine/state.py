"""The game state: a frozen value. Every change makes a new state (see `rules.apply`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from robinson.engine.ruleset import Ruleset


class Phase(Enum):
    """What the game waits for next."""

    ROLL = "roll"  # a chance node: the die of the player to move
    SHIPWRECK = "shipwreck"  # on 4 with the mark, roll seen: restart or move
    TREE = "tree"  # on 7, roll seen: stay or move
    BREAD = "bread"  # just landed on 20: again or stop
    CANOE = "canoe"  # just landed on 23: jump or stay
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Player:
    position: int = 0
    purse: int = 0
    alive: bool = True
    friday: int | None = None  # seat of this player's Friday
    skips: int = 0  # turns still to sit out
    shipwrecked: bool = False  # the shipwreck mark of square 4


@dataclass(frozen=True, slots=True)
class State:
    ruleset: Ruleset
    players: tuple[Player, ...]
    bank: int
    to_move: int | None  # None once the game is over
    phase: Phase
    pending_roll: int | None = None  # the roll in view during SHIPWRECK and TREE decisions
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def is_chance_node(self) -> bool:
        return self.phase is Phase.ROLL

    @property
    def living(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.players) if p.alive)

    @property
    def total_tokens(self) -> int:
        return self.bank + sum(p.purse for p in self.players)

    def with_player(self, seat: int, **changes: object) -> State:
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)  # type: ignore[arg-type]
        return replace(self, players=tuple(players))

    def masters_of(self, seat: int) -> tuple[int, ...]:
        """Seats whose Friday is `seat`."""
        return tuple(i for i, p in enumerate(self.players) if p.friday == seat)
