"""The abstract state of one pawn: a small integer code.

Money never changes where a pawn goes or who wins (payments move tokens only; no rule reads a
purse), so the chain forgets purses, the bank and Fridays. What remains per living player is the
square, plus whether a skipped turn is pending. The shipwreck mark needs no bit: a pawn carries it
exactly when it stands on 4 (it is set by landing there and removed by the next roll, and nothing
else moves a pawn onto or off 4); a pending skip is only ever held on 12 (fever) or, in editions
with compulsory choices, on 7 (the tree). The exploration of the engine in `turns.py` checks both
facts on every turn it expands.

Codes: 0..44 are the squares (0 the start), `SKIP12` is "on 12, next turn skipped", `SKIP7` "on
7, next turn skipped". K = 47 codes, the same for every edition so tables have one layout.
"""

from __future__ import annotations

from robinson.engine import FEVER_SQUARE, TREE_SQUARE, BadPosition
from robinson.engine import HOME as HOME  # re-exported: the codes run 0..HOME-1

SKIP12 = 45
SKIP7 = 46
K = 47

# The square each code stands for.
SQUARE_OF_CODE: tuple[int, ...] = (*range(HOME), FEVER_SQUARE, TREE_SQUARE)


def code(position: int, skips: int) -> int:
    """The code of a living pawn on `position` (0..44) with `skips` pending skipped turns."""
    if skips == 0 and 0 <= position < HOME:
        return position
    if skips == 1 and position == FEVER_SQUARE:
        return SKIP12
    if skips == 1 and position == TREE_SQUARE:
        return SKIP7
    raise BadPosition(
        f"no abstract code for a pawn on {position} with {skips} skip(s): expected a square 0..44"
        f" with no skip, or one skip on {FEVER_SQUARE} or {TREE_SQUARE}"
    )


def without_skip(c: int) -> int:
    """The code after the pending skip is used up."""
    return SQUARE_OF_CODE[c]


def has_skip(c: int) -> bool:
    return c >= HOME
