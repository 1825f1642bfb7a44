"""Artefacts the workers of one pytest run share: built once per run by whichever worker needs
one first, then read from disk by the others.

pytest-xdist's workers are separate processes, so a module or session fixture is built once per
worker that runs a test needing it. An artefact that costs seconds (a report's data, a page with
eight plots, an exact 4-player solve) is instead kept here: in the run's directory, next to the
exact solver's cache (tests/conftest.py `_private_solution_cache`: shared by the workers of one
run, private to the run, so nothing stale is ever read), under a lock so that a second worker
waits for the first one's result instead of building it again, written under another name and
renamed so that a reader never sees half a file. Without xdist it is simply a per-run cache.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_MEMO: dict[tuple[str, str], Any] = {}


def run_dir() -> Path:
    """This run's shared folder (inside the solver cache the session fixture set up)."""
    cache = os.environ.get("ROBINSON_CACHE_DIR")
    if not cache:  # pragma: no cover - the autouse session fixture always sets it
        raise RuntimeError("ROBINSON_CACHE_DIR is not set: tests/conftest.py sets it")
    path = Path(cache) / "tests"
    path.mkdir(parents=True, exist_ok=True)
    return path


class Busy(Exception):
    """Another worker holds the lock (`locked(..., wait=False)`)."""


