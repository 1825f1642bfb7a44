"""Comebacks: how often the leader after k rounds wins, and how often the lead changes, 4
players, standard, eager, on engine games (the compiled kernel keeps no per-round positions)."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from robinson.analysis.sim.stats import Estimate, proportion
from robinson.engine import (
    DECISION_OF,
    Choose,
    Phase,
    Roll,
    Ruleset,
    State,
    TurnBegan,
    apply,
    new_game,
)

COMEBACK_GAMES = 20_000  # engine games: per-round positions, which the compiled kernel keeps not
COMEBACK_ROUNDS = (1, 2, 4, 6, 8, 10, 12, 14)


@dataclass(frozen=True)
class Comebacks:
    """4 players, standard, eager, `games` engine games: after k rounds (a turn of every living
    player), how often the sole leader (the living pawn furthest along, alone there) goes on
    to win, among the games still running with a sole leader; and how often the sole leader
    changes between the ends of two rounds, per game."""

    players: int
    games: int
    leader_wins: dict[int, Estimate]
    lead_changes: float


def comebacks(games: int, seed: int, players: int = 4) -> Comebacks:
    rules = Ruleset("standard")
    rng = random.Random(seed)
    top = max(COMEBACK_ROUNDS)
    leaders_at: list[list[int | None]] = []  # per game: the sole leader at each round's end
    winners: list[int | None] = []
    for _ in range(games):
        state = new_game(players, rules)
        last_seat = -1
        leaders: list[int | None] = []
        while not state.over:
            if state.phase is Phase.ROLL:
                state, events = apply(state, Roll(rng.randint(1, 6)))
            else:
                state, events = apply(state, Choose(DECISION_OF[state.phase].forward))
            for e in events:
                if isinstance(e, TurnBegan):
                    if e.seat <= last_seat and len(leaders) < top:  # a new round: one has ended
                        leaders.append(_sole_leader(state))
                    last_seat = e.seat
        leaders_at.append(leaders)
        winners.append(state.winner)
    wins = {}
    for k in COMEBACK_ROUNDS:
        held = [(ls[k - 1], w) for ls, w in zip(leaders_at, winners, strict=True)
                if len(ls) >= k and ls[k - 1] is not None]  # fmt: skip
        wins[k] = proportion(sum(1 for leader, w in held if leader == w), len(held))
    changes = 0
    for ls in leaders_at:
        sole = [x for x in ls if x is not None]
        changes += sum(1 for a, b in itertools.pairwise(sole) if a != b)
    return Comebacks(players, games, wins, changes / games)


def _sole_leader(state: State) -> int | None:
    alive = [(p.position, s) for s, p in enumerate(state.players) if p.alive]
    best = max(pos for pos, _ in alive)
    at_best = [s for pos, s in alive if pos == best]
    return at_best[0] if len(at_best) == 1 else None
