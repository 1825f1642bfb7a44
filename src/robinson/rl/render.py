"""The terminal board for `render_mode="ansi"`: the track and status lines `robinson play` draws
(Rich, one colour per seat), as one string with ANSI colour codes."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from robinson.engine import State
from robinson.i18n import Translator
from robinson.tui.board import status_lines, track_lines


def render_ansi(state: State, names: Sequence[str], lang: str = "en") -> str:
    t = Translator(lang)
    out = io.StringIO()
    console = Console(
        file=out,
        force_terminal=True,
        color_system="standard",
        width=80,
        highlight=False,
        markup=False,
        emoji=False,
    )
    for line in [*track_lines(t, state, names), Text(), *status_lines(t, state, names)]:
        console.print(line)
    return out.getvalue()
