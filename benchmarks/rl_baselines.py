"""Baseline agents scored in both objectives: a table to compare a learner with.

    .venv/bin/python benchmarks/rl_baselines.py [--players 2,3] [--edition standard]
        [--opponents optimal] [--games 1000] [--train 4000] [--seed 0]
        [--mcts 100,400] [--mcts-seconds 180] [--sampled]
        [--mcts-objectives win,tokens] [--mcts-tokens-games 20]
        [--agents random,eager,heuristic,tabular,pg]

Agents, each a policy of pawn positions (`robinson.rl.score`'s form):
- `random`: each option with probability 1/2;
- `eager`: always the forward option (the optimum of the win objective while an opponent lives);
- `heuristic`: the project's heuristic bot (progress and money of where each option leaves him);
- `tabular-win`, `tabular-tokens`: Monte Carlo control on (decision, roll in view, square),
  epsilon-greedy, trained on `--train` engine games against the opponents with that reward, then
  played greedily;
- `pg-win`, `pg-tokens`: a linear policy gradient (REINFORCE with a running-mean baseline): the
  chance of the forward option is a logistic function of one-hot features of the decision, the
  roll in view, the mover's square and the nearest other pawn's square, trained on `--train`
  engine games against the opponents, then played greedily;
- `--mcts 100,400`: OpenSpiel's `MCTSBot` (UCT c = 2, random rollouts) with that many
  simulations per decision, scored through `robinson.rl.openspiel.bot_policy`. Two bots per
  size (`--mcts-objectives`): `mcts-N` searches `python_robinson` with the win reward and
  `mcts-N-tokens` with the tokens reward (rollouts return the final purse change). Both are
  scored in tokens on a small bounded sample, `--mcts-tokens-games` paired games per seat
  (default 20: a few hundred decisions at 0.1-0.4 s; the interval says how little that
  settles); the bot sees money as at the start of the game, for the pawn position it is
  asked at carries no money (`PawnPosition`). In the win objective `mcts-N` is scored: at 2 players
  exactly (`score` asks it at each of ~700 placings); from 3 players the exact score would ask
  it at 28,000 (3) or 1.3 million (4) placings, 0.1-0.4 s each, so its gap is *sampled*: it
  plays engine games in each seat in turn for `--mcts-seconds`, and each decision it takes
  costs the best option's value minus the taken option's, both read off the best response's
  exact option values (`score(eager, regret=True)`, which do not depend on the agent). By the
  performance difference lemma the mean over games of that sum is an unbiased estimate of the
  exact gap; a `random, sampled` row, scored the same way for a tenth of the time, checks the
  method against random's exact gap (`--sampled` scores MCTS so at 2 players too, where its
  exact score is within reach).

Columns: win, the exact mean chance over the seats (`score`, with the best response against the
same opponents: `gap` is how many points the agent leaves, mean over seats); tokens, the mean final
purse change and the paired gain over eager with its 95% interval (`score(objective="tokens")`,
`--games` games per seat). No exact optimum exists for tokens (money is not in the chain), so
its gap is to eager, not to the best.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from robinson.analysis.exact import codes
from robinson.bots import make_bot
from robinson.engine import DECISION_OF, Choose, Phase, Roll, Ruleset, State, apply, new_game
from robinson.rl import score
from robinson.rl.scoring import PawnPosition, Score

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


Learner = Callable[[PawnPosition, random.Random], str]  # explores while it trains


def episodes(
    ruleset: Ruleset,
    players: int,
    opponents: str,
    count: int,
    seed: int,
    learner: Callable[[int], Learner],
) -> Iterator[tuple[int, State, list[tuple[PawnPosition, str]]]]:
    """`count` engine games, the learner in each seat in turn (`learner(episode)` decides its
    moves), the others `opponents`: each game's seat, final state and the learner's choices."""
    from robinson.analysis.policy import make_policy

    rng = random.Random(seed)
    rivals = make_policy(opponents, ruleset, players) if opponents == "optimal" else None
    for episode in range(count):
        seat, decide = episode % players, learner(episode)
        state: State = new_game(players, ruleset)
        taken: list[tuple[PawnPosition, str]] = []
        while not state.over:
            if state.phase is Phase.ROLL:
                state = apply(state, Roll(rng.randint(1, 6)))[0]
                continue
            if state.to_move == seat:
                position = PawnPosition.of(state)
                option = decide(position, rng)
                taken.append((position, option))
            elif rivals is not None:
                option = rivals.decide(state).option
            elif opponents == "random":
                option = rng.choice(DECISION_OF[state.phase].options)
            else:
                option = DECISION_OF[state.phase].forward
            state = apply(state, Choose(option))[0]
        yield seat, state, taken


def returns(ruleset: Ruleset, reward: str, seat: int, state: State) -> float:
    if reward == "win":
        return 1.0 if state.winner == seat else 0.0
    return float(state.players[seat].purse - ruleset.start_tokens)


def _features(position: PawnPosition) -> list[int]:
    """Indices of the one-hot features that are 1: decision, roll, own square, nearest rival."""
    decision = ("shipwreck", "tree", "bread", "canoe").index(position.decision)
    roll = position.roll or 0
    nearest = min(
        (sq for sq, _ in position.others), default=0, key=lambda sq: abs(sq - position.square)
    )
    return [decision, 4 + roll, 11 + position.square, 57 + nearest]


FEATURES = 57 + 46


def policy_gradient(
    ruleset: Ruleset, players: int, reward: str, count: int, seed: int, opponents: str
) -> Policy:
    """REINFORCE on a logistic policy: P(forward) = sigmoid(w · features)."""
    weights = [0.0] * FEATURES
    rate = 0.1 if reward == "win" else 0.1 / ruleset.start_tokens  # tokens are a larger scale
    baseline = 0.0

    def forward_chance(position: PawnPosition) -> float:
        z = sum(weights[i] for i in _features(position))
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))

    def sample(position: PawnPosition, rng: random.Random) -> str:
        forward = eager(position)
        other = next(o for o in position.options if o != forward)
        return forward if rng.random() < forward_chance(position) else other

    for k, (seat, state, taken) in enumerate(
        episodes(ruleset, players, opponents, count, seed, lambda _: sample)
    ):
        g = returns(ruleset, reward, seat, state)
        baseline += (g - baseline) / (k + 1)
        advantage = g - baseline
        for position, option in taken:
            p = forward_chance(position)
            grad = (1 - p) if option == eager(position) else -p  # d log pi / dz
            for i in _features(position):
                weights[i] += rate * advantage * grad

    def greedy(position: PawnPosition) -> str:
        forward = eager(position)
        other = next(o for o in position.options if o != forward)
        return forward if forward_chance(position) >= 0.5 else other

    return greedy


def tabular(
    ruleset: Ruleset, players: int, reward: str, count: int, seed: int, opponents: str
) -> Policy:
    """Every-visit Monte Carlo control of the learner's local decisions, epsilon-greedy."""
    value: dict[tuple[Key, str], float] = defaultdict(float)
    visits: dict[tuple[Key, str], int] = defaultdict(int)

    def greedy(position: PawnPosition) -> str:
        options = position.options
        return max(options, key=lambda o: (value[(_key(position), o)], o == eager(position)))

    def explorer(episode: int) -> Learner:
        epsilon = max(0.05, 1 - episode / (0.7 * count))

        def decide(position: PawnPosition, rng: random.Random) -> str:
            return rng.choice(position.options) if rng.random() < epsilon else greedy(position)

        return decide

    for seat, state, taken in episodes(ruleset, players, opponents, count, seed, explorer):
        g = returns(ruleset, reward, seat, state)
        for position, option in taken:
            pair = (_key(position), option)
            visits[pair] += 1
            value[pair] += (g - value[pair]) / visits[pair]
    return greedy


