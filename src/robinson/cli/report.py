"""`robinson report --out DIR [--games N] [--seed S] [--lang L]`: an HTML page of plots about the
game, written in the chosen language (default: the locale's, else English).

With `--record FILE [--policy eager|optimal]`: the page of the position after that game record's
last action (RULES.md section 10 records): every seat's chances from there as `robinson odds`
gives them (exact for at most four living players, simulated with 95% intervals for five to
eight), each option's chance at a pending decision, the chances over the game so far and the
rest of the game simulated from there."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from robinson.analysis.report import DEFAULT_GAMES, build_position_report, build_report
from robinson.cli.simulate import whole_number
from robinson.engine import GameRecord, RobinsonError
from robinson.i18n import LANGUAGES, default_language


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("report", help="write an HTML report with plots about the game")
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    p.add_argument(
        "--games", type=whole_number(2, None), metavar="N",
        help=f"games simulated per setting (default {DEFAULT_GAMES:,}; with --record 200,000)",
    )  # fmt: skip
    p.add_argument("--seed", type=whole_number(0, (1 << 64) - 1), default=0, metavar="S")
    p.add_argument(
        "--lang", choices=LANGUAGES, help="language of the page (default: from the locale, else en)"
    )
    p.add_argument(
        "--record", type=Path, metavar="FILE",
        help="a report of the position after this game record's last action instead",
    )  # fmt: skip
    p.add_argument(
        "--policy", help="with --record: how the chances assume decisions are taken, eager or"
        " optimal (default eager)",
    )  # fmt: skip
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()

    def say(step: str) -> None:
        if sys.stderr.isatty():
            print(f"robinson report: working out {step}...", file=sys.stderr)

    lang = args.lang or default_language()
    if args.record is not None:
        page = _position(args, say, lang)
        if page is None:
            return 2
    else:
        if args.policy is not None:
            print("robinson report: --policy needs --record FILE", file=sys.stderr)
            return 2
        try:
            games = DEFAULT_GAMES if args.games is None else args.games
            page = build_report(args.out, games, args.seed, say, lang)
        except OSError as e:
            print(f"robinson report: {args.out}: cannot write: {e.strerror}", file=sys.stderr)
            return 2
    print(f"wrote {page} in {time.perf_counter() - start:.1f} s")
    return 0


def _position(args: argparse.Namespace, say: Callable[[str], None], lang: str) -> Path | None:
    """`report --record FILE`: the page, or None after saying what is wrong with the input."""
    try:
        text = args.record.read_text(encoding="utf-8")
    except OSError as e:
        print(f"robinson report: {args.record}: cannot read: {e.strerror}", file=sys.stderr)
        return None
    try:
        record = GameRecord.loads(text)
        record.replay()  # a bad record is refused before anything is computed
        return build_position_report(
            args.out, record, args.record.name, args.policy or "eager", args.games,
            args.seed, say, lang,
        )  # fmt: skip
    except (RobinsonError, ValueError) as e:
        print(f"robinson report: {args.record}: {e}", file=sys.stderr)
    except OSError as e:
        print(f"robinson report: {args.out}: cannot write: {e.strerror}", file=sys.stderr)
    return None
