"""Complete random 4-player games per second with the pure engine.

    .venv/bin/python benchmarks/engine_games.py [--seconds 5] [--edition standard]

Dice and choices come from one seeded random.Random; the figure is wall-clock complete games per
second on one core (the engine is single-threaded).
"""

from __future__ import annotations

import argparse
import random
import time

from robinson.engine import Phase, Roll, Ruleset, apply, legal_actions, new_game

FACES = [Roll(f) for f in range(1, 7)]


def play_one(rng: random.Random, ruleset: Ruleset, players: int) -> int:
    state = new_game(players, ruleset)
    actions = 0
    while not state.over:
        if state.phase is Phase.ROLL:
            action = FACES[rng.randrange(6)]
        else:
            action = rng.choice(legal_actions(state))
        state, _ = apply(state, action)
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--edition", default="standard")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    ruleset = Ruleset(args.edition)
    rng = random.Random(2026)
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < args.seconds:
        actions += play_one(rng, ruleset, args.players)
        games += 1
    print(f"engine: {args.players}-player {args.edition} random games")
    print(f"  {games} games, {actions} actions in {elapsed:.2f} s")
    print(f"  {games / elapsed:,.0f} games/s, {actions / elapsed:,.0f} actions/s")


if __name__ == "__main__":
    main()
