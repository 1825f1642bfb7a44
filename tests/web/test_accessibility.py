"""axe-core (bundled by axe-playwright-python: nothing is downloaded) finds no serious or critical
violation on any view of the page, in each of the four languages."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web.test_api import _play_to_the_end

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser
LANGS = ("lv", "cs", "ca", "en")
VIEWS = ("home", "table", "finished", "replay", "rules")


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, Any]:
    """A table in play (with a bot) and a finished two-player table."""
    playing = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila", "kind": "bot", "bot": "heuristic"}]
    )
    finished = server.create([{"name": "Anna"}, {"name": "Bruno"}], edition="classic")
    _play_to_the_end(server, finished)
    return {"playing": playing, "finished": finished}


def _holding(games: dict[str, Any]) -> str:
    """A script that gives the browser the first seat of each table, as a visit would."""
    tables = [games[k] for k in ("playing", "finished")]
    index = {t["table"]: {"seats": [0], "seen": 1} for t in tables}
    held = {t["table"]: json.dumps([t["seats"][0]["token"]]) for t in tables}
    script = "".join(
        f"localStorage.setItem('robinson.tokens.{k}', '{v}');" for k, v in held.items()
    )
    return script + f"localStorage.setItem('robinson.tables', '{json.dumps(index)}');"


def _address(view: str, games: dict[str, Any]) -> tuple[str, str]:
    """The view's address and a selector that is there once it has drawn."""
    if view == "home":  # with "Your tables" listing both tables (_holding)
        return "/", "#your-tables-list li"
    if view == "table":
        return games["playing"]["seats"][0]["link"], "#turn[data-state]"
    if view == "finished":
        return games["finished"]["seats"][0]["link"], "#standings"
    if view == "replay":
        return f"/replay/{games['finished']['game']}?step=9", "#step[data-step='9']"
    return "/rules", "#rules-squares li"


def _at_rest(page: Page) -> None:
    """Judged at rest: the payout steps arrive with a fade, which axe would measure mid-way."""
    page.wait_for_function(
        "!document.querySelector('.pending')"
        " && document.getAnimations().every((a) => a.playState !== 'running')"
    )


def _serious(page: Page) -> list[tuple[str, str, list[Any]]]:
    """axe's serious and critical violations on the page: rule, impact, the first targets."""
    results = Axe().run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("view", VIEWS)
def test_no_serious_or_critical_violation(
    server: Server, browser: Browser, games: dict[str, Any], view: str, lang: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
    if view == "home":
        context.add_init_script(_holding(games))
    page = context.new_page()
    try:
        path, ready = _address(view, games)
        page.goto(server.base + path)
        page.wait_for_selector(ready)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        _at_rest(page)
        bad = _serious(page)
        assert bad == [], bad
    finally:
        context.close()


def test_a_dead_players_greyed_seat_stays_readable(
    server: Server, browser: Browser, games: dict[str, Any]
) -> None:
    """A seat out of the game (died on 42) is greyed in the player strip and the players panel,
    in every game where one died: whether the finished game above has one is up to its dice, so
    here every seat of it is drawn as one would be (the class scene.js gives it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        path, ready = _address("finished", games)
        page.goto(server.base + path)
        page.wait_for_selector(ready)
        _at_rest(page)
        greyed = page.evaluate(
            "() => { const seats = document.querySelectorAll('#purses li, #players li');"
            " seats.forEach((li) => li.classList.add('out')); return seats.length; }"
        )
        assert greyed >= 4  # two seats, in the strip and in the panel
        bad = _serious(page)
        assert bad == [], bad
    finally:
        context.close()
