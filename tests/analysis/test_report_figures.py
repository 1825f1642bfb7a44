"""The report's figures: exact where the chain exists (and then the same as `robinson analyze`),
what the solver found on the first screen, and plots a reader can trust: numbers written the
page language's way, no duplicate curves or empty axes, every title saying exact or simulated,
drawn at twice the resolution they are shown at."""

from __future__ import annotations

import re
from typing import Any

import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure
from tests.shared import (
    REPORT_GAMES,
    REPORT_SEED,
    analyzed,
    analyzed_p_win,
    report_data,
    report_page,
)

from robinson.analysis.headline import headline
from robinson.analysis.report import figures
from robinson.analysis.report.data import ReportData
from robinson.analysis.report.words import ReportWords
from robinson.engine import EDITIONS, Ruleset
from robinson.i18n import Translator

GAMES = REPORT_GAMES


@pytest.fixture(scope="module")
def data() -> ReportData:
    """`collect(GAMES, REPORT_SEED)`, collected once per run and shared with test_report_lang.py."""
    data: ReportData = report_data()
    assert (data.games, data.seed) == (GAMES, REPORT_SEED)
    return data


def test_win_chances_of_2_to_4_players_are_exact_and_those_of_analyze(data: ReportData) -> None:
    sizes = {t.players: t for t in data.table_sizes}
    for n in (2, 3, 4):
        figures = analyzed("standard", n, "eager")  # solved afresh, once per run
        assert data.exact_seats[n] == pytest.approx(figures["p_win"], abs=1e-14), n
        # The length of a game and the weighted value of each choice: analyze's, exactly.
        assert sizes[n].turns_exact and sizes[n].turns == figures["length"]["turns"], n
        weighted = {
            (row["square"], row["roll"]): (row["arises_per_game"], row["weighted_gain"])
            for row in figures["choices"]
        }
        shown = {(a.square, a.roll): (a.per_game, {a.option: a.gain}) for a in data.arising[n]}
        assert shown == weighted, n
    assert data.exact_editions["standard"] == pytest.approx(data.exact_seats[4], abs=1e-15)
    classic = analyzed_p_win("classic", 4, "eager")
    assert data.exact_editions["classic"] == pytest.approx(classic, abs=1e-14)
    assert set(data.exact_editions) == set(EDITIONS)


def test_the_first_screen_states_what_the_solver_found(data: ReportData) -> None:
    found = headline(Ruleset("standard"), 4)
    assert data.found["by_living"] == found["by_living"]
    page = report_page("en")  # rendered from `data`
    first = re.findall(r"<h2>(.*?)</h2>", page)[0]
    assert first == Translator("en").gettext("report.found.title")
    body = page[page.index(first) : page.index("<h2>", page.index(first))]
    placings = " / ".join(f"{d['placings']:,}" for d in found["by_living"][1:])
    assert f"in none of the {placings} placings" in body
    assert "robinson analyze --players 4" in body  # the method, with the command to re-run it
    # The solitaires table: every seat of 2 to 4 players, exact next to the product.
    assert f"{100 * data.exact_seats[4][0]:.3f}%" in body
    assert f"{100 * data.solitaires[4][0]:.3f}%" in body


class Drawn:
    """The figures a plot function made, kept (drawn) instead of written as PNG."""

    def __init__(self) -> None:
        self.figures: list[Figure] = []

    def close(self) -> None:
        for fig in self.figures:
            plt.close(fig)

    def __call__(self, fig: Figure) -> bytes:
        fig.canvas.draw()
        self.figures.append(fig)
        return b""


def _draw_all(w: ReportWords, data: ReportData, drawn: Drawn) -> dict[str, Figure]:
    made = {}
    calls: dict[str, Any] = {
        "lengths": lambda: figures.lengths(w, data.editions, data.games),
        "editions": lambda: figures.editions(w, data.editions, data.exact_editions, data.games),
        "seats": lambda: figures.seats(w, data.by_players, data.exact_seats, data.games),
        "purses": lambda: figures.purses(w, data.by_players, 30, data.games),
        "choices": lambda: figures.choices(w, data.choices, data.choice_games),
        "exact": lambda: figures.exact_choices(w, data.exact),
    }
    for name, call in calls.items():
        call()
        made[name] = drawn.figures[-1]
    return made


def _tick_labels(fig: Figure) -> list[str]:
    labels = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels += [t.get_text() for t in axis.get_ticklabels() if t.get_text()]
    return labels


