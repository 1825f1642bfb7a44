"""The compiled game loop: complete games under the full rules, many at once, with numba.

This is a second implementation of `robinson.engine.rules`, written for speed: one game's state
lives in a few small arrays, money and moves are plain integer arithmetic, and games are spread
over the cores in blocks (`prange`). Every branch mirrors a method of the engine's `_Table` and
is named after it in a comment; `tests/analysis/test_sim_engine.py` replays tens of thousands of
games through the engine and requires identical outcomes. The board itself is not repeated here:
`board_tables()` reads the engine's `SQUARES`.

Policies are tables, one per seat: `policy[seat, decision, face]` is the index of the option
taken in `DECISIONS` order (0 = restart / stay / again / jump, 1 = move / move / stop / stay).
Decisions are SHIPWRECK=0 and TREE=1 (by face 1..6), BREAD=2 and CANOE=3 (column 0). A policy
that looks at the other pawns (`optimal`) comes as a joint table instead (see `_option`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from robinson.engine import SQUARES, Effect
from robinson.engine import board as engine_board

# Square kinds, the compiled counterpart of `Effect` (the first three are tested as a range).
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

DEC_SHIPWRECK, DEC_TREE, DEC_BREAD, DEC_CANOE = 0, 1, 2, 3
NO_WINNER = -1  # everybody died
TRUNCATED = -2  # stopped at `max_rolls` (only a policy that can stall forever gets here)

_U = np.uint64
_GAMMA = _U(0x9E3779B97F4A7C15)
_MUL1 = _U(0xBF58476D1CE4E5B9)
_MUL2 = _U(0x94D049BB133111EB)
_SALT = _U(0xD1B54A32D192ED03)
_LIMIT16 = _U(65536 - 65536 % 6)
_S30, _S27, _S31, _S16, _SIX = _U(30), _U(27), _U(31), _U(16), _U(6)
_LOW16 = _U(0xFFFF)

_HOME = engine_board.HOME
_GALLOWS = engine_board.GALLOWS
_DEATH_ROLL = engine_board.DEATH_ROLL
_CANOE_TARGET = engine_board.CANOE_TARGET
_FOOTPRINT_TARGET = engine_board.FOOTPRINT_TARGET
_SHIP = engine_board.SHIP
_SHIP_SWAP = engine_board.SHIP_SWAP
_TREE_SQUARE = 7
_FEVER_SQUARE = 12
# The pawn codes of robinson.analysis.exact.codes: a square 0..44, or a pending skip on 12 / 7.
_K, _SKIP12, _SKIP7 = 47, 45, 46


def board_tables() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
    """Kind and amount of every square 0..45, read from the engine's board."""
    kinds = np.array([_KIND_OF[sq.effect] for sq in SQUARES], dtype=np.int8)
    amounts = np.array([sq.amount for sq in SQUARES], dtype=np.int32)
    return kinds, amounts


@njit(cache=True, inline="always")
def _mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit(cache=True)
def game_key(seed: np.uint64, game: np.uint64) -> np.uint64:
    return _mix64(_mix64(seed) ^ (game * _SALT))


@njit(cache=True, inline="always")
def _next_after(alive: npt.NDArray[np.bool_], n: int, seat: int) -> int:
    """The next living seat after `seat` in turn order, or -1 (rule 2.1)."""
    for k in range(1, n):
        s = seat + k
        if s >= n:
            s -= n
        if alive[s]:
            return s
    return -1


@njit(cache=True, inline="always")
def _right_neighbour(alive: npt.NDArray[np.bool_], n: int, seat: int) -> int:
    """The previous living seat, never the player himself, or -1 (rule 2.2)."""
    for k in range(1, n):
        s = seat - k
        if s < 0:
            s += n
        if alive[s]:
            return s
    return -1


@njit(cache=True, inline="always")
def _transfer(purse: npt.NDArray[np.int32], payer: int, payee: int, owed: int) -> None:
    paid = min(owed, purse[payer])
    purse[payer] -= paid
    purse[payee] += paid


@njit(cache=True, inline="always")
def _pay_bank(
    purse: npt.NDArray[np.int32], friday: npt.NDArray[np.int8], bank: int, seat: int, owed: int
) -> int:
    paid = min(owed, purse[seat])
    purse[seat] -= paid
    bank += paid
    f = friday[seat]
    if f >= 0:  # the duty is owed once per transfer, whatever was paid (6.2)
        duty = min(1, purse[f])
        purse[f] -= duty
        bank += duty
    return bank


@njit(cache=True, inline="always")
def _receive_bank(
    purse: npt.NDArray[np.int32], friday: npt.NDArray[np.int8], bank: int, seat: int, owed: int
) -> int:
    got = min(owed, bank)
    bank -= got
    purse[seat] += got
    f = friday[seat]
    if f >= 0:
        duty = min(1, bank)
        bank -= duty
        purse[f] += duty
    return bank


