"""One player alone: the absorbing chain of his pawn code, turn by turn, under a policy.

Q[c, c'] is the probability that a turn begun with code c ends with code c' (a skipped turn is a
turn: code "12, skip pending" goes to 12 with probability 1), `win[c]` and `dead[c]` the
probabilities that the turn ends the game. With N = (I - Q)^-1 (a 47 x 47 dense solve, so no
sparse machinery is needed here):
- P(finish) = (N win)[0], P(death) = (N dead)[0];
- P(T = t and finish) = (Q^(t-1) win)[0]; E[T; finish] = (N N win)[0], so the mean given he
  finishes is that over P(finish); median and 90th percentile come from the distribution;
- expected landings on square s per game = (e0 N) L[:, s], L[c, s] being the expected landings
  on s in a turn begun with c ("landing": a move by the die, a restart, or the footprint's
  return to 14, i.e. every move whose square is resolved; canoe and ship moves are not).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import GameSolution
from robinson.analysis.exact.turns import CHANCE, DEAD, DECIDE, WIN

# The turn distribution is summed until the unfinished mass is below this.
_TAIL = 1e-15


@dataclass(frozen=True)
class SingleFigures:
    p_finish: float
    p_death: float
    mean_turns: float  # given that he finishes
    median_turns: int
    p90_turns: int
    turns: npt.NDArray[np.float64]  # turns[t] = P(finishes on exactly turn t); turns[0] = 0
    landings: npt.NDArray[np.float64]  # landings[s] = expected landings on square s per game

    def to_json(self) -> dict[str, object]:
        return {
            "p_finish": self.p_finish,
            "p_death": self.p_death,
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
            "p90_turns": self.p90_turns,
        }


def turn_matrices(
    game: GameSolution,
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
]:
    """Q (K x K), win (K), dead (K) and L (K x 46) of one turn, under the game's solo policy."""
    trees = game.trees
    table = game.decision_table(1)[:, :, 0]
    k = codes.K
    q = np.zeros((k, k))
    win, dead = np.zeros(k), np.zeros(k)
    land = np.zeros((k, codes.HOME + 1))
    for c in range(k):
        stack = [(int(trees.start[c]), 1.0)]
        while stack:
            i, p = stack.pop()
            land[c] += p * trees.landings[i]
            if trees.ntype[i] == CHANCE:
                stack.extend((int(trees.child[i, f]), p / 6) for f in range(6))
            elif trees.ntype[i] == DECIDE:
                eager = table[trees.kind[i], trees.roll[i]]
                stack.append((int(trees.child[i, 0 if eager else 1]), p))
            elif trees.leaf[i] == WIN:
                win[c] += p
            elif trees.leaf[i] == DEAD:
                dead[c] += p
            else:
                q[c, trees.leaf[i]] += p
    return q, win, dead, land


def single_figures(game: GameSolution) -> SingleFigures:
    q, win, dead, land = turn_matrices(game)
    eye = np.eye(len(q))
    finish_from = np.linalg.solve(eye - q, win)
    p_finish = float(finish_from[0])
    p_death = float(np.linalg.solve(eye - q, dead)[0])
    mean = float(np.linalg.solve(eye - q, finish_from)[0]) / p_finish
    visits = np.linalg.solve((eye - q).T, np.eye(len(q))[0])
    turns = [0.0]
    row = np.eye(len(q))[0]
    while row.sum() > _TAIL:
        turns.append(float(row @ win))
        row = row @ q
    dist = np.array(turns)
    cumulative = np.cumsum(dist) / p_finish
    return SingleFigures(
        p_finish=p_finish,
        p_death=p_death,
        mean_turns=mean,
        median_turns=int(np.searchsorted(cumulative, 0.5)),
        p90_turns=int(np.searchsorted(cumulative, 0.9)),
        turns=dist,
        landings=visits @ land,
    )