def mcts(edition: str, players: int, simulations: int, seed: int, reward: str = "win") -> Policy:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as open_spiel_mcts

    from robinson.rl.openspiel import bot_policy

    game = pyspiel.load_game(
        "python_robinson", {"players": players, "edition": edition, "reward": reward}
    )
    rollouts = open_spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = open_spiel_mcts.MCTSBot(
        game, 2.0, simulations, rollouts, solve=False, random_state=np.random.RandomState(seed)
    )
    return bot_policy(bot, game)


class PathRegret:
    """What a decision gives up, read off the best response's option values (`score(...,
    regret=True)`, which do not depend on the policy scored): the best option's value minus
    the value of the option taken, for the learner (0 where he takes a best option)."""

    def __init__(self, reference: Score) -> None:
        assert reference.regret is not None
        self.by_living = {}
        for table in reference.regret:
            row = np.full(codes.K ** (table.living - 1), -1, dtype=np.int64)
            for i, placing in enumerate(table.placings):
                r = 0
                for c in placing:
                    r = r * codes.K + c
                row[r] = i
            keys = {key: d for d, key in enumerate(table.keys)}
            self.by_living[table.living] = (table.values, keys, row)

    def __call__(self, position: PawnPosition, option: str) -> float:
        values, keys, row = self.by_living[len(position.others) + 1]
        r = 0
        for square, skips in position.others:
            r = r * codes.K + codes.code(square, skips)
        v = values[row[r], keys[(position.decision, position.roll)]]
        taken = v[0] if option == DECISION_OF[Phase(position.decision)].forward else v[1]
        return max(float(v.max() - taken), 0.0)


