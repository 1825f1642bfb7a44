"""`robinson report`: a self-contained HTML page of plots and tables about the game, or, with
`--record FILE`, about the position after a game record's last action (`build_position_report`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from robinson.analysis.report.data import Progress
    from robinson.engine import GameRecord

__all__ = ["DEFAULT_GAMES", "build_position_report", "build_report"]

DEFAULT_GAMES = 1_000_000  # about 35 s on 2 cores for the whole page


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


def build_position_report(
    out: Path,
    record: GameRecord,
    source: str,
    policy: str = "eager",
    games: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    lang: str = "en",
) -> Path:
    """The report of the position after `record`'s last action (`source`: the record's file
    name, shown on the page) in `lang`, written to `out/index.html`; returns its path. `games`:
    where figures are simulated, as many games (default: as many as `robinson odds` plays)."""
    from robinson.analysis.odds import DEFAULT_GAMES as ODDS_GAMES
    from robinson.analysis.report.position import collect_position
    from robinson.analysis.report.position_page import render_position
    from robinson.i18n.catalogs import check_language

    check_language(lang)
    data = collect_position(record, policy, ODDS_GAMES if games is None else games, seed, progress)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(render_position(data, lang, source), encoding="utf-8")
    return page
