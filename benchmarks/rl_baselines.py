"""Baseline agents scored in both objectives: a table to compare a learner with.

    .venv/bin/python benchmarks/rl_baselines.py [--players 2,3] [--edition standard]
        [--opponents optimal] [--games 1000] [--train 4000] [--seed 0]

Agents, each a policy of pawn positions (`robinson.rl.score`'s form):
- `random`: each option with probability 1/2;
- `eager`: always the forward option (the optimum of the win objective while an opponent lives);
- `heuristic`: the project's heuristic bot (progress and money of where each option leaves him);
- `tabular-win`, `tabular-tokens`: Monte Carlo control on (decision, roll in view, square),
  epsilon-greedy, trained on `--train` engine games against the opponents with that reward, then
  played greedily;
- `--mcts 100,400`: OpenSpiel's `MCTSBot` (UCT c = 2, random rollouts) with that many
  simulations per decision, scored through `robinson.rl.openspiel.bot_policy`; win objective
  only (a tokens score would ask it thousands of times per game set: hours).

Columns: win, the exact mean chance over the seats (`score`, with the best response against the
same opponents: `gap` is how many points the agent leaves, mean over seats); tokens, the mean final
purse change and the paired gain over eager with its 95% interval (`score(objective="tokens")`,
`--games` games per seat). No exact optimum exists for tokens (money is not in the chain), so
its gap is to eager, not to the best. A policy-gradient baseline is not here (yet).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from robinson.bots import make_bot
from robinson.engine import DECISION_OF, Choose, Phase, Roll, Ruleset, State, apply, new_game
from robinson.rl import score
from robinson.rl.scoring import PawnPosition

Policy = Callable[[PawnPosition], Any]
Key = tuple[str, int | None, int]


def eager(position: PawnPosition) -> str:
    return DECISION_OF[Phase(position.decision)].forward


def coin(position: PawnPosition) -> dict[str, float]:
    return dict.fromkeys(position.options, 0.5)


def heuristic(ruleset: Ruleset, players: int) -> Policy:
    bot = make_bot("heuristic")
    return lambda position: bot.choose(position.to_state(players, ruleset)).option


def _key(position: PawnPosition) -> Key:
    return (position.decision, position.roll, position.square)


def tabular(
    ruleset: Ruleset, players: int, reward: str, episodes: int, seed: int, opponents: str
) -> Policy:
    """Every-visit Monte Carlo control of the learner's local decisions, epsilon-greedy."""
    from robinson.analysis.policy import make_policy

    rng = random.Random(seed)
    rivals = make_policy(opponents, ruleset, players) if opponents == "optimal" else None
    value: dict[tuple[Key, str], float] = defaultdict(float)
    visits: dict[tuple[Key, str], int] = defaultdict(int)

    def greedy(position: PawnPosition) -> str:
        options = position.options
        return max(options, key=lambda o: (value[(_key(position), o)], o == eager(position)))

    for episode in range(episodes):
        seat = episode % players
        epsilon = max(0.05, 1 - episode / (0.7 * episodes))
        state: State = new_game(players, ruleset)
        taken: list[tuple[Key, str]] = []
        while not state.over:
            if state.phase is Phase.ROLL:
                state = apply(state, Roll(rng.randint(1, 6)))[0]
                continue
            if state.to_move == seat:
                position = PawnPosition.of(state)
                option = (
                    rng.choice(position.options) if rng.random() < epsilon else greedy(position)
                )
                taken.append((_key(position), option))
            elif rivals is not None:
                option = rivals.decide(state).option
            elif opponents == "random":
                option = rng.choice(DECISION_OF[state.phase].options)
            else:
                option = DECISION_OF[state.phase].forward
            state = apply(state, Choose(option))[0]
        if reward == "win":
            g = 1.0 if state.winner == seat else 0.0
        else:
            g = float(state.players[seat].purse - ruleset.start_tokens)
        for pair in taken:
            visits[pair] += 1
            value[pair] += (g - value[pair]) / visits[pair]
    return greedy


def mcts(edition: str, players: int, simulations: int, seed: int) -> Policy:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as open_spiel_mcts

    from robinson.rl.openspiel import bot_policy

    game = pyspiel.load_game("python_robinson", {"players": players, "edition": edition})
    rollouts = open_spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = open_spiel_mcts.MCTSBot(
        game, 2.0, simulations, rollouts, solve=False, random_state=np.random.RandomState(seed)
    )
    return bot_policy(bot, game)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", default="2,3", help="table sizes, comma-separated (2 to 4)")
    p.add_argument("--edition", default="standard")
    p.add_argument("--opponents", default="optimal", choices=["eager", "optimal", "random"])
    p.add_argument("--games", type=int, default=1000, help="paired games per seat (tokens)")
    p.add_argument("--train", type=int, default=4000, help="training games of the tabular agents")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mcts", default="", help="MCTS simulations per decision, e.g. 100,400")
    args = p.parse_args()
    ruleset = Ruleset(args.edition)
    print(f"edition {args.edition}, opponents {args.opponents}, tokens on {args.games:,} paired"
          f" games per seat, tabular agents trained on {args.train:,} games")  # fmt: skip
    print(f"{'players':>7}  {'agent':<15} {'P(win)':>8} {'gap, points':>11}"
          f" {'tokens':>8} {'gain over eager, tokens':>27} {'seconds':>8}")  # fmt: skip
    for players in (int(x) for x in args.players.split(",")):
        agents: dict[str, Policy] = {
            "random": coin,
            "eager": eager,
            "heuristic": heuristic(ruleset, players),
        }
        for reward in ("win", "tokens"):
            began = time.perf_counter()
            agents[f"tabular-{reward}"] = tabular(
                ruleset, players, reward, args.train, args.seed, args.opponents
            )
            print(f"{'':>7}  (trained tabular-{reward} in {time.perf_counter() - began:.1f} s)")
        for sims in (int(x) for x in args.mcts.split(",") if x):
            agents[f"mcts-{sims}"] = mcts(args.edition, players, sims, args.seed)
        for name, policy in agents.items():
            began = time.perf_counter()
            win = score(policy, players, args.edition, opponents=args.opponents)
            if name.startswith("mcts"):
                gap = 100 * sum(b - w for b, w in zip(win.best or (), win.p_win, strict=True))
                print(f"{players:>7}  {name:<15} {win.mean:>8.5f} {gap / players:>11.5f}"
                      f" {'-':>8} {'-':>27} {time.perf_counter() - began:>8.1f}")  # fmt: skip
                continue
            assert win.best is not None
            gap = 100 * sum(b - w for b, w in zip(win.best, win.p_win, strict=True)) / players
            tokens = score(policy, players, args.edition, opponents=args.opponents,
                           objective="tokens", games=args.games, seed=args.seed)  # fmt: skip
            gain = sum(tokens.gain) / players
            half = max((hi - lo) / 2 for lo, hi in tokens.gain_ci95)
            spent = time.perf_counter() - began
            print(f"{players:>7}  {name:<15} {win.mean:>8.5f} {gap:>11.5f} {tokens.mean:>8.3f}"
                  f" {gain:>+14.4f} (± {half:.4f} a seat) {spent:>8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
