"""A game at the terminal: dice from a seeded `random.Random`, bots and humans, narration, and
the board drawn after every turn.

Input goes through an `ask(question) -> answer` function so the same loop serves a terminal, a
pipe and tests; it raises `Quit` on "q", end of input or Ctrl-C. Output goes through a Rich
console: colours and word wrapping on a terminal, the same text plain when piped.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from rich.console import Console
from rich.text import Text

from robinson.bots import Bot, make_bot
from robinson.engine import (
    Action,
    Choose,
    Event,
    GameRecord,
    Moved,
    Phase,
    Roll,
    Ruleset,
    State,
    TurnBegan,
    Won,
    apply,
)
from robinson.i18n import Translator
from robinson.i18n.leads import leads
from robinson.tui.board import (
    SEAT_STYLES,
    rules_help,
    square_card,
    standings_lines,
    status_lines,
    track_lines,
)


class OddsLines(Protocol):
    """The chance lines of `--odds` (`robinson.cli.odds.OddsLines`, which sits above the terminal
    and hands itself in: named here by what the game asks of it)."""

    def after(self, events: Sequence[Event], state: State) -> list[str]: ...
    def at(self, state: State) -> list[str]: ...


HUMAN = "human"
QUIT_WORDS = ("q", "quit")
HELP_WORDS = ("h", "?", "help")
Ask = Callable[[str], str]


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str  # HUMAN or a bot name
    age: int | None = None


class Quit(Exception):
    """The player asked to stop (q), or the input ended or was interrupted."""


def first_seat(seats: Sequence[Seat]) -> int:
    """The youngest player with an age starts (the earliest seat on a tie); else seat 0."""
    aged = [(s.age, i) for i, s in enumerate(seats) if s.age is not None]
    return min(aged)[1] if aged else 0


class TerminalGame:
    def __init__(
        self,
        t: Translator,
        ruleset: Ruleset,
        seats: Sequence[Seat],
        seed: int,
        save_path: Path | None,
        out: TextIO,
        pace: float = 0.0,
    ) -> None:
        self.t = t
        self.seats = tuple(seats)
        self.names = tuple(s.name for s in seats)
        self.seed = seed
        self.save_path = save_path
        self.out = out
        self.tty = _is_terminal(out)
        # Colours and wrapping only on a terminal; markup off, so names are printed as typed.
        self.console = Console(
            file=out,
            force_terminal=self.tty,
            no_color=not self.tty,
            highlight=False,
            markup=False,
            emoji=False,
        )
        self.pace = pace if self.tty else 0.0  # bots' moves paced for a person watching
        self.sleep: Callable[[float], None] = time.sleep
        self.dice = random.Random(seed)
        meta: dict[str, object] = {
            "seed": seed,
            "dice": "random.Random(seed).randint(1, 6) per roll",
        }
        if any(s.age is not None for s in seats):
            meta["ages"] = [s.age for s in seats]
        self.record = GameRecord(ruleset, self.names, first_seat(seats), (), meta)
        self.odds: OddsLines | None = None  # `--odds`: the chances after turns and at decisions
        self.bots: dict[int, Bot] = {
            i: make_bot(s.kind, seed + i) for i, s in enumerate(seats) if s.kind != HUMAN
        }

    def say(self, line: str | Text = "") -> None:
        # Piped output is never wrapped, so each narrated sentence stays on one line.
        self.console.print(line, soft_wrap=not self.tty)
        self.out.flush()

    # -- the game ------------------------------------------------------------------------------

    def play(self, ask: Ask, interactive: bool) -> int:
        """Play to the end (exit status 0), or until the players stop (1); then offer to save."""
        t, state = self.t, self.record.initial_state()
        self.say(t.rules_summary(self.record.ruleset))
        self.say(t.format("cli.seed", seed=self.seed))
        if any(s.age is not None for s in self.seats):
            self.say(t.format("cli.starts", name=self.names[self.record.first]))
        self.show_board(state)
        self.heading(TurnBegan(self.record.first))
        self.show_odds(state)
        try:
            while not state.over:
                mover = state.to_move
                action = self.next_action(state, ask)
                state, events = apply(state, action)
                self.record = self.record.with_action(action)
                self.show(events, state)
                if self.odds is not None:
                    for line in self.odds.after(events, state):
                        self.say(f"  {line}")
                if mover in self.bots and self.pace:
                    self.sleep(self.pace)
        except (Quit, KeyboardInterrupt):
            self.say()
            self.say(t.gettext("cli.interrupted"))
            self.offer_save(ask, interactive)
            return 1
        self.say()
        for line in standings_lines(t, state, self.names):
            self.say(line)
        self.offer_save(ask, interactive)
        return 0

    def next_action(self, state: State, ask: Ask) -> Action:
        seat = state.to_move
        assert seat is not None
        human = seat not in self.bots
        if state.phase is Phase.ROLL:
            while human:
                answer = ask(self.t.format("cli.press_enter", name=self.names[seat])).lower()
                if answer in QUIT_WORDS:
                    raise Quit
                if answer not in HELP_WORDS:
                    break
                self.show_help(state)
            return Roll(self.dice.randint(1, 6))
        if not human:
            return self.bots[seat].choose(state)
        return self.ask_decision(state, ask)

    def ask_decision(self, state: State, ask: Ask) -> Choose:
        """Show the question with the roll in view and where each option leads; accept the
        number, the option or its label."""
        t = self.t
        options = leads(t, state)
        self.say(t.prompt(state, self.names))
        for number, lead in enumerate(options, start=1):
            self.say(f"   {number} = {lead.line(t)}")
        numbers = t.alternatives([str(n) for n in range(1, len(options) + 1)])  # "1, nebo 2"
        while True:
            answer = ask(t.format("cli.choose", choices=numbers)).strip().lower()
            if answer in QUIT_WORDS:
                raise Quit
            if answer in HELP_WORDS:
                self.show_help(state)
                continue
            for number, lead in enumerate(options, start=1):
                if answer in (str(number), lead.option, lead.label.lower()):
                    return Choose(lead.option)
            self.say(t.format("cli.bad_choice", choices=numbers))

    # -- output --------------------------------------------------------------------------------

    def show(self, events: Sequence[Event], state: State) -> None:
        turn_began: TurnBegan | None = None
        # A square's card once per action, under the line that tells the move: the swap on 36
        # moves two pawns between 36 and 41 (36's card was printed twice), and the move home is
        # told by the win that follows it (the card of 45 came before that line).
        carded: set[int] = set()
        pending: int | None = None
        lines = self.t.narrate_each(events, self.names)
        for index, (event, text) in enumerate(zip(events, lines, strict=True)):
            if isinstance(event, TurnBegan):
                turn_began = event  # said after the board, as the heading of the next turn
                continue
            if text:
                self.say(f"  {text}")
            if pending is not None and text:
                self.card(pending, state, carded)
                pending = None
            if isinstance(event, Moved):
                told_by_the_win = index + 1 < len(events) and isinstance(events[index + 1], Won)
                if not text and told_by_the_win:
                    pending = event.end
                else:
                    self.card(event.end, state, carded)
        if pending is not None:
            self.card(pending, state, carded)
        if turn_began is not None or state.over:
            self.show_board(state)
        if turn_began is not None and not state.over:
            self.heading(turn_began)

    def card(self, square: int, state: State, carded: set[int]) -> None:
        if square not in carded:
            carded.add(square)
            for line in square_card(self.t, square, state.ruleset):
                self.say(line)

    def show_odds(self, state: State) -> None:
        if self.odds is not None:
            for line in self.odds.at(state):
                self.say(f"  {line}")

    def heading(self, turn: TurnBegan) -> None:
        """The heading of a turn ("Anna's turn."), in the seat's colour on a terminal."""
        style = SEAT_STYLES[turn.seat % len(SEAT_STYLES)]
        self.say(Text(self.t.narrate(turn, self.names), style=style))

    def show_board(self, state: State) -> None:
        """The track with every pawn, then one line per seat; redrawn after every turn."""
        self.say()
        for line in [
            *track_lines(self.t, state, self.names),
            Text(),
            *status_lines(self.t, state, self.names),
        ]:
            self.say(line)
        self.say()

    def show_help(self, state: State) -> None:
        """The rules of the edition in play, every square with the effect in force."""
        self.say()
        for line in rules_help(self.t, state.ruleset):
            self.say(line)
        self.say()

    def offer_save(self, ask: Ask, interactive: bool) -> None:
        path = self.save_path
        if path is None and interactive:
            try:
                answer = ask(self.t.gettext("cli.save_ask"))
            except (Quit, KeyboardInterrupt):
                answer = ""
            path = Path(answer) if answer else None
        if path is None:
            self.say(self.t.gettext("cli.not_saved"))
            return
        try:
            path.write_text(self.record.dumps() + "\n", encoding="utf-8")
        except OSError as e:
            self.say(f"{path}: {e.strerror}")
            self.say(self.t.gettext("cli.not_saved"))
            return
        self.say(self.t.format("cli.saved", path=path))


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
