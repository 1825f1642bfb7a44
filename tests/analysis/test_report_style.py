"""One seat palette (issue 21): the reports' seat colours are the web board's, and a seat's bar
in the position report has its seat's colour."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib.colors
import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure

from robinson.analysis.report import position_figures
from robinson.analysis.report.style import SEAT_COLOURS, seat_colour
from robinson.analysis.report.words import ReportWords

BOARD_JS = Path(__file__).resolve().parents[2] / "src" / "robinson" / "web" / "static" / "board.js"


def test_the_reports_seat_colours_are_the_boards() -> None:
    found = re.search(r"export const COLOURS = (\[[^\]]*\]);", BOARD_JS.read_text("utf-8"))
    assert found, "board.js no longer names its seat colours COLOURS"
    assert list(SEAT_COLOURS) == json.loads(found.group(1))
    assert [seat_colour(s) for s in range(10)] == [SEAT_COLOURS[s % 8] for s in range(10)]


def test_each_seat_bar_of_the_position_report_has_its_seats_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept: list[Figure] = []

    def keep(fig: Figure) -> bytes:
        kept.append(fig)
        return b""

    monkeypatch.setattr(position_figures, "to_png", keep)
    names = [f"P{k}" for k in range(6)]
    odds = {"p_win": [0.1, 0.2, 0.3, 0.15, 0.15, 0.1]}
    position_figures.chances(ReportWords("en"), names, odds, "exact")
    (ax,) = kept[0].axes
    plt.close(kept[0])
    bars = ax.patches
    assert [matplotlib.colors.to_hex(b.get_facecolor()) for b in bars] == list(SEAT_COLOURS[:6])
