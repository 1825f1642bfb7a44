"""`robinson report --out DIR [--games N] [--seed S] [--lang L]`: an HTML page of plots about the
game, written in the chosen language (default: the locale's, else English)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from robinson.analysis.report import DEFAULT_GAMES, build_report
from robinson.cli.simulate import whole_number
from robinson.i18n import LANGUAGES, default_language


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("report", help="write an HTML report with plots about the game")
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    p.add_argument(
        "--games", type=whole_number(2, None), default=DEFAULT_GAMES, metavar="N",
        help=f"games simulated per setting (default {DEFAULT_GAMES:,})",
    )  # fmt: skip
    p.add_argument("--seed", type=whole_number(0, (1 << 64) - 1), default=0, metavar="S")
    p.add_argument(
        "--lang", choices=LANGUAGES, help="language of the page (default: from the locale, else en)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()

    def say(step: str) -> None:
        if sys.stderr.isatty():
            print(f"robinson report: simulating {step}...", file=sys.stderr)

    try:
        page = build_report(args.out, args.games, args.seed, say, args.lang or default_language())
    except OSError as e:
        print(f"robinson report: {args.out}: cannot write: {e.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {page} in {time.perf_counter() - start:.1f} s")
    return 0
