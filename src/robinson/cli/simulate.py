"""`robinson simulate [--games N] [...]`: estimates from many complete games, with 95% intervals,
each printed to the decimals its interval supports."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from robinson.analysis.precision import estimate_text
from robinson.analysis.sim import ENGINES
from robinson.analysis.sim.dice import MASK
from robinson.bots import BOT_NAMES, make_bot
from robinson.engine import EDITIONS, MAX_PLAYERS, MIN_PLAYERS, RobinsonError, Ruleset

# About a second of either engine on the 2-core machine: intervals of a tenth of a point or
# so on the win chances with the fast one, and a quick look with the python one.
DEFAULT_GAMES = {"fast": 1_000_000, "python": 2_000}


def whole_number(low: int, high: int | None) -> Any:
    """An argparse type: a whole number in [low, high], with a message saying so."""

    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise argparse.ArgumentTypeError(f"expected a whole number {bound}, got {value}")
        return value

    return parse


def add_ruleset_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", default="standard", choices=list(EDITIONS))
    p.add_argument("--start-tokens", type=whole_number(0, None), default=30, metavar="T")
    p.add_argument("--stake", type=whole_number(0, None), default=10, metavar="S")
    p.add_argument("--share", choices=["half", "third"], default="half")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate",
        help="simulate many complete games and estimate win chances, lengths and purses",
    )
    p.add_argument(
        "--games",
        type=whole_number(1, None),
        metavar="N",
        help=f"games to play (default {DEFAULT_GAMES['fast']:,} with the fast engine,"
        f" {DEFAULT_GAMES['python']:,} with the python one)",
    )
    p.add_argument("--players", type=whole_number(MIN_PLAYERS, MAX_PLAYERS), default=4, metavar="N")
    add_ruleset_arguments(p)
    p.add_argument(
        "--first", type=whole_number(0, MAX_PLAYERS - 1), default=0, help="seat that starts"
    )
    p.add_argument("--policy", default="eager", help="how every seat decides (default eager)")
    p.add_argument("--engine", choices=ENGINES, default="fast")
    p.add_argument("--seed", type=whole_number(0, MASK), default=0, metavar="S")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from robinson.analysis.sim import PolicyError, Setup, simulate

    try:
        ruleset = Ruleset(args.edition, args.start_tokens, args.stake, args.share)
        setup = Setup(ruleset, args.players, args.first, args.seed)
        games = DEFAULT_GAMES[args.engine] if args.games is None else args.games
        result = simulate(setup, games, _policy(args.policy, args.engine), args.engine)
    except (RobinsonError, PolicyError, ValueError) as e:
        print(f"robinson simulate: {e}", file=sys.stderr)
        return 2
    data = result.summary.to_json()
    data.update(
        policy=args.policy,
        engine=args.engine,
        seconds=result.seconds,
        games_per_second=result.games_per_second,
    )
    if args.json:
        print(json.dumps(data))
    else:
        print(_text(data))
    return 0


def _est(e: dict[str, Any]) -> str:
    """To the decimals its interval supports (`robinson.analysis.precision`)."""
    low, high = e["ci95"]
    return estimate_text(e["value"], low, high)


def _text(d: dict[str, Any]) -> str:
    lines = [
        f"{d['games']:,} games, {d['players']} players, edition {d['edition']}, "
        f"policy {d['policy']}, engine {d['engine']}, seed {d['seed']} "
        f"({d['games_per_second']:,.0f} games/s)",
        "estimates with 95% confidence intervals",
    ]
    if d["truncated"]:
        lines.append(f"{d['truncated']} games cut at the roll limit are left out")
    lines.append("seat  P(win)                     final purse")
    for s, (w, p) in enumerate(zip(d["p_win"], d["mean_purse"], strict=True)):
        lines.append(f"{s:>4}  {_est(w)}  {_est(p)}")
    t, wt, f, pot = d["turns"], d["winner_turns"], d["friday"], d["pot"]
    lines += [
        f"P(no winner)         {_est(d['p_no_winner'])}",
        f"P(a player dies)     {_est(d['p_death'])}",
        f"turns, all seats     mean {_est(t['mean'])}, median {t['median']['value']:.0f}, "
        f"90th percentile {t['p90']}",
        f"turns of the winner  mean {_est(wt['mean'])}, median {wt['median']['value']:.0f}, "
        f"90th percentile {wt['p90']}",
        f"Friday bound         {_est(f['p_bound'])} of games",
    ]
    for role, key in (("master", "master_worth"), ("Friday", "friday_worth")):
        if "difference" in f[key]:
            lines.append(
                f"being a {role:<7}     {_est(f[key]['difference'])} tokens at the end "
                "(vs players who are not)"
            )
    lines.append(
        f"bank the winner took mean {_est(pot['mean'])}, median {pot['median']}, "
        f"10%-90% {pot['p10']}-{pot['p90']}"
    )
    return "\n".join(lines)


def _policy(name: str, engine: str) -> Any:
    """What the simulator plays for `--policy name`: a policy of the analysis by its name, a bot
    by its decision function (the simulator sits below the bots and does not import them). The
    fast engine plays tables of local deciders only; other names go through as names, for the
    simulator to refuse with its own message."""
    from robinson.analysis.policy import POLICIES
    from robinson.analysis.sim.policies import LOCAL_POLICIES

    if name in POLICIES or name not in BOT_NAMES:
        return name
    if engine == "fast" and name not in LOCAL_POLICIES:
        return name
    return make_bot(name).choose
