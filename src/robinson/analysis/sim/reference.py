"""The same games through the pure engine: `robinson.engine.apply`, one action at a time.

This is the reference the compiled simulator must reproduce, and the `--engine python` path of
`robinson simulate`: game g of a run rolls the faces `dice.faces(seed, g)` in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from robinson.analysis.sim.batch import SQUARE_COUNT, Batch, Setup
from robinson.analysis.sim.dice import check_seed, faces
from robinson.analysis.sim.policies import Decide
from robinson.engine import (
    Action,
    BecameFriday,
    Moved,
    Phase,
    Roll,
    Skipped,
    State,
    TurnBegan,
    Won,
    apply,
)

# Moves that land (and resolve the square); canoe and swap moves trigger nothing.
_LANDING_CAUSES = frozenset({"roll", "restart", "footprint"})


@dataclass
class Counts:
    """What a game's events tell beyond its final state."""

    rolls: int = 0
    turns: int = 0
    winner_turns: int = 0
    pot: int = 0
    bindings: int = 0
    landings: list[int] = field(default_factory=lambda: [0] * SQUARE_COUNT)


def play(setup: Setup, game: int, decide: Decide, max_rolls: int) -> tuple[State, Counts]:
    """Game `game` of `setup`: the final state and what its events counted."""
    state = setup.start()
    dice = faces(setup.seed, game)
    turns = [0] * setup.players
    assert state.to_move is not None
    turns[state.to_move] = 1  # the turn being played counts
    c = Counts()
    landings = c.landings
    roll_phase = Phase.ROLL
    while not state.over:
        if state.phase is roll_phase:
            if c.rolls >= max_rolls:
                break
            action: Action = Roll(next(dice))
            c.rolls += 1
        else:
            action = decide(state)
        state, events = apply(state, action)
        for e in events:
            # exact types: a dispatch cheaper than isinstance on every event
            if type(e) is TurnBegan or type(e) is Skipped:
                turns[e.seat] += 1
            elif type(e) is Moved:
                if e.cause in _LANDING_CAUSES:
                    landings[e.end] += 1
            elif type(e) is BecameFriday:
                c.bindings += 1
            elif type(e) is Won:
                c.pot = e.bank
    if state.over and state.winner is None:
        c.pot = state.bank
    c.turns = sum(turns)
    c.winner_turns = turns[state.winner] if state.winner is not None else 0
    return state, c


def run_batch(
    setup: Setup, decide: Decide, offset: int, count: int, max_rolls: int = 100_000
) -> Batch:
    """Games offset .. offset+count-1 of `setup` through the engine, as a `Batch`."""
    check_seed(setup.seed)
    batch = Batch.empty(offset, count, setup.players)
    landings = [0] * SQUARE_COUNT
    for i in range(count):
        state, c = play(setup, offset + i, decide, max_rolls)
        if not state.over:
            batch.winner[i] = -2
        else:
            batch.winner[i] = -1 if state.winner is None else state.winner
        batch.rolls[i] = c.rolls
        batch.turns[i] = c.turns
        batch.winner_turns[i] = c.winner_turns
        batch.bank[i] = state.bank
        batch.pot[i] = c.pot
        batch.bindings[i] = c.bindings
        batch.position[i] = [p.position for p in state.players]
        batch.purse[i] = [p.purse for p in state.players]
        batch.alive[i] = [p.alive for p in state.players]
        batch.friday[i] = [-1 if p.friday is None else p.friday for p in state.players]
        landings = [a + b for a, b in zip(landings, c.landings, strict=True)]
    batch.landings[:] = landings
    return batch
