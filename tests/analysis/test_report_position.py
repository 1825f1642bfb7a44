"""`robinson report --record FILE`: the report of the position after a record's last action holds
the very chances of `robinson odds --json` (exact for at most four living players, simulated for
five to eight), each option's chance at a pending decision, a finished game's certainty; a bad
record is refused with a clear error and nothing written; the page is in the chosen language,
with the phone viewport."""

from __future__ import annotations

import html
import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure

from robinson.analysis.report.words import ReportWords
from robinson.cli import main
from robinson.engine import (
    DECISION_OF,
    Choose,
    GameRecord,
    Phase,
    Roll,
    Ruleset,
    State,
    apply,
    new_game,
)
from robinson.i18n import Translator

# RULES.md section 10's record without its last choice: Anna rolled 5 on the tree (7).
TREE = {
    "ruleset": {"edition": "standard"},
    "players": ["Anna", "Bruno", "Cila"],
    "actions": [{"roll": r} for r in (3, 4, 6, 4, 2)]
    + [{"choose": "move"}, {"roll": 1}, {"roll": 5}],
}
GAMES = "3000"  # where figures are simulated: enough for a page, quick for a test
PHONE = {"width": 390, "height": 844}
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def _played(players: int, seed: int, until: str) -> GameRecord:
    """A game of the engine on seeded dice, eager choices, until a decision is pending
    (`until="decision"`), or to its end (`until="end"`)."""
    rng = random.Random(seed)
    names = tuple(f"P{k}" for k in range(players))
    state: State = new_game(players, Ruleset("standard"))
    actions: list[Any] = []
    while not state.over:
        if state.phase is Phase.ROLL:
            action: Any = Roll(rng.randint(1, 6))
        elif until == "decision" and len(actions) > 12:
            break
        else:
            action = Choose(DECISION_OF[state.phase].forward)
        state = apply(state, action)[0]
        actions.append(action)
    assert until == "end" or not state.over, "the dice of this seed end the game first"
    return GameRecord(Ruleset("standard"), names, 0, tuple(actions))


def _write(tmp_path: Path, record: object) -> Path:
    path = tmp_path / "game.json"
    text = record.dumps() if isinstance(record, GameRecord) else json.dumps(record)
    path.write_text(text, encoding="utf-8")
    return path


