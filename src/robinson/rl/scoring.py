"""`score(policy, players, edition)`: the exact win chance of a policy, from the exact chain.

The policy
----------
A policy is a function of the pawn position at a decision:

    policy(position: PawnPosition) -> str | Mapping[str, float] | Choose

It gets a `PawnPosition` (the decision, the roll in view, the mover's square, and the square and
pending skips of every other living pawn, in turn order after the mover) and answers with one of
`position.options`, or a probability for each (a mixed policy: `{"move": 0.5, "restart": 0.5}`
is the random player). Money is not in it: no rule reads a purse or the bank to decide where a
pawn goes or who wins (docs/analysis.md), so the win chance depends on the pawns only. To score
an agent that reads money, feed it `position.to_state(players, ruleset)` (an engine state with
the pawns placed and the money as at the start).

What is computed
----------------
The learner sits at seat i (seat 0 moves first), everybody else plays `opponents` (`eager`,
`optimal`: the project's exact equilibrium, each deciding as in `robinson.analysis.policy`, or
`random`: each option with probability 1/2). The joint chain of `robinson.analysis.exact` is
solved with one learner (`analysis/exact/kernel.py` says how), for every seat at once:
`Score.p_win[i]` is the learner's probability of winning from seat i. `Score.best[i]` is the
most any policy can get there against these opponents (the learner's best response, by value
iteration): the optimum a trained agent can be compared with. Exact chains cover 2 to 4 players.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from robinson.analysis.exact import codes, kernel
from robinson.analysis.exact.game import EXACT_MAX_PLAYERS, TOLERANCE
from robinson.analysis.exact.joint import FlatTurns, chain_model, flatten, solve_stages
from robinson.analysis.exact.levels import reachable_codes, solve_order
from robinson.analysis.exact.turns import TurnTrees, build_turn_trees
from robinson.analysis.policy import DECISION_KINDS
from robinson.engine import (
    DECISION_OF,
    MIN_PLAYERS,
    Phase,
    RobinsonError,
    Ruleset,
)
from robinson.rl.positions import OPPONENTS, PawnPosition, _eager_share
from robinson.rl.regret import Regret, regret_table
from robinson.rl.tokens import DEFAULT_GAMES as TOKEN_GAMES
from robinson.rl.tokens import TokenScore, score_tokens

_MAX_SWEEPS = 100_000


Policy = Callable[[PawnPosition], Any]


@dataclass(frozen=True)
class Score:
    players: int
    edition: str
    opponents: str
    p_win: tuple[float, ...]  # p_win[i]: the learner's chance to win from seat i
    best: tuple[float, ...] | None  # the best response's chance from seat i
    residual: float  # largest Bellman residual over every chain solved
    seconds: float
    # regret[m - 1]: where the policy loses with m living players (`score(..., regret=True)`).
    regret: tuple[Regret, ...] | None = None

    @property
    def converged(self) -> bool:
        return self.residual <= TOLERANCE

    @property
    def mean(self) -> float:
        """The chance from a seat drawn at random."""
        return sum(self.p_win) / len(self.p_win)


@overload
def score(
    policy: Policy,
    players: int = ...,
    edition: str = ...,
    *,
    opponents: str = ...,
    best: bool = ...,
    objective: Literal["win"] = ...,
    batched: bool = ...,
    regret: bool = ...,
    **ruleset: Any,
) -> Score: ...


@overload
def score(
    policy: Policy,
    players: int = ...,
    edition: str = ...,
    *,
    opponents: str = ...,
    objective: Literal["tokens"],
    games: int = ...,
    seed: int = ...,
    **ruleset: Any,
) -> TokenScore: ...


def score(
    policy: Policy,
    players: int = 2,
    edition: str = "standard",
    *,
    opponents: str = "eager",
    best: bool = True,
    objective: str = "win",
    games: int = TOKEN_GAMES,
    seed: int = 0,
    batched: bool = False,
    regret: bool = False,
    **ruleset: Any,
) -> Score | TokenScore:
    """The exact chance that `policy` wins from each seat against `opponents` (module doc).
    `best=False` skips the best response (half the work). 4 players take a while: about
    1.2 million calls of `policy` and two solves of a 4.9-million-state chain.

    `objective="tokens"`: the final purse change instead, measured on `games` paired engine
    games per seat from `seed` (`robinson.rl.tokens`; money is not in the exact chain).

    `batched=True`: `policy` takes a list of positions and returns a list of answers, one call
    per number of living players instead of one per position (a vectorised agent).

    `regret=True` (with `best`): `Score.regret`, where the policy loses (`robinson.rl.regret`)."""
    if objective == "tokens":
        return score_tokens(
            policy, players, edition, opponents=opponents, games=games, seed=seed, **ruleset
        )
    if objective != "win":
        raise RobinsonError(f"objective must be 'win' or 'tokens', got {objective!r}")
    began = time.perf_counter()
    rules = Ruleset(edition, **ruleset)
    if type(players) is not int or not MIN_PLAYERS <= players <= EXACT_MAX_PLAYERS:
        raise RobinsonError(
            f"score covers {MIN_PLAYERS} to {EXACT_MAX_PLAYERS} players (the exact chain), "
            f"got {players!r}"
        )
    if opponents not in OPPONENTS:
        raise RobinsonError(f"opponents must be one of {', '.join(OPPONENTS)}, got {opponents!r}")
    if not callable(policy):
        raise RobinsonError(f"policy must be a function of a PawnPosition, got {policy!r}")
    trees = build_turn_trees(rules)
    flat = flatten(trees)
    held = reachable_codes(trees)
    learner = [_tabulate(policy, rules, flat, held, m, batched) for m in range(1, players + 1)]
    rivals = [_opponent_table(opponents, rules, players, flat, m) for m in range(1, players + 1)]
    if regret and not best:
        raise RobinsonError("regret=True needs the best response (best=True)")
    p_win, worst, _ = _solve(trees, flat, learner, rivals, players, best=False)
    top: tuple[float, ...] | None = None
    tables: tuple[Regret, ...] | None = None
    if best:
        top, worst_best, chains = _solve(trees, flat, learner, rivals, players, best=True)
        worst = max(worst, worst_best)
        if regret:
            tables = tuple(
                regret_table(flat, chains[m - 1], chains[m - 2] if m > 1 else np.zeros((1, 1)),
                             learner[m - 1], rivals[m - 1], _others(m, held))
                for m in range(1, players + 1)
            )  # fmt: skip
    seconds = time.perf_counter() - began
    return Score(players, rules.edition, opponents, p_win, top, worst, seconds, tables)


def _solve(
    trees: TurnTrees,
    flat: FlatTurns,
    learner: list[npt.NDArray[np.float64]],
    rivals: list[npt.NDArray[np.float64]],
    players: int,
    best: bool,
) -> tuple[tuple[float, ...], float, list[npt.NDArray[np.float64]]]:
    """Solve the chains of 1..players living players in turn; the learner's chances from the
    start, the largest Bellman residual, and the values of every chain."""
    vsub = np.zeros((1, 1))
    worst = 0.0
    threads = os.cpu_count() or 1
    chains = []
    for m in range(1, players + 1):
        v = np.zeros((codes.K**m, m))
        # The mover decides as the learner in his own column (or at his best: best response),
        # as the opponents in the others' (analysis/exact/kernel.py).
        rules = (kernel.BEST if best else kernel.TABLE, learner[m - 1], kernel.TABLE, rivals[m - 1])
        model = chain_model(flat, v, vsub, rules)
        solved = solve_stages(solve_order(trees, m), model, TOLERANCE, _MAX_SWEEPS, threads)
        worst = max(worst, solved.residual)
        vsub = v
        chains.append(v)
    return tuple(float(x) for x in vsub[0]), worst, chains


def _others(m: int, held: npt.NDArray[np.bool_]) -> list[tuple[int, tuple[int, ...]]]:
    """Every placing of the m - 1 other pawns on codes a pawn can hold: (index r, codes)."""
    k = codes.K
    held_codes = [c for c in range(k) if held[c]]
    out = []
    for combo in itertools.product(held_codes, repeat=m - 1):
        r = 0
        for c in combo:
            r = r * k + c
        out.append((r, combo))
    return out


def _tabulate(
    policy: Policy,
    ruleset: Ruleset,
    flat: FlatTurns,
    held: npt.NDArray[np.bool_],
    m: int,
    batched: bool = False,
) -> npt.NDArray[np.float64]:
    """table[d, r]: the probability that the learner takes the eager option at decision d. A
    batched policy gets every position of m living pawns in one list and answers with a list."""
    table = np.ones((max(len(flat.keys), 1), codes.K ** (m - 1)))
    square_of = codes.SQUARE_OF_CODE
    cells: list[tuple[int, int, Phase, PawnPosition]] = []
    for r, combo in _others(m, held):
        others = tuple((square_of[c], int(codes.has_skip(c))) for c in combo)
        for d, (kind, roll) in enumerate(flat.keys):
            phase = DECISION_KINDS[kind]
            square = ruleset.board.square_of(DECISION_OF[phase].effect)
            cells.append((d, r, phase, PawnPosition(phase.value, roll or None, square, others)))
    if batched:
        batch: Callable[[list[PawnPosition]], Any] = policy  # type: ignore[assignment]
        answers = list(batch([cell[3] for cell in cells])) if cells else []
        if len(answers) != len(cells):
            raise RobinsonError(
                f"a batched policy answers each of the {len(cells)} positions it is given,"
                f" got {len(answers)} answers"
            )
    else:
        answers = [policy(cell[3]) for cell in cells]
    for (d, r, phase, position), answer in zip(cells, answers, strict=True):
        table[d, r] = _eager_share(answer, phase, position)
    return table


def _opponent_table(
    name: str, ruleset: Ruleset, players: int, flat: FlatTurns, m: int
) -> npt.NDArray[np.float64]:
    size = (max(len(flat.keys), 1), codes.K ** (m - 1))
    if name == "eager":
        return np.ones(size)
    if name == "random":
        return np.full(size, 0.5)
    from robinson.analysis.exact.optimal import OptimalPolicy

    tables = OptimalPolicy.solve(ruleset, players).tables[m]
    out = np.ones(size)
    for d, (kind, roll) in enumerate(flat.keys):
        out[d] = tables[kind, roll]
    return out