def sampled_gap(
    policy: Policy,
    regret: PathRegret,
    ruleset: Ruleset,
    players: int,
    opponents: str,
    seed: int,
    seconds: float,
    most: int = 1_000_000,
) -> tuple[float, float, int]:
    """The policy's gap to the best response in the win objective, in points, by the
    performance difference lemma: engine games with the policy in each seat in turn (the
    opponents as given), summing the regret of every decision it takes (`PathRegret`); the mean
    over games is the exact gap's unbiased estimate. Plays until `seconds` have passed (at
    least one game a seat, at most `most` games). Returns the gap, its 95% half-width and the
    games played."""

    def learner(_: int) -> Learner:
        def decide(position: PawnPosition, rng: random.Random) -> str:
            answer = policy(position)
            if isinstance(answer, dict):  # a mixed answer: draw the option
                decision = DECISION_OF[Phase(position.decision)]
                forward = rng.random() < answer.get(decision.forward, 0.0)
                return decision.forward if forward else decision.other
            return str(answer)

        return decide

    began = time.perf_counter()
    per_game: list[float] = []
    for _, _, taken in episodes(ruleset, players, opponents, most, seed, learner):
        per_game.append(100 * sum(regret(position, option) for position, option in taken))
        enough = len(per_game) >= players and len(per_game) % players == 0
        if enough and time.perf_counter() - began > seconds:
            break
    n = len(per_game)
    mean = sum(per_game) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_game) / (n - 1)) if n > 1 else math.nan
    return mean, 1.96 * sd / math.sqrt(n), n


AGENTS = ("random", "eager", "heuristic", "tabular", "pg")
OBJECTIVES = ("win", "tokens")


