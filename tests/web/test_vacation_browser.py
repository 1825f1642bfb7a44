"""Issue 19, vacation in Chromium: at a table with a one-day clock, the seat's owner pauses his
clock for two days from his row; the other player's page shows "on vacation until …" by his
name, and the owner's clock has moved on by two days."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def test_a_seat_pauses_its_clock_and_the_other_sees_it(server: Server, browser: Browser) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], move_seconds=86400)
    anna_context, bruno_context = browser.new_context(), browser.new_context()
    try:
        anna, bruno = anna_context.new_page(), bruno_context.new_page()
        problems = [watch(anna), watch(bruno)]
        anna.goto(server.base + t["seats"][0]["link"])
        bruno.goto(server.base + t["seats"][1]["link"])
        anna.wait_for_selector("[data-move='roll']")
        before = server.get(f"/api/tables/{t['table']}").json()["game"]["clock"]["deadline"]
        anna.click("[data-seat-menu='0'] > summary")  # the seat's menu
        take = anna.locator("[data-vacation-take='0']")
        take.locator("summary").click()
        assert take.locator("option").all_inner_texts() == ["1 day", "2 days", "3 days"]
        take.locator("select").select_option("2")
        take.locator("button").click()
        bruno.locator("[data-vacation='0']").wait_for()
        assert bruno.locator("[data-vacation='0']").inner_text().startswith("on vacation until ")
        assert "Anna takes 2 days of vacation" in bruno.locator("#log").inner_text()
        after = server.get(f"/api/tables/{t['table']}").json()["game"]["clock"]["deadline"]
        moved = datetime.fromisoformat(after) - datetime.fromisoformat(before)
        assert moved.total_seconds() == 2 * 86400
        assert problems == [[], []]
    finally:
        anna_context.close()
        bruno_context.close()
