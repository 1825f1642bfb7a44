"""The plots of the report of one position (`robinson report --record FILE`), each returned as PNG
bytes, every label in the report's language; the same style, palette and resolution as the
opening report's (`style.py`). Every title says how its figures were found (`how`: exact, or
simulated with the number of games, `figures.method`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from robinson.analysis.odds.history import Point
from robinson.analysis.report.figures import titled
from robinson.analysis.report.style import localise, seat_colour, to_png, whole_ticks
from robinson.analysis.report.words import ReportWords

TITLE_WIDTH = 80  # characters that fit one line of a title at the figures' width


def _title(w: ReportWords, key: str, how: str) -> str:
    """The title and its method on one line (`figures.titled`), or on two when that is too
    long for the figure's width."""
    line = titled(w, key, how)
    return line if len(line) <= TITLE_WIDTH else f"{w.text(key)}\n{how}"


def chances(w: ReportWords, names: Sequence[str], odds: dict[str, Any], how: str) -> bytes:
    """Every seat's chance of winning from the position, as bars (with the 95% interval when
    the chances are simulated)."""
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(names) + 1.4))
    p = np.array(odds["p_win"], dtype=float)
    y = np.arange(len(names))[::-1]
    err = None
    if "ci95" in odds:
        ci = np.array(odds["ci95"], dtype=float)
        err = np.vstack([p - ci[:, 0], ci[:, 1] - p]).clip(min=0) * 100
    colours = [seat_colour(s) for s in range(len(names))]
    ax.barh(y, 100 * p, xerr=err, color=colours, capsize=3)
    for row, share in zip(y, p, strict=True):
        ax.text(100 * share + 1, row, w.pct(share, 1), va="center", fontsize=8)
    ax.set_yticks(y, list(names))
    ax.set_xlim(0, 110)
    ax.set_axisbelow(True)  # the grid behind the bars
    localise(w, ax, y=False)
    ax.set_xlabel(w.text("report.fig.chances.x"))
    ax.set_title(_title(w, "report.fig.chances.title", how))
    ax.grid(axis="x", alpha=0.3)
    return to_png(fig)


def history(w: ReportWords, names: Sequence[str], points: Sequence[Point], how: str) -> bytes:
    """Every seat's chance at the start of every turn so far: one line per seat."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    turns = [pt.turn for pt in points]
    for seat, name in enumerate(names):
        ax.plot(
            turns, [100 * pt.p_win[seat] for pt in points],
            color=seat_colour(seat), lw=2, label=name,
        )  # fmt: skip
    # From 0 to a little above the highest chance reached: with 6 players the chances stay
    # low, and a 0-100 axis would squash them into its bottom fifth.
    top = max((100 * p for pt in points for p in pt.p_win), default=100.0)
    ax.set_ylim(0, min(100.0, top * 1.1 + 1))
    whole_ticks(ax)
    localise(w, ax)
    ax.set_xlabel(w.text("report.fig.history.x"))
    ax.set_ylabel(w.text("report.fig.chances.x"))
    ax.set_title(_title(w, "report.fig.history.title", how))
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    return to_png(fig)


def rest(w: ReportWords, summary: dict[str, Any], how: str) -> bytes:
    """How many more turns the winner needs from the position (simulated, eager play)."""
    fig, ax = plt.subplots(figsize=(8, 4))
    counts = np.array(summary["winner_turns"]["histogram"], dtype=float)
    share = 100 * counts / counts.sum()  # the axis says %
    ax.bar(np.arange(len(share)), share, width=0.9, color="tab:blue")
    # The winner needs at least the turn under way: no empty bar at 0.
    ax.set_xlim(0.5, max(int(summary["winner_turns"]["p90"] * 2), 10) + 0.5)
    whole_ticks(ax)
    localise(w, ax)
    ax.set_xlabel(w.text("report.fig.rest.x"))
    ax.set_ylabel(w.text("report.fig.lengths.y"))
    ax.set_title(_title(w, "report.fig.rest.title", how))
    ax.grid(axis="y", alpha=0.3)
    return to_png(fig)
