"""Bots that need no analysis: random, eager and a heuristic one."""

from __future__ import annotations

import random
from typing import ClassVar

from robinson.bots.base import register
from robinson.engine import DECISIONS, SQUARES, Choose, Effect, Phase, State
from robinson.engine.board import target_of

# Tokens are worth little next to squares in a race; this weight only breaks near-ties.
_TOKEN_WEIGHT = 0.25


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Choose:
        return Choose(self._rng.choice(DECISIONS[state.phase]))


class EagerBot:
    """Always forward: never restart, never stay, always roll again, always jump."""

    name = "eager"
    _PICK: ClassVar[dict[Phase, str]] = {
        Phase.SHIPWRECK: "move",
        Phase.TREE: "move",
        Phase.BREAD: "again",
        Phase.CANOE: "jump",
    }

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose(self, state: State) -> Choose:
        return Choose(self._PICK[state.phase])


def _worth(square: int) -> float:
    """How good it is to stand on `square` after landing there: progress plus money."""
    sq = SQUARES[square]
    if sq.effect is Effect.FOOTPRINT:
        return _worth(14)
    if sq.effect is Effect.CANOE:
        return _worth(27)
    money = {Effect.RECEIVE: sq.amount, Effect.PAY: -sq.amount, Effect.NEIGHBOUR: -sq.amount}
    value = square + _TOKEN_WEIGHT * money.get(sq.effect, 0)
    if sq.effect is Effect.FEVER or sq.effect is Effect.GALLOWS:
        value -= 1.5  # a lost turn, or a sixth of a chance to die on each later roll
    return value


class HeuristicBot:
    """Compares where each option leaves the pawn, by progress and money."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed

    def choose(self, state: State) -> Choose:
        seat = state.to_move
        assert seat is not None
        here = state.players[seat].position
        face = state.pending_roll
        if state.phase is Phase.SHIPWRECK:
            assert face is not None
            restart = _worth(target_of(0, face)[0])
            move = _worth(target_of(here, face)[0])
            return Choose("restart" if restart > move else "move")
        if state.phase is Phase.TREE:
            assert face is not None
            return Choose("move" if _worth(target_of(here, face)[0]) > _worth(here) else "stay")
        if state.phase is Phase.BREAD:
            average = sum(_worth(target_of(here, f)[0]) for f in range(1, 7)) / 6
            return Choose("again" if average > _worth(here) else "stop")
        return Choose("jump")  # the canoe skips 25 and 26 and gains four squares


register("random", RandomBot)
register("eager", EagerBot)
register("heuristic", HeuristicBot)
