"""The board as data: what each of the 45 squares does (RULES.md section 5).

A square's effect is a value: its kind (`Effect`) and its parameters (`amount`, `target`). The
rules module dispatches on the kind and reads the parameters from the square, never a square
number, so that a `Board` is data of the ruleset (each `Edition` carries one) and the texts, the
analysis, the simulator and the web board all read one table. The names below are the special
squares of the standard board, for the code and docs that speak of "the tree" or "the gallows".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from robinson.engine.errors import BadRuleset

HOME = 45
START = 0
DEATH_ROLL = 6
# The special squares of the standard board, by name.
SHIPWRECK_SQUARE = 4
TREE_SQUARE = 7
FEVER_SQUARE = 12
FOOTPRINT_TARGET = 14
BREAD_SQUARE = 20
CANOE_SQUARE = 23
FOOTPRINT_SQUARE = 25
CANOE_TARGET = 27
SHIP = 36
SHIP_SWAP = 41
GALLOWS = 42  # a 6 rolled here bounces 42 -> 48 -> 42: death (rule 7)


class Effect(Enum):
    STORY = "story"  # no rule effect
    TRAVEL = "travel"  # 1: everybody pays the bank
    RECEIVE = "receive"  # receive `amount` from the bank
    PAY = "pay"  # pay the bank `amount`
    SHIPWRECK = "shipwreck"  # 4: the next roll may (or must) count from 0
    TREE = "tree"  # 7: may stay / skips a turn
    NEIGHBOUR = "neighbour"  # 10: pay the right-hand neighbour `amount`
    FEVER = "fever"  # 12: extra roll or skip, by edition
    CHORUS = "chorus"  # 17: "Poor Robinson!"
    BREAD = "bread"  # 20: may roll again
    CANOE = "canoe"  # 23: may jump to 27
    FOOTPRINT = "footprint"  # 25: back to 14, and 14 is resolved
    FRIDAY = "friday"  # 29: the neighbour pays `amount` and becomes your Friday
    RESCUE = "rescue"  # 32: everybody pays you (and your Friday) `amount`
    SHIP = "ship"  # 36: swap with whoever stands on 41
    GALLOWS = "gallows"  # 42: a six kills
    HOME = "home"  # 45: the winner takes the bank


@dataclass(frozen=True, slots=True)
class Square:
    number: int
    effect: Effect
    amount: int = 0
    target: int | None = None


def _board() -> tuple[Square, ...]:
    special = {
        1: Square(1, Effect.TRAVEL, 1),
        3: Square(3, Effect.RECEIVE, 1),
        SHIPWRECK_SQUARE: Square(SHIPWRECK_SQUARE, Effect.SHIPWRECK),
        TREE_SQUARE: Square(TREE_SQUARE, Effect.TREE),
        8: Square(8, Effect.PAY, 3),
        10: Square(10, Effect.NEIGHBOUR, 2),
        11: Square(11, Effect.RECEIVE, 1),
        FEVER_SQUARE: Square(FEVER_SQUARE, Effect.FEVER),
        FOOTPRINT_TARGET: Square(FOOTPRINT_TARGET, Effect.RECEIVE, 2),
        15: Square(15, Effect.PAY, 2),
        17: Square(17, Effect.CHORUS),
        18: Square(18, Effect.RECEIVE, 4),
        BREAD_SQUARE: Square(BREAD_SQUARE, Effect.BREAD),
        CANOE_SQUARE: Square(CANOE_SQUARE, Effect.CANOE, target=CANOE_TARGET),
        FOOTPRINT_SQUARE: Square(FOOTPRINT_SQUARE, Effect.FOOTPRINT, target=FOOTPRINT_TARGET),
        26: Square(26, Effect.PAY, 3),
        29: Square(29, Effect.FRIDAY, 2),
        32: Square(32, Effect.RESCUE, 1),
        33: Square(33, Effect.RECEIVE, 3),
        SHIP: Square(SHIP, Effect.SHIP, target=SHIP_SWAP),
        40: Square(40, Effect.RECEIVE, 4),
        GALLOWS: Square(GALLOWS, Effect.GALLOWS),
        HOME: Square(HOME, Effect.HOME),
    }
    return tuple(special.get(n, Square(n, Effect.STORY)) for n in range(HOME + 1))


# Effects that move the pawn to `target`, and what must stand there.
_NEEDS_TARGET = (Effect.CANOE, Effect.FOOTPRINT, Effect.SHIP)


@dataclass(frozen=True, slots=True)
class Board:
    """Squares 0..45 of one edition: `board[n]` is square n (0 the start, off the board).

    Every board is a race to 45 with a bounce there (rule 4.3); what the squares on the way do is
    free. Construction checks the shape, so a bad board fails when its edition is defined."""

    squares: tuple[Square, ...]

    def __post_init__(self) -> None:
        if len(self.squares) != HOME + 1:
            raise BadRuleset(f"a board has squares 0..{HOME}, got {len(self.squares)}")
        for n, sq in enumerate(self.squares):
            if sq.number != n:
                raise BadRuleset(f"square {n} of the board is numbered {sq.number}")
            if sq.effect in _NEEDS_TARGET and (sq.target is None or not 0 < sq.target < HOME):
                raise BadRuleset(f"square {n} ({sq.effect.value}) needs a target 1..{HOME - 1}")
        if self.squares[HOME].effect is not Effect.HOME:
            raise BadRuleset(f"square {HOME} must be home")

    def __getitem__(self, number: int) -> Square:
        return self.squares[number]

    def square_of(self, effect: Effect) -> int:
        """The first square with `effect` (a decision's square, say); BadRuleset if none."""
        for sq in self.squares:
            if sq.effect is effect:
                return sq.number
        raise BadRuleset(f"this board has no {effect.value} square")


STANDARD_BOARD = Board(_board())
# SQUARES[n] is square n of the standard board; SQUARES[0] is the start, off the board.
SQUARES: tuple[Square, ...] = STANDARD_BOARD.squares


def target_of(position: int, roll: int) -> tuple[int, bool]:
    """Where a roll from `position` lands, and whether it bounced off 45 (rule 4.3)."""
    t = position + roll
    if t > HOME:
        return 2 * HOME - t, True
    return t, False
