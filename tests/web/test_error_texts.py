"""Every error code has words in every language's catalog, and the page shows those, not the
server's English; an unknown table gets a page that says so with the way home. The pages run
under the Content-Security-Policy without a single violation (real Chromium)."""

from __future__ import annotations

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