def _odds(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    capsys.readouterr()  # what earlier commands printed
    assert main(["odds", str(path), "--json", *extra]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _report(tmp_path: Path, path: Path, *extra: str) -> str:
    out = tmp_path / "page"
    assert main(["report", "--out", str(out), "--record", str(path), *extra]) == 0
    return (out / "index.html").read_text(encoding="utf-8")


def _figures(page: str, attribute: str) -> dict[str, float]:
    """The figures the page carries as data: `data-<attribute>=KEY data-p-win="x"`."""
    rows = re.findall(rf'data-{attribute}=(\w+) data-p-win="([^"]+)"', page)
    return {key: float(value) for key, value in rows}


def _p_win(page: str) -> list[float]:
    seats = _figures(page, "seat")
    return [seats[str(k)] for k in range(len(seats))]


def _undrawn(fig: Figure) -> bytes:
    plt.close(fig)
    return b""


def _headings(page: str) -> list[str]:
    return re.findall(r"<h2>(.*?)</h2>", page)


def _words(lang: str, key: str) -> str:
    return html.escape(Translator(lang).gettext(key), quote=False)


def test_exact_chances_and_options_are_those_of_robinson_odds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, TREE)
    for policy in ("eager", "optimal"):
        odds = _odds(path, capsys, "--policy", policy)
        page = _report(tmp_path, path, "--policy", policy, "--games", GAMES)
        assert odds["method"] == "exact"
        assert _p_win(page) == odds["p_win"]
        assert float(re.findall(r'data-no-winner="([^"]+)"', page)[0]) == odds["p_no_winner"]
        assert _figures(page, "option") == odds["options"]  # stay and move, for Anna
    assert _headings(page) == [
        _words("en", f"report.{key}.title")
        for key in ("position", "chances", "decision", "history", "rest")
    ]
    assert "Anna decides on 7, rolled 5" in page
    assert "The game lasts" in page  # the rest of the game, simulated from the position


def test_simulated_chances_of_five_players_are_those_of_robinson_odds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _played(5, seed=11, until="decision")
    state = record.replay()
    assert len(state.living) == 5 and state.phase is not Phase.ROLL
    path = _write(tmp_path, record)
    odds = _odds(path, capsys, "--games", GAMES, "--seed", "4")
    page = _report(tmp_path, path, "--games", GAMES, "--seed", "4")
    assert odds["method"] == "simulation" and odds["games"] == int(GAMES)
    assert _p_win(page) == odds["p_win"]
    assert _figures(page, "option") == odds["options"]
    w = ReportWords("en")
    for low, high in odds["ci95"]:  # every seat's interval is on the page
        assert w.text("report.interval", low=w.pct(low), high=w.pct(high)) in page
    assert "Simulated: 3,000 games played on from the position" in page
    assert "Exact (" not in page  # five living: no exact turns to come (the chain has no state)


def test_a_finished_game_is_certain_and_has_no_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _played(2, seed=5, until="end")
    state = record.replay()
    assert state.over and state.winner is not None
    path = _write(tmp_path, record)
    page = _report(tmp_path, path, "--games", GAMES)
    assert _p_win(page) == _odds(path, capsys)["p_win"]
    assert _p_win(page)[state.winner] == 1.0 and sum(_p_win(page)) == 1.0
    assert _headings(page) == [
        _words("en", f"report.{key}.title") for key in ("position", "chances", "history")
    ]
    # Said once, in the introduction (issue 20: it was said again under the chances' heading)
    assert page.count(f"The game is over: {record.players[state.winner]} won.") == 1


class _Titles:
    """Stands in for the plots' PNG writer: keeps each figure's title."""

    def __init__(self) -> None:
        self.titles: list[str] = []

    def __call__(self, fig: Figure) -> bytes:
        self.titles.append(fig.axes[0].get_title().replace("\n", " — "))  # long: two lines
        plt.close(fig)
        return b""


@pytest.mark.parametrize(
    ("record", "methods"),
    [
        # 3 players, Anna on the tree: exact chances, the rest of the game simulated.
        (TREE, ["exact", "exact", "simulated, 3,000 games"]),
        # 5 living: everything simulated.
        (
            "5 deciding",
            ["simulated, 3,000 games", "simulated, 3,000 games", "simulated, 3,000 games"],
        ),
        # 5 players to the end: the history is simulated until the end, which is certain.
        ("5 ended", ["exact", "simulated, 3,000 games a point, exact once 4 or fewer live"]),
    ],
)
def test_every_plot_title_says_exact_or_simulated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: Any, methods: list[str]
) -> None:
    from robinson.analysis.report import position_figures

    if record == "5 deciding":
        record = _played(5, seed=11, until="decision")
    elif record == "5 ended":
        record = _played(5, seed=5, until="end")
    drawn = _Titles()
    monkeypatch.setattr(position_figures, "to_png", drawn)
    _report(tmp_path, _write(tmp_path, record), "--games", GAMES)
    keys = ["chances", "history", "rest"][: len(methods)]
    w = ReportWords("en")
    assert drawn.titles == [
        f"{w.text(f'report.fig.{key}.title')} — {how}"
        for key, how in zip(keys, methods, strict=True)
    ]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read"),
        ("{not json", "a record is JSON"),
        (json.dumps({**TREE, "actions": [{"roll": 7}]}), "roll"),
        (json.dumps({**TREE, "players": ["Anna"]}), "player"),
    ],
)
def test_a_bad_record_is_refused_with_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, says: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    out = tmp_path / "page"
    assert main(["report", "--out", str(out), "--record", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"robinson report: {path}: ") and says in err, err
    assert not out.exists()  # nothing half-written


def test_bad_policies_and_a_policy_without_a_record_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, TREE)
    out = tmp_path / "page"
    assert main(["report", "--out", str(out), "--record", str(path), "--policy", "lazy"]) == 2
    assert "unknown policy 'lazy': expected one of eager, optimal" in capsys.readouterr().err
    assert main(["report", "--out", str(out), "--policy", "optimal"]) == 2
    assert "--policy needs --record FILE" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_lang_gives_that_languages_words_and_a_phone_viewport(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from robinson.analysis.report import position_figures

    # The page's words: its plots built (in `lang`) but not drawn to PNG (half a second a
    # page); they are drawn on the English pages of the other tests.
    monkeypatch.setattr(position_figures, "to_png", _undrawn)
    page = _report(tmp_path, _write(tmp_path, TREE), "--lang", lang, "--games", GAMES)
    assert page.startswith(f"<!DOCTYPE html><html lang={lang}><head>") and VIEWPORT in page
    assert f"<title>{_words(lang, 'report.pos.title')}</title>" in page
    assert _headings(page) == [
        _words(lang, f"report.{key}.title")
        for key in ("position", "chances", "decision", "history", "rest")
    ]
    t = Translator(lang)
    for key in ("report.th.player", "report.th.chance", "report.th.chooser_chance"):
        assert f"<th>{_words(lang, key)}</th>" in page
    assert html.escape(t.option("stay"), quote=False) in page
    # plural forms: 8 actions, 3 players in the game
    assert html.escape(t.ngettext("report.pos.actions", "report.pos.actions.plural", 8).format(
        n=8), quote=False) in page  # fmt: skip
    text = re.sub(r"<[^>]+>", " ", re.sub(r'src="data:[^"]+"', "", page))
    for key in ("report.history.note", "report.decision.title", "report.th.dead_at_end"):
        assert Translator("en").gettext(key) not in text, key


@pytest.mark.browser
def test_the_position_report_fits_a_phone_screen(tmp_path: Path) -> None:
    """In a real Chromium at a phone's width the page does not scroll sideways and its three
    plots fit the screen."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Chromium not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    _report(tmp_path, _write(tmp_path, TREE), "--lang", "cs", "--games", GAMES)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE)
            page.goto((tmp_path / "page" / "index.html").as_uri())
            assert page.evaluate("window.innerWidth") == PHONE["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            rights = page.evaluate("[...document.images].map(i => i.getBoundingClientRect().right)")
            assert len(rights) == 3 and max(rights) <= PHONE["width"]
        finally:
            browser.close()


class _Kept:
    """Stands in for the plots' PNG writer: keeps each figure whole, to read its data."""

    def __init__(self) -> None:
        self.figures: list[Figure] = []

    def __call__(self, fig: Figure) -> bytes:
        self.figures.append(fig)
        return b""


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_rest_of_the_game_is_drawn_in_percent_from_the_first_turn(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The axis says '%': the bars are percentages of the games (they once were shares of 1,
    0.42 for 42 %), and the first bar is the turn under way (the winner needs at least it), so
    the axis does not open on an empty 0; the method is said once, after the title."""
    from robinson.analysis.report import position_figures

    kept = _Kept()
    monkeypatch.setattr(position_figures, "to_png", kept)
    w = ReportWords(lang)
    summary = {"winner_turns": {"histogram": [0, 42, 23, 20, 10, 5], "p90": 4}}
    position_figures.rest(w, summary, "simulated, 100 games")
    (ax,) = kept.figures[0].axes
    plt.close(kept.figures[0])
    heights = [bar.get_height() for bar in ax.patches]
    assert heights == pytest.approx([0.0, 42.0, 23.0, 20.0, 10.0, 5.0])
    assert ax.get_ylabel() == w.text("report.fig.lengths.y") and "%" in ax.get_ylabel()
    assert ax.get_xlim()[0] == 0.5
    simulated = {"en": "simulated", "cs": "simulováno"}[lang]
    assert simulated not in w.text("report.fig.rest.title")


def test_the_rest_of_the_game_gives_every_seats_turns_exactly_while_the_chain_holds_it(
    tmp_path: Path,
) -> None:
    """Three players (Anna on the tree, eager takes `move`): every seat's turns to come, exact
    from the chain (`length.turns_from` of the position after the option taken). Five living
    get no such sentence (test_simulated_chances_of_five_players_are_those_of_robinson_odds)."""
    from robinson.analysis.length import turns_from
    from robinson.analysis.report.position import played_on

    record = GameRecord.loads(json.dumps(TREE))
    turns = turns_from(played_on(record.replay(), "move"))
    assert turns is not None and 0 < turns < 200
    w = ReportWords("en")
    sentence = w.html("report.rest.exact", turns=w.num(turns, 2))
    assert sentence.startswith("Exact (") and sentence in _report(
        tmp_path, _write(tmp_path, TREE), "--games", GAMES
    )
