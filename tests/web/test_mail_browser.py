""" "E-mail me when it is my turn" in a real Chromium (docs/notifications.md "E-mail"): the seat's
owner leaves an address in the page's language; a bad one is refused in that language, a good
one gets its confirmation e-mail from a real SMTP server; a server without SMTP says so."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from robinson.i18n import Translator
from tests.web.conftest import watch
from tests.web.smtp import Inbox, mail_server, smtp_login

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

    from tests.web.conftest import Server

__all__ = ["mail_server", "smtp_login"]  # fixtures
pytestmark = [
    pytest.mark.browser,
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]


def _open(browser: Browser, server: Server, lang: str) -> tuple[BrowserContext, Page]:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
    page = context.new_page()
    page.goto(f"{server.base}/t/{t['table']}#{t['seats'][0]['token']}")
    page.wait_for_selector("[data-player='0'] .you")
    page.click("[data-seat-menu='0'] > summary")  # the seat's menu
    page.click("[data-email='0'] summary")
    return context, page


def test_a_player_leaves_an_address_from_the_page(
    mail_server: tuple[Server, Inbox], browser: Browser
) -> None:
    server, inbox = mail_server
    lv = Translator("lv")
    context, page = _open(browser, server, "lv")
    try:
        problems = watch(page)
        page.fill("#email-0", "anna@")
        page.click("[data-email='0'] button[type=submit]")
        status = page.locator(".email-status[data-ok='false']")
        status.wait_for()
        assert status.text_content() == lv.gettext("web.error.bad_address")
        page.fill("#email-0", "anna@example.test")
        page.uncheck("#email-digest-0")
        page.click("[data-email='0'] button[type=submit]")
        sent = page.locator(".email-status[data-ok='true']")
        sent.wait_for()
        assert sent.text_content() == lv.gettext("web.mail.form.sent")
        [letter] = inbox.wait_for(1)
        assert letter["To"] == "anna@example.test"
        assert letter["Subject"] == lv.gettext("web.mail.confirm.subject")
        assert problems == []
    finally:
        context.close()


def test_a_server_without_smtp_says_it_sends_none(server: Server, browser: Browser) -> None:
    context, page = _open(browser, server, "ca")
    try:
        note = page.locator("[data-email='0'] .note")
        note.wait_for()
        assert note.text_content() == Translator("ca").gettext("web.error.mail_off")
        assert page.locator("#email-0").count() == 0
    finally:
        context.close()