@pytest.mark.parametrize("lang", ["lv", "cs", "ca", "en"])
def test_axis_numbers_are_written_the_languages_way(
    lang: str, data: ReportData, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = Drawn()
    monkeypatch.setattr(figures, "to_png", drawn)
    made = _draw_all(ReportWords(lang), data, drawn)
    decimals = [
        x for f in made.values() for x in _tick_labels(f) if re.fullmatch(r"-?\d+[.,]\d+", x)
    ]
    assert decimals, "some axis has decimal ticks"
    mark = "." if lang == "en" else ","
    assert all(mark in x for x in decimals), (lang, decimals)
    drawn.close()


def test_no_duplicate_curves_no_empty_axis_and_every_title_says_its_method(
    data: ReportData, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = Drawn()
    monkeypatch.setattr(figures, "to_png", drawn)
    w = ReportWords("en")
    made = _draw_all(w, data, drawn)
    # standard = ca and lv = cs play the same games: one curve each, named so (by the editions'
    # names, as the page names them).
    lengths = made["lengths"].axes[0]
    names = [t.get_text() for t in lengths.get_legend().get_texts()]
    assert len(lengths.get_lines()) == len(names) == 3
    assert names[0].startswith(w.editions(["standard", "ca"]))
    assert names[1].startswith(w.editions(["lv", "cs"]))
    # The axis ends where the games do (all but a thousandth of them), not at a fixed 40.
    longest = max(
        max(i for i, c in enumerate(s["winner_turns"]["histogram"]) if c)
        for s in data.editions.values()
    )
    assert lengths.get_xlim()[1] <= longest + 1
    for ax in lengths, made["seats"].axes[0], made["purses"].axes[0]:
        assert all(float(t).is_integer() for t in ax.get_xticks()), "whole turns and seats"
    for name, fig in made.items():
        titles = " ".join([fig.texts[0].get_text()] if fig.texts else []) + " ".join(
            ax.get_title() for ax in fig.axes
        )
        said = w.text("report.fig.exact_method") in titles or "simulated" in titles
        assert said or name == "exact", (name, titles)
    assert "exactly" in made["exact"].texts[0].get_text()
    drawn.close()


def test_plots_are_drawn_at_twice_the_size_they_are_shown(data: ReportData) -> None:
    page = report_page("en")  # rendered from `data`
    for width, png_width in _image_widths(page):
        assert png_width == 2 * width or png_width == 2 * width + 1
        assert width >= 500


def _image_widths(page: str) -> list[tuple[int, int]]:
    import base64

    found = []
    for width, payload in re.findall(
        r'<img alt="[^"]*" width=(\d+) src="data:image/png;base64,([^"]+)"', page
    ):
        png = base64.b64decode(payload)
        found.append((int(width), int.from_bytes(png[16:20], "big")))
    assert len(found) == 8
    return found


def test_the_readers_questions_are_answered_with_their_method(data: ReportData) -> None:
    from robinson.analysis.exact.game import solve_game
    from robinson.analysis.exact.single import single_figures

    sizes = {t.players: t for t in data.table_sizes}
    assert sorted(sizes) == list(range(2, 9))
    for n, t in sizes.items():
        # The same games as the report's simulation of that table size (same seed, same dice).
        summary = data.by_players[n]
        assert t.rounds_mean == pytest.approx(summary["winner_turns"]["mean"]["value"], abs=1e-9)
        assert t.rounds[0] <= t.rounds[1] <= t.rounds[2]
        # Somebody dying is at least as likely as a given player dying.
        assert t.someone_dies.high >= summary["p_death"]["ci95"][0]
        assert 0 < t.profit.value < 1 and t.purse[0] <= t.purse[1] <= t.purse[2]
    for name, row in data.edges.items():
        for n, edge in row.items():
            assert edge.exact == (n <= 4), (name, n)
            assert edge.low <= edge.value <= edge.high
        if name.startswith("standard"):
            assert row[3].value == pytest.approx(data.exact_seats[3][0] - 1 / 3, abs=1e-15)
    assert [t.turns_exact for t in data.table_sizes] == [n <= 4 for n in range(2, 9)]
    alone = single_figures(solve_game(Ruleset("standard"), 1, "eager"))
    died, home = data.deaths["standard = ca"]
    assert died == sorted(died) and home == sorted(home)
    assert died[-1] <= alone.p_death + 1e-12 and home[-1] <= alone.p_finish + 1e-12
    assert alone.p_death - died[-1] < 0.01  # 40 turns hold nearly every death


def test_each_moving_square_taken_away_on_the_same_dice(data: ReportData) -> None:
    by_square = {x.square: x for x in data.without}
    assert sorted(by_square) == [4, 7, 12, 20, 23, 25, 36, 42]
    # Eager moves on from the shipwreck and the tree: without them, the very same games.
    for square in (4, 7):
        x = by_square[square]
        assert (x.rounds.value, x.someone_dies.value, x.edge.value) == (0.0, 0.0, 0.0)
    # Without the gallows nobody dies: the change is minus the full board's deaths, the same
    # games as the 4-player row of the table sizes.
    four = next(t for t in data.table_sizes if t.players == 4)
    assert by_square[42].someone_dies.value == pytest.approx(-four.someone_dies.value, abs=1e-12)
    # Without the canoe's jump games last longer.
    assert by_square[23].rounds.low > 0
    assert not [name for name in EDITIONS if "variant" in name]  # the registry is left clean


def test_comebacks_follow_the_sole_leader_round_by_round(data: ReportData) -> None:
    from robinson.analysis.report.comebacks import COMEBACK_ROUNDS, _sole_leader
    from robinson.engine import Phase, Player, State

    c = data.comebacks
    assert c is not None and c.games == GAMES and list(c.leader_wins) == list(COMEBACK_ROUNDS)
    for e in c.leader_wins.values():
        assert 0 <= e.low <= e.value <= e.high <= 1
    # After a single round the leader's edge is small; the lead changes a few times a game.
    assert 0.1 < c.leader_wins[1].value < 0.5 and 0.5 < c.lead_changes < 6
    rs = Ruleset("standard")
    ahead = State(rs, (Player(9), Player(12), Player(42, alive=False)), 0, 0, Phase.ROLL)
    tied = State(rs, (Player(12), Player(12), Player(3)), 0, 0, Phase.ROLL)
    assert _sole_leader(ahead) == 1 and _sole_leader(tied) is None  # the dead lead nobody
