"""`robinson odds RECORD [--policy eager|optimal] [--json]`: every seat's chances after the
record's last action (RULES.md section 10 records).

Exact for at most four living players (a lookup in the solved chain, solved once per machine and
kept on disk), simulated from the position for five to eight (`--games`, default 200,000, with
95% intervals). At a pending decision, the chooser's chance after each option.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from robinson.engine import GameRecord, RobinsonError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "odds",
        help="every seat's chances after a game record's last action",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("record", type=Path, metavar="RECORD", help="a game record (JSON)")
    p.add_argument("--policy", default="eager", help="eager or optimal (default eager)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--games",
        type=int,
        default=200_000,
        help="games simulated for 5 to 8 living players (default 200,000)",
    )
    p.add_argument("--seed", type=int, default=0, help="dice seed of the simulation (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from robinson.analysis.odds import position_odds

    try:
        text = args.record.read_text(encoding="utf-8")
    except OSError as e:
        print(f"robinson odds: {args.record}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    try:
        record = GameRecord.loads(text)
        state = record.replay()
        odds = position_odds(state, args.policy, args.games, args.seed)
    except (RobinsonError, ValueError) as e:
        print(f"robinson odds: {args.record}: {e}", file=sys.stderr)
        return 1 if isinstance(e, RobinsonError) else 2
    if args.json:
        print(json.dumps(odds))
    else:
        print(as_text(odds, record.players, state.to_move))
    return 0


def as_text(odds: dict[str, Any], names: tuple[str, ...], to_move: int | None) -> str:
    how = (
        "exact"
        if odds["method"] == "exact"
        else f"simulated, {odds['games']:,} games, 95% intervals"
    )
    lines = [f"Chances ({how}, policy {odds['policy']}):"]
    width = max(len(n) for n in (*names, "no winner"))
    for seat, name in enumerate(names):
        line = f"  {name.ljust(width)}  {100 * odds['p_win'][seat]:6.2f} %"
        if "ci95" in odds:
            lo, hi = odds["ci95"][seat]
            line += f"  [{100 * lo:.2f}, {100 * hi:.2f}]"
        lines.append(line)
    lines.append(f"  {'no winner'.ljust(width)}  {100 * odds['p_no_winner']:6.2f} %")
    if "options" in odds and to_move is not None:
        choices = " · ".join(f"{o}: {100 * p:.1f}%" for o, p in odds["options"].items())
        lines.append(f"{names[to_move]} chooses: {choices}")
    return "\n".join(lines)
