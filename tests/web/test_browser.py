"""The page in a real Chromium (Debian's package, driven by Playwright; never downloaded)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import play_until_over, watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def test_two_browsers_join_by_invite_links_and_play_a_full_game_with_a_bot(
    server: Server, browser: Browser
) -> None:
    t = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila", "kind": "bot", "bot": "heuristic"}]
    )
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    problems = [watch(p) for p in pages]
    try:
        for page, seat in zip(pages, t["seats"][:2], strict=True):
            page.goto(server.base + seat["link"])
            page.wait_for_selector("[data-square='45']")
            assert "#" not in page.url  # the secret leaves the address bar
        assert len(pages[0].locator("[data-square]").all()) == 45
        play_until_over(pages)
        for page in pages:
            page.wait_for_selector("#winner")
            assert page.locator("#seed").inner_text() != "—"
        # square 17: every page at the table got the parrot for each chorus of the game
        record = server.get(f"/api/games/{t['game']}/replay?lang=en").json()
        choruses = sum(e["kind"] == "chorus" for st in record["steps"] for e in st["events"])
        for page in pages:
            assert page.locator("#parrot").get_attribute("data-count") == str(choruses)
        # both see the same end, and refreshing keeps the seat (the token is remembered)
        pages[1].reload()
        pages[1].wait_for_selector("#winner")
        assert "Bruno" in pages[1].locator(".to-move, #players").inner_text()
        pages[0].click("#fair summary")
        pages[0].click("#verify")
        pages[0].wait_for_selector("#verify-result[data-ok='true']")
        assert problems == [[], []]
    finally:
        for c in contexts:
            c.close()


def test_a_hot_seat_game_made_on_the_home_page_in_one_page(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context()
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".seat")
        page.locator(".seat input").nth(0).fill("<img src=x onerror=alert(1)>")
        page.locator(".seat select").nth(2).select_option("human")
        page.locator("[name=edition]").select_option("classic")
        page.click("#create-go")
        page.click("#open-table")
        page.wait_for_selector("[data-move]")
        names = page.locator("#players .name").all_inner_texts()
        assert names[0] == "<img src=x onerror=alert(1)>"  # shown as text, never as markup
        assert page.locator("#players img, #log img").count() == 0
        play_until_over([page])
        won = page.locator("#winner").inner_text()
        assert page.locator("#series").is_hidden()  # a table's first game is no series yet
        page.click("#rematch")
        page.wait_for_selector("#end[hidden]", state="attached")
        # the rematch is game 2 of a series: each seat's wins so far, by the turn banner
        series = page.locator("#series")
        series.wait_for()
        listed = series.inner_text().split(": ", 1)[1].split(", ")
        counts = dict(item.rsplit(" ", 1) for item in listed)  # name -> wins
        assert series.inner_text().startswith("Game 2 · wins: ")
        winners = [name for name in counts if won == f"Winner: {name}"]
        assert sorted(counts.values()) == (["0", "0", "1"] if winners else ["0", "0", "0"])
        assert all(counts[name] == "1" for name in winners)
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_the_page_in_each_language(server: Server, browser: Browser, lang: str) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}], language=lang)
    context = browser.new_context(locale="de-DE")  # not one of the four (issue 18)
    page = context.new_page()
    try:
        # no language picked in this browser, and its own is none of ours: the table's language
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        assert page.locator("#lang").input_value() == lang
        ours = page.evaluate(f"fetch('/api/i18n/{lang}').then(r => r.json())")
        english = page.evaluate("fetch('/api/i18n/en').then(r => r.json())")
        labels = {
            "[data-move='roll']": "ui.roll",
            "#bank .label": "ui.bank",
            "#fair summary": "web.fair_dice",
            "#log-box summary h2": "web.narration",  # the log folds away (issue 9)
        }
        for selector, key in labels.items():
            shown = page.locator(selector).inner_text().strip()
            assert shown == ours["ui"][key], (selector, shown)
        # (Czech says "Bank" too; the others differ from English in every language)
        for key in ("ui.roll", "web.fair_dice", "web.narration"):
            assert ours["ui"][key] != english["ui"][key], key
        tokens = page.locator("#players .facts").first.inner_text()
        form = ours["plurals"]["web.tokens"][ours["plural_index"][20]]
        assert form.replace("{n}", "20") in tokens  # the catalog's form for 20
        title = page.locator("[data-square='12'] title").text_content() or ""
        assert ours["squares"][11]["title"] in title
        # the selector names each language in its own words
        assert page.locator("#lang option").all_inner_texts() == [
            "Latviešu",
            "Čeština",
            "Català",
            "English",
        ]
        page.click("[data-move]")
        page.wait_for_selector("#log li")
        # a pick is remembered by the browser, over the table's language
        page.select_option("#lang", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert page.locator("#bank .label").inner_text() == english["ui"]["ui.bank"]
        page.reload()
        page.wait_for_selector("#bank .label")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.locator("#bank .label").inner_text() == english["ui"]["ui.bank"]
    finally:
        context.close()


def test_the_page_is_small_and_asks_no_other_host() -> None:
    from importlib import resources

    static = resources.files("robinson.web") / "static"
    files = [f for f in static.iterdir() if f.is_file()]
    # The source as written (comments included), a guard against a heavy library slipping in;
    # what a visit costs over the wire (gzip, ≤ 150 KB first, ≤ 20 KB again) is held by
    # test_board.py's test_a_table_weighs_at_most_150_kb_first_and_20_kb_again. Raised from
    # 150,000 (reached at 149,990) by issue 18's home page: the name, Your tables, friends.
    assert sum(len(f.read_bytes()) for f in files) < 175_000
    for f in files:
        for url in re.findall(r"https?://[^\s\"'`)]+", f.read_text(encoding="utf-8")):
            assert url.startswith("http://www.w3.org/2000/svg"), (f.name, url)


def _hot_seat(server: Server, **options: object) -> tuple[dict[str, object], str]:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], **options)
    seats = t["seats"]
    return t, f"{seats[0]['link']},{seats[1]['token']}"


def test_a_hot_seat_game_played_to_the_end_with_the_keyboard_alone_then_replayed(
    server: Server, browser: Browser
) -> None:
    t, link = _hot_seat(server, edition="classic")
    context = browser.new_context()
    page = context.new_page()
    problems = watch(page)
    on_a_move = "document.activeElement && document.activeElement.matches('[data-move]')"
    ready = (
        "document.querySelector('#actions button:not([disabled])')"
        " || !document.querySelector('#end[hidden]')"
    )
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move]")
        page.locator("body").focus()
        for turn in range(3000):
            if page.locator("#end:not([hidden])").count():
                break
            page.wait_for_function(ready)
            if page.locator("#end:not([hidden])").count():
                break
            for _ in range(10):  # Tab to the offered move (the board is a single tab stop)
                if page.evaluate(on_a_move):
                    break
                page.keyboard.press("Tab")
            assert page.evaluate(on_a_move), "Tab did not reach the move buttons"
            version = page.locator("#actions").get_attribute("data-version")
            page.keyboard.press("Enter" if turn % 2 else " ")
            page.wait_for_function(
                f"document.querySelector('#actions').dataset.version !== '{version}'"
            )
        page.wait_for_selector("#winner")
        # the payout, step by step: the win, the bank, then each share
        steps = page.locator(".pay-step")
        page.wait_for_function(
            "[...document.querySelectorAll('.pay-step')].every((li) => !li.hidden)"
        )
        kinds = [steps.nth(i).get_attribute("data-kind") for i in range(steps.count())]
        winner = server.get(f"/api/tables/{t['table']}").json()["game"]["winner"]
        if winner is None:  # everybody died on 42: nothing to pay out
            assert kinds == []
        else:
            assert kinds[:2] == ["won", "bank"]
            assert set(kinds[2:]) <= {"friday_share", "nearest_share"}
        # the replay, stepped with the arrow keys, shows purses and the bank as they were
        page.goto(f"{server.base}/replay/{t['game']}")
        page.wait_for_selector("#step[data-step='0']")
        start_bank = page.locator("#bank-amount").inner_text()
        start_facts = page.locator("#players .facts").all_inner_texts()
        for _ in range(10):
            page.keyboard.press("ArrowRight")
        page.wait_for_selector("#step[data-step='10']")
        assert page.locator("#players .facts").all_inner_texts() != start_facts
        steps = len(server.get(f"/api/games/{t['game']}/record").json()["actions"])
        page.keyboard.press("End")
        page.wait_for_selector(f"#step[data-step='{steps}']")
        assert page.locator("#winner, #players .facts").count()
        assert page.locator("#bank-amount").inner_text() != start_bank  # the winner took it
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f"#step[data-step='{steps - 1}']")
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "lv"])
def test_a_phone_sized_screen_shows_a_readable_board_and_the_buttons_in_reach(
    server: Server, browser: Browser, lang: str
) -> None:
    _, link = _hot_seat(server, language=lang)
    context = browser.new_context(  # a German browser: the table's language (issue 18)
        viewport={"width": 390, "height": 844}, has_touch=True, locale="de-DE"
    )
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move]")
        for _ in range(8):
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            square = page.locator("[data-square='1'] rect").bounding_box()
            assert square is not None and square["width"] >= 60  # big enough to read
            title = page.locator("[data-square='25'] .title").first.bounding_box()
            assert title is not None and title["height"] >= 9
            page.mouse.wheel(0, 400)  # the board scrolls under the controls...
            button = page.locator("#actions button").first
            box = button.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
            button.tap()  # ...which stay in reach
            page.wait_for_selector("#actions button:not([disabled])")
        assert page.locator("#log li").count() > 0
        assert problems == []
    finally:
        context.close()


def test_no_emoji_that_a_browser_without_an_emoji_font_would_show_as_a_box() -> None:
    from importlib import resources

    static = resources.files("robinson.web") / "static"
    for f in static.iterdir():
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            odd = {c for c in text if ord(c) >= 0x1F000 or 0x2600 <= ord(c) <= 0x27BF}
            assert not odd, (f.name, odd)


def test_the_board_reflows_when_the_window_crosses_the_phone_breakpoint(
    server: Server, browser: Browser
) -> None:
    _, link = _hot_seat(server)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems = watch(page)

    def row_of(square: int) -> float:
        box = page.locator(f"[data-square='{square}'] rect").bounding_box()
        assert box is not None
        return box["y"]

    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move]")
        assert row_of(6) == row_of(5) and row_of(10) > row_of(9)  # nine to a row
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("document.querySelector('#board').classList.contains('narrow')")
        assert row_of(6) > row_of(5) and row_of(10) == row_of(9)  # five to a row
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.wait_for_function("!document.querySelector('#board').classList.contains('narrow')")
        assert row_of(6) == row_of(5)
        assert page.locator("#pawns .pawn").count() == 2  # the pawns are drawn again
        assert problems == []
    finally:
        context.close()
