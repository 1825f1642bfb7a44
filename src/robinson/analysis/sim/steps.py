"""The board folded into one lookup per roll: `steps[seat, here, face]` says what a roll of `face`
by `seat` standing on `here` does, for every roll that only moves a pawn and touches the mover's
own purse and the bank (about nine rolls in ten).

Such a *plain* step is one int32 (fields below): the square the pawn ends on, the square it
lands on (for the landing counts; `NO_LANDING` when it stays in the tree), the tokens received
from or paid to the bank, and whether the turn goes on with an extra roll or costs a skipped turn.
The bounce at 45, the footprint (25 -> 14, receive 2), the canoe, the shipwreck restart, the tree,
bread and fever are all folded in, under the seat's local decision table. Everything else is
`SPECIAL` and resolved out of line by `special.resolve`, a full port of the engine's rules:
death, squares 1, 10, 29, 32, 36 and 45, and (with a joint policy such as `optimal`, which looks at
the other pawns) the four decisions.

The shipwreck mark needs no state: a living pawn has it exactly when it stands on 4 (only a roll
lands there, and the next roll always moves it, maybe back onto 4 with a fresh mark). A landing
on 25 always goes on to land on 14: the counts of 14 get those of 25 added after the run.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robinson.engine import SQUARES, Effect
from robinson.engine import board as engine_board

# Square kinds, the compiled counterpart of `Effect`.
STORY, RECEIVE, PAY, TRAVEL, SHIPWRECK, TREE, NEIGHBOUR, FEVER = 0, 1, 2, 3, 4, 5, 6, 7
BREAD, CANOE, FOOTPRINT, FRIDAY, RESCUE, SHIP, HOME = 8, 9, 10, 11, 12, 13, 14
_KIND_OF = {
    Effect.STORY: STORY,
    Effect.CHORUS: STORY,  # an event for the interface only
    Effect.GALLOWS: STORY,  # death is decided by the roll, before any landing
    Effect.TRAVEL: TRAVEL,
    Effect.RECEIVE: RECEIVE,
    Effect.PAY: PAY,
    Effect.SHIPWRECK: SHIPWRECK,
    Effect.TREE: TREE,
    Effect.NEIGHBOUR: NEIGHBOUR,
    Effect.FEVER: FEVER,
    Effect.BREAD: BREAD,
    Effect.CANOE: CANOE,
    Effect.FOOTPRINT: FOOTPRINT,
    Effect.FRIDAY: FRIDAY,
    Effect.RESCUE: RESCUE,
    Effect.SHIP: SHIP,
    Effect.HOME: HOME,
}
_OUT_OF_LINE = (TRAVEL, NEIGHBOUR, FRIDAY, RESCUE, SHIP, HOME)

# Decision rows of a local table (`kernel` docstring): option 0 is restart / stay / again / jump.
DEC_SHIPWRECK, DEC_TREE, DEC_BREAD, DEC_CANOE = 0, 1, 2, 3

HOME_SQUARE = engine_board.HOME
GALLOWS = engine_board.GALLOWS
DEATH_ROLL = engine_board.DEATH_ROLL
CANOE_TARGET = engine_board.CANOE_TARGET
FOOTPRINT_SQUARE = 25
FOOTPRINT_TARGET = engine_board.FOOTPRINT_TARGET
SHIPWRECK_SQUARE = 4
TREE_SQUARE = 7
FEVER_SQUARE = 12
SHIP_SQUARE = engine_board.SHIP
SHIP_SWAP = engine_board.SHIP_SWAP

# Fields of a step: bits 0-5 the square the pawn ends on, 6-11 the square landed on, 12-14
# tokens received from the bank, 15-17 tokens paid to it, then the flags.
LAND_SHIFT, RECEIVE_SHIFT, PAY_SHIFT = 6, 12, 15
SQUARE_MASK, AMOUNT_MASK = 63, 7
EXTRA = 1 << 18  # the turn goes on: roll again
SKIP = 1 << 19  # the mover's next turn is skipped
SPECIAL = 1 << 20  # not a plain step: `special.resolve` plays the roll
NO_LANDING = 46  # a landing count nobody reads (the pawn stayed in the tree)
ROWS = 48  # squares 0..44 the pawn can roll from, padded
FACES_PER_ROW = 8  # faces 1..6, padded


def board_tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """Kind and amount of every square 0..45, read from the engine's board."""
    kinds = np.array([_KIND_OF[sq.effect] for sq in SQUARES], dtype=np.int8)
    amounts = np.array([sq.amount for sq in SQUARES], dtype=np.int32)
    return kinds, amounts