@njit(cache=True)
def _option(
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    pos: npt.NDArray[np.int8],
    skips: npt.NDArray[np.int32],
    alive: npt.NDArray[np.bool_],
    n: int,
    living: int,
    seat: int,
    decision: int,
    face: int,
) -> int:
    """The option `seat` takes (0 or 1, `DECISIONS` order). With no joint table, its own row of
    `policy`; with one (`robinson.analysis.policy`'s layout, `joint_offset[m]` the start of the
    table for m living players), the entry for the other living pawns' codes in turn order, where
    1 means the eager option, which is `policy`'s entry (an eager table)."""
    eager = np.int64(policy[seat, decision, face])
    if len(joint) == 0:
        return eager
    index = 0
    width = 1
    s = seat
    for _ in range(living - 1):
        s = _next_after(alive, n, s)
        p = np.int64(pos[s])
        code = p if skips[s] == 0 else (_SKIP12 if p == _FEVER_SQUARE else _SKIP7)
        index = index * _K + code
        width *= _K
    take_eager = joint[joint_offset[living] + (decision * 7 + face) * width + index]
    return eager if take_eager else 1 - eager


@njit(cache=True)
def play_game(
    key: np.uint64,
    n: int,
    first: int,
    optional: bool,
    fever_extra: bool,
    share_div: int,
    start_purse: int,
    stake: int,
    kinds: npt.NDArray[np.int8],
    amounts: npt.NDArray[np.int32],
    receive: npt.NDArray[np.int32],
    pay: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    max_rolls: int,
    pos: npt.NDArray[np.int8],
    purse: npt.NDArray[np.int32],
    alive: npt.NDArray[np.bool_],
    friday: npt.NDArray[np.int8],
    skips: npt.NDArray[np.int32],
    marked: npt.NDArray[np.bool_],
    turns: npt.NDArray[np.int32],
    landings: npt.NDArray[np.int64],
) -> tuple[int, int, int, int, int]:
    """One complete game in the given (overwritten) arrays.
    Returns (winner, rolls, bank at the end, pot the winner took, Friday bindings)."""
    for s in range(n):
        pos[s] = 0
        purse[s] = start_purse
        alive[s] = True
        friday[s] = -1
        skips[s] = 0
        marked[s] = False
        turns[s] = 0
    bank = n * stake
    living = n
    seat = first
    turns[seat] += 1
    counter = _U(0)
    bits = _U(0)
    chunks = 0  # 16-bit chunks of `bits` not used yet
    rolls = 0
    bindings = 0
    while True:
        if rolls >= max_rolls:
            return TRUNCATED, rolls, bank, 0, bindings
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
        face = np.int64(h % _SIX) + 1
        rolls += 1
        here = np.int64(pos[seat])
        end_turn = True
        if here == _GALLOWS and face == _DEATH_ROLL:  # _Table.die
            alive[seat] = False
            skips[seat] = 0
            marked[seat] = False
            friday[seat] = -1
            for m in range(n):
                if friday[m] == seat:
                    friday[m] = -1
            living -= 1
            if living == 0:
                return NO_WINNER, rolls, bank, bank, bindings
        else:  # _Table.roll / choose
            start = here
            move = True
            if marked[seat]:
                marked[seat] = False
                if not optional or _option(
                    policy, joint, joint_offset, pos, skips, alive, n, living, seat,
                    DEC_SHIPWRECK, face,
                ) == 0:  # fmt: skip
                    start = 0
            elif here == _TREE_SQUARE and optional:
                option = _option(
                    policy, joint, joint_offset, pos, skips, alive, n, living, seat, DEC_TREE, face
                )
                move = option != 0
            if move:  # _Table.move_by and land
                t = start + face
                if t > _HOME:
                    t = 2 * _HOME - t
                pos[seat] = t
                landings[t] += 1
                kind = kinds[t]
                if kind <= PAY:
                    # Story, receive and pay squares (three in four landings) in one branch:
                    # a chain of tests on `kind` costs a mispredicted branch or two per roll.
                    # Same arithmetic as _receive_bank / _pay_bank, with amount 0 for the other.
                    got = min(receive[t], bank)
                    paid = min(pay[t], purse[seat])
                    purse[seat] += got - paid
                    bank += paid - got
                    f = friday[seat]
                    if f >= 0:
                        duty_paid = min(np.int64(pay[t] > 0), purse[f])
                        duty_got = min(np.int64(receive[t] > 0), bank)
                        purse[f] += duty_got - duty_paid
                        bank += duty_paid - duty_got
                elif kind == TRAVEL:
                    payer = seat
                    for _ in range(living):
                        bank = _pay_bank(purse, friday, bank, payer, amounts[t])
                        payer = _next_after(alive, n, payer)
                elif kind == SHIPWRECK:
                    marked[seat] = True
                elif kind == TREE:
                    if not optional:
                        skips[seat] += 1
                elif kind == NEIGHBOUR:
                    nb = _right_neighbour(alive, n, seat)
                    if nb >= 0:
                        _transfer(purse, seat, nb, amounts[t])
                elif kind == FEVER:
                    if fever_extra:
                        end_turn = False
                    else:
                        skips[seat] += 1
                elif kind == BREAD:
                    if not optional or _option(
                        policy, joint, joint_offset, pos, skips, alive, n, living, seat,
                        DEC_BREAD, 0,
                    ) == 0:  # fmt: skip
                        end_turn = False
                elif kind == CANOE:
                    if not optional or _option(
                        policy, joint, joint_offset, pos, skips, alive, n, living, seat,
                        DEC_CANOE, 0,
                    ) == 0:  # fmt: skip
                        pos[seat] = _CANOE_TARGET
                elif kind == FOOTPRINT:  # back to 14, and 14 is resolved
                    pos[seat] = _FOOTPRINT_TARGET
                    landings[_FOOTPRINT_TARGET] += 1
                    bank = _receive_bank(purse, friday, bank, seat, amounts[_FOOTPRINT_TARGET])
                elif kind == FRIDAY:  # _Table.bind_friday
                    nb = _right_neighbour(alive, n, seat)
                    if nb >= 0:
                        _transfer(purse, nb, seat, amounts[t])
                        friday[seat] = nb
                        bindings += 1
                elif kind == RESCUE:  # _Table.rescue
                    f = friday[seat]
                    payer = _next_after(alive, n, seat)
                    for _ in range(living - 1):
                        if payer != f:
                            _transfer(purse, payer, seat, amounts[t])
                            if f >= 0:
                                _transfer(purse, payer, f, amounts[t])
                        payer = _next_after(alive, n, payer)
                elif kind == SHIP:  # _Table.swap
                    swapped = False
                    for s in range(n):
                        if s != seat and alive[s] and pos[s] == _SHIP_SWAP:
                            pos[s] = _SHIP
                            swapped = True
                    if swapped:
                        pos[seat] = _SHIP_SWAP
                elif kind == HOME:  # _Table.win
                    x = bank
                    bank = 0
                    purse[seat] += x
                    f = friday[seat]
                    if f >= 0:
                        _transfer(purse, seat, f, x // 3)
                    elif living > 1:
                        furthest = -1
                        count = 0
                        for s in range(n):
                            if s != seat and alive[s]:
                                if pos[s] > furthest:
                                    furthest = pos[s]
                                    count = 1
                                elif pos[s] == furthest:
                                    count += 1
                        each = x // share_div // count
                        payee = _next_after(alive, n, seat)
                        for _ in range(living - 1):
                            if pos[payee] == furthest:
                                _transfer(purse, seat, payee, each)
                            payee = _next_after(alive, n, payee)
                    return seat, rolls, bank, x, bindings
        if end_turn:  # _Table.end_turn: the next living seat, using up skips on the way
            while True:
                nxt = _next_after(alive, n, seat)
                if nxt >= 0:
                    seat = nxt
                turns[seat] += 1  # a skipped turn counts as a turn
                if skips[seat] == 0:
                    break
                skips[seat] -= 1


@njit(cache=True, parallel=True)
def play_games(
    seed: np.uint64,
    offset: int,
    count: int,
    n: int,
    first: int,
    optional: bool,
    fever_extra: bool,
    share_div: int,
    start_purse: int,
    stake: int,
    kinds: npt.NDArray[np.int8],
    amounts: npt.NDArray[np.int32],
    policy: npt.NDArray[np.int8],
    joint: npt.NDArray[np.uint8],
    joint_offset: npt.NDArray[np.int64],
    max_rolls: int,
    blocks: int,
    winner: npt.NDArray[np.int8],
    rolls: npt.NDArray[np.int32],
    turns: npt.NDArray[np.int32],
    winner_turns: npt.NDArray[np.int32],
    bank: npt.NDArray[np.int32],
    pot: npt.NDArray[np.int32],
    bindings: npt.NDArray[np.int32],
    pos: npt.NDArray[np.int8],
    purse: npt.NDArray[np.int32],
    alive: npt.NDArray[np.bool_],
    friday: npt.NDArray[np.int8],
    landings: npt.NDArray[np.int64],
) -> None:
    """Games offset .. offset+count-1 of `seed`, split into `blocks` contiguous blocks run in
    parallel. Per-game results go to row i = game - offset; landings are counted per block."""
    per_block = (count + blocks - 1) // blocks
    for b in prange(blocks):
        lo = b * per_block
        hi = min(count, lo + per_block)
        skips = np.zeros(n, dtype=np.int32)
        marked = np.zeros(n, dtype=np.bool_)
        receive = np.where(kinds == RECEIVE, amounts, 0).astype(np.int32)
        pay = np.where(kinds == PAY, amounts, 0).astype(np.int32)
        seat_turns = np.zeros(n, dtype=np.int32)
        for i in range(lo, hi):
            key = game_key(seed, _U(offset + i))
            w, r, bk, x, fb = play_game(
                key, n, first, optional, fever_extra, share_div, start_purse, stake,
                kinds, amounts, receive, pay, policy, joint, joint_offset, max_rolls,
                pos[i], purse[i], alive[i], friday[i], skips, marked, seat_turns, landings[b],
            )  # fmt: skip
            winner[i] = w
            rolls[i] = r
            bank[i] = bk
            pot[i] = x
            bindings[i] = fb
            total = 0
            for s in range(n):
                total += seat_turns[s]
            turns[i] = total
            winner_turns[i] = seat_turns[w] if w >= 0 else 0
