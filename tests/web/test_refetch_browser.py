"""What a presence change costs a page (issue 22), in a real Chromium: a `state` of presence is
drawn from what the page has; it asks the server for the odds again only for a new version, and
for the host's panel (links, QR codes) only when the seats change."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser

FLIPS = 12


def test_presence_flips_redraw_the_host_page_without_asking_again(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila"}])
    table, anna = t["table"], t["seats"][0]["token"]
    context = browser.new_context()
    asked: list[str] = []
    try:
        page = context.new_page()
        problems = watch(page)
        page.on("request", lambda r: asked.append(r.url))
        page.goto(f"{server.base}/t/{table}#h:{t['host']}")
        page.wait_for_selector("#invites [data-invite='1'] .qr svg", state="attached")
        page.wait_for_selector("[data-odds-seat='0'][data-odds-value]", state="attached")
        time.sleep(0.5)

        def count(part: str) -> int:
            return sum(part in url for url in asked)

        invites, odds = count("/invites"), count("/odds?")
        assert invites == 1 and odds >= 1, asked  # the odds: again after a 202 (computing)
        with server.ws(table) as ws:  # Anna's socket, with and without her token
            for flip in range(FLIPS):
                tokens = [anna] if flip % 2 == 0 else []
                ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
                time.sleep(0.3)  # below the coalescing: each flip reaches the page
            page.wait_for_selector("[data-player='0'] .presence[data-present='false']")
            ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": [anna]}))
            page.wait_for_selector("[data-player='0'] .presence[data-present='true']")
            assert (count("/invites"), count("/odds?")) == (invites, odds), asked
            # the seats change (Bruno takes his): the panel is asked again, once
            r = server.post(f"/api/tables/{table}/claim", {"invite": _invite(t, 1)})
            assert r.status_code == 200, r.text
            page.wait_for_selector("#invites [data-claimed='1']")
            time.sleep(0.5)
            assert count("/invites") == invites + 1, asked
            assert count("/odds?") == odds
            assert page.locator("#invites [data-invite='2'] .qr svg").count() == 1
        assert problems == []
    finally:
        context.close()


def _invite(t: dict[str, object], seat: int) -> str:
    seats = t["seats"]
    assert isinstance(seats, list)
    link: str = seats[seat]["invite"]
    return link.split("#i:", 1)[1]
