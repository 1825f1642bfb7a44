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
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO, TypeVar

from robinson.bots import BOT_NAMES
from robinson.engine import EDITIONS, MAX_PLAYERS, MIN_PLAYERS, RobinsonError, Ruleset
from robinson.i18n import LANGUAGES, Translator, default_language, edition_for_language
from robinson.tui.game import HUMAN, QUIT_WORDS, Quit, Seat, TerminalGame

T = TypeVar("T")

DEFAULT_BOTS = "Anna:heuristic,Bruno:random,Cila:heuristic"
DEFAULT_BOT = "heuristic"  # what the generic word "bot" ("robots", "robot") plays
# Names offered for the other players at the question, skipping the one the human took.
OTHER_NAMES = ("Bruno", "Cila", "Dora", "Emil")
DEFAULT_PACE = 0.6  # seconds after each bot move, so a person can follow (terminal only)


def parse_seat(spec: str, t: Translator) -> Seat:
    """NAME:KIND[:AGE], e.g. "Anna:human:9", "Bruno:heuristic" or, in Latvian, "Cila:robots"."""
    parts = [p.strip() for p in spec.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise RobinsonError(t.format("cli.error.player", got=spec.strip()))
    return Seat(parts[0], _kind(parts[1], t), _age(parts[2], t) if len(parts) == 3 else None)


def parse_players(text: str, t: Translator) -> list[Seat]:
    return _check_seats([parse_seat(s, t) for s in text.split(",") if s.strip()], t)


def _fold(word: str) -> str:
    """Lower case without accents, so "clovek" is "člověk" and "Robots" is "robots"."""
    decomposed = unicodedata.normalize("NFKD", word.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _kind(kind: str, t: Translator) -> str:
    """HUMAN or a bot name, from the words the question offers in `t`'s language (and the
    English ones, which every language accepts)."""
    word = _fold(kind)
    if word in (HUMAN, _fold(t.gettext("cli.word.human"))):
        return HUMAN
    if word in ("bot", _fold(t.gettext("cli.word.bot"))):
        return DEFAULT_BOT
    for bot in BOT_NAMES:  # the code ("random") or the language's name ("Nejaušais")
        if word in (bot, _fold(bot_word(bot, t))):
            return bot
    known = ", ".join([t.gettext("cli.word.human"), t.gettext("cli.word.bot"), *bot_words(t)])
    raise RobinsonError(t.format("cli.error.kind", kind=kind, known=known))


def bot_word(bot: str, t: Translator) -> str:
    """A bot's name in `t`'s language as a word to type: the web's name, in lower case
    ("nejaušais", "dychtivý", "assenyat", "optimal")."""
    return t.gettext(f"web.bot.{bot}").lower()


def bot_words(t: Translator) -> list[str]:
    return [bot_word(bot, t) for bot in BOT_NAMES]


def _age(text: str, t: Translator) -> int:
    if not text.strip().isdigit():
        raise RobinsonError(t.format("cli.error.age", got=text))
    return int(text)


def _flag_translator() -> Translator:
    # Flags are checked while the command line is read, before --lang is known: the locale's.
    return Translator(default_language())


def _human_flag(spec: str) -> Seat:
    name, _, age = spec.partition(":")
    t = _flag_translator()
    if not name.strip():
        raise argparse.ArgumentTypeError(t.format("cli.error.player", got=spec))
    try:
        return Seat(name.strip(), HUMAN, _age(age, t) if age else None)
    except RobinsonError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _bot_flag(spec: str) -> Seat:
    kind, _, name = spec.partition(":")
    try:
        return Seat(name.strip() or kind.capitalize(), _kind(kind.strip(), _flag_translator()))
    except RobinsonError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(_flag_translator().format("cli.error.seconds", got=text))
    return value


def _check_seats(seats: list[Seat], t: Translator) -> list[Seat]:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RobinsonError(
            t.format("cli.error.count", min=MIN_PLAYERS, max=MAX_PLAYERS, n=len(seats))
        )
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise RobinsonError(t.format("cli.error.names", names=", ".join(names)))
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
    p.add_argument(
        "--pace",
        type=_seconds,
        default=DEFAULT_PACE,
        metavar="SECONDS",
        help=f"pause after each bot move when output is a terminal (default {DEFAULT_PACE})",
    )
    p.add_argument(
        "--odds",
        action="store_true",
        help="show every seat's chances after each turn and each option's at a decision",
    )
    p.add_argument(
        "--odds-policy",
        default="eager",
        metavar="POLICY",
        help="the decisions the chances assume: eager (default) or optimal",
    )
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


DEFAULT_GAMES = 200_000  # games simulated for the chances of 5 to 8 living players


def setup(args: argparse.Namespace, interactive: bool, ask: Callable[[str], str]) -> TerminalGame:
    """The game the flags describe; questions for what is missing when `interactive`. Every
    question, hint and error is in the game's language, and accepts what it offers."""
    lang = args.lang or default_language()
    if args.lang is None and interactive:
        lang = _ask_language(ask, lang)
    t = Translator(lang)
    seats: list[Seat]
    if args.players and args.seats:
        raise RobinsonError(t.gettext("cli.error.both"))
    if args.players:
        seats = parse_players(args.players, t)
    elif args.seats:
        seats = _check_seats(args.seats, t)
    elif interactive:
        seats = _ask_seats(ask, t)
    else:
        seats = parse_players(DEFAULT_BOTS, t)
    edition = args.edition or edition_for_language(lang)
    if args.edition is None and interactive:
        edition = _ask_edition(ask, t, edition)
    if args.start_tokens < 0:
        raise RobinsonError(t.format("cli.error.start_tokens", start=args.start_tokens))
    if not 0 <= args.stake <= args.start_tokens:
        raise RobinsonError(t.format("cli.error.stake", start=args.start_tokens, stake=args.stake))
    ruleset = Ruleset(edition, args.start_tokens, args.stake, args.share)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    game = TerminalGame(t, ruleset, seats, seed, args.save, sys.stdout, pace=args.pace)
    if getattr(args, "odds", False):  # a namespace made without the flag has none
        from robinson.cli.odds import OddsLines

        game.odds = OddsLines(t, game.names, args.odds_policy, DEFAULT_GAMES)
    return game


def _ask_language(ask: Callable[[str], str], default: str) -> str:
    """By code, number or name: "cs", "2" and "čeština" are all Czech."""
    t = Translator(default)
    names = {lang: Translator(lang).language_name(lang) for lang in LANGUAGES}
    choices = ", ".join(f"{lang} = {names[lang]}" for lang in LANGUAGES)
    question = t.format("cli.ask_language", choices=choices, default=default)
    offered = {lang: (lang, str(i), names[lang]) for i, lang in enumerate(LANGUAGES, start=1)}
    return _ask_until(ask, lambda a: _pick(a or default, offered, t), question, t)


def _ask_edition(ask: Callable[[str], str], t: Translator, default: str) -> str:
    """The editions listed by name in the game's language; a number, name or code answers."""
    names = {e: t.edition_name(e) for e in EDITIONS}
    choices = ", ".join(f"{i} = {names[e]}" for i, e in enumerate(EDITIONS, start=1))
    question = t.format("cli.ask_edition", choices=choices, default=names[default])
    offered = {e: (e, str(i), names[e]) for i, e in enumerate(EDITIONS, start=1)}
    return _ask_until(ask, lambda a: _pick(a or default, offered, t), question, t)


def _ask_seats(ask: Callable[[str], str], t: Translator) -> list[Seat]:
    """The human's name (never a default) and age, then the other players."""

    def name(answer: str) -> str:
        if not answer.strip():
            raise RobinsonError(t.gettext("cli.name_required"))
        return answer.strip()

    me = _ask_until(ask, name, t.gettext("cli.ask_name"), t)
    age = _ask_until(ask, lambda a: _age(a, t) if a.strip() else None, t.gettext("cli.ask_age"), t)
    you = Seat(me, HUMAN, age)
    bot = t.gettext("cli.word.bot")
    others = [n for n in OTHER_NAMES if _fold(n) != _fold(me)][:2]
    default = ",".join(f"{n}:{bot}" for n in others)
    question = t.format("cli.ask_players", bots=", ".join(bot_words(t)), default=default)

    def rest(answer: str) -> list[Seat]:
        seats = [parse_seat(s, t) for s in (answer or default).split(",") if s.strip()]
        return _check_seats([you, *seats], t)

    return _ask_until(ask, rest, question, t)


def _pick(answer: str, offered: Mapping[str, tuple[str, ...]], t: Translator) -> str:
    """The key of `offered` whose words include `answer` (case and accents aside)."""
    for key, words in offered.items():
        if _fold(answer) in (_fold(w) for w in words):
            return key
    choices = ", ".join(words[0] for words in offered.values())
    raise RobinsonError(t.format("cli.error.choice", choices=choices, got=answer))


def _ask_until(
    ask: Callable[[str], str], parse: Callable[[str], T], question: str, t: Translator
) -> T:
    while True:
        answer = ask(question)
        if _fold(answer) in QUIT_WORDS:
            raise Quit
        try:
            return parse(answer)
        except RobinsonError as e:
            print(t.format("cli.bad_answer", error=e))
