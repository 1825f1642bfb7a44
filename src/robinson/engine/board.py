"""The board as data: what each of the 45 squares does (RULES.md section 5).

The rules module dispatches on `Effect`; amounts and targets live here, not in code, so that the
texts, the analysis and the web board all read one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

HOME = 45
START = 0
GALLOWS = 42  # a 6 rolled here bounces 42 -> 48 -> 42: death (rule 7)
DEATH_ROLL = 6
FOOTPRINT_TARGET = 14
CANOE_TARGET = 27
SHIP = 36
SHIP_SWAP = 41


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
        4: Square(4, Effect.SHIPWRECK),
        7: Square(7, Effect.TREE),
        8: Square(8, Effect.PAY, 3),
        10: Square(10, Effect.NEIGHBOUR, 2),
        11: Square(11, Effect.RECEIVE, 1),
        12: Square(12, Effect.FEVER),
        14: Square(14, Effect.RECEIVE, 2),
        15: Square(15, Effect.PAY, 2),
        17: Square(17, Effect.CHORUS),
        18: Square(18, Effect.RECEIVE, 4),
        20: Square(20, Effect.BREAD),
        23: Square(23, Effect.CANOE, target=CANOE_TARGET),
        25: Square(25, Effect.FOOTPRINT, target=FOOTPRINT_TARGET),
        26: Square(26, Effect.PAY, 3),
        29: Square(29, Effect.FRIDAY, 2),
        32: Square(32, Effect.RESCUE, 1),
        33: Square(33, Effect.RECEIVE, 3),
        36: Square(36, Effect.SHIP, target=SHIP_SWAP),
        40: Square(40, Effect.RECEIVE, 4),
        42: Square(42, Effect.GALLOWS),
        45: Square(45, Effect.HOME),
    }
    return tuple(special.get(n, Square(n, Effect.STORY)) for n in range(HOME + 1))


# SQUARES[n] is square n; SQUARES[0] is the start, off the board.
SQUARES: tuple[Square, ...] = _board()


def target_of(position: int, roll: int) -> tuple[int, bool]:
    """Where a roll from `position` lands, and whether it bounced off 45 (rule 4.3)."""
    t = position + roll
    if t > HOME:
        return 2 * HOME - t, True
    return t, False
