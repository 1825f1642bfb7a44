"""The compact board shown after each turn, and the final standings, as plain text lines.

Plain text (no colour library) keeps the output readable when piped, logged or diffed in tests;
every label comes from the catalogs, so the board speaks the player's language.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from robinson.engine import Ruleset, State
from robinson.i18n import Translator

_WIDTH = 78


def board_lines(t: Translator, state: State, names: Sequence[str]) -> list[str]:
    """One line for the bank, then one per seat: square, purse, Friday, skips, mark, death."""
    width = max(len(n) for n in names)
    lines = [f"  {t.gettext('ui.bank')}: {state.bank}"]
    for seat, (name, p) in enumerate(zip(names, state.players, strict=True)):
        here = "▶" if seat == state.to_move and not state.over else " "
        title = t.gettext(f"square.{p.position}.title") if p.position else t.gettext("ui.start")
        parts = [
            f"{here} {name:<{width}}",
            f"{t.gettext('ui.square')} {p.position:>2} {title:<22}",
            f"{t.gettext('ui.purse')} {p.purse:>3}",
        ]
        if p.friday is not None:
            parts.append(f"{t.gettext('ui.friday')}: {names[p.friday]}")
        if p.skips:
            parts.append(f"{t.gettext('ui.skips')}: {p.skips}")
        if p.shipwrecked:
            parts.append(t.gettext("ui.mark"))
        if not p.alive:
            parts.append(f"✝ {t.gettext('ui.dead')}")
        if state.winner == seat:
            parts.append(f"★ {t.gettext('ui.winner')}")
        lines.append("  ".join(parts).rstrip())
    return lines


def standings_lines(t: Translator, state: State, names: Sequence[str]) -> list[str]:
    """The winner first, then by purse, then by how far along the board."""
    order = sorted(
        range(len(names)),
        key=lambda s: (s != state.winner, -state.players[s].purse, -state.players[s].position),
    )
    lines = [t.gettext("ui.standings") + ":"]
    for rank, seat in enumerate(order, start=1):
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
    text = f"“{sq.story}”" + (f" – {sq.effect}" if sq.effect else "")
    return textwrap.wrap(text, _WIDTH, initial_indent="      ", subsequent_indent="      ")
