"""The rolls the step table leaves out (`steps.SPECIAL`), played by a full port of the engine.

`resolve` is a second implementation of `robinson.engine.rules` for one roll: every branch mirrors
a method of the engine's `_Table` and is named after it in a comment. It handles any roll (the
kernel sends it only the special ones: death, squares 1, 10, 29, 32, 36, 45, and the decisions of
a joint policy); `tests/analysis/test_sim_engine.py` replays tens of thousands of games through
the engine and requires identical outcomes.

A game's whole state is one small int64 array `g` (so that calls pass one array, not ten):
per-seat rows of `MAX_SEATS` entries at the offsets below, then a few scalars. Turn order is kept
up to date on each death: `NXT + s` holds the next living seat after s (s itself when nobody else
lives, rule 2.1) and `PRV + s` the right-hand neighbour (-1 when there is none, rule 2.2).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robinson.analysis.sim.compiled import unmanaged
from robinson.analysis.sim.steps import (
    BREAD,
    CANOE,
    DEATH_ROLL,
    DEC_BREAD,
    DEC_CANOE,
    DEC_SHIPWRECK,
    DEC_TREE,
    FEVER,
    FOOTPRINT,
    FRIDAY,
    GALLOWS,
    HOME,
    HOME_SQUARE,
    NEIGHBOUR,
    PAY,
    RECEIVE,
    RESCUE,
    SHIP,
    SHIPWRECK,
    TRAVEL,
    TREE,
)

# What a roll leaves to the turn loop.
END_TURN, ROLL_AGAIN, WON, ALL_DEAD = 0, 1, 2, 3
# The layout of `g`.
MAX_SEATS = 8
POS, PURSE, ALIVE, FRIDAY_OF, SKIPS, NXT, PRV, TURNS = (k * MAX_SEATS for k in range(8))
LIVING, BINDINGS, POT = 8 * MAX_SEATS, 8 * MAX_SEATS + 1, 8 * MAX_SEATS + 2
STATE_SIZE = 8 * MAX_SEATS + 3
SEAT_MASK = MAX_SEATS - 1  # seat & SEAT_MASK == seat
# The pawn codes of robinson.analysis.exact.codes: a square 0..44, or a pending skip on the fever
# square (12) or the tree (7).
_K, _SKIP12, _SKIP7 = 47, 45, 46


@unmanaged()
def relink(g: npt.NDArray[np.int64], n: int) -> None:
    """Turn order among the living, for every seat (a dead one's `NXT` is where play goes on)."""
    for seat in range(n):
        g[NXT + seat] = seat
        for k in range(1, n):
            s = seat + k
            if s >= n:
                s -= n
            if g[ALIVE + s]:
                g[NXT + seat] = s
                break
        g[PRV + seat] = -1
        for k in range(1, n):
            s = seat - k
            if s < 0:
                s += n
            if g[ALIVE + s]:
                g[PRV + seat] = s
                break


@unmanaged(inline="always")
def _transfer(g: npt.NDArray[np.int64], payer: int, payee: int, owed: int) -> None:
    paid = min(owed, g[PURSE + payer])
    g[PURSE + payer] -= paid
    g[PURSE + payee] += paid


@unmanaged(inline="always")
def _pay_bank(g: npt.NDArray[np.int64], bank: int, seat: int, owed: int) -> int:
    paid = min(owed, g[PURSE + seat])
    g[PURSE + seat] -= paid
    bank += paid
    f = g[FRIDAY_OF + seat]
    if f >= 0:  # the duty is owed once per transfer, whatever was paid (6.2)
        duty = min(1, g[PURSE + f])
        g[PURSE + f] -= duty
        bank += duty
    return bank


@unmanaged(inline="always")
def _receive_bank(g: npt.NDArray[np.int64], bank: int, seat: int, owed: int) -> int:
    got = min(owed, bank)
    bank -= got
    g[PURSE + seat] += got
    f = g[FRIDAY_OF + seat]
    if f >= 0:
        duty = min(1, bank)
        bank -= duty
        g[PURSE + f] += duty
    return bank


@unmanaged()
def option(
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    g: npt.NDArray[np.int64],
    kinds: npt.NDArray[np.int8],
    seat: int,
    decision: int,
    face: int,
) -> int:
    """The option `seat` takes (0 or 1, `DECISIONS` order). With no joint table, its own row of
    `policy`; with one (`robinson.analysis.policy`'s layout, `joint_offset[m]` the start of the
    table for m living players), the entry for the other living pawns' codes in turn order, where
    1 means the eager option, which is `policy`'s entry (an eager table)."""
    eager = int(policy[seat, decision, face])
    if len(joint) == 0:
        return eager
    living = g[LIVING]
    index = 0
    width = 1
    s = seat
    for _ in range(living - 1):
        s = g[NXT + s]
        p = g[POS + s]
        code = p if g[SKIPS + s] == 0 else (_SKIP12 if kinds[p] == FEVER else _SKIP7)
        index = index * _K + code
        width *= _K
    take_eager = joint[joint_offset[living] + (decision * 7 + face) * width + index]
    return eager if take_eager else 1 - eager


@unmanaged(inline="always")
def resolve(
    seat: int,
    face: int,
    bank: int,
    n: int,
    optional: bool,
    fever_extra: bool,
    share_div: int,
    kinds: npt.NDArray[np.int8],
    amounts: npt.NDArray[np.int32],
    targets: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    g: npt.NDArray[np.int64],
    landings: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """Play `seat`'s roll of `face`: (what the turn does next, the bank after)."""
    living = g[LIVING]
    here = g[POS + seat]
    if kinds[here] == GALLOWS and face == DEATH_ROLL:  # _Table.die
        g[ALIVE + seat] = 0
        g[SKIPS + seat] = 0
        g[FRIDAY_OF + seat] = -1
        for m in range(n):
            if g[FRIDAY_OF + m] == seat:
                g[FRIDAY_OF + m] = -1
        g[LIVING] = living - 1
        if living == 1:
            g[POT] = bank
            return ALL_DEAD, bank
        relink(g, n)
        return END_TURN, bank
    start = here  # _Table.roll / choose
    if kinds[here] == SHIPWRECK:  # the mark is the square (steps.py)
        if (
            not optional
            or option(policy, joint, joint_offset, g, kinds, seat, DEC_SHIPWRECK, face) == 0
        ):
            start = 0
    elif (
        kinds[here] == TREE
        and optional
        and option(policy, joint, joint_offset, g, kinds, seat, DEC_TREE, face) == 0
    ):  # stay
        return END_TURN, bank
    t = start + face  # _Table.move_by and land
    if t > HOME_SQUARE:
        t = 2 * HOME_SQUARE - t
    g[POS + seat] = t
    landings[t] += 1
    kind = kinds[t]
    amount = int(amounts[t])
    if kind == RECEIVE:
        bank = _receive_bank(g, bank, seat, amount)
    elif kind == PAY:
        bank = _pay_bank(g, bank, seat, amount)
    elif kind == TRAVEL:
        payer = seat
        for _ in range(living):
            bank = _pay_bank(g, bank, payer, amount)
            payer = g[NXT + payer]
    elif kind == TREE:
        if not optional:
            g[SKIPS + seat] += 1
    elif kind == NEIGHBOUR:
        nb = g[PRV + seat]
        if nb >= 0:
            _transfer(g, seat, nb, amount)
    elif kind == FEVER:
        if fever_extra:
            return ROLL_AGAIN, bank
        g[SKIPS + seat] += 1
    elif kind == BREAD:
        if not optional or option(policy, joint, joint_offset, g, kinds, seat, DEC_BREAD, 0) == 0:
            return ROLL_AGAIN, bank
    elif kind == CANOE:
        if not optional or option(policy, joint, joint_offset, g, kinds, seat, DEC_CANOE, 0) == 0:
            g[POS + seat] = targets[t]
    elif kind == FOOTPRINT:  # back to 14, and 14 is resolved (its landing: steps.py)
        target = targets[t]
        g[POS + seat] = target
        if kinds[target] == RECEIVE:  # the only kind a footprint may lead to (steps.py)
            bank = _receive_bank(g, bank, seat, amounts[target])
    elif kind == FRIDAY:  # _Table.bind_friday
        nb = g[PRV + seat]
        if nb >= 0:
            _transfer(g, nb, seat, amount)
            g[FRIDAY_OF + seat] = nb
            g[BINDINGS] += 1
    elif kind == RESCUE:  # _Table.rescue
        f = g[FRIDAY_OF + seat]
        payer = g[NXT + seat]
        for _ in range(living - 1):
            if payer != f:
                _transfer(g, payer, seat, amount)
                if f >= 0:
                    _transfer(g, payer, f, amount)
            payer = g[NXT + payer]
    elif kind == SHIP:  # _Table.swap
        swap = targets[t]
        swapped = False
        for s in range(n):
            if s != seat and g[ALIVE + s] and g[POS + s] == swap:
                g[POS + s] = t
                swapped = True
        if swapped:
            g[POS + seat] = swap
    elif kind == HOME:  # _Table.win
        x = bank
        bank = 0
        g[PURSE + seat] += x
        g[POT] = x
        f = g[FRIDAY_OF + seat]
        if f >= 0:
            _transfer(g, seat, f, x // 3)
        elif living > 1:
            furthest = -1
            count = 0
            for s in range(n):
                if s != seat and g[ALIVE + s]:
                    if g[POS + s] > furthest:
                        furthest = g[POS + s]
                        count = 1
                    elif g[POS + s] == furthest:
                        count += 1
            each = x // share_div // count
            payee = g[NXT + seat]
            for _ in range(living - 1):
                if g[POS + payee] == furthest:
                    _transfer(g, seat, payee, each)
                payee = g[NXT + payee]
        return WON, bank
    return END_TURN, bank
