"""The same games through the pure engine: `robinson.engine.apply`, one action at a time.

This is the reference the compiled simulator must reproduce, and the `--engine python` path of
`robinson simulate`: game g of a run rolls the faces `dice.faces(seed, g)` in order.
"""

from __future__ import annotations

from robinson.analysis.sim.batch import Batch, Setup
from robinson.analysis.sim.dice import check_seed, faces
from robinson.analysis.sim.policies import Decide
from robinson.engine import Phase, Roll, State, apply, new_game
from robinson.engine.events import BecameFriday, Moved, Skipped, TurnBegan, Won

# Moves that land (and resolve the square); canoe and swap moves trigger nothing.
_LANDING_CAUSES = frozenset({"roll", "restart", "footprint"})


def play(setup: Setup, game: int, decide: Decide, max_rolls: int) -> tuple[State, dict[str, int]]:
    """Game `game` of `setup`: the final state and counters (rolls, turns, pot, bindings)."""
    state = new_game(setup.players, setup.ruleset, setup.first)
    dice = faces(setup.seed, game)
    turns = [0] * setup.players
    turns[setup.first] = 1
    counts = {"rolls": 0, "pot": 0, "bindings": 0}
    landings = [0] * 46
    while not state.over:
        if state.phase is Phase.ROLL:
            if counts["rolls"] >= max_rolls:
                break
            action = Roll(next(dice))
            counts["rolls"] += 1
        else:
            action = decide(state)
        state, events = apply(state, action)
        for e in events:
            if isinstance(e, TurnBegan | Skipped):
                turns[e.seat] += 1
            elif isinstance(e, Moved) and e.cause in _LANDING_CAUSES:
                landings[e.end] += 1
            elif isinstance(e, BecameFriday):
                counts["bindings"] += 1
            elif isinstance(e, Won):
                counts["pot"] = e.bank
    if state.over and state.winner is None:
        counts["pot"] = state.bank
    counts["turns"] = sum(turns)
    counts["winner_turns"] = turns[state.winner] if state.winner is not None else 0
    counts.update({f"land{sq}": c for sq, c in enumerate(landings)})
    return state, counts


def run_batch(
    setup: Setup, decide: Decide, offset: int, count: int, max_rolls: int = 100_000
) -> Batch:
    """Games offset .. offset+count-1 of `setup` through the engine, as a `Batch`."""
    check_seed(setup.seed)
    batch = Batch.empty(offset, count, setup.players)
    for i in range(count):
        state, c = play(setup, offset + i, decide, max_rolls)
        if not state.over:
            batch.winner[i] = -2
        else:
            batch.winner[i] = -1 if state.winner is None else state.winner
        batch.rolls[i] = c["rolls"]
        batch.turns[i] = c["turns"]
        batch.winner_turns[i] = c["winner_turns"]
        batch.bank[i] = state.bank
        batch.pot[i] = c["pot"]
        batch.bindings[i] = c["bindings"]
        for s, p in enumerate(state.players):
            batch.position[i, s] = p.position
            batch.purse[i, s] = p.purse
            batch.alive[i, s] = p.alive
            batch.friday[i, s] = -1 if p.friday is None else p.friday
        for sq in range(46):
            batch.landings[sq] += c[f"land{sq}"]
    return batch
