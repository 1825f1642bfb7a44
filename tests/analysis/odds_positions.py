"""Positions for the odds tests: random mid-game positions of any edition, and games played
from them to the end by the engine itself."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from statistics import NormalDist

from robinson.analysis.exact import codes
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.turns import build_turn_trees
from robinson.analysis.policy import EAGER_OPTION
from robinson.engine import DECISIONS, Choose, Phase, Player, Roll, Ruleset, State, apply, new_game

Z999 = 3.2905267314919255  # two-sided 99.9%
Decide = Callable[[State], Choose]


def eager(state: State) -> Choose:
    return Choose(EAGER_OPTION[state.phase])


def constructed(rng: random.Random, ruleset: Ruleset, seats: int, dead: int) -> State:
    """Pawns on random codes a pawn can hold (pending skips on 12 or 7 where the edition has
    them, the shipwreck mark exactly on 4), `dead` of them dead; the mover has no pending skip.
    Then one roll is played: at a decision square it leaves a decision pending."""
    held = [c for c, ok in enumerate(reachable_codes(build_turn_trees(ruleset))) if ok]
    plain = [c for c in held if not codes.has_skip(c)]
    skipping = [c for c in held if codes.has_skip(c)]
    while True:
        cs = [
            rng.choice(skipping if skipping and rng.random() < 0.3 else plain) for _ in range(seats)
        ]
        alive = [True] * seats
        for s in rng.sample(range(seats), dead):
            alive[s] = False
        living = [s for s in range(seats) if alive[s]]
        mover = rng.choice(living)
        # Half the time on a decision square (4 and 7 decide with the roll in view).
        cs[mover] = rng.choice([c for c in (4, 7) if c in plain] if rng.random() < 0.5 else plain)
        players = tuple(
            Player(
                position=codes.SQUARE_OF_CODE[c],
                purse=rng.randint(0, 25),
                alive=alive[s],
                skips=int(codes.has_skip(c)) if alive[s] else 0,
                shipwrecked=alive[s] and codes.SQUARE_OF_CODE[c] == 4,
            )
            for s, c in enumerate(cs)
        )
        state = State(ruleset, players, rng.randint(0, 30), mover, Phase.ROLL)
        after, _ = apply(state, Roll(rng.randint(1, 6)))
        if not after.over:
            return after if rng.random() < 0.7 else state


def played(rng: random.Random, ruleset: Ruleset, seats: int) -> State:
    """A position reached by play from the start: random dice, random choices, stopped after a
    random number of actions (at a decision when one comes up late enough)."""
    while True:
        state = new_game(seats, ruleset, rng.randrange(seats))
        stop = rng.randint(5, 160)
        for count in range(stop + 40):
            if state.over:
                break
            if state.phase is Phase.ROLL:
                if count >= stop:
                    return state
                state, _ = apply(state, Roll(rng.randint(1, 6)))
            else:
                if count >= stop:
                    return state
                state, _ = apply(state, Choose(rng.choice(DECISIONS[state.phase])))


def play_out(state: State, rng: random.Random, decide: Decide) -> int | None:
    """Play to the end with the engine; the winner (None: everybody died)."""
    while not state.over:
        if state.phase is Phase.ROLL:
            state, _ = apply(state, Roll(rng.randint(1, 6)))
        else:
            state, _ = apply(state, decide(state))
    return state.winner


def wins_from(state: State, games: int, seed: int, decide: Decide) -> list[int]:
    """Wins per seat, then the games nobody won, over `games` engine games from `state`."""
    rng = random.Random(seed)
    wins = [0] * (len(state.players) + 1)
    for _ in range(games):
        winner = play_out(state, rng, decide)
        wins[winner if winner is not None else -1] += 1
    return wins


def wilson(k: int, n: int, z: float = Z999) -> tuple[float, float]:
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def z_for(checks: int, confidence: float = 0.999) -> float:
    """The z of a two-sided interval that holds `checks` estimates at once with `confidence`
    (Bonferroni): a test of many seats and positions must not fail by chance one time in ten."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / (2 * checks))


def inside(p: float, k: int, n: int, checks: int = 1) -> bool:
    """Whether `p` lies in the 99.9% Wilson interval of k successes in n games, family-wise over
    `checks` such intervals."""
    lo, hi = wilson(k, n, z_for(checks))
    return lo - 1e-12 <= p <= hi + 1e-12
