"""`robinson replay FILE... [--json] [--lang L] [--odds]`: replay game records (RULES.md 10).

With `--json`, one JSON object per file (the state after the last action), one per line, in order.
Without it, the whole game is narrated in the chosen language: every action and its events, then
the final board and standings. A bad record names the action index and exits non-zero. With
`--odds`, every seat's chances after each turn and each option's at a decision (robinson odds),
and the turns that swung them most.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from robinson.engine import GameRecord, RobinsonError, state_to_json
from robinson.i18n import LANGUAGES, Translator, default_language
from robinson.tui import board_lines, standings_lines

if TYPE_CHECKING:
    from robinson.cli.odds import OddsLines


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records",
        description="Replay game records: narrate them, or print the final state as JSON.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object per file")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the narration (default: from the locale, else en)",
    )
    p.add_argument(
        "--odds",
        action="store_true",
        help="add every seat's chances after each turn and at each decision, and the biggest"
        " swings",
    )
    p.add_argument(
        "--odds-policy",
        default="eager",
        metavar="POLICY",
        help="the decisions the chances assume: eager (default) or optimal",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    translator = Translator(args.lang or default_language())
    for index, path in enumerate(args.files):
        try:
            record = GameRecord.loads(path.read_text(encoding="utf-8"))
            if args.json:
                state = record.replay()
                print(json.dumps(state_to_json(state, record.players), ensure_ascii=False))
            else:
                if len(args.files) > 1:
                    print(("\n" if index else "") + f"== {path}")
                odds = None
                if args.odds:
                    from robinson.cli.odds import CHART_GAMES, OddsLines

                    odds = OddsLines(translator, record.players, args.odds_policy, CHART_GAMES)
                narrate_record(translator, record, sys.stdout, odds)
        except OSError as e:
            print(f"robinson replay: {path}: {translator.read_error(e)}", file=sys.stderr)
            return 2
        except RobinsonError as e:
            sys.stdout.flush()
            print(f"robinson replay: {path}: {translator.error(e)}", file=sys.stderr)
            return 1
    return 0


def narrate_record(
    t: Translator, record: GameRecord, out: TextIO, odds: OddsLines | None = None
) -> None:
    """Every action with its events, then the final board and standings. An illegal action
    raises after everything before it has been narrated. With `odds`, every seat's chances after
    each turn and at each decision, and the biggest swings at the end."""
    names = record.players
    print(t.rules_summary(record.ruleset), file=out)
    print(f"{t.gettext('ui.players')}: {t.join_names(names)}", file=out)
    # The first turn's heading sits where every later one does, under the action numbers.
    print(f"      {t.format('event.turn_began', name=names[record.first])}", file=out)
    state = record.initial_state()
    for number, (_, after, events) in enumerate(record.steps(), start=1):
        state = after
        # The engine ends an action's events with the next turn's TurnBegan, so in order they
        # read as: the roll or choice, what followed, whose turn it is now.
        lines = t.narrate_all(events, names)
        print(f"{number:>4}. {lines[0] if lines else ''}", file=out)
        for line in lines[1:]:
            print(f"      {line}", file=out)
        for line in odds.after(events, after) if odds else ():
            print(f"      {line}", file=out)
    print(file=out)
    for line in board_lines(t, state, names):
        print(line, file=out)
    if state.over:
        print(file=out)
        for line in standings_lines(t, state, names):
            print(line, file=out)
    else:
        print(t.prompt(state, names), file=out)
    if odds is not None:
        print(file=out)
        for line in odds.swings(record):
            print(line, file=out)
