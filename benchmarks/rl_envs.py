"""Games per second through each RL interface, and the time of an exact `score`.

    .venv/bin/python benchmarks/rl_envs.py [--seconds 5] [--players 4] [--score-players 3]

Random legal actions, seeded; wall-clock figures on one core. `score` is timed for the eager
policy against optimal players (the optimal tables come from the disk cache after the first run).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def pettingzoo_games(players: int, seconds: float) -> float:
    from robinson.rl import aec_env

    env, rng, games = aec_env(players), np.random.default_rng(0), 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        env.reset(seed=games)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            done = terminated or truncated
            env.step(None if done else rng.choice(np.flatnonzero(obs["action_mask"])))
        games += 1
    return games / (time.perf_counter() - began)


def gymnasium_games(players: int, seconds: float) -> float:
    from robinson.rl import SingleAgentEnv

    env, rng, games = SingleAgentEnv(players, opponents="random"), np.random.default_rng(0), 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        env.reset(seed=games)
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(rng.integers(2)))
        games += 1
    return games / (time.perf_counter() - began)


def openspiel_games(players: int, seconds: float) -> float:
    import pyspiel

    import robinson.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("python_robinson", {"players": players})
    rng, games = np.random.default_rng(0), 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(6)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        games += 1
    return games / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--score-players", type=int, default=3)
    args = parser.parse_args()
    for name, run in [
        ("pettingzoo aec_env", pettingzoo_games),
        ("gymnasium SingleAgentEnv", gymnasium_games),
        ("openspiel python_robinson", openspiel_games),
    ]:
        rate = run(args.players, args.seconds)
        print(f"{name:28} {args.players} players: {rate:8.1f} games/s")

    from robinson.rl import score

    def eager(position):  # type: ignore[no-untyped-def]
        return {"shipwreck": "move", "tree": "move", "bread": "again", "canoe": "jump"}[
            position.decision
        ]

    score(eager, 2, opponents="optimal")  # compile the kernels first
    result = score(eager, args.score_players, opponents="optimal")
    print(
        f"score, {args.score_players} players, eager vs optimal, with best response: "
        f"{result.seconds:.1f} s (residual {result.residual:.1e})"
    )


if __name__ == "__main__":
    main()
