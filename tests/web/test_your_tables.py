"""Issue 18 in a real Chromium against a real server: "Your tables" on the home page from what
the browser holds (after the tab is closed and opened again, your move first, finished games
folded, forgetting one), "Play with friends" landing on the invite panel, and the name asked
once naming the viewer's seat (never a pronoun)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from robinson.i18n import Translator
from tests.web.conftest import Server, browser, server, watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

__all__ = ["browser", "server"]  # the fixtures, used by name

pytestmark = pytest.mark.browser


def _context(browser: Browser, lang: str = "en", phone: bool = False) -> BrowserContext:
    size = {"width": 390, "height": 844} if phone else {"width": 1440, "height": 900}
    context = browser.new_context(viewport=size, locale=lang)
    context.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
    return context


def _home(context: BrowserContext, server: Server) -> Page:
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#bot-kinds dd")
    return page


def _no_serious_violation(page: Page) -> None:
    """axe-core (as test_accessibility.py) finds nothing serious or critical."""
    from axe_playwright_python.sync_playwright import Axe

    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    found = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"]) for v in found if v["impact"] in ("serious", "critical")]
    assert bad == [], bad


def _finished_table(server: Server) -> tuple[str, str]:
    """A table whose game is over, and the human seat's secret: the human hands the seat to a
    bot and the bots (no delay on the test server) play to the end."""
    made = server.create([{"name": "Olga"}, {"name": "Pavel", "kind": "bot", "bot": "eager"}])
    token = made["seats"][0]["token"]
    r = server.post(f"/api/tables/{made['table']}/seats/0/bot", {"token": token, "bot": "eager"})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 60
    while not server.get(f"/api/tables/{made['table']}").json()["game"]["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return made["table"], token


def test_your_tables_survive_closing_the_tab_with_your_move_first(
    browser: Browser, server: Server
) -> None:
    en = Translator("en")
    # Bruno moves first at this table: Anna (this browser) waits
    waiting = server.create([{"name": "Anna"}, {"name": "Bruno"}], first=1)
    done, done_token = _finished_table(server)
    context = _context(browser)
    try:
        page = _home(context, server)
        problems = watch(page)
        assert page.locator("#your-tables").is_hidden()  # nothing held yet: nothing listed
        page.fill("#my-name", "Marta")
        page.click("#play-now")  # the oldest table, where it is Marta's move
        page.wait_for_selector("[data-move='roll']")
        mine = page.url.split("/t/")[1].split("#")[0]
        # then two tables opened later (the latest opened comes first, but for your move)
        page.goto(f"{server.base}/t/{waiting['table']}#{waiting['seats'][0]['token']}")
        page.wait_for_selector("[data-player='0'] .you")
        page.goto(f"{server.base}/t/{done}#{done_token}")
        page.wait_for_selector("#end:not([hidden])")
        page.close()  # the tab is closed ...
        page = _home(context, server)  # ... and a new one opened on the home page
        problems += watch(page)
        page.wait_for_selector("#your-tables-list li")
        rows = page.locator("#your-tables-list > li")
        assert rows.count() == 2
        first = rows.nth(0)
        assert first.get_attribute("data-table") == mine
        assert first.get_attribute("data-your-move") == ""
        assert en.gettext("web.your_move") in first.inner_text()
        assert "Marta (you)" in first.inner_text()
        second = rows.nth(1)
        assert second.get_attribute("data-table") == waiting["table"]
        assert second.get_attribute("data-your-move") is None
        assert en.format("ui.waiting", name="Bruno") in second.inner_text()
        # the finished game is folded away, with its winner
        folded = page.locator("#finished-tables")
        assert folded.get_attribute("open") is None
        assert folded.locator("summary").inner_text() == en.format("web.finished_tables", n=1)
        assert folded.locator(f"li[data-table='{done}']").count() == 1
        # the link leads back to the table, holding the seat with no secret in the address
        first.locator("a").click()
        page.wait_for_selector("[data-player='0'] .you")
        page.wait_for_selector("[data-move='roll']")
        assert problems == []
    finally:
        context.close()


def test_forgetting_a_table_asks_once_and_removes_it_and_its_secret(
    browser: Browser, server: Server
) -> None:
    made = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    other = server.create([{"name": "Cila"}, {"name": "Dora"}])
    context = _context(browser, "cs")
    try:
        page = context.new_page()
        problems = watch(page)
        for table in (made, other):
            page.goto(f"{server.base}/t/{table['table']}#{table['seats'][0]['token']}")
            page.wait_for_selector("[data-player='0'] .you")
        page.goto(server.base + "/")
        row = page.locator(f"#your-tables li[data-table='{made['table']}']")
        row.wait_for()
        cs = Translator("cs")
        row.locator("[data-forget]").click()
        yes = row.locator("[data-forget-yes]")
        assert yes.inner_text() == cs.gettext("web.forget_confirm")
        yes.click()
        row.wait_for(state="detached")
        assert page.locator(f"#your-tables li[data-table='{other['table']}']").count() == 1
        held = page.evaluate(f"localStorage.getItem('robinson.tokens.{made['table']}')")
        assert held is None  # the seat's secret left this browser
        page.reload()
        page.wait_for_selector(f"#your-tables li[data-table='{other['table']}']")
        assert page.locator(f"#your-tables li[data-table='{made['table']}']").count() == 0
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("phone", [False, True])
def test_play_with_friends_opens_the_invite_panel(
    browser: Browser, server: Server, phone: bool
) -> None:
    context = _context(browser, "lv", phone=phone)
    if phone:  # a phone's browser shares; the test's Chromium has no share sheet: one stands in
        context.add_init_script(
            "navigator.share = (data) => { window.shared = data; return Promise.resolve(); }"
        )
    lv = Translator("lv")
    try:
        page = _home(context, server)
        problems = watch(page)
        assert page.locator("#play-friends").inner_text() == lv.gettext("web.play_friends")
        page.fill("#my-name", "Līga")
        page.click("#play-friends")
        panel = page.locator("#invites")
        page.wait_for_selector("#invites [data-invite='1'] input")
        assert page.locator("[data-player='0'] .name").inner_text() == "Līga"
        assert page.locator("[data-player='0'] .you").count() == 1
        assert page.locator("[data-player='1'] .you").count() == 0  # Bruno's seat is invited
        link = panel.locator("[data-invite='1'] input").input_value()
        assert "#i:" in link
        # in sight: the focused button is inside the window, above the phone's fixed bar
        focused = page.evaluate("document.activeElement.className")
        button = page.locator(f"#invites [data-invite='1'] .{focused}").bounding_box()
        dock = page.locator("#dock").bounding_box()
        assert button is not None and dock is not None
        bottom = dock["y"] if phone else 900
        assert button["y"] >= 0 and button["y"] + button["height"] <= bottom
        if phone:
            assert focused == "share"
            panel.locator("[data-invite='1'] .share").click()
            shared = page.evaluate("window.shared")
            assert shared["url"] == link
        else:
            assert focused == "copy"
            # the waiting banner and the host's "Start now" in sight with the links
            for part in ("#turn", "#waiting-room button"):
                box = page.locator(part).bounding_box()
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 900, part
            assert panel.locator(".share").count() == 0  # no share sheet here: Copy and QR
            assert panel.locator("[data-invite='1'] .qr").count() == 1
        _no_serious_violation(page)
        assert problems == []
    finally:
        context.close()


def test_the_name_asked_once_names_the_seat_and_is_remembered(
    browser: Browser, server: Server
) -> None:
    ca = Translator("ca")
    context = _context(browser, "ca")
    try:
        page = _home(context, server)
        problems = watch(page)
        # a pronoun is not a name: the field says so and nothing is made
        page.fill("#my-name", "Tu")
        page.click("#play-now")
        assert page.locator("#my-name").get_attribute("aria-invalid") == "true"
        said = page.locator("#my-name").get_attribute("aria-describedby") or ""
        message = page.locator(f"#{said}")
        assert message.inner_text() == ca.gettext("web.form.name_pronoun")
        assert "/t/" not in page.url
        page.fill("#my-name", "Núria")
        # the create form's first seat takes the name
        assert page.locator("#seats .seat input").first.input_value() == "Núria"
        page.close()
        page = _home(context, server)  # asked once: the next visit knows it
        problems += watch(page)
        assert page.locator("#my-name").input_value() == "Núria"
        assert page.locator("#seats .seat input").first.input_value() == "Núria"
        page.click("#play-now")
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("#players .name").first.inner_text() == "Núria"
        assert page.locator("#turn").inner_text() == ca.format("web.your_turn_name", name="Núria")
        page.goto(server.base + "/")
        page.wait_for_selector("#your-tables-list li")
        _no_serious_violation(page)  # the home page with the name and Your tables
        assert problems == []
    finally:
        context.close()


def test_a_table_for_friends_waits_until_the_guest_has_taken_the_seat(
    browser: Browser, server: Server
) -> None:
    """Issue 18: the host could roll before the guest had opened the link. Now both see whom
    the table waits for, the host sees no roll (but "Start now"), and the game starts by itself
    when the guest takes the seat."""
    host_context, guest_context = _context(browser), _context(browser)
    try:
        host = _home(host_context, server)
        problems = [watch(host)]
        host.fill("#my-name", "Anna")
        host.click("#play-friends")
        host.wait_for_selector("#invites [data-invite='1'] input")
        link = host.locator("#invites [data-invite='1'] input").input_value()
        assert (
            host.locator("#turn").inner_text()
            == "Waiting for Bruno: the game begins when they come."
        )
        assert host.locator("#prompt").inner_text() == ""  # no "Roll the die." yet
        assert "invite sent – not here yet" in host.locator("[data-player='1']").inner_text()
        assert host.locator("#start-now").is_visible()
        assert host.locator("[data-move]").count() == 0  # no roll while the table waits
        guest = guest_context.new_page()
        problems.append(watch(guest))
        guest.goto(link)
        guest.locator("[data-take-seat]").click()
        guest.wait_for_selector("#turn[data-state]")
        host.wait_for_selector("[data-move='roll']")  # the game has started by itself
        assert host.locator("#waiting-room").is_hidden()
        assert host.locator("#log").inner_text().count("Everyone is here: the game begins.") == 1
        assert problems == [[], []]
    finally:
        host_context.close()
        guest_context.close()


def test_a_name_typed_while_the_page_loads_is_kept(browser: Browser, server: Server) -> None:
    """Typing one's name before the page has its settings (/api/meta held back here) names the
    seat: the kept name once wiped it, and the table was Anna's (found playing in two browsers)."""
    context = _context(browser, "cs")
    held: list[Any] = []
    try:
        page = context.new_page()
        page.route("**/api/meta", lambda route: held.append(route))
        page.goto(server.base + "/")
        page.fill("#my-name", "Jana")
        while not held:
            page.wait_for_timeout(50)
        held[0].continue_()
        page.unroute("**/api/meta")
        page.wait_for_selector("#seats .seat input")
        assert page.locator("#seats .seat input").first.input_value() == "Jana"
        assert page.input_value("#my-name") == "Jana"
        page.click("#play-now")
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("[data-player='0'] .name").inner_text() == "Jana"
    finally:
        context.close()
