"""`robinson analyze [--edition E] [--players N] [--policy P] [--json]`: the exact figures.

Win chances per seat from the joint chain of all pawns, the expected length of the game (every
seat's turns, everybody eager), a player alone (finish, death, length), and the value of every
choice (per placing, and weighted by how often it arises), for 1 to 4 players. For 5 to 8
players the joint chain is out of reach: the win chances are simulated (with 95% intervals,
`"method": "simulation"`), the one-player figures stay exact.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from robinson.engine import EDITIONS, GameRecord, RobinsonError, Ruleset


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyze", help="exact figures: win chances, game length, choices")
    p.add_argument("--edition", default="standard", help=f"one of {', '.join(EDITIONS)}")
    p.add_argument(
        "--players", type=int, default=2, help="1 to 4 exact, 5 to 8 simulated (default 2)"
    )
    p.add_argument("--policy", default="eager", help="eager or optimal (default eager)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--games",
        type=int,
        default=1_000_000,
        help="games simulated for 5 to 8 players (default 1,000,000)",
    )
    p.add_argument("--seed", type=int, default=0, help="dice seed of the simulation (default 0)")
    p.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="the chances after this game record's last action instead of the opening"
        " (as `robinson odds`; --edition and --players come from the record)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.record is not None:
        return _run_record(args)
    from robinson.analysis.exact.game import EXACT_MAX_PLAYERS
    from robinson.analysis.exact.summary import analyze
    from robinson.analysis.headline import headline, sentence
    from robinson.analysis.many import analyze_many

    try:
        ruleset = Ruleset(args.edition)
        if isinstance(args.players, int) and args.players > EXACT_MAX_PLAYERS:
            if args.games < 1:
                raise RobinsonError(f"--games must be at least 1, got {args.games}")
            figures = analyze_many(ruleset, args.players, args.policy, args.games, args.seed)
        else:
            figures = analyze(ruleset, args.players, args.policy)
            found = headline(ruleset, args.players)
            figures["headline"] = {"text": sentence(found), **found}
    except (RobinsonError, ValueError) as e:
        print(f"robinson analyze: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(figures))
    elif figures.get("method") == "simulation":
        print(simulated_as_text(figures))
    else:
        print(as_text(figures))
    return 0


def simulated_as_text(f: dict[str, Any]) -> str:
    from robinson.analysis.precision import estimate_text

    s = f["single"]
    low, high = f["p_no_winner_ci95"]
    played = "" if f["policy_played"] == f["policy"] else f" (played as {f['policy_played']})"
    return "\n".join(
        [
            f"Robinson, edition {f['edition']}, {f['players']} players, policy {f['policy']}"
            f"{played}",
            "",
            f"Win chances, simulated ({f['games']:,} games, seed {f['seed']}, 95% intervals):",
            # Each to the decimals its interval supports (robinson.analysis.precision).
            *(
                f"  seat {i}: {estimate_text(p, lo, hi, 100)} %"
                for i, (p, (lo, hi)) in enumerate(zip(f["p_win"], f["p_win_ci95"], strict=True))
            ),
            f"  no winner: {estimate_text(f['p_no_winner'], low, high, 100)} %",
            "",
            "One player alone (exact):",
            f"  reaches 45: {_pct(s['p_finish'])}   dies on 42: {_pct(s['p_death'])}",
            f"  turns, given he finishes: mean {s['mean_turns']:.3f},"
            f" median {s['median_turns']}, 90th percentile {s['p90_turns']}",
        ]
    )


def _pct(x: float) -> str:
    return f"{100 * x:8.4f} %"


def as_text(f: dict[str, Any]) -> str:
    s = f["single"]
    solitaires = f["headline"]["solitaires"]["p_win"]
    lines = [
        f"Robinson, edition {f['edition']}, {f['players']} player(s), policy {f['policy']}",
        "",
        "What the solver found (both policies solved exactly, docs/analysis.md):",
        *textwrap.wrap(f["headline"]["text"], 96, initial_indent="  ", subsequent_indent="  "),
        "",
        "Win chances (seat 0 moves first; eager solitaires: the pawns raced apart, no ship swap):",
        *(
            f"  seat {i}: {_pct(p)}   solitaires {_pct(q)}"
            for i, (p, q) in enumerate(zip(f["p_win"], solitaires, strict=True))
        ),
        f"  no winner: {_pct(f['p_no_winner'])}",
        "",
        f"Expected length (exact, everybody eager): {f['length']['turns']:.3f} turns of all"
        " seats together, skipped turns included",
        "",
        "One player alone:",
        f"  reaches 45: {_pct(s['p_finish'])}   dies on 42: {_pct(s['p_death'])}",
        f"  turns, given he finishes: mean {s['mean_turns']:.3f}, median {s['median_turns']},"
        f" 90th percentile {s['p90_turns']}",
        "  landings per game: "
        + ", ".join(f"{sq}: {n:.3f}" for sq, n in f["single_landings"].items()),
        "",
        "The value of each choice, alone (P reaching 45 after each option):",
    ]
    for row in f["choices_alone"]:
        lines.append(
            f"  {_where(row)}  " + "  ".join(f"{o} {_pct(p)}" for o, p in row["p_finish"].items())
        )
    lines.append(
        f"The value of each choice with {f['players']} players (mover's P(win), mean over the"
        " placings of the others; placings where the other option is better; its best gain):"
    )
    for row in f["choices"]:
        ((other, count),) = row["placings_favouring"].items()  # the one non-eager option
        ((_, gain),) = row["largest_gain"].items()
        options = "  ".join(f"{o} {_pct(p)}" for o, p in row["p_win"].items())
        lines.append(
            f"  {_where(row)}  {options}  {other} better in {count}/{row['placings']}"
            f" (gain up to {100 * gain:.2g} points)"
        )
    if any("arises_per_game" in row for row in f["choices"]):
        lines.append(
            "Weighted by where the game goes (exact, everybody eager): times the decision arises"
            " per game with an opponent alive, all seats, and the other option's gain:"
        )
        for row in f["choices"]:
            ((other, weighted),) = row["weighted_gain"].items()
            lines.append(
                f"  {_where(row)}  arises {row['arises_per_game']:.4f} per game,"
                f"  {other} {100 * weighted:+.3f} points"
            )
    solve = f["solve"]
    lines += [
        "",
        f"Solved in {solve['seconds']:.2f} s, sweeps {solve['sweeps']}, residual"
        f" {solve['residual']:.1e} ({'converged' if solve['converged'] else 'NOT converged'}).",
    ]
    return "\n".join(lines)


def _where(row: dict[str, Any]) -> str:
    roll = f", roll {row['roll']}" if row["roll"] else ""
    return f"square {row['square']}{roll}:".ljust(22)


def _run_record(args: argparse.Namespace) -> int:
    """`analyze --record FILE`: the position's chances (`robinson.analysis.odds`)."""
    from robinson.analysis.odds import position_odds
    from robinson.cli.odds import as_text
    from robinson.i18n import Translator, default_language

    t = Translator(default_language())  # the chances and errors in the locale's language
    try:
        record = GameRecord.loads(args.record.read_text(encoding="utf-8"))
        state = record.replay()
        if args.games < 1:
            raise RobinsonError(f"--games must be at least 1, got {args.games}")
        odds = position_odds(state, args.policy, args.games, args.seed)
    except OSError as e:
        print(f"robinson analyze: {args.record}: {t.read_error(e)}", file=sys.stderr)
        return 2
    except (RobinsonError, ValueError) as e:
        print(f"robinson analyze: {args.record}: {t.error(e)}", file=sys.stderr)
        return 2
    figures = {
        "edition": record.ruleset.edition,
        "players": len(record.players),
        "version": len(record.actions),
        "to_move": state.to_move,
        **odds,
    }
    print(json.dumps(figures) if args.json else as_text(odds, record.players, state.to_move, t))
    return 0