@contextlib.contextmanager
def locked(name: str, wait: bool = True) -> Iterator[None]:
    """Hold this run's lock `name` (one holder over all the workers); with `wait=False`, raise
    `Busy` at once if another holds it."""
    with open(run_dir() / f"{name}.lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise Busy(name) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def once(name: str, build: Callable[[], T], wait: bool = True) -> T:
    """`build()`, called once per run over all the workers (the others unpickle its result);
    `name` must say everything the result depends on. With `wait=False`, raise `Busy` instead
    of waiting while another worker builds it."""
    key = (os.environ.get("ROBINSON_CACHE_DIR", ""), name)
    if key in _MEMO:
        return _MEMO[key]  # type: ignore[no-any-return]
    path = run_dir() / f"{name}.pickle"
    with locked(name, wait):
        if path.is_file():
            value = pickle.loads(path.read_bytes())
        else:
            value = build()
            with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(f.name, path)
    _MEMO[key] = value
    return value


def all_of(calls: list[Callable[[], object]]) -> None:
    """Make each `once` call (made with `wait=False`), taking first those no other worker is
    building: a worker builds what is free instead of waiting for what another one builds."""
    pending = list(calls)
    while pending:
        for call in list(pending):
            try:
                call()
                pending.remove(call)
            except Busy:
                pass
        if pending:  # all of them being built elsewhere: look again shortly
            time.sleep(0.2)


# -- the report (tests/analysis/test_report_lang.py, test_report_figures.py, test_sim_cli.py) -----

# The games per setting of the shared report: its tests check structure, wording and what the
# exact figures are, and the few statistical statements they make (test_report_figures.py) hold
# at this size on this seed.
REPORT_GAMES = 300
REPORT_SEED = 2
# The 4-player chains the report reads from the odds' tables (its headline and opening chances:
# standard = ca, lv = cs, classic).
REPORT_CHAINS = (
    ("standard", "eager"),
    ("standard", "optimal"),
    ("lv", "eager"),
    ("classic", "eager"),
)


def report_data() -> Any:
    """`collect(REPORT_GAMES, REPORT_SEED)`: the report's figures, collected once per run."""
    from robinson.analysis.report.data import collect

    report_chains()
    return once(
        f"report-data-{REPORT_GAMES}-{REPORT_SEED}", lambda: collect(REPORT_GAMES, REPORT_SEED)
    )


def report_chains() -> None:
    """The report's 4-player chains (REPORT_CHAINS) on the odds' tables, solved by `analyze`
    (`analyzed`), not a second time by the tables: before anything reads them, the report's
    data here or `robinson report` in a subprocess of test_sim_cli.py."""
    all_of([partial(analyzed_p_win, e, 4, p, wait=False) for e, p in REPORT_CHAINS])


def report_page(lang: str) -> str:
    """The report page of `report_data()` in `lang`, rendered once per run (8 plots: seconds)."""
    from robinson.analysis.report.page import render

    return once(
        f"report-page-{REPORT_GAMES}-{REPORT_SEED}-{lang}", lambda: render(report_data(), lang)
    )


def report_words(lang: str) -> str:
    """The same page with every plot built (in `lang`) but not drawn to PNG (an empty image):
    for the tests that read the page's words, not its pictures. Drawing the eight PNGs is about
    four seconds a language; the plots' own words and numbers are checked on drawn figures in
    every language by test_report_figures.py, their pixels on the English page."""
    from unittest import mock

    import matplotlib.pyplot as plt

    from robinson.analysis.report import figures
    from robinson.analysis.report.page import render

    def undrawn(fig: Any) -> bytes:
        plt.close(fig)
        return b""

    def build() -> str:
        with mock.patch.object(figures, "to_png", undrawn):
            return render(report_data(), lang)

    return once(f"report-words-{REPORT_GAMES}-{REPORT_SEED}-{lang}", build)


# -- exact solves ----------------------------------------------------------------------------


def analyzed(edition: str, players: int, policy: str, wait: bool = True) -> dict[str, Any]:
    """`analyze(Ruleset(edition), players, policy)`: solved afresh by `analyze` (not read
    from the odds' tables it is compared with), once per run over all the workers.

    `analyze` writes its chains to the odds' tables (`tables.store_solution`), so a worker that
    needs the same chains for the odds or the report then reads them instead of solving them a
    second time (a 4-player chain is about 5 s of CPU)."""
    from robinson.analysis.exact.game import solve_game
    from robinson.analysis.exact.summary import analyze
    from robinson.engine import Ruleset

    def build() -> dict[str, Any]:
        if policy == "optimal":
            # `analyze` of the optimal policy reads the eager chains too (the weighted choice
            # values): from that solve, not from the tables solving them alongside it.
            analyzed(edition, players, "eager")
        # Not under the tables' lock: `analyze` takes it itself (to store its chains, and to
        # read its weighted choice values through `tables.ensure`): not re-entrant.
        figures: dict[str, Any] = analyze(Ruleset(edition), players, policy)
        if players == 4:  # hundreds of MB: kept on disk, not in this worker
            solve_game.cache_clear()
        return figures

    return once(f"analyze-{edition}-{players}-{policy}", build, wait)


# Of the 4-player analyses the tests read all the figures of only this one (test_report_figures:
# the choices and the length next to the report's); of the others, their win chances.
WHOLE_ANALYSES = {("standard", "eager")}


def tables_of_analyze(edition: str, policy: str = "eager") -> None:
    """Before a test reads the odds' 4-player chain of `edition`'s rules under `policy` (ca plays
    standard's, cs lv's): have it solved afresh once per run (`analyzed_p_win`), which writes it
    to the tables. Read first, the tables would solve it themselves, and `analyzed_p_win`
    (test_headline.py, the report) would solve it a second time in the same run (3 to 6 s of
    CPU)."""
    from robinson.analysis.odds import tables
    from robinson.engine import Ruleset

    analyzed_p_win(tables.rules_ruleset(Ruleset(edition)).edition, 4, policy)


def analyzed_p_win(edition: str, players: int, policy: str, wait: bool = True) -> list[float]:
    """`analyze(Ruleset(edition), players, policy)["p_win"]`, solved afresh once per run: as
    `analyzed` makes it, or at 4 players outside WHOLE_ANALYSES as `analyze` computes it,
    `solve_game(...).p_win()`, without the figures nobody reads (the weighted choice values and
    the length: 2 s of CPU), its chains written to the odds' tables as `analyze` writes them."""
    if players < 4 or (edition, policy) in WHOLE_ANALYSES:
        p_win: list[float] = analyzed(edition, players, policy, wait)["p_win"]
        return p_win

    def build() -> list[float]:
        from robinson.analysis.exact.game import solve_game
        from robinson.analysis.odds import tables
        from robinson.engine import Ruleset

        ruleset = Ruleset(edition)
        game = solve_game(ruleset, players, policy)
        tables.store_solution(ruleset, policy, [c.values for c in game.chains])
        solve_game.cache_clear()  # hundreds of MB: kept on disk, not in this worker
        return game.p_win()

    return once(f"p-win-{edition}-{players}-{policy}", build, wait)