def _plain(end: int, land: int, receive: int = 0, pay: int = 0, flags: int = 0) -> int:
    if not (0 <= receive <= AMOUNT_MASK and 0 <= pay <= AMOUNT_MASK):
        raise ValueError("bank amounts of a plain square must fit in 3 bits")
    return (
        end | land << LAND_SHIFT | receive << RECEIVE_SHIFT | pay << PAY_SHIFT | flags
    )  # fmt: skip


_KINDS, _AMOUNTS = board_tables()


def _step(
    here: int,
    face: int,
    table: npt.NDArray[np.int8],
    optional: bool,
    fever_extra: bool,
    joint: bool,
) -> int:
    kinds, amounts = _KINDS, _AMOUNTS
    if here == GALLOWS and face == DEATH_ROLL:
        return SPECIAL
    start = here
    if here == SHIPWRECK_SQUARE:  # the mark (see the module docstring)
        if optional and joint:
            return SPECIAL
        if not optional or table[DEC_SHIPWRECK, face] == 0:
            start = 0
    elif here == TREE_SQUARE and optional:
        if joint:
            return SPECIAL
        if table[DEC_TREE, face] == 0:  # stay: no move, nothing happens
            return _plain(TREE_SQUARE, NO_LANDING)
    t = start + face
    if t > HOME_SQUARE:
        t = 2 * HOME_SQUARE - t
    kind = int(kinds[t])
    amount = int(amounts[t])
    if kind in _OUT_OF_LINE:
        return SPECIAL
    if kind == RECEIVE:
        return _plain(t, t, receive=amount)
    if kind == PAY:
        return _plain(t, t, pay=amount)
    if kind == TREE:
        return _plain(t, t, flags=0 if optional else SKIP)
    if kind == FEVER:
        return _plain(t, t, flags=EXTRA if fever_extra else SKIP)
    if kind == BREAD:
        if optional and joint:
            return SPECIAL
        again = not optional or table[DEC_BREAD, 0] == 0
        return _plain(t, t, flags=EXTRA if again else 0)
    if kind == CANOE:
        if optional and joint:
            return SPECIAL
        jump = not optional or table[DEC_CANOE, 0] == 0
        return _plain(CANOE_TARGET if jump else t, t)
    if kind == FOOTPRINT:
        return _plain(FOOTPRINT_TARGET, t, receive=int(amounts[FOOTPRINT_TARGET]))
    return _plain(t, t)  # story, and the shipwreck (its mark is the square itself)


def build_steps(
    tables: npt.NDArray[np.int8], optional: bool, fever_extra: bool, joint: bool
) -> npt.NDArray[np.int32]:
    """The steps of every seat, raveled: entry `(seat * ROWS + here) * FACES_PER_ROW + face`.
    `tables` are the seats' local decision tables (players x 4 x 7); with `joint`, the decisions
    are left to the joint table, out of line."""
    players = tables.shape[0]
    steps = np.full((players, ROWS, FACES_PER_ROW), SPECIAL, np.int32)
    for seat in range(players):
        for here in range(HOME_SQUARE):
            for face in range(1, 7):
                steps[seat, here, face] = _step(
                    here, face, tables[seat], optional, fever_extra, joint
                )
    return steps.ravel()
