"""The exact figures of `robinson analyze`, as one JSON-ready dict.

"The value of each choice" is given twice for every decision (square 4 or 7 with each roll in
view, 20, 23):
- `choices_alone`: a player alone, P(reaching 45) after each option;
- `choices`: in the game of `players` players, the mover's P(win) after each option, for every
  placing of the other pawns (codes a pawn can hold): the mean over placings (each placing
  counted once, not weighted by how often it occurs), how many placings favour the non-eager
  option, and its largest gain there; and, from 2 players, how often the decision arises per
  game and the other option's gain weighted by that (`robinson.analysis.arising`, everybody
  eager);
- `length`: every seat's turns of a whole game in expectation, everybody eager
  (`robinson.analysis.length`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from robinson.analysis.arising import arising
from robinson.analysis.decisions import DECISION_KINDS, DECISION_SQUARES, EAGER_OPTION, OTHER_OPTION
from robinson.analysis.exact import codes
from robinson.analysis.exact.game import GameSolution, check_exact, solve_game
from robinson.analysis.exact.kernel import DECISION_MARGIN
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.single import single_figures
from robinson.analysis.length import expected_turns
from robinson.engine import Ruleset


def _placings(game: GameSolution, m: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    ok = np.ones(1, dtype=bool)
    reachable = reachable_codes(game.trees)
    for _ in range(m - 1):
        ok = (ok[None, :] & reachable[:, None]).reshape(-1)
    return ok


def choices(game: GameSolution, m: int) -> list[dict[str, Any]]:
    placings = _placings(game, m)
    weighted = {(a.square, a.roll): a for a in arising(game.ruleset, m)} if m > 1 else {}
    rows: list[dict[str, Any]] = []
    for (kind, roll), values in sorted(game.options[m - 1].items()):
        phase = DECISION_KINDS[kind]
        eager, other = values[placings, 0, 0], values[placings, 1, 0]
        gain = other - eager
        rows.append(
            {
                "square": DECISION_SQUARES[phase],
                "roll": roll or None,
                "p_win": {
                    EAGER_OPTION[phase]: float(eager.mean()),
                    OTHER_OPTION[phase]: float(other.mean()),
                },
                "placings": int(placings.sum()),
                "placings_favouring": {OTHER_OPTION[phase]: int((gain > DECISION_MARGIN).sum())},
                "largest_gain": {OTHER_OPTION[phase]: float(max(gain.max(), 0.0))},
            }
        )
        found = weighted.get((DECISION_SQUARES[phase], roll or None))
        if found is not None:
            rows[-1]["arises_per_game"] = found.per_game
            rows[-1]["weighted_gain"] = {found.option: found.gain}
    return rows


def choices_alone(game: GameSolution) -> list[dict[str, Any]]:
    rows = []
    for (kind, roll), values in sorted(game.options[0].items()):
        phase = DECISION_KINDS[kind]
        rows.append(
            {
                "square": DECISION_SQUARES[phase],
                "roll": roll or None,
                "p_finish": {
                    EAGER_OPTION[phase]: float(values[0, 0, 0]),
                    OTHER_OPTION[phase]: float(values[0, 1, 0]),
                },
            }
        )
    return rows


def analyze(ruleset: Ruleset, players: int, policy: str) -> dict[str, Any]:
    """Every exact figure for `players` (1..4) under `ruleset` and `policy`."""
    from robinson.analysis.odds import tables

    check_exact(players, policy)
    game = solve_game(ruleset, players, policy)
    # The odds' tables keep the chains just solved (where they do not have them yet): the
    # weighted choice values below and the headline read the tables, which would otherwise
    # solve the same chains a second time on a machine that has none (4 players: seconds).
    tables.store_solution(ruleset, policy, [c.values for c in game.chains])
    alone = solve_game(ruleset, 1, policy) if players > 1 else game
    single = single_figures(alone)
    p_win = game.p_win()
    return {
        "edition": ruleset.edition,
        "players": players,
        "policy": policy,
        "ruleset": ruleset.to_json(),
        "p_win": p_win,
        "p_no_winner": max(0.0, 1.0 - sum(p_win)),
        "single": single.to_json(),
        "single_turns": [float(x) for x in single.turns[: _cut(single.turns)]],
        "single_landings": {str(s): float(single.landings[s]) for s in range(1, codes.HOME + 1)},
        "choices_alone": choices_alone(alone),
        "choices": choices(game, players),
        "length": {"turns": expected_turns(ruleset, players), "policy": "eager"},
        "solve": {
            "seconds": game.seconds,
            "sweeps": [c.sweeps for c in game.chains],  # the most any group needed
            "work": [c.updates for c in game.chains],  # state updates per state
            "residual": max(c.residual for c in game.chains),
            "converged": game.converged,
        },
    }


def _cut(turns: np.ndarray[Any, np.dtype[np.float64]]) -> int:
    """Length of the turn distribution worth printing: up to where 1e-9 of it remains."""
    tail = turns[::-1].cumsum()[::-1]
    return int(np.searchsorted(-tail, -1e-9)) + 1
