"""The seeds' customs and words at the web table, in a real Chromium: the youngest starts and
keeps the bank as the seeds say, the table shows who started and the rules in force, "Play now"
names the player (never "Tu / Ty / You"), and the home page's board shows the effect lines of
the edition its form has chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from robinson.i18n import Translator
from tests.web.conftest import Server, browser, server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

__all__ = ["browser", "server"]  # the fixtures, used by name


def _home(browser: Browser, server: Server, lang: str) -> Page:
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    context.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#bot-kinds dd")
    return page


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_the_youngest_starts_and_the_table_says_so_with_the_rules(
    browser: Browser, server: Server, lang: str
) -> None:
    t = Translator(lang)
    page = _home(browser, server, lang)
    try:
        assert page.locator("#starts-hint").inner_text() == t.gettext("web.starts_hint")
        ages = page.locator("#seats [name=age]")
        ages.nth(0).fill("40")
        ages.nth(1).fill("9")  # Bruno is the youngest: he starts
        ages.nth(2).fill("12")
        page.click("#create-go")
        page.click("#open-table")
        page.wait_for_selector("#starts:not(:empty)")
        assert page.locator("#starts").inner_text() == t.format("web.starts", name="Bruno")
        summary = page.locator("#rules-summary").inner_text()
        assert summary.startswith(t.gettext(f"summary.edition.{lang}"))
        assert t.format("summary.money", start=t.tokens(30), stake=t.tokens(10)) in summary
        heading = page.locator("#in-force h2").inner_text()
        assert heading == t.gettext("web.in_force")
    finally:
        page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["cs", "en"])
def test_play_now_names_the_player_not_a_pronoun(
    browser: Browser, server: Server, lang: str
) -> None:
    t = Translator(lang)
    page = _home(browser, server, lang)
    try:
        page.fill("#seats .seat input", "Marta")
        page.click("#play-now")
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("#turn").inner_text() == t.format("web.your_turn_name", name="Marta")
        names = page.locator("#players .name").all_inner_texts()
        assert names[0] == "Marta" and len(set(names)) == 3
        assert page.locator("#starts").inner_text() == t.format("web.starts", name="Marta")
    finally:
        page.context.close()


@pytest.mark.browser
def test_the_english_fallbacks_stay_unseen_until_the_texts_come(
    browser: Browser, server: Server
) -> None:
    """Issue 20 (what was left): before its catalog answered, the page showed index.html's
    English ("Rules", "Language") to a Latvian reader. Held back here, the texts' answer shows
    that nothing with a fallback is visible until it comes, and the Latvian words after."""
    t = Translator("lv")
    context = browser.new_context()
    context.add_init_script("localStorage.setItem('robinson.lang', 'lv')")
    page = context.new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/i18n/**", hold)
    try:
        page.goto(server.base + "/", wait_until="domcontentloaded")
        page.wait_for_function("() => document.querySelector('#rules-link') !== null")
        page.wait_for_timeout(300)  # the page has asked for its texts and waits
        assert held, "the page asks for its texts"
        assert not page.locator("#rules-link").is_visible()
        assert not page.locator("nav label span").is_visible()
        for route in held:
            route.continue_()
        page.unroute("**/api/i18n/**")
        page.wait_for_selector("#rules-link", state="visible")
        assert page.locator("#rules-link").inner_text() == t.gettext("web.rules_link")
        assert page.locator("nav label span").inner_text() == t.gettext("ui.language")
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["lv", "cs"])
def test_the_home_board_states_the_edition_its_form_offers(
    browser: Browser, server: Server, lang: str
) -> None:
    """Review L1/C1: the home board told the standard fever ("Tu izlaid nākamo gājienu.") while
    the form offered the Latvian edition (a roll more); and L23/C16: a seed's effect line shown
    on its own starts with its capital letter ("Katram dalībniekam…", "Každý hráč…")."""
    t = Translator(lang)
    page = _home(browser, server, lang)
    fever = "#home-board [data-square='12'] title"
    try:
        assert page.locator("[name=edition]").input_value() == lang
        page.wait_for_function(
            "([sel, text]) => document.querySelector(sel)?.textContent.endsWith(text)",
            arg=[fever, t.gettext("square.12.effect")],
        )
        assert t.gettext("effect.12.skip") not in page.locator(fever).text_content()
        page.select_option("[name=edition]", "standard")
        page.wait_for_function(
            "([sel, text]) => document.querySelector(sel)?.textContent.endsWith(text)",
            arg=[fever, t.gettext("effect.12.skip")],
        )
        effect = t.gettext("square.1.effect")
        assert effect[0].islower()  # the seed's line continues its story after a dash...
        last = page.locator("#home-board [data-square='1'] title").text_content().split("\n")[-1]
        assert last == effect[0].upper() + effect[1:]  # ...and alone starts with a capital
    finally:
        page.context.close()
