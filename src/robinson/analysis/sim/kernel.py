"""The compiled game loop: complete games under the full rules, many at once, with numba.

The board is data: the step table and the `kinds`, `amounts` and `targets` of every square are
built from the ruleset's board (`steps.board_tables`); no square number is written here.

One roll costs one lookup in the step table (`steps.py`): where the pawn ends, where it lands,
what it receives from or pays to the bank, and whether the turn goes on or costs a skip. The few
rolls that do more (death, squares 1, 10, 29, 32, 36, 45, a joint policy's decisions) are played
out of line by `special.resolve`, a full port of the engine's rules. Games are played in blocks,
one call of `play_block` each (`fast.py` runs blocks on all cores); a game's state lives in one
small array (`special.py`), reused game after game.

Policies are tables, one per seat: `policy[seat, decision, face]` is the index of the option
taken in `DECISIONS` order (0 = restart / stay / again / jump, 1 = move / move / stop / stay).
Decisions are SHIPWRECK=0 and TREE=1 (by face 1..6), BREAD=2 and CANOE=3 (column 0). A policy
that looks at the other pawns (`optimal`) comes as a joint table instead (`special.option`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from robinson.analysis.sim.compiled import unmanaged
from robinson.analysis.sim.special import (
    ALIVE,
    ALL_DEAD,
    BINDINGS,
    FRIDAY_OF,
    NXT,
    POS,
    POT,
    PURSE,
    ROLL_AGAIN,
    SEAT_MASK,
    SKIPS,
    STATE_SIZE,
    TURNS,
    WON,
    resolve,
)
from robinson.analysis.sim.steps import (
    AMOUNT_MASK,
    EXTRA,
    FACES_PER_ROW,
    LAND_SHIFT,
    PAY_SHIFT,
    RECEIVE_SHIFT,
    ROWS,
    SKIP,
    SPECIAL,
    SQUARE_MASK,
)

NO_WINNER = -1  # everybody died
TRUNCATED = -2  # stopped at `max_rolls` (only a policy that can stall forever gets here)
LANDING_COLUMNS = 48  # squares 0..45, `steps.NO_LANDING`, padding

_U = np.uint64
_GAMMA = _U(0x9E3779B97F4A7C15)
_MUL1 = _U(0xBF58476D1CE4E5B9)
_MUL2 = _U(0x94D049BB133111EB)
_SALT = _U(0xD1B54A32D192ED03)
_LIMIT16 = _U(65536 - 65536 % 6)
_S30, _S27, _S31, _S16, _SIX = _U(30), _U(27), _U(31), _U(16), _U(6)
_LOW16 = _U(0xFFFF)


@njit(cache=True, inline="always")
def _mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit(cache=True)
def game_key(seed: np.uint64, game: np.uint64) -> np.uint64:
    return _mix64(_mix64(seed) ^ (game * _SALT))


@unmanaged(inline="always")
def _game(
    key: np.uint64,
    n: int,
    start: npt.NDArray[np.int64],
    optional: bool,
    fever_extra: bool,
    share_div: int,
    steps: npt.NDArray[np.int32],
    kinds: npt.NDArray[np.int8],
    amounts: npt.NDArray[np.int32],
    targets: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    max_rolls: int,
    full: bool,
    landings: npt.NDArray[np.int64],
    g: npt.NDArray[np.int64],
) -> tuple[int, int, int]:
    """One game on the dice stream `key`, from the position `start` (`fast.start_position`: a
    game state in `special.py`'s layout, then the bank and the seat to roll; the opening or any
    position at a roll), played in `g`: (the winner, the rolls, the bank after).

    With `full` False only the pawns are played: the money of a plain step, the landing counts
    and the turn counts are left out, since no rule reads them to move a pawn (RULES.md 5, 6,
    8); the out-of-line rolls (`special.resolve`) are played in full either way, and steps
    built without money (`steps.build_steps(money=False)`) make the squares whose effect is money
    alone plain, so far fewer rolls go out of line. Each caller passes `full` as a constant, so
    the compiler drops the dead branches from its loop."""
    for k in range(STATE_SIZE):
        g[k] = start[k]
    bank = start[STATE_SIZE]
    seat = start[STATE_SIZE + 1] & SEAT_MASK
    counter = _U(0)
    bits = _U(0)
    chunks = 0  # 16-bit chunks of `bits` not used yet
    rolls = 0
    while rolls < max_rolls:
        # the die: next accepted draw of this game's stream (see dice.py)
        while True:
            if chunks == 0:
                counter += _U(1)
                bits = _mix64(key + counter * _GAMMA)
                chunks = 4
            h = bits & _LOW16
            bits >>= _S16
            chunks -= 1
            if h < _LIMIT16:
                break
        face = int(h % _SIX) + 1
        rolls += 1
        # `& SEAT_MASK` and `& SQUARE_MASK` tell the compiler the indices are not negative
        # (no wraparound for negative indices needed)
        here = g[POS + seat] & SQUARE_MASK
        step = np.int64(steps[(seat * ROWS + here) * FACES_PER_ROW + face])
        if step & SPECIAL:
            status, bank = resolve(
                seat, face, bank, n, optional, fever_extra, share_div, kinds, amounts,
                targets, policy, joint, joint_offset, g, landings,
            )  # fmt: skip
            if status == WON:
                return seat, rolls, bank
            if status == ALL_DEAD:
                return NO_WINNER, rolls, bank
            again = status == ROLL_AGAIN
        else:
            g[POS + seat] = step & SQUARE_MASK
            if full:
                # The same arithmetic as special._receive_bank / _pay_bank with the other
                # amount 0, without a branch on which it is.
                landings[(step >> LAND_SHIFT) & SQUARE_MASK] += 1
                receive = (step >> RECEIVE_SHIFT) & AMOUNT_MASK
                pay = (step >> PAY_SHIFT) & AMOUNT_MASK
                got = min(receive, bank)
                paid = min(pay, g[PURSE + seat])
                g[PURSE + seat] += got - paid
                bank += paid - got
                f = g[FRIDAY_OF + seat]
                if f >= 0:
                    duty_paid = min(np.int64(pay > 0), g[PURSE + f])
                    duty_got = min(np.int64(receive > 0), bank)
                    g[PURSE + f] += duty_got - duty_paid
                    bank += duty_paid - duty_got
            if step & SKIP:
                g[SKIPS + seat] += 1
            again = (step & EXTRA) != 0
        if not again:  # _Table.end_turn: the next living seat, using up skips on the way
            seat = g[NXT + seat] & SEAT_MASK
            if full:
                g[TURNS + seat] += 1  # a skipped turn counts as a turn
            while g[SKIPS + seat] != 0:
                g[SKIPS + seat] -= 1
                seat = g[NXT + seat] & SEAT_MASK
                if full:
                    g[TURNS + seat] += 1
    return TRUNCATED, rolls, bank


# Without reference counting (`compiled.py`): it was half of the time of a game.
@unmanaged(nogil=True)
def play_block(
    seed: np.uint64,
    offset: int,
    n: int,
    start: npt.NDArray[np.int64],
    optional: bool,
    fever_extra: bool,
    share_div: int,
    steps: npt.NDArray[np.int32],
    kinds: npt.NDArray[np.int8],
    amounts: npt.NDArray[np.int32],
    targets: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    max_rolls: int,
    winner: npt.NDArray[np.int8],
    rolls_out: npt.NDArray[np.int32],
    turns_out: npt.NDArray[np.int32],
    winner_turns: npt.NDArray[np.int32],
    bank_out: npt.NDArray[np.int32],
    pot: npt.NDArray[np.int32],
    bindings: npt.NDArray[np.int32],
    pos_out: npt.NDArray[np.int8],
    purse_out: npt.NDArray[np.int32],
    alive_out: npt.NDArray[np.bool_],
    friday_out: npt.NDArray[np.int8],
    landings: npt.NDArray[np.int64],
    g: npt.NDArray[np.int64],
) -> None:
    """Games offset .. offset+len(winner)-1 of `seed`, one after the other, each from the
    position `start` (`_game`); row i of the outputs is game offset+i, with everything `Batch`
    holds. `g` is the state of the game being played."""
    for i in range(len(winner)):
        w, rolls, bank = _game(
            game_key(seed, _U(offset + i)), n, start, optional, fever_extra, share_div, steps,
            kinds, amounts, targets, policy, joint, joint_offset, max_rolls, True, landings, g,
        )  # fmt: skip
        winner[i] = w
        rolls_out[i] = rolls
        bank_out[i] = bank
        pot[i] = g[POT]
        bindings[i] = g[BINDINGS]
        total = 0
        for s in range(n):
            total += g[TURNS + s]
            pos_out[i, s] = g[POS + s]
            purse_out[i, s] = g[PURSE + s]
            alive_out[i, s] = g[ALIVE + s] != 0
            friday_out[i, s] = g[FRIDAY_OF + s]
        turns_out[i] = total
        winner_turns[i] = g[TURNS + w] if w >= 0 else 0


@unmanaged(nogil=True)
def play_winners(
    seed: np.uint64,
    offset: int,
    n: int,
    start: npt.NDArray[np.int64],
    optional: bool,
    fever_extra: bool,
    share_div: int,
    steps: npt.NDArray[np.int32],
    kinds: npt.NDArray[np.int8],
    amounts: npt.NDArray[np.int32],
    targets: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    max_rolls: int,
    winner: npt.NDArray[np.int8],
    landings: npt.NDArray[np.int64],
    g: npt.NDArray[np.int64],
) -> None:
    """Only the winners of the same games as `play_block` (the same dice, the same pawns), for
    the odds: without the money, the landings and the turn counts (`_game` with `full` False,
    `steps` built without money) a game costs less. `landings` is a scratch row the special
    rolls write and nobody reads."""
    for i in range(len(winner)):
        w, _, _ = _game(
            game_key(seed, _U(offset + i)), n, start, optional, fever_extra, share_div, steps,
            kinds, amounts, targets, policy, joint, joint_offset, max_rolls, False, landings, g,
        )  # fmt: skip
        winner[i] = w
