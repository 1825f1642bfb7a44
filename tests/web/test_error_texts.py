"""Every error code has words in every language's catalog, and the page shows those, not the
server's English; an unknown table gets a page that says so with the way home. The pages run
under the Content-Security-Policy without a single violation (real Chromium)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from robinson.i18n import LANGUAGES, Translator
from robinson.web.protocol.errors import STATUS
from tests.web.conftest import Server, launched_browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_a_message_in_the_catalog(lang: str) -> None:
    ui = Translator(lang).ui_strings()
    missing = [code for code in STATUS if not ui.get(f"web.error.{code}")]
    assert missing == [], f"{lang}: no web.error.<code> for {missing}"
    if lang != "en":  # translated, not copied
        english = Translator("en").ui_strings()
        copied = [c for c in STATUS if ui[f"web.error.{c}"] == english[f"web.error.{c}"]]
        assert copied == [], f"{lang}: English words for {copied}"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """The one browser of the tests that keeps the page's CSP: a violation is a console line."""
    with launched_browser(bypass_csp=False) as browser:
        yield browser


def _page(browser: Browser, lang: str) -> tuple[Page, list[str]]:
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: violations.append(f"page error: {e}"))
    return page, violations


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["lv", "ca"])
def test_the_page_shows_errors_in_the_viewers_language(
    server: Server, chromium: Browser, lang: str
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    page, violations = _page(chromium, lang)
    page.goto(f"{server.base}/t/{t['table']}#not-a-seat-token")
    expected = Translator(lang).ui_strings()["web.error.bad_token"]
    page.wait_for_function(
        "text => document.getElementById('error').textContent === text", arg=expected
    )
    assert violations == []


@pytest.mark.browser
def test_an_unknown_table_gets_a_page_that_says_so_with_a_link_home(
    server: Server, chromium: Browser
) -> None:
    page, violations = _page(chromium, "cs")
    page.goto(f"{server.base}/t/no-such-table")
    page.wait_for_selector("#missing:not([hidden])")
    ui = Translator("cs").ui_strings()
    assert page.text_content("#missing h2") == ui["web.no_table"]
    link = page.locator("#missing a")
    assert link.get_attribute("href") == "/" and link.text_content() == ui["web.go_home"]
    assert page.locator("#table").is_hidden()
    link.click()
    page.wait_for_selector("#home:not([hidden])")
    assert violations == []


# -- refusals of the page's REST requests (static/api.js): the catalog's words, not the server's


def _cs(key: str) -> str:
    return Translator("cs").ui_strings()[key]


def _shows(page: Page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([sel, text]) => [...document.querySelectorAll(sel)].some((n) => n.textContent === text)",
        arg=[selector, text],
    )


def _ask_for_a_device_link(page: Page, url: str) -> None:
    """Seat 0's page at `url` asks for a link to continue on another device (its seat menu)."""
    page.goto(url)
    page.wait_for_selector("[data-player='0'] .you")
    # the page's dice seed given and acknowledged (an ack clears the message line)
    page.wait_for_selector("#dice-seeds li[data-seat='0']", state="attached")
    page.click("[data-seat-menu='0'] > summary")
    page.click("[data-player='0'] details.device summary")


@pytest.mark.browser
def test_a_refused_seat_request_is_told_in_czech(server: Server, chromium: Browser) -> None:
    """The seat's menu asks for a link to another device with a secret that is no seat's (the
    request's secret is changed on its way, as after "Sign out my other devices" elsewhere):
    the server refuses it (bad_token, in English) and the page says so in Czech."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    table, anna = t["table"], t["seats"][0]["token"]
    page, violations = _page(chromium, "cs")
    page.route(
        "**/seats/0/device",
        lambda route: route.continue_(post_data=json.dumps({"token": "not-a-seat"})),
    )
    refused = server.post(f"/api/tables/{table}/seats/0/device", {"token": "not-a-seat"}).json()
    assert refused["error"]["code"] == "bad_token"
    try:
        _ask_for_a_device_link(page, f"{server.base}/t/{table}#{anna}")
        _shows(page, "#error", _cs("web.error.bad_token"))
        assert refused["error"]["message"] not in page.inner_text("body")
        # an invite that never was, in cs too (the notice above the table)
        page.goto(f"{server.base}/t/{table}?again#i:not-an-invite")  # a new load, not a hash
        _shows(page, "#seat-notice", _cs("web.error.bad_invite"))
        assert violations == []
    finally:
        page.context.close()


@pytest.mark.browser
def test_a_refused_odds_request_is_told_in_czech(server: Server, chromium: Browser) -> None:
    """The chances of a position the game has not reached: the page asks for them (its request
    is sent for version 999, as by a page out of step with the table) and the server refuses
    (bad_request, in English); the note under the players says so in Czech."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    link = f"{t['seats'][0]['link']},{t['seats'][1]['token']}"
    page, violations = _page(chromium, "cs")
    page.route(
        "**/odds?version=*",
        lambda route: route.continue_(url=route.request.url.split("?")[0] + "?version=999"),
    )
    english = server.get(f"/api/games/{t['game']}/odds?version=999").json()["error"]
    assert english["code"] == "bad_request"
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move]")
        _shows(page, "#odds-note", _cs("web.error.bad_request"))
        assert english["message"] not in page.inner_text("body")
        assert violations == []
    finally:
        page.context.close()


def _finished_game(server: Server) -> str:
    bots = [{"name": n, "kind": "bot", "bot": "random"} for n in ("Anna", "Bruno")]
    t = server.create(bots)
    for _ in range(600):
        if server.get(f"/api/tables/{t['table']}").json()["game"]["over"]:
            return str(t["game"])
        time.sleep(0.1)
    raise AssertionError("two bots did not finish a game in 60 s")


@pytest.mark.browser
def test_a_refused_replay_request_is_told_in_czech(server: Server, chromium: Browser) -> None:
    """The replay's chart asks for the chances over the game under a policy the server does not
    know (the request is changed on its way): refused (bad_request, in English), said in
    Czech where the chart would be. A replay of a game nobody played says so in Czech."""
    game = _finished_game(server)
    page, violations = _page(chromium, "cs")
    page.route(
        "**/odds/history*",
        lambda route: route.continue_(url=route.request.url.split("?")[0] + "?policy=nope"),
    )
    english = server.get(f"/api/games/{game}/odds/history?policy=nope").json()["error"]
    assert english["code"] == "bad_request"
    try:
        page.goto(f"{server.base}/replay/{game}")
        _shows(page, "#replay-chart .odds-chart p", _cs("web.error.bad_request"))
        assert english["message"] not in page.inner_text("body")
        page.goto(f"{server.base}/replay/no-such-game")
        page.wait_for_selector("#missing:not([hidden])")
        assert page.text_content("#missing h2") == _cs("web.no_game")
        assert violations == []
    finally:
        page.context.close()


@pytest.mark.browser
def test_a_request_that_gets_no_answer_is_told_in_czech(server: Server, chromium: Browser) -> None:
    """A request that never reaches the server (the network gone) is the code `network`, with
    the catalog's words (web.error.network), not the browser's "Failed to fetch"."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    page, violations = _page(chromium, "cs")
    page.route("**/seats/0/device", lambda route: route.abort("internetdisconnected"))
    try:
        _ask_for_a_device_link(page, f"{server.base}/t/{t['table']}#{t['seats'][0]['token']}")
        _shows(page, "#error", _cs("web.error.network"))
        assert violations == []
    finally:
        page.context.close()
