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

Nothing here names a square: the board comes from the ruleset (`board_tables`: each square's kind,
amount and target, read off the engine's `Board`), and special squares are found by their kind.
A new kind of square is one branch in `_step` (or `_OUT_OF_LINE`) and one in `special.resolve`.

The shipwreck mark needs no state: a living pawn has it exactly when it stands on the shipwreck
square (only a roll lands there, and the next roll always moves it, maybe back onto it with a
fresh mark). A landing on the footprint always goes on to land on its target: the counts of the
target get those of the footprint added after the run.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from robinson.engine import DEATH_ROLL as DEATH_ROLL  # re-exported for special.py
from robinson.engine import HOME as _HOME
from robinson.engine import STANDARD_BOARD, Board, Effect

# Square kinds, the compiled counterpart of `Effect`.
STORY, RECEIVE, PAY, TRAVEL, SHIPWRECK, TREE, NEIGHBOUR, FEVER = 0, 1, 2, 3, 4, 5, 6, 7
BREAD, CANOE, FOOTPRINT, FRIDAY, RESCUE, SHIP, HOME, GALLOWS = 8, 9, 10, 11, 12, 13, 14, 15
_KIND_OF = {
    Effect.STORY: STORY,
    Effect.CHORUS: STORY,  # an event for the interface only
    Effect.GALLOWS: GALLOWS,  # a landing does nothing: death is decided by the next roll
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
# Out of line only for their money: a landing there moves no pawn and ends the turn. Steps built
# without money (`build_steps(money=False)`, for the winners alone) make them plain.
_MONEY_ONLY = (TRAVEL, NEIGHBOUR, FRIDAY, RESCUE)

# Decision rows of a local table (`kernel` docstring): option 0 is restart / stay / again / jump.
DEC_SHIPWRECK, DEC_TREE, DEC_BREAD, DEC_CANOE = 0, 1, 2, 3
HOME_SQUARE = _HOME  # every board is a race to 45 (`HOME` above is the kind of its square)

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


BoardTables = tuple[npt.NDArray[np.int8], npt.NDArray[np.int32], npt.NDArray[np.int32]]


@cache
def board_tables(board: Board = STANDARD_BOARD) -> BoardTables:
    """Kind, amount and target of every square 0..45, read from the engine's board (the target
    is the square itself where the effect has none). Read-only arrays, shared."""
    kinds = np.array([_KIND_OF[sq.effect] for sq in board.squares], dtype=np.int8)
    amounts = np.array([sq.amount for sq in board.squares], dtype=np.int32)
    targets = np.array(
        [sq.number if sq.target is None else sq.target for sq in board.squares], dtype=np.int32
    )
    for sq in board.squares:
        if sq.effect is Effect.FOOTPRINT and kinds[targets[sq.number]] not in (STORY, RECEIVE):
            # both simulators resolve the landing at the footprint's end as a receipt only
            raise ValueError(
                f"the simulator resolves a footprint that lands on a story or receive square; "
                f"square {sq.number} leads to {sq.target}"
            )
    for array in (kinds, amounts, targets):
        array.flags.writeable = False
    return kinds, amounts, targets


def footprints(board: Board = STANDARD_BOARD) -> tuple[tuple[int, int], ...]:
    """(footprint square, its target) pairs: a landing on the first also lands on the second."""
    return tuple(
        (sq.number, sq.target)
        for sq in board.squares
        if sq.effect is Effect.FOOTPRINT and sq.target is not None
    )


def _plain(end: int, land: int, receive: int = 0, pay: int = 0, flags: int = 0) -> int:
    if not (0 <= receive <= AMOUNT_MASK and 0 <= pay <= AMOUNT_MASK):
        raise ValueError("bank amounts of a plain square must fit in 3 bits")
    return (
        end | land << LAND_SHIFT | receive << RECEIVE_SHIFT | pay << PAY_SHIFT | flags
    )  # fmt: skip


def _step(
    here: int,
    face: int,
    table: npt.NDArray[np.int8],
    optional: bool,
    fever_extra: bool,
    joint: bool,
    board: BoardTables,
    money: bool,
) -> int:
    kinds, amounts, targets = board
    if kinds[here] == GALLOWS and face == DEATH_ROLL:
        return SPECIAL
    start = here
    if kinds[here] == SHIPWRECK:  # the mark (see the module docstring)
        if optional and joint:
            return SPECIAL
        if not optional or table[DEC_SHIPWRECK, face] == 0:
            start = 0
    elif kinds[here] == TREE and optional:
        if joint:
            return SPECIAL
        if table[DEC_TREE, face] == 0:  # stay: no move, nothing happens
            return _plain(here, NO_LANDING)
    t = start + face
    if t > HOME_SQUARE:
        t = 2 * HOME_SQUARE - t
    kind = int(kinds[t])
    amount = int(amounts[t])
    if kind in _MONEY_ONLY and not money:
        return _plain(t, t)
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
        return _plain(int(targets[t]) if jump else t, t)
    if kind == FOOTPRINT:
        target = int(targets[t])
        return _plain(target, t, receive=int(amounts[target]) if kinds[target] == RECEIVE else 0)
    return _plain(t, t)  # story, and the shipwreck (its mark is the square itself)


def build_steps(
    tables: npt.NDArray[np.int8],
    optional: bool,
    fever_extra: bool,
    joint: bool,
    board: Board = STANDARD_BOARD,
    money: bool = True,
) -> npt.NDArray[np.int32]:
    """The steps of every seat on `board`, raveled: entry `(seat * ROWS + here) * FACES_PER_ROW +
    face`. `tables` are the seats' local decision tables (players x 4 x 7); with `joint`, the
    decisions are left to the joint table, out of line. Without `money` the steps are for the
    pawns alone (`kernel.play_winners`, which reads no money field): the squares whose effect is
    money alone are plain steps that pay nothing. A read-only array, shared by the calls
    with the same arguments: building it costs milliseconds of Python, as much as tens of
    thousands of games, and the odds ask for the same steps position after position."""
    local = np.ascontiguousarray(tables, dtype=np.int8)
    return _steps(local.tobytes(), local.shape, optional, fever_extra, joint, board, money)


@lru_cache(maxsize=64)
def _steps(
    tables: bytes,
    shape: tuple[int, ...],
    optional: bool,
    fever_extra: bool,
    joint: bool,
    board: Board,
    money: bool,
) -> npt.NDArray[np.int32]:
    arrays = board_tables(board)
    players = shape[0]
    seat_tables = np.frombuffer(tables, np.int8).reshape(shape)
    steps = np.full((players, ROWS, FACES_PER_ROW), SPECIAL, np.int32)
    for seat in range(players):
        same = next(s for s in range(seat + 1) if (seat_tables[s] == seat_tables[seat]).all())
        if same < seat:  # the same table gives the same steps (every seat eager, say)
            steps[seat] = steps[same]
            continue
        for here in range(HOME_SQUARE):
            for face in range(1, 7):
                steps[seat, here, face] = _step(
                    here, face, seat_tables[seat], optional, fever_extra, joint, arrays, money
                )
    raveled = steps.ravel()
    raveled.flags.writeable = False
    return raveled
