"""The terminal board for `render_mode="ansi"`: the same board `robinson play` draws."""

from __future__ import annotations

from collections.abc import Sequence

from robinson.engine import State
from robinson.i18n import Translator
from robinson.tui.board import board_lines


def render_ansi(state: State, names: Sequence[str], lang: str = "en") -> str:
    return "\n".join(board_lines(Translator(lang), state, names))
