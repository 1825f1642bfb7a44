"""The chances on the page, in a real Chromium: a bar per seat that follows the moves and can
be hidden, each option's chance at a decision, and the chart of the whole game in the replay."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import FORWARD_BUTTON, WAIT_MS, launched_browser, play_until_over

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser
DECISION = "[data-move='move'], [data-move='again'], [data-move='jump']"
BARS_READY = (
    "[...document.querySelectorAll('[data-odds-seat]')].length === {n}"
    " && [...document.querySelectorAll('[data-odds-seat]')].every((b) => b.dataset.percent)"
)


@contextlib.contextmanager
def _hot_seat(
    server: Server, names: tuple[str, ...], **options: Any
) -> Iterator[tuple[Page, dict[str, Any], list[str]]]:
    """A new table of `names`, every seat played from one page in Chromium: the page, the table,
    and the page's uncaught errors and console errors (a refused odds request logs one)."""
    t = server.create([{"name": n} for n in names], **options)
    link = t["seats"][0]["link"] + "".join("," + s["token"] for s in t["seats"][1:])
    with launched_browser() as browser:
        page = browser.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        try:
            page.goto(server.base + link)
            page.wait_for_selector("[data-move]")
            yield page, t, problems
        finally:
            page.close()


def _move(page: Page, button: str = FORWARD_BUTTON) -> None:
    """Click the move and wait until the page shows the next version."""
    from playwright.sync_api import expect

    version = page.locator("#actions").get_attribute("data-version") or ""
    page.locator(button).first.click()
    expect(page.locator("#actions")).not_to_have_attribute("data-version", version, timeout=WAIT_MS)


def _same_as_the_api(server: Server, page: Page, game: str) -> None:
    """Each bar holds its seat's chance of GET /odds for the position shown, to 0.1 point."""
    version = page.locator("#actions").get_attribute("data-version")
    odds = server.get(f"/api/games/{game}/odds?version={version}").json()
    shown = [float(x) for x in _percents(page)]
    assert shown == pytest.approx([100 * p for p in odds["p_win"]], abs=0.05 + 1e-9)


def _percents(page: Page) -> list[str]:
    bars = page.locator("[data-odds-seat]")
    return [bars.nth(i).get_attribute("data-percent") or "" for i in range(bars.count())]


def test_bars_follow_the_moves_and_the_replay_charts_every_seat(server: Server) -> None:
    with _hot_seat(server, ("Anna", "Bruno", "Cila"), edition="classic") as (page, t, problems):
        # a bar per seat, holding its percentage (after the server's first solve)
        page.wait_for_function(BARS_READY.format(n=3), timeout=120_000)
        seats = page.locator("[data-odds-seat]")
        assert [seats.nth(i).get_attribute("data-odds-seat") for i in range(3)] == [
            "0",
            "1",
            "2",
        ]
        before = _percents(page)
        assert abs(sum(float(x) for x in before) - 100) < 1  # everybody alive: ~100%
        _same_as_the_api(server, page, t["game"])
        for _ in range(6):  # a few moves: the chances change
            _move(page)
            page.wait_for_function(BARS_READY.format(n=3))
            if _percents(page) != before:
                break
        assert _percents(page) != before
        # the viewer may hide them
        page.locator("#odds-toggle").click()
        assert page.locator("[data-odds-seat]:not([hidden])").count() == 0
        page.locator("#odds-toggle").click()
        assert page.locator("[data-odds-seat]:not([hidden])").count() == 3
        # play to the end: the ending panel has the chart too
        play_until_over([page])
        page.wait_for_selector("#end .odds-chart polyline")
        assert page.locator("#end [data-odds-line]").count() == 3
        # the replay: one line per seat, and a click on the chart jumps to that turn
        # (the chart sits under the replay's board, issue 9)
        page.goto(f"{server.base}/replay/{t['game']}")
        page.wait_for_selector("#replay-chart .odds-chart polyline")
        assert page.locator("#replay-chart [data-odds-line]").count() == 3
        assert page.locator("#replay-chart .odds-swings li").count() >= 1
        hits = page.locator("#replay-chart .odds-hit")
        target = hits.nth(hits.count() // 2)
        version = target.get_attribute("data-version")
        target.dispatch_event("click")
        page.wait_for_selector(f"#step[data-step='{version}']")
        page.wait_for_function(BARS_READY.format(n=3))
        assert problems == []


def test_a_decision_shows_each_options_chance(server: Server) -> None:
    with _hot_seat(server, ("Anna", "Bruno"), edition="standard") as (page, _, problems):
        for _ in range(400):  # roll until a decision is offered
            if page.locator(DECISION).count():
                break
            if page.locator("#end:not([hidden])").count():
                pytest.skip("this game ended without a decision")  # pragma: no cover
            _move(page, "[data-move='roll']")
        page.wait_for_function(  # on each option's button (issue 18)
            "[...document.querySelectorAll('#actions .chance')]"
            ".every((c) => c.textContent.includes('%'))",
            timeout=120_000,
        )
        text = page.locator("#actions").inner_text()
        assert text.count("%") == 2, text
        assert problems == []


def test_an_eight_player_table_has_simulated_bars_and_no_errors(server: Server) -> None:
    """Eight living players: the chances are simulated (the note says over how many games), a
    bar per seat holding the endpoint's chance, and no refused request on the page (it once
    answered 400 there)."""
    with _hot_seat(server, tuple("ABCDEFGH")) as (page, t, problems):
        for _ in range(3):  # the opening and two moves later
            page.wait_for_function(BARS_READY.format(n=8), timeout=120_000)
            assert "200,000" in page.locator("#odds-note").inner_text()
            _same_as_the_api(server, page, t["game"])
            _move(page)
        assert problems == []
