"""Simulated chances of a position with five to eight living players: the fast simulator plays
`games` games from the position itself (`Setup.position`), on the dice of `seed`.

There is no optimal solution beyond four living players, so `optimal` is played as eager
(`policy_played`), as `robinson analyze` does. At a pending decision each option is played by the
engine and the position it leads to is simulated the same way (same games, same seed); the
chances are those of the option the played policy takes.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt

from robinson.analysis.policy import EAGER_OPTION
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.fast import run_winners
from robinson.analysis.sim.kernel import NO_WINNER, TRUNCATED
from robinson.analysis.sim.policies import fast_tables
from robinson.analysis.sim.stats import proportion
from robinson.engine import DECISIONS, Choose, Phase, RobinsonError, Ruleset, State, apply

PLAYED = "eager"


@functools.lru_cache(maxsize=32)
def _tables(ruleset: Ruleset, players: int) -> npt.NDArray[np.int8]:
    return fast_tables(PLAYED, ruleset, players)


def winners(state: State, games: int, seed: int) -> npt.NDArray[np.int8]:
    """The winner of each of `games` games played from `state` (a position at a roll)."""
    n = len(state.players)
    setup = Setup(state.ruleset, n, seed=seed, position=state)
    return run_winners(setup, _tables(state.ruleset, n), 0, games)


def _chances(state: State, games: int, seed: int) -> dict[str, Any]:
    if state.over:
        p = [1.0 if s == state.winner else 0.0 for s in range(len(state.players))]
        return {"p_win": p, "ci95": [[x, x] for x in p], "p_no_winner": float(state.winner is None)}
    if state.phase is not Phase.ROLL:  # a decision the option led to: the played policy's
        return _chances(apply(state, Choose(EAGER_OPTION[state.phase]))[0], games, seed)
    n = len(state.players)
    # one pass over the winners: counts[k] of the winner k + 2 (so the cut games are 0, the
    # games without a winner 1, and seat s is s + 2)
    counts = np.bincount(winners(state, games, seed) - TRUNCATED, minlength=n + 2).tolist()
    counted = games - counts[0]
    if counted == 0:
        raise RobinsonError("every simulated game was cut at the roll limit")
    estimates = [proportion(counts[s - TRUNCATED], counted) for s in range(n)]
    return {
        "p_win": [e.value for e in estimates],
        "ci95": [[e.low, e.high] for e in estimates],
        "p_no_winner": counts[NO_WINNER - TRUNCATED] / counted,
    }


def simulated_odds(state: State, policy: str, games: int, seed: int) -> dict[str, Any]:
    """`robinson.analysis.odds.position_odds` for five to eight living players."""
    options: dict[str, float] | None = None
    if state.phase is not Phase.ROLL and not state.over:
        seat = state.to_move
        assert seat is not None
        after = {
            o: _chances(apply(state, Choose(o))[0], games, seed) for o in DECISIONS[state.phase]
        }
        options = {o: figures["p_win"][seat] for o, figures in after.items()}
        figures = after[EAGER_OPTION[state.phase]]
    else:
        figures = _chances(state, games, seed)
    out: dict[str, Any] = {
        "p_win": figures["p_win"],
        "p_no_winner": figures["p_no_winner"],
        "method": "simulation",
        "policy": policy,
        "ci95": figures["ci95"],
        "games": games,
        "policy_played": PLAYED,
        "seed": seed,
    }
    if options is not None:
        out["options"] = options
    return out