def tokens_cells(
    policy: Policy, players: int, edition: str, opponents: str, games: int, seed: int
) -> str:
    """The table's tokens columns: the mean final purse change and the paired gain over eager,
    with the largest 95% half-width over the seats (`score(objective="tokens")`)."""
    tokens = score(policy, players, edition, opponents=opponents, objective="tokens",
                   games=games, seed=seed)  # fmt: skip
    gain = sum(tokens.gain) / players
    half = max((hi - lo) / 2 for lo, hi in tokens.gain_ci95)
    return f"{tokens.mean:>8.3f} {gain:>+14.4f} (± {half:.4f} a seat)"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", default="2,3", help="table sizes, comma-separated (2 to 4)")
    p.add_argument("--edition", default="standard")
    p.add_argument("--opponents", default="optimal", choices=["eager", "optimal", "random"])
    p.add_argument("--games", type=int, default=1000, help="paired games per seat (tokens)")
    p.add_argument("--train", type=int, default=4000, help="training games of the learning agents")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mcts", default="", help="MCTS simulations per decision, e.g. 100,400")
    p.add_argument(
        "--mcts-seconds",
        type=float,
        default=180.0,
        help="from 3 players, MCTS is scored on the games it plays in this time (default 180)",
    )
    p.add_argument(
        "--sampled", action="store_true", help="score MCTS sampled at 2 players too (a check)"
    )
    p.add_argument(
        "--mcts-objectives",
        default=",".join(OBJECTIVES),
        help="which MCTS bots: 'win' (mcts-N, scored in both objectives), 'tokens' "
        "(mcts-N-tokens, searching the tokens reward, scored in tokens)",
    )
    p.add_argument(
        "--mcts-tokens-games",
        type=int,
        default=20,
        help="paired games per seat scoring the MCTS bots in tokens (default 20; 0: none)",
    )
    p.add_argument(
        "--agents",
        default=",".join(AGENTS),
        help=f"which of {', '.join(AGENTS)} to score besides --mcts ('' for MCTS alone)",
    )
    args = p.parse_args()
    chosen = {x for x in args.agents.split(",") if x}
    if chosen - set(AGENTS):
        p.error(f"--agents: unknown {', '.join(sorted(chosen - set(AGENTS)))}")
    objectives = {x for x in args.mcts_objectives.split(",") if x}
    if objectives - set(OBJECTIVES) or not objectives:
        p.error(f"--mcts-objectives: one or both of {', '.join(OBJECTIVES)}")
    if args.mcts_tokens_games != 0 and args.mcts_tokens_games < 2:
        p.error("--mcts-tokens-games: 0, or at least 2 paired games per seat")
    if "tokens" in objectives and args.mcts and args.mcts_tokens_games == 0:
        p.error("--mcts-objectives tokens needs --mcts-tokens-games of at least 2")
    ruleset = Ruleset(args.edition)
    print(f"edition {args.edition}, opponents {args.opponents}, tokens on {args.games:,} paired"
          f" games per seat, learning agents trained on {args.train:,} games")  # fmt: skip
    print(f"{'players':>7}  {'agent':<15} {'P(win)':>8} {'gap, points':>11}"
          f" {'tokens':>8} {'gain over eager, tokens':>27} {'seconds':>8}")  # fmt: skip
    for players in (int(x) for x in args.players.split(",")):
        agents: dict[str, Policy] = {
            "random": coin,
            "eager": eager,
            "heuristic": heuristic(ruleset, players),
        }
        agents = {name: policy for name, policy in agents.items() if name in chosen}
        for kind, train in (("tabular", tabular), ("pg", policy_gradient)):
            for reward in ("win", "tokens") if kind in chosen else ():
                began = time.perf_counter()
                agents[f"{kind}-{reward}"] = train(
                    ruleset, players, reward, args.train, args.seed, args.opponents
                )
                spent = time.perf_counter() - began
                print(f"{'':>7}  (trained {kind}-{reward} in {spent:.1f} s)")
        for sims in (int(x) for x in args.mcts.split(",") if x):
            if "win" in objectives:
                agents[f"mcts-{sims}"] = mcts(args.edition, players, sims, args.seed)
            if "tokens" in objectives:
                agents[f"mcts-{sims}-tokens"] = mcts(args.edition, players, sims, args.seed,
                                                     reward="tokens")  # fmt: skip
        mcts_tokens = ""
        if args.mcts_tokens_games:
            mcts_tokens = f", MCTS on {args.mcts_tokens_games:,} paired games a seat"
        path: PathRegret | None = None
        # Sampled from 3 players (else exactly: MCTS asked at every placing).
        if "win" in objectives and args.mcts and (players > 2 or args.sampled):
            path = PathRegret(score(eager, players, args.edition, opponents=args.opponents,
                                    regret=True))  # fmt: skip
            began = time.perf_counter()
            gap, half, n = sampled_gap(coin, path, ruleset, players, args.opponents, args.seed,
                                       args.mcts_seconds / 10)  # fmt: skip
            print(
                f"{players:>7}  {'random, sampled':<15} {'-':>8} {gap:>11.3f} ± {half:.3f}"
                f" ({n:,} games; the check of the method) {time.perf_counter() - began:>6.1f}"
            )
        for name, policy in agents.items():
            began = time.perf_counter()
            if name.startswith("mcts"):
                cells = f"{'-':>8} {'-':>27}"
                if args.mcts_tokens_games:
                    cells = tokens_cells(policy, players, args.edition, args.opponents,
                                         args.mcts_tokens_games, args.seed)  # fmt: skip
                if name.endswith("-tokens"):
                    print(f"{players:>7}  {name:<15} {'-':>8} {'-':>11} {cells}"
                          f" {time.perf_counter() - began:>8.1f}{mcts_tokens}")  # fmt: skip
                    continue
                if path is not None:
                    gap, half, n = sampled_gap(policy, path, ruleset, players, args.opponents,
                                               args.seed, args.mcts_seconds)  # fmt: skip
                    print(
                        f"{players:>7}  {name:<15} {'-':>8} {gap:>11.3f} ± {half:.3f} {cells}"
                        f" {time.perf_counter() - began:>8.1f} ({n:,} games, sampled"
                        f"{mcts_tokens})"
                    )
                    continue
                win = score(policy, players, args.edition, opponents=args.opponents)
                gap = 100 * sum(b - w for b, w in zip(win.best or (), win.p_win, strict=True))
                print(f"{players:>7}  {name:<15} {win.mean:>8.5f} {gap / players:>11.5f}"
                      f" {cells} {time.perf_counter() - began:>8.1f}{mcts_tokens}")  # fmt: skip
                continue
            win = score(policy, players, args.edition, opponents=args.opponents)
            assert win.best is not None
            gap = 100 * sum(b - w for b, w in zip(win.best, win.p_win, strict=True)) / players
            cells = tokens_cells(policy, players, args.edition, args.opponents, args.games,
                                 args.seed)  # fmt: skip
            spent = time.perf_counter() - began
            print(f"{players:>7}  {name:<15} {win.mean:>8.5f} {gap:>11.5f} {cells}"
                  f" {spent:>8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
