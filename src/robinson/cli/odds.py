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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from robinson.engine import Event, GameRecord, Phase, RobinsonError, State, TurnBegan
from robinson.i18n import LANGUAGES, Translator, default_language

CHART_GAMES = 20_000  # games per position when a whole game's chances are simulated


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
    p.add_argument(
        "--lang", choices=LANGUAGES, help="language of the messages (default: from the locale)"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from robinson.analysis.odds import position_odds

    t = Translator(getattr(args, "lang", None) or default_language())
    try:
        text = args.record.read_text(encoding="utf-8")
    except OSError as e:
        print(f"robinson odds: {args.record}: {t.read_error(e)}", file=sys.stderr)
        return 2
    try:
        record = GameRecord.loads(text)
        state = record.replay()
        _say_if_solving(t, state, args.policy)
        odds = position_odds(state, args.policy, args.games, args.seed)
    except (RobinsonError, ValueError) as e:
        print(f"robinson odds: {args.record}: {t.error(e)}", file=sys.stderr)
        return 1 if isinstance(e, RobinsonError) else 2
    if args.json:
        print(json.dumps(odds))
    else:
        print(as_text(odds, record.players, state.to_move, t))
    return 0


def _say_if_solving(t: Translator, state: State, policy: str) -> None:
    """The first lookup of an edition on a machine solves its chains (seconds): say so."""
    from robinson.analysis.odds import tables

    m = len(state.living)
    exact = policy in tables.ODDS_POLICIES and not state.over and 1 <= m <= tables.EXACT_LIVING
    if exact and not tables.ready(state.ruleset, policy, m):
        edition, words = t.edition_name(state.ruleset.edition), t.gettext(f"report.policy.{policy}")
        solving = t.nformat("cli.odds.solving", m, edition=edition, policy=words)
        print(f"robinson odds: {solving}", file=sys.stderr)


def as_text(
    odds: dict[str, Any], names: tuple[str, ...], to_move: int | None, t: Translator
) -> str:
    """The chances as a small table in `t`'s language: a line per seat, "no winner", and at a
    pending decision each option's chance for the chooser."""
    games = t.number(odds["games"], 0) if "games" in odds else ""
    how = t.format(f"odds.how.{'exact' if odds['method'] == 'exact' else 'simulated'}", games=games)
    policy = t.gettext(f"report.policy.{odds['policy']}")
    lines = [t.format("odds.heading", how=how, policy=policy)]
    no_winner = t.gettext("ui.no_winner")
    width = max(len(n) for n in (*names, no_winner))
    rows = [(name, odds["p_win"][seat], odds.get("ci95", [None] * len(names))[seat])
            for seat, name in enumerate(names)]  # fmt: skip
    rows.append((no_winner, odds["p_no_winner"], None))
    for name, p, interval in rows:
        line = f"  {name.ljust(width)}  {t.percent(p, 2):>8}"
        if interval is not None:
            low, high = (t.percent(x, 2) for x in interval)
            line += f"  ({t.format('report.interval', low=low, high=high)})"
        lines.append(line)
    if "options" in odds and to_move is not None:
        listed = " · ".join(
            t.format("web.odds.option", option=t.option(o), chance=t.percent(p, 1))
            for o, p in odds["options"].items()
        )
        lines.append(t.format("odds.options", name=names[to_move], list=listed))
    return "\n".join(lines)


class OddsLines:
    """The chances as lines of the terminal game and the narrated replay (`--odds`), in the
    language of `t`: after every turn, and each option's chance at a pending decision."""

    def __init__(self, t: Translator, names: Sequence[str], policy: str, games: int) -> None:
        from robinson.analysis.odds import check_policy

        self.t = t
        self.names = tuple(names)
        self.policy = check_policy(policy)
        self.games = games

    def percent(self, p: float) -> str:
        return self.t.percent(p, 1)

    def odds(self, state: State) -> dict[str, Any]:
        from robinson.analysis.odds import position_odds

        return position_odds(state, self.policy, self.games)

    def chances(self, odds: dict[str, Any]) -> str:
        chances = " · ".join(
            f"{name} {self.percent(p)}" for name, p in zip(self.names, odds["p_win"], strict=True)
        )
        return self.t.format("odds.chances", list=chances)

    def options(self, odds: dict[str, Any], seat: int) -> str:
        listed = " · ".join(
            self.t.format("web.odds.option", option=self.t.option(o), chance=self.percent(p))
            for o, p in odds["options"].items()
        )
        return self.t.format("odds.options", name=self.names[seat], list=listed)

    def after(self, events: Sequence[Event], state: State) -> list[str]:
        """Lines after an action: the chances when a turn ended (or the game), the options'
        chances when a decision is pending."""
        turn_over = state.over or any(isinstance(e, TurnBegan) for e in events)
        decision = not state.over and state.phase is not Phase.ROLL
        if not (turn_over or decision):
            return []
        return self.at(state)

    def at(self, state: State) -> list[str]:
        odds = self.odds(state)
        lines = [self.chances(odds)]
        if "options" in odds and state.to_move is not None:
            lines.append(self.options(odds, state.to_move))
        return lines

    def swings(self, record: GameRecord) -> list[str]:
        """The turns that swung their mover's chance most, in words."""
        from robinson.analysis.odds.history import biggest_swings, chances_over_game

        points = chances_over_game(record, self.policy, min(self.games, CHART_GAMES))
        lines = [self.t.gettext("odds.swings")]
        for s in biggest_swings(points):
            key = "web.odds.swing_lost" if s.delta < 0 else "web.odds.swing_won"
            n = round(abs(100 * s.delta))
            lines.append(
                "  " + self.t.nformat(key, n, name=self.names[s.seat], roll=s.roll, square=s.square)
            )
        return lines
