"""`robinson play`: a game at the terminal, humans and bots, each event narrated.

Seats come from `--players "Anna:human:9,Bruno:heuristic,Cila:random"` (NAME:KIND[:AGE]) or from
repeated `--human NAME[:AGE]` / `--bot KIND[:NAME]` (in the order given). The youngest player with
an age starts (RULES.md 1.3), else the first seat. The dice come from `random.Random(--seed)`, one
`randint(1, 6)` per roll, so a seed replays the same game; the record (with the seed in its
`meta`) can be saved and fed to `robinson replay`.

With a terminal on stdin, missing choices are asked for. Without one, a game with no seats given
is played by bots alone and narrated; humans given by flags then read their answers from stdin,
one line per question, which is how scripted games and tests drive it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from robinson.bots import BOT_NAMES
from robinson.engine import EDITIONS, MAX_PLAYERS, MIN_PLAYERS, RobinsonError, Ruleset
from robinson.i18n import LANGUAGES, Translator, default_language, edition_for_language
from robinson.tui.game import HUMAN, Quit, Seat, TerminalGame

T = TypeVar("T")

DEFAULT_BOTS = "Anna:heuristic,Bruno:random,Cila:heuristic"
DEFAULT_TABLE = "Anna:human,Bruno:heuristic,Cila:random"


def parse_seat(spec: str) -> Seat:
    """NAME:KIND[:AGE], e.g. "Anna:human:9" or "Bruno:heuristic"."""
    parts = [p.strip() for p in spec.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise RobinsonError(f"a player is NAME:KIND[:AGE] (e.g. Anna:human:9), got {spec!r}")
    return Seat(parts[0], _kind(parts[1]), _age(parts[2]) if len(parts) == 3 else None)


def parse_players(text: str) -> list[Seat]:
    seats = [parse_seat(s) for s in text.split(",") if s.strip()]
    return _check_seats(seats)


def _kind(kind: str) -> str:
    if kind != HUMAN and kind not in BOT_NAMES:
        known = ", ".join([HUMAN, *BOT_NAMES])
        raise RobinsonError(f"unknown player kind {kind!r}: expected one of {known}")
    return kind


def _age(text: str) -> int:
    if not text.isdigit():
        raise RobinsonError(f"an age is a whole number of years, got {text!r}")
    return int(text)


def _human_flag(spec: str) -> Seat:
    name, _, age = spec.partition(":")
    if not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME[:AGE], got {spec!r}")
    try:
        return Seat(name.strip(), HUMAN, _age(age) if age else None)
    except RobinsonError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _bot_flag(spec: str) -> Seat:
    kind, _, name = spec.partition(":")
    try:
        return Seat(name.strip() or kind.capitalize(), _kind(kind.strip()))
    except RobinsonError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _check_seats(seats: list[Seat]) -> list[Seat]:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RobinsonError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(seats)}")
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise RobinsonError(f"player names must differ, got {', '.join(names)}")
    return seats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal, against people or bots",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--players",
        metavar="SPEC",
        help=f"comma-separated NAME:KIND[:AGE]; KIND is human or a bot ({', '.join(BOT_NAMES)})",
    )
    p.add_argument(
        "--human",
        dest="seats",
        action="append",
        type=_human_flag,
        metavar="NAME[:AGE]",
        help="add a human player (repeatable)",
    )
    p.add_argument(
        "--bot",
        dest="seats",
        action="append",
        type=_bot_flag,
        metavar="KIND[:NAME]",
        help="add a bot player (repeatable)",
    )
    p.add_argument(
        "--edition",
        choices=list(EDITIONS),
        help="the rules edition (default: the edition of the language)",
    )
    p.add_argument("--start-tokens", type=int, default=30, help="tokens per player (30)")
    p.add_argument("--stake", type=int, default=10, help="tokens each player puts in the bank (10)")
    p.add_argument(
        "--share",
        choices=["half", "third"],
        default="half",
        help="the nearest player's share of the bank (half)",
    )
    p.add_argument("--lang", choices=LANGUAGES, help="language (default: from the locale, else en)")
    p.add_argument("--seed", type=int, help="seed of the dice (default: a random one, printed)")
    p.add_argument("--save", type=Path, metavar="FILE", help="save the game record there")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    interactive = sys.stdin.isatty()
    ask = _asker(sys.stdin, sys.stdout)
    try:
        game = setup(args, interactive, ask)
    except RobinsonError as e:
        print(f"robinson play: {e}", file=sys.stderr)
        return 2
    except Quit:
        return 1
    try:
        return game.play(ask, interactive)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 1


def _asker(stdin: TextIO, out: TextIO) -> Callable[[str], str]:
    """Ask one question on `out` and read one line; EOF and Ctrl-C become `Quit`."""

    def ask(question: str) -> str:
        out.write(question)
        out.flush()
        try:
            line = stdin.readline()
        except KeyboardInterrupt:
            out.write("\n")
            raise Quit from None
        if not line:
            out.write("\n")
            raise Quit
        return line.strip()

    return ask


def setup(args: argparse.Namespace, interactive: bool, ask: Callable[[str], str]) -> TerminalGame:
    """The game the flags describe; questions for what is missing when `interactive`."""
    lang = args.lang or default_language()
    if args.lang is None and interactive:
        lang = _ask_until(
            ask,
            lambda a: _pick(a or lang, LANGUAGES),
            Translator(lang).format("cli.ask_language", choices="/".join(LANGUAGES), default=lang),
            Translator(lang),
        )
    t = Translator(lang)
    seats: list[Seat]
    if args.players and args.seats:
        raise RobinsonError("give the players either with --players or with --human/--bot")
    if args.players:
        seats = parse_players(args.players)
    elif args.seats:
        seats = _check_seats(args.seats)
    elif interactive:
        question = t.format("cli.ask_players", bots=", ".join(BOT_NAMES), default=DEFAULT_TABLE)
        seats = _ask_until(ask, lambda a: parse_players(a or DEFAULT_TABLE), question, t)
    else:
        seats = parse_players(DEFAULT_BOTS)
    edition = args.edition or edition_for_language(lang)
    if args.edition is None and interactive:
        question = t.format("cli.ask_edition", choices="/".join(EDITIONS), default=edition)
        edition = _ask_until(ask, lambda a: _pick(a or edition, tuple(EDITIONS)), question, t)
    ruleset = Ruleset(edition, args.start_tokens, args.stake, args.share)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return TerminalGame(t, ruleset, seats, seed, args.save, sys.stdout)


def _pick(answer: str, choices: tuple[str, ...]) -> str:
    if answer not in choices:
        raise RobinsonError(f"expected one of {', '.join(choices)}, got {answer!r}")
    return answer


def _ask_until(
    ask: Callable[[str], str], parse: Callable[[str], T], question: str, t: Translator
) -> T:
    while True:
        try:
            return parse(ask(question))
        except RobinsonError as e:
            print(t.format("cli.bad_answer", error=e))
