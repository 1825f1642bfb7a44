""" "Continue on another device" in a real Chromium (issue 22): the link is a one-time code; the
other device takes the seat with a click, the first one then watches; "Sign out my other
devices" gives the page a new secret and it keeps its seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def test_another_device_takes_the_seat_once_and_revokes_the_rest(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    table, anna = t["table"], t["seats"][0]["token"]
    laptop_context, phone_context = browser.new_context(), browser.new_context()
    try:
        laptop = laptop_context.new_page()
        problems = watch(laptop)
        laptop.goto(f"{server.base}/t/{table}#{anna}")
        laptop.wait_for_selector("[data-player='0'] .you")
        laptop.click("[data-seat-menu='0'] > summary")  # the seat's menu
        laptop.click("[data-player='0'] details.device summary")
        link = laptop.locator("[data-device='0'] input").input_value()
        assert "#i:" in link and anna not in link
        phone = phone_context.new_page()
        problems += watch(phone)
        phone.goto(link)
        phone.click("[data-take-seat='0']")  # loading took nothing: the click does
        phone.wait_for_selector("[data-player='0'] .you")
        laptop.wait_for_selector("[data-player='0'] .you", state="detached")
        assert _error(server, table, anna) == "bad_token"
        stored = f"JSON.parse(localStorage.getItem('robinson.tokens.{table}'))"
        taken = phone.evaluate(stored)
        phone.click("[data-seat-menu='0'] > summary")
        phone.click("[data-player='0'] details.device summary")
        phone.click("[data-revoke='0']")
        phone.wait_for_function(f"{stored}.length === 1 && {stored}[0] !== '{taken[0]}'")
        phone.wait_for_selector("[data-player='0'] .you")  # reloaded, with its new secret
        assert _error(server, table, taken[0]) == "bad_token"
        assert problems == []
    finally:
        laptop_context.close()
        phone_context.close()


def _error(server: Server, table: str, token: str) -> str:
    code: str = server.post(f"/api/tables/{table}/whoami", {"token": token}).json()["error"]["code"]
    return code
