"""The page's side of Web Push (docs/notifications.md), in Chromium against a real server:
"Tell me when it is my turn" shows for a seated player only; turned on, it registers the
service worker at /sw.js, whose scope is every table's page. The service worker shows a pushed
notice (delivered through the DevTools protocol, as a push service would) with its title,
body, the table's tag and its address.

Not tested here: the subscription itself. Playwright's usual contexts are incognito, where
Chromium has no Push API; in a profile of its own (as here) `pushManager.subscribe` waits for
Google's push service, which a machine without the internet never answers. What the page
sends the server then (the subscription, the language, DELETE) is tested against the API in
test_push_system.py. Nor the click on a shown notification (focusing the table's tab or
opening it): no protocol of the headless browser makes one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.tiers import require
from tests.web.conftest import BROWSER_ARGS, CHROMIUM, Server, watch

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

pytestmark = pytest.mark.browser


@pytest.fixture
def profile(tmp_path: Path) -> Iterator[BrowserContext]:
    """Chromium with a profile of its own (not incognito: the Push API needs one), the page
    allowed to show notifications."""
    require("browser", "Chromium")
    if CHROMIUM is None:
        pytest.skip("Chromium not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            args=BROWSER_ARGS,
            permissions=["notifications"],
            bypass_csp=True,  # as every browser test's (conftest.py `bypassing_csp`)
        )
        try:
            yield context
        finally:
            context.close()


def test_the_opt_in_registers_the_service_worker_that_shows_what_is_pushed(
    server: Server, profile: BrowserContext
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    page = profile.new_page()
    problems = watch(page)
    page.goto(server.base + f"/t/{t['table']}")  # a spectator: no such box
    page.wait_for_selector("#actions[data-version]", state="attached")
    assert page.locator("#push-box").is_hidden()
    page.close()
    page = profile.new_page()
    problems += watch(page)
    page.goto(server.base + t["seats"][0]["link"])
    page.wait_for_selector("[data-move='roll']")
    box = page.locator("#push")
    assert page.locator("#push-box").is_visible() and not box.is_checked()
    box.check()  # registers the worker, then asks for a subscription (which cannot come here)
    for _ in range(600):
        scopes = page.evaluate(
            "navigator.serviceWorker.getRegistrations().then(rs => rs.map(r => r.scope))"
        )
        if scopes:
            break
        page.wait_for_timeout(50)
    assert scopes == [server.base + "/"]  # every table's page: /t/...
    page.select_option("#lang", "cs")
    page.wait_for_function("() => document.documentElement.lang === 'cs'")

    # The worker shows what is pushed: one notification per table (its tag), leading there.
    cdp = profile.new_cdp_session(page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(600):
        if found:
            break
        page.wait_for_timeout(50)
    data = {"title": "Robinson: jsi na tahu", "body": "Stůl čeká na tvůj tah.", "lang": "cs",
            "tag": f"robinson-{t['table']}", "url": f"/t/{t['table']}", "kind": "turn"}  # fmt: skip
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    push = {"origin": server.base + "/", "registrationId": found[0]["registrationId"],
            "data": json.dumps(data)}  # fmt: skip
    for attempt in range(600):  # the worker takes the push event in its own time
        if attempt % 40 == 0:  # (again now and then: one sent while it was starting is lost)
            cdp.send("ServiceWorker.deliverPushMessage", push)
        shown = page.evaluate(
            "navigator.serviceWorker.ready.then(r => r.getNotifications())"
            ".then(ns => ns.map(n => [n.title, n.body, n.tag, n.data.url]))"
        )
        if shown:
            break
        page.wait_for_timeout(50)
    assert shown == [[data["title"], data["body"], data["tag"], data["url"]]]

    assert problems == []
