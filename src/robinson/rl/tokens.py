"""`score(policy, objective="tokens")`: what a policy is worth in tokens, by paired simulation.

The exact chain forgets money (no rule reads a purse to move a pawn), so the tokens objective has
no exact solution: it is measured by playing the engine. From each seat the learner plays
`games` games against `opponents`, and the same games again with the eager policy in his seat,
on the same dice (game g rolls the faces of `random.Random(f"{seed}:{g}")` in order, and the
opponents' coin, for `random`, has its own stream): `tokens[i]` is his mean final purse change
(final purse minus `start_tokens`, the `reward="tokens"` of the environments) from seat i, and
`gain[i]` the paired difference to eager, game by game, which is far more precise than two
independent runs. Intervals are the normal 95% ones. A game cut at `MAX_ACTIONS` (a policy that
stays on the tree for ever) is left out of both runs of its pair and counted in `cut`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from robinson.analysis.sim.stats import Z95
from robinson.engine import (
    DECISION_OF,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Choose,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    State,
    apply,
    new_game,
)
from robinson.rl.positions import OPPONENTS, PawnPosition, _eager_share

DEFAULT_GAMES = 1_000
MAX_ACTIONS = 20_000
Decide = Callable[[State, random.Random], Choose]


@dataclass(frozen=True)
class TokenScore:
    players: int
    edition: str
    opponents: str
    tokens: tuple[float, ...]  # tokens[i]: the learner's mean final purse change from seat i
    tokens_ci95: tuple[tuple[float, float], ...]
    gain: tuple[float, ...]  # gain[i]: tokens[i] minus eager's in that seat, paired games
    gain_ci95: tuple[tuple[float, float], ...]
    games: int
    seed: int
    cut: int  # pairs left out, cut at MAX_ACTIONS
    seconds: float

    @property
    def mean(self) -> float:
        """The tokens from a seat drawn at random."""
        return sum(self.tokens) / len(self.tokens)


def score_tokens(
    policy: Callable[[Any], Any],
    players: int = 2,
    edition: str = "standard",
    *,
    opponents: str = "eager",
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    **ruleset: Any,
) -> TokenScore:
    """The tokens objective of `policy` (module docstring); `policy` as for `score`."""
    began = time.perf_counter()
    rules = Ruleset(edition, **ruleset)
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RobinsonError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}")
    if opponents not in OPPONENTS:
        raise RobinsonError(f"opponents must be one of {', '.join(OPPONENTS)}, got {opponents!r}")
    if type(games) is not int or games < 2:
        raise RobinsonError(f"games must be a whole number of at least 2, got {games!r}")
    learner, eager, rivals = _learner(policy), _eager, _opponents(opponents, rules, players)
    tokens: list[float] = []
    gain: list[float] = []
    tokens_ci: list[tuple[float, float]] = []
    gain_ci: list[tuple[float, float]] = []
    cut = 0
    for seat in range(players):
        mine, diffs = [], []
        for g in range(games):
            a = _play(rules, players, seat, learner, rivals, f"{seed}:{g}")
            b = _play(rules, players, seat, eager, rivals, f"{seed}:{g}")
            if a is None or b is None:
                cut += 1
                continue
            mine.append(a)
            diffs.append(a - b)
        for values, means, intervals in ((mine, tokens, tokens_ci), (diffs, gain, gain_ci)):
            m, low, high = _mean(values)
            means.append(m)
            intervals.append((low, high))
    return TokenScore(
        players, rules.edition, opponents, tuple(tokens), tuple(tokens_ci), tuple(gain),
        tuple(gain_ci), games, seed, cut, time.perf_counter() - began,
    )  # fmt: skip


def _mean(values: list[int]) -> tuple[float, float, float]:
    n = len(values)
    if n < 2:
        return math.nan, math.nan, math.nan
    m = sum(values) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return m, m - half, m + half


def _play(
    rules: Ruleset, players: int, seat: int, learner: Decide, rivals: Decide, dice: str
) -> int | None:
    """One engine game; the learner's final purse change (None: cut at MAX_ACTIONS)."""
    die, coin = random.Random(dice), random.Random(dice + ":coin")
    state = new_game(players, rules)
    for _ in range(MAX_ACTIONS):
        if state.over:
            return state.players[seat].purse - rules.start_tokens
        if state.phase is Phase.ROLL:
            state = apply(state, Roll(die.randint(1, 6)))[0]
        else:
            decide = learner if state.to_move == seat else rivals
            state = apply(state, decide(state, coin))[0]
    return None


def _eager(state: State, coin: random.Random) -> Choose:
    return Choose(DECISION_OF[state.phase].forward)


def _learner(policy: Callable[[Any], Any]) -> Decide:
    """The policy of pawn positions as the engine's decider; a mixed answer is drawn."""
    if not callable(policy):
        raise RobinsonError(f"policy must be a function of a PawnPosition, got {policy!r}")

    def decide(state: State, coin: random.Random) -> Choose:
        position = PawnPosition.of(state)
        answer = policy(position)
        share = _eager_share(answer, state.phase, position)  # checks the answer too
        if isinstance(answer, Mapping) and 0 < share < 1:
            forward = coin.random() < share
        else:
            forward = share == 1.0
        decision = DECISION_OF[state.phase]
        return Choose(decision.forward if forward else decision.other)

    return decide


def _opponents(name: str, rules: Ruleset, players: int) -> Decide:
    if name == "eager":
        return _eager
    if name == "random":
        return lambda state, coin: Choose(coin.choice(DECISION_OF[state.phase].options))
    from robinson.analysis.policy import make_policy

    optimal = make_policy("optimal", rules, players)
    return lambda state, coin: optimal.decide(state)
