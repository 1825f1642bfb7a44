"""What every plot of the reports shares: the seat palette, the resolution, and numbers on the
axes written the report language's way.

- One colour per seat, the page's own (web/static/board.js), in both reports: a seat looks the
  same everywhere.
- PNG at twice the usual 110 dpi: sharp on phones and high-density screens (the page shows them
  at their 1x size through `width`).
- Tick labels through Babel (`ReportWords.num`): "0,25" in lv, cs and ca, "0.25" in en;
  matplotlib's own formatter writes English decimals whatever the page's language.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator

from robinson.analysis.report.words import ReportWords

SEAT_COLOURS = ("#c62828", "#2e7d32", "#f9a825", "#1565c0", "#ef6c00", "#6a1b9a", "#00acc1",
                "#ad1457")  # fmt: skip
BASE_DPI = 110
SCALE = 2  # pixels per CSS pixel the PNGs are drawn for


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def to_png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=BASE_DPI * SCALE, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _places(ticks: list[float]) -> int:
    """The fewest decimals that write every tick exactly (2.5, 5, 7.5 -> 1; 10, 20 -> 0)."""
    for places in range(7):
        if all(abs(round(t, places) - t) < 1e-9 * max(1.0, abs(t)) for t in ticks):
            return places
    return 6


def localise(w: ReportWords, ax: Axes, x: bool = True, y: bool = True) -> None:
    """Write the axis numbers in `w`'s language, with as many decimals as the ticks need."""
    for on, axis in ((x, ax.xaxis), (y, ax.yaxis)):
        if not on:
            continue

        def label(value: float, _: int, axis: object = axis) -> str:
            places = _places(list(axis.get_ticklocs()))  # type: ignore[attr-defined]
            return w.num(value, places, signed=False)

        axis.set_major_formatter(FuncFormatter(label))


def whole_ticks(ax: Axes, x: bool = True, y: bool = False) -> None:
    """Integer ticks only (turns, seats, players)."""
    if x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if y:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
