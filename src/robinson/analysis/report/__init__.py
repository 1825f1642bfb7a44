"""`robinson report`: a self-contained HTML page of plots and tables about the game."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from robinson.analysis.report.data import Progress

__all__ = ["DEFAULT_GAMES", "build_report"]

DEFAULT_GAMES = 1_000_000  # about 20 s on 2 cores


def build_report(
    out: Path,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    progress: Progress | None = None,
    lang: str = "en",
) -> Path:
    """Simulate, plot and write `out/index.html` in `lang` (lv, cs, ca, en); returns its path."""
    # Imported here: matplotlib and the simulator are slow to load, and the `robinson` command
    # imports this package at start-up for DEFAULT_GAMES.
    from robinson.analysis.report.data import collect
    from robinson.analysis.report.page import render
    from robinson.i18n.catalogs import check_language

    check_language(lang)  # before the long simulation, not after
    if type(games) is not int or games < 2:
        raise ValueError(f"games must be a whole number of at least 2, got {games!r}")
    data = collect(games, seed, progress)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(render(data, lang), encoding="utf-8")
    return page
