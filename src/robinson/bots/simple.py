"""Bots that need no analysis: random, eager and a heuristic one."""

from __future__ import annotations

import random

from robinson.bots.base import register
from robinson.engine import (
    DECISION_OF,
    DECISIONS,
    FACES,
    Board,
    Choose,
    Effect,
    Phase,
    State,
    target_of,
)

# Tokens are worth little next to squares in a race; this weight only breaks near-ties.
_TOKEN_WEIGHT = 0.25


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Choose:
        return Choose(self._rng.choice(DECISIONS[state.phase]))


class EagerBot:
    """Always forward: never restart, never stay, always roll again, always jump (the forward
    option of the engine's decision table)."""

    name = "eager"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose(self, state: State) -> Choose:
        return Choose(DECISION_OF[state.phase].forward)


def _worth(board: Board, square: int) -> float:
    """How good it is to stand on `square` of `board` after landing there: progress plus money."""
    sq = board[square]
    if sq.effect is Effect.FOOTPRINT or sq.effect is Effect.CANOE:
        return _worth(board, square if sq.target is None else sq.target)  # where it leads
    money = {Effect.RECEIVE: sq.amount, Effect.PAY: -sq.amount, Effect.NEIGHBOUR: -sq.amount}
    value = square + _TOKEN_WEIGHT * money.get(sq.effect, 0)
    if sq.effect is Effect.FEVER or sq.effect is Effect.GALLOWS:
        value -= 1.5  # a lost turn, or a sixth of a chance to die on each later roll
    return value


class HeuristicBot:
    """Compares where each option leaves the pawn, by progress and money, on the board of the
    ruleset it plays."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose(self, state: State) -> Choose:
        seat = state.to_move
        assert seat is not None
        board = state.ruleset.board
        here = state.players[seat].position
        face = state.pending_roll
        decision = DECISION_OF[state.phase]
        onward, other = decision.forward, decision.other
        if state.phase is Phase.SHIPWRECK:
            assert face is not None
            restart = _worth(board, target_of(0, face)[0])
            move = _worth(board, target_of(here, face)[0])
            return Choose(other if restart > move else onward)
        if state.phase is Phase.TREE:
            assert face is not None
            move = _worth(board, target_of(here, face)[0])
            return Choose(onward if move > _worth(board, here) else other)
        if state.phase is Phase.BREAD:
            average = sum(_worth(board, target_of(here, f)[0]) for f in FACES) / len(FACES)
            return Choose(onward if average > _worth(board, here) else other)
        return Choose(onward)  # the canoe skips 25 and 26 and gains four squares


register("random", RandomBot)
register("eager", EagerBot)
register("heuristic", HeuristicBot)
