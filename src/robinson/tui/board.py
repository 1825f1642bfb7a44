"""The board for the terminal: the 45-square track with every pawn on it, one status line per
seat, and the final standings.

Lines are Rich `Text` (colour per seat) so a terminal shows colours; `.plain` of the same lines is
what a pipe, a log or `robinson replay` gets, so the two never differ in content. Every label
comes from the catalogs. The track fits 80 columns: three rows of 15 squares, snaking like the
printed board (1→15, then 16 under 15 going left to 30, then 31→45), each square 5 columns wide,
its pawns drawn under its number as letters in the seat's colour: each player's initial when the
initials differ, else A, B, C… by seat (the status lines show each letter beside its name).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from rich.text import Text

from robinson.engine import HOME, Ruleset, State
from robinson.i18n import Translator

_WIDTH = 78
# "Nr. 36" (lv) and "núm. 45" (ca) in the seeds' own texts: kept on one line when wrapping (our
# catalog strings have a no-break space there already; textwrap breaks only at ASCII spaces).
_NUMBER_SIGN = re.compile(r"\b(Nr\.|núm\.) (?=\d)")


def _wrap(text: str, initial_indent: str, subsequent_indent: str) -> list[str]:
    text = _NUMBER_SIGN.sub("\\1\u00a0", text)
    return textwrap.wrap(
        text, _WIDTH, initial_indent=initial_indent, subsequent_indent=subsequent_indent
    )


PER_ROW = 15
CELL = 5  # columns per square: its number, pawns under it, left-aligned
INDENT = 2
PAWNS_PER_LINE = CELL - 1
# One colour per seat (up to 8), distinct on dark and light terminals alike.
SEAT_STYLES = (
    "bold red",
    "bold blue",
    "bold green",
    "bold magenta",
    "bold cyan",
    "bold yellow",
    "bold bright_black",
    "bold white on blue",
)


def markers(names: Sequence[str]) -> list[str]:
    """One letter per seat: the initials (upper case) when they are letters and all differ, else
    A, B, C… in seat order. Letters, not digits, so a pawn never reads as a square number."""
    initials = [n[:1].upper() for n in names]
    if all(i.isalpha() for i in initials) and len(set(initials)) == len(initials):
        return initials
    return [chr(ord("A") + seat) for seat in range(len(names))]


def row_squares(row: int) -> list[int]:
    """The squares of a track row left to right: row 1 runs backwards (the board snakes)."""
    squares = list(range(row * PER_ROW + 1, (row + 1) * PER_ROW + 1))
    return squares[::-1] if row % 2 else squares


def pawn_style(state: State, seat: int) -> str:
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    if not state.players[seat].alive:
        return "dim strike"
    if seat == state.to_move and not state.over:
        return style + " reverse"
    return style


def track_lines(t: Translator, state: State, names: Sequence[str]) -> list[Text]:
    """The start, then three rows of squares with the pawns under their numbers."""
    marks = markers(names)
    on: dict[int, list[int]] = {}
    for seat, p in enumerate(state.players):
        on.setdefault(p.position, []).append(seat)
    start = Text(" " * INDENT + t.gettext("ui.start") + ":")
    for seat in on.get(0, []):
        start.append(" ")
        start.append(marks[seat], style=pawn_style(state, seat))
    lines = [start]
    for row in range(HOME // PER_ROW):
        squares = row_squares(row)
        numbers = Text(" " * INDENT)
        for n in squares:
            numbers.append(str(n), style="underline" if n == HOME else "")
            numbers.append(" " * (CELL - len(str(n))))
        lines.append(numbers)
        height = max(1, *(-(-len(on.get(n, [])) // PAWNS_PER_LINE) for n in squares))
        for k in range(height):
            pawns = Text(" " * INDENT)
            for n in squares:
                here = on.get(n, [])[k * PAWNS_PER_LINE : (k + 1) * PAWNS_PER_LINE]
                for seat in here:
                    pawns.append(marks[seat], style=pawn_style(state, seat))
                pawns.append(" " * (CELL - len(here)))
            lines.append(pawns)
    for line in lines:
        line.rstrip()  # in place
    return lines


def status_lines(t: Translator, state: State, names: Sequence[str]) -> list[Text]:
    """The bank, then one line per seat: pawn, name, square, purse, Friday both ways, skips,
    shipwreck mark, out of the game, winner. ▶ marks the seat to move."""
    width = max(len(n) for n in names)
    marks = markers(names)
    lines = [Text(f"  {t.gettext('ui.bank')}: {state.bank}")]
    masters = {p.friday: seat for seat, p in enumerate(state.players) if p.friday is not None}
    for seat, (name, p) in enumerate(zip(names, state.players, strict=True)):
        here = "▶" if seat == state.to_move and not state.over else " "
        title = t.gettext(f"square.{p.position}.title") if p.position else t.gettext("ui.start")
        line = Text(f"{here} ")
        line.append(marks[seat], style=pawn_style(state, seat))
        line.append(f" {name:<{width}}  ")
        line.append(f"{t.gettext('ui.square')} {p.position:>2} {title:<22}  ")
        line.append(f"{t.gettext('ui.purse')} {p.purse:>3}")
        parts = []
        if p.friday is not None:
            parts.append(t.format("cli.has_friday", friday=names[p.friday]))
        if seat in masters:
            parts.append(t.format("cli.friday_of", master=names[masters[seat]]))
        if p.skips:
            parts.append(f"{t.gettext('ui.skips')}: {p.skips}")
        if p.shipwrecked:
            parts.append(t.gettext("ui.mark"))
        if not p.alive:
            parts.append(f"✝ {t.gettext('ui.dead')}")
        if state.winner == seat:
            parts.append(f"★ {t.gettext('ui.winner')}")
        lines += _with_parts(line, parts, " " * 4)  # going on under the name
    return lines


def _with_parts(line: Text, parts: list[str], indent: str) -> list[Text]:
    """`line` with `parts` added, going on under the name when 80 columns would not hold them."""
    out = [line]
    for part in parts:
        if out[-1].cell_len + 2 + len(part) > _WIDTH:
            out.append(Text(indent))
        out[-1].append(f"  {part}")
    for text in out:
        text.rstrip()  # in place
    return out


def board_lines(t: Translator, state: State, names: Sequence[str]) -> list[str]:
    """The status lines as plain text (the form `robinson replay` prints)."""
    return [line.plain for line in status_lines(t, state, names)]


def standing_order(state: State) -> list[int]:
    """The winner first, then by purse, then by how far along the board (cli.standings_rule)."""
    return sorted(
        range(len(state.players)),
        key=lambda s: (s != state.winner, -state.players[s].purse, -state.players[s].position),
    )


def standings_lines(t: Translator, state: State, names: Sequence[str]) -> list[str]:
    """The heading, how the places are ranked, then one line per player."""
    lines = [t.gettext("ui.standings") + ":", "  " + t.gettext("cli.standings_rule")]
    for rank, seat in enumerate(standing_order(state), start=1):
        p = state.players[seat]
        purse = f"{t.gettext('ui.purse')} {p.purse}, {t.gettext('ui.square')} {p.position}"
        line = "  " + t.format("cli.standing", rank=rank, name=names[seat], purse=purse)
        if state.winner == seat:
            line += f"  ★ {t.gettext('ui.winner')}"
        elif not p.alive:
            line += f"  ✝ {t.gettext('ui.dead')}"
        lines.append(line)
    if state.over and state.winner is None:
        lines.append("  " + t.gettext("ui.no_winner"))
    return lines


def square_card(t: Translator, number: int, ruleset: Ruleset) -> list[str]:
    """A square's story and the effect in force, wrapped and indented under the narration."""
    sq = t.square(number, ruleset)
    text = t.quoted(sq.story) + (f" – {sq.effect}" if sq.effect else "")
    return _wrap(text, "      ", "      ")


def rules_help(t: Translator, ruleset: Ruleset) -> list[str]:
    """The help key's page: the edition in play, its options, and every square with the effect
    line in force (story squares by title only)."""
    lines = [t.gettext("cli.help_title")]
    lines += _wrap(t.rules_summary(ruleset), "  ", "  ")
    lines += _wrap(t.gettext("rules.text").replace("\n", " "), "  ", "  ")
    lines.append(t.gettext("cli.help_squares"))
    for n in range(1, HOME + 1):
        sq = t.square(n, ruleset)
        text = f"{n:>2} {sq.title}" + (f" – {sq.effect}" if sq.effect else "")
        lines += _wrap(text, "  ", "       ")
    return lines
