"""A browser that refuses storage (a private window, storage switched off: reading
`localStorage` throws) still gets a page that plays: static/storage.js reads "nothing kept"
and drops its writes (real Chromium, the storage refused by the page's own init script)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser

REFUSED = """
for (const name of ["localStorage", "sessionStorage"]) {
  Object.defineProperty(window, name, {
    get() { throw new DOMException("storage is off", "SecurityError"); },
  });
}
"""


def test_a_table_plays_and_the_home_page_opens_where_storage_is_refused(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    link = f"{t['seats'][0]['link']},{t['seats'][1]['token']}"
    context = browser.new_context()
    context.add_init_script(REFUSED)
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(server.base + link)
        page.click("#actions button[data-move='roll']")
        page.wait_for_selector("#actions[data-version='1']")
        assert page.locator("#log li").count() >= 1
        assert page.text_content("#error") == ""
        page.click("#sound")  # a switch that cannot be kept still switches
        assert page.is_checked("#sound")
        page.goto(server.base + "/")
        page.wait_for_selector("#play-now")
        assert page.locator("#your-tables").is_hidden()  # nothing kept, nothing listed
        assert problems == []
    finally:
        context.close()
