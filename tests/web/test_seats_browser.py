"""Seats in a real Chromium (Debian's, driven by Playwright): one-time invites, the host's Invite
panel, handing an absent player's seat to a bot with confirmation, presence and the countdown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def test_an_invite_link_opened_in_a_second_browser_after_it_was_claimed_gives_no_seat(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    invite = server.base + t["seats"][1]["invite"]
    first, second = browser.new_context(), browser.new_context()
    try:
        bruno = first.new_page()
        problems = watch(bruno)
        bruno.goto(invite)
        bruno.click("[data-take-seat='1']")  # loading claims nothing: the click does
        bruno.wait_for_selector("[data-player='1'] .you")
        assert "#" not in bruno.url  # the invite leaves the address bar
        other = second.new_page()
        other.goto(invite)
        other.wait_for_selector("#seat-notice")
        english = server.get("/api/i18n/en").json()["ui"]
        assert other.locator("#seat-notice").inner_text() == english["web.seat_taken"]
        other.wait_for_selector("[data-player='1']")
        assert other.locator(".you").count() == 0
        # the first browser keeps the seat (its secret is remembered), and is the one connected
        bruno.reload()
        bruno.wait_for_selector("[data-player='1'] .you")
        bruno.wait_for_selector("[data-player='1'] .presence[data-present='true']")
        assert problems == []
    finally:
        first.close()
        second.close()


def test_an_invite_opened_without_a_click_claims_nothing_and_the_click_takes_the_seat(
    server: Server, browser: Browser
) -> None:
    """Issue 22: a mail or chat program's link checker (a headless browser that loads the page
    and clicks nothing) leaves the seat to the invitee, who takes it with "Take this seat"."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    invite = server.base + t["seats"][1]["invite"]

    def claimed() -> bool:
        game = server.get(f"/api/tables/{t['table']}").json()["game"]
        return bool(game["players"][1]["claimed"])

    checker, invitee = browser.new_context(), browser.new_context()
    try:
        page = checker.new_page()
        problems = watch(page)
        page.goto(invite)
        offer = page.wait_for_selector("[data-take-seat='1']")
        assert offer is not None and offer.inner_text() == "Take this seat"
        assert "Bruno" in page.locator("#seat-offer").inner_text()
        page.wait_for_selector("[data-player='1']")
        page.wait_for_timeout(500)
        assert not claimed() and page.locator(".you").count() == 0
        page.reload()  # still offered (this tab keeps the invite), still not claimed
        page.wait_for_selector("[data-take-seat='1']")
        assert not claimed()
        other = invitee.new_page()
        problems_other = watch(other)
        other.goto(invite)
        other.click("[data-take-seat='1']")
        other.wait_for_selector("[data-player='1'] .you")
        assert claimed() and other.locator("#seat-offer").count() == 0
        assert problems == [] and problems_other == []
    finally:
        checker.close()
        invitee.close()


def test_the_host_keeps_the_invite_links_with_copy_and_qr_after_creating_the_table(
    server: Server, browser: Browser
) -> None:
    host, guest = browser.new_context(), browser.new_context()
    try:
        page = host.new_page()
        problems = watch(page)
        page.goto(server.base + "/")
        page.wait_for_selector(".seat")
        page.locator(".seat select").nth(2).select_option("human")
        page.uncheck("[name=hotseat]")
        page.select_option("[name=move_seconds]", "120")  # a clock of 2 minutes a move
        page.click("#create-go")
        # Bruno's and Cila's one-time links (not the host's own seat), each with Copy and a QR
        # code, and the spectator link labelled as such
        page.wait_for_selector("#links [data-invite='2']")
        assert page.locator("#links [data-invite='0']").count() == 0
        assert page.locator("#links [data-invite='1'] .qr svg").count() == 1
        assert page.locator("#links [data-invite] button.copy").count() == 2
        spectator = page.locator("#links [data-spectator] input").input_value()
        assert "/t/" in spectator and "#" not in spectator
        link = page.locator("#links [data-invite='1'] input").input_value()
        assert "#i:" in link
        page.click("#open-table")
        page.wait_for_selector("#invites [data-invite='1']")
        assert page.locator("#invites [data-invite='1'] input").input_value() == link
        left = int(page.locator("[data-clock='0']").get_attribute("data-left") or "0")
        assert 0 < left <= 120  # the host's own seat moves first, under the clock
        # Back: the links are still there
        page.go_back()
        page.wait_for_selector("#links [data-invite='1']")
        assert page.locator("#links [data-invite='1'] input").input_value() == link
        page.go_forward()
        page.wait_for_selector("#invites [data-invite='1']")
        # Bruno opens his link: the host's panel says the seat is taken
        bruno = guest.new_page()
        bruno.goto(link)
        bruno.click("[data-take-seat='1']")
        bruno.wait_for_selector("[data-player='1'] .you")
        page.wait_for_selector("#invites [data-claimed='1']")
        assert page.locator("#invites [data-invite='1']").count() == 0
        page.wait_for_selector("[data-player='1'] .presence[data-present='true']")
        assert problems == []
    finally:
        host.close()
        guest.close()


def test_a_neighbour_hands_an_absent_players_seat_to_a_bot_after_confirming(
    fresh_server: Any, browser: Browser
) -> None:
    srv = fresh_server(options=("--absent-after", "1"))
    srv.start()
    t = srv.create([{"name": "Anna"}, {"name": "Bruno"}], move_seconds=600)
    context = browser.new_context()
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(srv.base + t["seats"][1]["link"])
        # Anna never came: the countdown of her move runs, and her dot says she is away
        page.wait_for_selector("[data-clock='0']")
        left = int(page.locator("[data-clock='0']").get_attribute("data-left") or "0")
        assert 0 < left <= 600
        assert page.locator("[data-player='0'] .presence[data-present='false']").count() == 1
        page.wait_for_selector("[data-player='1'] .presence[data-present='true']")
        button = page.wait_for_selector("[data-hand-bot='0']")
        assert button is not None and button.inner_text() == "Let a bot play for Anna"
        button.click()
        confirm = page.wait_for_selector("[data-confirm-bot='0']")
        assert confirm is not None and "Anna" in confirm.inner_text()
        confirm.click()
        page.wait_for_selector("#log li:has-text('Bruno let a bot play for Anna, away for')")
        page.wait_for_selector("[data-player='0'] .bot")
        assert problems == []
    finally:
        context.close()
