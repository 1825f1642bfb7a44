"""The table as players see it (issue 18), in a real Chromium against a real server: messages
in sight, decisions on the board, and the bugs the review found, each with its test."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import WAIT_MS, watch

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser, Locator, Page

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 390, "height": 844}, "desk": {"width": 1440, "height": 900}}


def _in_viewport(page: Page, locator: Locator) -> bool:
    """`locator` is visible and its whole box lies inside the viewport."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert size is not None
    return bool(
        box
        and locator.is_visible()
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )


def _wait_until(check: Callable[[], bool], seconds: float) -> float:
    """Seconds until `check()` held (polled), or fail after `seconds`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")


# -- 1. messages in sight ------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_reconnecting_notice_is_in_the_viewport_within_2_s_of_the_servers_death(
    fresh_server: Any, browser: Browser, size: str
) -> None:
    srv = fresh_server()
    srv.start()
    t = srv.create([{"name": "Anna"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}])
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(srv.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        notice = page.locator("#connection")
        assert notice.get_attribute("role") == "status"
        srv.kill()
        took = _wait_until(lambda: _in_viewport(page, notice), 2.0)
        assert "reconnecting" in notice.inner_text(), took
        page.screenshot(path=f"/tmp/shots/reconnecting_{size}.png")
        srv.start()  # back on the same port: the notice goes once the page is connected again
        page.locator("#connection").wait_for(state="hidden", timeout=WAIT_MS)
        page.wait_for_selector("[data-move='roll']")
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_move_is_said_in_the_viewport_and_announced(
    server: Server, browser: Browser, size: str
) -> None:
    """Two pages hold Anna's seat; the second is kept from hearing of her roll, so its Roll is
    stale when pressed: the server refuses it and the page says so where the player looks."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    link = t["seats"][0]["link"] + "," + t["seats"][1]["token"]
    first, second = (
        browser.new_context(viewport=SIZES[size]),
        browser.new_context(viewport=SIZES[size]),
    )
    deaf = {"on": False}

    def relay(ws: Any) -> None:
        server_side = ws.connect_to_server()
        server_side.on_message(
            lambda m: None if deaf["on"] and '"update"' in str(m) else ws.send(m)
        )

    try:
        a, b = first.new_page(), second.new_page()
        b.route_web_socket("**/ws/tables/**", relay)
        problems = watch(b)
        for page in (a, b):
            page.goto(server.base + link)
            page.wait_for_selector("#actions[data-version='0'] [data-move='roll']")
        deaf["on"] = True
        a.click("[data-move='roll']")
        a.wait_for_selector("#actions:not([data-version='0'])")
        deaf["on"] = False
        b.click("[data-move='roll']")
        error = b.locator("#error")
        error.wait_for(state="visible", timeout=WAIT_MS)
        assert error.get_attribute("role") == "alert"
        assert _in_viewport(b, error), error.bounding_box()
        english = b.evaluate("fetch('/api/i18n/en').then(r => r.json())")["ui"]
        assert error.inner_text() == english["web.error.stale_version"]
        b.screenshot(path=f"/tmp/shots/refused_{size}.png")
        assert problems == []
    finally:
        first.close()
        second.close()


# -- 2. decisions on the board -------------------------------------------------------------------

DECIDING = ("move", "again", "jump")


def _to_a_decision(server: Server, names: tuple[str, ...] = ("Anna", "Bruno")) -> dict[str, Any]:
    """A new table of humans played through the API (rolls and the eager option) until a
    decision with a move is pending; the table, with its game view as `view`."""
    from tests.web.test_api import _act

    for _ in range(20):  # a game that ends with no decision is rare: start another
        t = server.create([{"name": n} for n in names], edition="standard")
        for _ in range(400):
            game = server.get(f"/api/tables/{t['table']}").json()["game"]
            if game["over"]:
                break
            if any(m in game["legal"] for m in DECIDING):
                return {**t, "view": game}
            r = _act(server, t, game["to_move"], game["version"], "roll")
            assert r.status_code == 200, r.text
    raise AssertionError("no decision in 20 games")


@pytest.mark.parametrize("size", SIZES)
def test_an_options_button_names_its_square_and_chance_and_lights_it_on_focus(
    server: Server, browser: Browser, size: str
) -> None:
    t = _to_a_decision(server)
    view = t["view"]
    leads = {lead["option"]: lead["square"] for lead in view["leads"]}
    assert set(leads) == set(view["legal"]), view
    option = next(m for m in DECIDING if m in leads)
    link = t["seats"][0]["link"] + "," + t["seats"][1]["token"]
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + link)
        button = page.locator(f"#actions [data-move='{option}']")
        button.wait_for()
        square = leads[option]
        mover = view["players"][view["to_move"]]
        target = square if square is not None else mover["position"]
        ui = server.get(f"/api/i18n/en?game={view['id']}").json()
        if square is not None:
            title = ui["squares"][square - 1]["title"]
            text = button.inner_text()  # "Move on → 9 The cave", "Paddle to 27: Savages"
            assert f"→ {square} {title}" in text or f"{square}: {title}" in text, text
        # the chance comes on the button, in the language's percent format
        page.wait_for_function(
            f"document.querySelector(\"#actions [data-move='{option}'] .chance\").textContent"
            ".includes('%')",
            timeout=120_000,
        )
        assert button.locator(".chance").inner_text().strip().startswith("· ")
        page.locator(f"#actions button:not([data-move='{option}'])").first.focus()
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the board out of sight
        button.focus()
        lit = page.locator(".sq.target")
        assert lit.count() == 1 and lit.get_attribute("data-square") == str(target)
        # in sight: inside the window and, on a phone, above the fixed bar (scrolled there)
        dock = page.locator("#dock").bounding_box()
        assert dock is not None
        page.wait_for_function(
            "([n, bottom]) => { const r = document.querySelector(`#board [data-square='${n}']`)"
            ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= bottom; }",
            arg=[target, dock["y"] if size == "phone" else SIZES[size]["height"]],
        )
        if square is not None:
            assert page.locator("#ghost").count() == 1
        page.screenshot(path=f"/tmp/shots/decision_{size}.png")
        button.blur()
        assert page.locator(".sq.target").count() == 0 and page.locator("#ghost").count() == 0
        assert problems == []
    finally:
        context.close()


# -- 3. the bugs of the review -------------------------------------------------------------------


def test_turn_1_is_headed_by_the_player_who_moves_even_when_a_guest_claims_a_seat_first(
    server: Server, browser: Browser
) -> None:
    t = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila", "kind": "bot", "bot": "heuristic"}]
    )
    host, guest = browser.new_context(), browser.new_context()
    first_head = "#log > li[data-turn='1'] .turn-head"
    try:
        anna, bruno = host.new_page(), guest.new_page()
        problems = [watch(anna), watch(bruno)]
        anna.goto(server.base + t["seats"][0]["link"])
        anna.wait_for_selector("[data-move='roll']")
        bruno.goto(server.base + t["seats"][1]["invite"])
        bruno.click("[data-take-seat='1']")  # loading claims nothing: the click does
        bruno.wait_for_selector("[data-player='1'] .you")
        anna.wait_for_selector("#log li[data-kind='note']")  # "Bruno took their seat…"
        assert anna.locator(first_head).inner_text() == "Turn 1 · Anna"
        assert bruno.locator(first_head).inner_text() == "Turn 1 · Anna"
        anna.click("[data-move='roll']")
        for page in (anna, bruno):
            page.wait_for_selector("#log > li[data-turn='2']")
            assert page.locator(first_head).inner_text() == "Turn 1 · Anna"
            assert page.locator("#log > li[data-turn='1']").get_attribute("data-seat") == "0"
        bruno.reload()
        bruno.wait_for_selector("#log > li[data-turn='2']")
        assert bruno.locator(first_head).inner_text() == "Turn 1 · Anna"
        assert problems == [[], []]
    finally:
        host.close()
        guest.close()


def test_the_replays_last_step_names_the_last_turns_player(
    server: Server, browser: Browser
) -> None:
    from tests.web.test_api import _play_to_the_end

    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], edition="classic")
    _play_to_the_end(server, t)
    replay = server.get(f"/api/games/{t['game']}/replay?lang=en").json()
    began = [e["seat"] for st in replay["steps"] for e in st["events"] if e["kind"] == "turn_began"]
    last = ["Anna", "Bruno"][began[-1]]
    page = browser.new_page()
    try:
        total = len(replay["steps"])
        page.goto(f"{server.base}/replay/{t['game']}?step={total}")
        page.wait_for_selector(f"#step[data-step='{total}']")
        assert page.locator("#step").inner_text().endswith(f"· {last}")
        heads = page.locator("#log .turn-head").all_inner_texts()
        assert heads and all(re.search(r"· (Anna|Bruno)$", h) for h in heads), heads
    finally:
        page.close()


def test_on_a_phone_the_replay_controls_stay_in_the_bar_while_the_board_scrolls(
    server: Server, browser: Browser
) -> None:
    """Issue 18: the replay's controls scrolled away with the page on a phone."""
    from tests.web.test_api import _play_to_the_end

    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], edition="classic")
    _play_to_the_end(server, t)
    context = browser.new_context(viewport=SIZES["phone"])
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(f"{server.base}/replay/{t['game']}?step=3")
        page.wait_for_selector("#step[data-step='3']")
        page.locator("[data-square='45']").scroll_into_view_if_needed()
        page.mouse.wheel(0, 3000)
        for control in ("#back", "#forward", "#play", "#scrub"):
            box = page.locator(control).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, control
        page.click("#forward")
        page.wait_for_selector("#step[data-step='4']")
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("own", "table", "shown"), [("cs-CZ", "en", "cs"), ("en-US", "lv", "en"), ("de-DE", "lv", "lv")]
)
def test_the_viewers_own_language_wins_over_the_tables_when_it_is_one_of_the_four(
    server: Server, browser: Browser, own: str, table: str, shown: str
) -> None:
    from tests.web.test_api import _play_to_the_end

    playing = server.create([{"name": "Anna"}, {"name": "Bruno"}], language=table)
    finished = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}], language=table, edition="classic"
    )
    _play_to_the_end(server, finished)
    ui = server.get(f"/api/i18n/{shown}").json()["ui"]
    context = browser.new_context(locale=own)
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + playing["spectator"])
        page.wait_for_selector("#turn[data-state]")
        assert page.evaluate("document.documentElement.lang") == shown
        assert page.locator("#lang").input_value() == shown
        assert ui["web.watching"] in page.locator("#turn").inner_text()
        page.goto(f"{server.base}/replay/{finished['game']}?step=3")
        page.wait_for_selector("#step[data-step='3']")
        assert page.evaluate("document.documentElement.lang") == shown
        assert page.locator("#log li[data-kind='rolled']").count() > 0
        assert page.locator("#first").inner_text() == ui["web.first"]
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("path", "key"), [("/replay/nope", "web.no_game"), ("/nothing/here", "web.no_page")]
)
def test_an_unknown_game_or_address_is_said_in_the_viewers_language(
    server: Server, browser: Browser, path: str, key: str
) -> None:
    ui = server.get("/api/i18n/cs").json()["ui"]
    context = browser.new_context(locale="cs-CZ")
    page = context.new_page()
    problems = watch(page)
    try:
        answer = page.goto(server.base + path)
        assert answer is not None
        assert answer.status == (404 if key == "web.no_page" else 200)
        assert answer.headers["content-type"].startswith("text/html")
        page.wait_for_selector("#missing:not([hidden])")
        assert page.locator("#missing h2").inner_text() == ui[key]
        assert page.locator("#missing a").inner_text() == ui["web.go_home"]
        for hidden in ("#replay", "#table", "#home"):
            assert page.locator(hidden).is_hidden(), hidden
        assert page.locator("#error").inner_text() == ""
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_with_eight_seats_every_pawn_waits_on_the_quay_before_the_first_roll(
    server: Server, browser: Browser, size: str
) -> None:
    t = server.create([{"name": n} for n in "ABCDEFGH"])
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    try:
        page.goto(server.base + t["spectator"])
        page.wait_for_selector("[data-pawn='7']")
        quay = page.locator("#board .quay").bounding_box()
        assert quay is not None
        for seat in range(8):
            pawn = page.locator(f"[data-pawn='{seat}'] .body").bounding_box()
            assert pawn is not None
            assert quay["x"] <= pawn["x"] and pawn["x"] + pawn["width"] <= quay["x"] + quay["width"]
            middle = pawn["y"] + pawn["height"] / 2
            assert quay["y"] <= middle <= quay["y"] + quay["height"], seat
        page.screenshot(path=f"/tmp/shots/eight_{size}.png")
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_estandard_does_not_break_mid_word_on_the_catalan_rules_page(
    server: Server, browser: Browser, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size], locale="ca-ES")
    page = context.new_page()
    try:
        page.goto(server.base + "/rules")
        page.wait_for_selector("#editions [data-edition='standard'] th")
        lines = page.evaluate(
            """[...document.querySelectorAll('#editions tbody th')].map((th) => {
                 const range = document.createRange(); range.selectNodeContents(th);
                 const tops = [...range.getClientRects()].map((r) => r.top);
                 return [th.textContent, new Set(tops).size];
               })"""
        )
        assert ["Estàndard", 1] in lines, lines
        for text, count in lines:  # no edition's name of one word is broken
            assert " " in text or count == 1, (text, count)
    finally:
        context.close()


def test_spectators_get_no_sound_switch_and_bots_no_presence_dot(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}])
    context = browser.new_context(viewport=SIZES["desk"])
    player, watcher = context.new_page(), browser.new_page(viewport=SIZES["desk"])
    try:
        player.goto(server.base + t["seats"][0]["link"])
        player.wait_for_selector("[data-move='roll']")
        watcher.goto(server.base + t["spectator"])
        watcher.wait_for_selector("#turn[data-state]")
        assert player.locator("#sound-box").is_visible()
        assert watcher.locator("#sound-box").is_hidden()
        for page in (player, watcher):
            page.wait_for_selector("[data-player='0'] .presence")
            assert page.locator("[data-player='1'] .presence").count() == 0
            assert page.get_by_label("not connected").count() == 0
    finally:
        context.close()
        watcher.close()


def test_the_die_before_the_first_roll_is_a_die_not_an_empty_box(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    page = browser.new_page()
    try:
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        die = page.locator("#die")
        assert die.get_attribute("data-face") == ""
        assert "idle" in (die.get_attribute("class") or "")
        assert die.locator(".pip").count() == 5  # faint pips on a tilted die
        assert "rotate" in (die.locator("g").first.get_attribute("transform") or "")
        page.click("[data-move='roll']")
        page.wait_for_selector("#die[data-face]:not([data-face=''])")
        face = int(die.get_attribute("data-face") or 0)
        assert die.locator(".pip").count() == face
        assert "idle" not in (die.get_attribute("class") or "")
    finally:
        page.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_create_forms_errors_name_and_mark_their_field(
    server: Server, browser: Browser, size: str
) -> None:
    ui = server.get("/api/i18n/en").json()["ui"]
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector(".seat")
        names = page.locator(".seat [name=name]")
        names.nth(1).fill("anna ")  # the same name as seat 1's "Anna", as the server compares
        page.fill("[name=stake]", "40")  # more than the 30 tokens at the start
        page.click("#create-go")
        taken = ui["web.form.name_taken"].format(n=2, other=1)
        error = page.locator(".field-error", has_text=taken)
        error.wait_for()
        assert names.nth(1).get_attribute("aria-invalid") == "true"
        assert names.nth(1).get_attribute("aria-describedby") == error.get_attribute("id")
        assert names.nth(0).get_attribute("aria-invalid") is None
        stake = page.locator("[name=stake]")
        assert stake.get_attribute("aria-invalid") == "true"
        described = page.locator(f"#{stake.get_attribute('aria-describedby')}")
        assert described.inner_text() == ui["web.form.stake"].format(start=30)
        assert page.evaluate("document.activeElement.getAttribute('aria-invalid')") == "true"
        assert _in_viewport(page, error) or error.is_visible()
        page.screenshot(path=f"/tmp/shots/form_errors_{size}.png", full_page=True)
        assert page.locator("#links").is_hidden()  # nothing was made
        # fixed, the marks go and the table is made; a refusal only the server knows (a
        # text-direction control in a name) is marked on its seat too
        names.nth(1).fill("Bruno\u202e")
        page.fill("[name=stake]", "10")
        page.click("#create-go")
        refused = page.locator(".field-error", has_text=ui["web.form.name_refused"].format(n=2))
        refused.wait_for()
        assert names.nth(1).get_attribute("aria-invalid") == "true"
        assert stake.get_attribute("aria-invalid") is None
        names.nth(1).fill("Bruno")
        page.click("#create-go")
        page.wait_for_selector("#open-table")
        assert page.locator(".field-error").count() == 0
        assert problems == []
    finally:
        context.close()


def test_the_replay_keeps_the_hand_overs_and_take_backs(server: Server, browser: Browser) -> None:
    from tests.web.test_api import _act, _play_to_the_end

    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], edition="classic")
    table, bruno = t["table"], t["seats"][1]["token"]

    def game() -> dict[str, Any]:
        view: dict[str, Any] = server.get(f"/api/tables/{table}").json()["game"]
        return view

    first = game()
    r = _act(server, t, first["to_move"], 0, "roll")
    assert r.status_code == 200, r.text
    while game()["to_move"] != 0:  # Anna's turn: Bruno hands his seat to a bot
        now = game()
        assert _act(server, t, 1, now["version"], now["legal"][0]).status_code == 200
    r = server.post(f"/api/tables/{table}/seats/1/bot", {"token": bruno, "bot": "heuristic"})
    assert r.status_code == 200, r.text
    handed = game()["version"]
    mine = handed  # the version after Anna's last action
    while game()["version"] == mine:  # Anna plays on until the bot has played for Bruno
        now = game()
        assert not now["over"] and now["to_move"] == 0, now
        assert _act(server, t, 0, now["version"], now["legal"][0]).status_code == 200
        mine = now["version"] + 1
        _wait_until(lambda: game()["to_move"] == 0 or game()["over"], 30)
    back = game()["version"]
    assert server.post(f"/api/tables/{table}/seats/1/human", {"token": bruno}).status_code == 200
    _play_to_the_end(server, t)
    replay = server.get(f"/api/games/{t['game']}/replay?lang=en").json()
    told = [line for st in replay["steps"] for line in st["notes"]]
    assert told == ["Bruno let a bot play for them.", "Bruno took their seat back from the bot."]
    assert [c["kind"] for c in replay["seat_changes"]] == ["bot", "human"]
    assert [s["kind"] for s in replay["seats"]] == ["human", "human"]
    page = browser.new_page()
    problems = watch(page)
    try:
        page.goto(f"{server.base}/replay/{t['game']}?step={back + 1}")
        page.wait_for_selector(f"#step[data-step='{back + 1}']")
        notes = page.locator("#log li[data-kind='note']").all_inner_texts()
        assert notes == told, notes
        page.goto(f"{server.base}/replay/{t['game']}?step={handed + 1}")
        page.wait_for_selector(f"#step[data-step='{handed + 1}']")
        assert page.locator("[data-player='1'] .bot").count() == 1  # a bot plays Bruno here
        page.goto(f"{server.base}/replay/{t['game']}?step={back + 1}")
        page.wait_for_selector(f"#step[data-step='{back + 1}']")
        assert page.locator("[data-player='1'] .bot").count() == 0  # and Bruno again
        assert problems == []
    finally:
        page.close()


# -- 4. the clock and presence in sight ----------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_movers_clock_is_large_in_view_and_an_absent_player_says_since_when(
    server: Server, browser: Browser, size: str
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila"}], move_seconds=30)
    anna_context, bruno_context = browser.new_context(viewport=SIZES[size]), browser.new_context()
    try:
        anna, bruno = anna_context.new_page(), bruno_context.new_page()
        problems = watch(anna)
        bruno.goto(server.base + t["seats"][1]["link"])
        bruno.wait_for_selector("[data-player='1'] .presence[data-present='true']")
        bruno.close()  # Bruno came and went; Cila never came
        anna.goto(server.base + t["seats"][0]["link"])
        anna.wait_for_selector("[data-move='roll']")
        clock = anna.locator("#turn-clock")
        clock.wait_for()
        assert re.fullmatch(r"0:[0-3]\d", clock.inner_text()), clock.inner_text()
        assert _in_viewport(anna, clock)
        size_px = anna.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#turn-clock')).fontSize)"
        )
        assert size_px >= 20
        assert clock.get_attribute("aria-label", timeout=WAIT_MS)
        away = anna.locator("[data-player='1'] .away")
        away.wait_for()
        assert re.fullmatch(r"away \d:\d\d", away.inner_text()), away.inner_text()
        assert re.fullmatch(r"away \d:\d\d", anna.locator("[data-player='2'] .away").inner_text())
        assert anna.locator("[data-player='0'] .away").count() == 0
        anna.screenshot(path=f"/tmp/shots/clock_{size}.png")
        assert problems == []
    finally:
        anna_context.close()
        bruno_context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_player_strip_shows_every_seat_in_view_on_both_sizes(
    server: Server, browser: Browser, size: str
) -> None:
    """Issue 18's player strip: each seat's shape, presence, name, purse and square, and how long
    an absent player has been away, in the viewport beside the turn on a desk as on a phone (the
    full players' list is below the fold at 1440x900)."""
    t = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila", "kind": "bot", "bot": "eager"}]
    )
    context = browser.new_context(viewport=SIZES[size], locale="cs-CZ")
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        chips = page.locator("#purses li")
        assert chips.count() == 3
        for seat in range(3):
            assert _in_viewport(page, chips.nth(seat)), f"seat {seat} out of view"
        anna, bruno, cila = (chips.nth(i) for i in range(3))
        assert anna.locator(".who").inner_text() == "Anna"
        assert anna.locator(".coins").inner_text() == "20"  # 30 tokens, 10 staked
        assert anna.locator(".at").inner_text() == "0"
        assert anna.locator(".visually-hidden").inner_text() == "pole 0, 20 žetonů"
        assert "to-move" in (anna.get_attribute("class") or "")
        assert anna.locator(".presence[data-present='true']").count() == 1
        assert bruno.locator(".presence[data-present='false']").count() == 1
        away = bruno.locator(".away")
        away.wait_for()
        assert re.fullmatch(r"pryč \d:\d\d", away.inner_text()), away.inner_text()
        assert cila.locator(".presence").count() == 0  # a bot has no presence
        page.locator("[data-move='roll']").click()
        page.wait_for_function(
            "document.querySelector('#purses [data-purse=\"0\"] .at').textContent !== '0'"
        )
        assert problems == []
    finally:
        context.close()


def test_the_swings_name_their_turn_and_the_bars_keep_their_values_when_a_seat_changes(
    server: Server, browser: Browser
) -> None:
    from tests.web.test_api import _play_to_the_end

    t = server.create([{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila"}], edition="classic")
    _play_to_the_end(server, t)
    page = browser.new_page()
    try:
        page.goto(f"{server.base}/replay/{t['game']}")
        swings = page.locator("#replay-chart .odds-swings li")
        swings.first.wait_for(timeout=120_000)
        texts = swings.all_inner_texts()
        turns = swings.evaluate_all("(lis) => lis.map((li) => li.dataset.turn)")
        assert [x.split(":")[0] for x in texts] == [f"Turn {n}" for n in turns], texts
        assert len(set(texts)) == len(texts)
    finally:
        page.close()
    # a seat claimed at the host's table redraws the list: its bars never stand empty
    live = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    host = browser.new_page()
    try:
        host.goto(server.base + live["seats"][0]["link"])
        host.wait_for_selector("[data-odds-seat='1'][data-percent]", timeout=120_000)
        host.evaluate(
            """() => { window.emptyBars = 0;
                 new MutationObserver(() => {
                   for (const bar of document.querySelectorAll('[data-odds-seat]'))
                     if (!bar.dataset.percent && !bar.hidden) window.emptyBars += 1;
                 }).observe(document.querySelector('#players'), {childList: true, subtree: true});
               }"""
        )
        guest = browser.new_context()
        try:
            claim = guest.new_page()
            claim.goto(server.base + live["seats"][1]["invite"])
            claim.click("[data-take-seat='1']")  # loading claims nothing: the click does
            host.wait_for_selector("#log li[data-kind='note']")
        finally:
            guest.close()
        host.wait_for_selector("[data-odds-seat='1'][data-percent]")
        assert host.evaluate("window.emptyBars") == 0
    finally:
        host.close()


def test_ten_seconds_before_the_own_clock_runs_out_it_turns_red_and_is_said_once(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], move_seconds=13)
    page, watcher = browser.new_page(), browser.new_page()
    try:
        page.goto(server.base + t["seats"][0]["link"])
        watcher.goto(server.base + t["spectator"])
        page.wait_for_selector("#turn-clock[data-low='false']")
        assert page.locator("#clock-warning").inner_text() == ""
        page.wait_for_selector("#turn-clock[data-low='true']", timeout=WAIT_MS)
        warning = page.locator("#clock-warning")
        assert warning.get_attribute("role") == "alert"
        assert re.fullmatch(r"Your time is almost up: 0:(10|0\d) left\.", warning.inner_text())
        watcher.wait_for_selector("#turn-clock[data-low='true']")
        assert watcher.locator("#clock-warning").inner_text() == ""  # not the watcher's move
    finally:
        page.close()
        watcher.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_odds_chart_has_a_legend_turn_ticks_and_labels_of_12_px(
    server: Server, browser: Browser, size: str
) -> None:
    from tests.web.test_api import _play_to_the_end

    t = server.create([{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila"}], edition="classic")
    _play_to_the_end(server, t)
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    try:
        page.goto(f"{server.base}/replay/{t['game']}")
        chart = page.locator("#replay-chart .odds-chart")
        chart.locator(".odds-legend li").first.wait_for(timeout=120_000)
        assert chart.locator(".odds-legend li").all_inner_texts() == ["Anna", "Bruno", "Cila"]
        assert chart.locator(".odds-turn").count() >= 2
        heights = chart.locator(".odds-axis").evaluate_all(
            "(labels) => labels.map((l) => l.getBoundingClientRect().height)"
        )
        assert min(heights) >= 11, heights
        chart.screenshot(path=f"/tmp/shots/chart_{size}.png")
    finally:
        context.close()


def test_the_standings_follow_the_rules_ranking_with_the_change_since_the_start(
    server: Server, browser: Browser
) -> None:
    from tests.web.test_api import _play_to_the_end

    t = server.create([{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila"}], edition="classic")
    game = _play_to_the_end(server, t)
    start = game["ruleset"]["start_tokens"]
    order = sorted(
        game["players"],
        key=lambda p: (p["seat"] != game["winner"], -p["purse"], -p["position"]),
    )
    page = browser.new_page()
    try:
        replay = server.get(f"/api/games/{t['game']}/replay?lang=en").json()
        for address in (t["seats"][0]["link"], f"/replay/{t['game']}?step={len(replay['steps'])}"):
            page.goto(server.base + address)
            rows = page.locator("#standings tbody tr")
            rows.first.wait_for()
            seats = rows.evaluate_all("(rs) => rs.map((r) => Number(r.dataset.standing))")
            assert seats == [p["seat"] for p in order], address
            deltas = page.locator("#standings .delta").evaluate_all(
                "(cells) => cells.map((c) => Number(c.dataset.delta))"
            )
            assert deltas == [p["purse"] - start for p in order]
            assert rows.first.locator("td").first.inner_text() == "1."
    finally:
        page.close()


@pytest.mark.parametrize("width", [1300, 1440])
def test_the_standings_fit_the_end_panel_in_latvian(
    server: Server, browser: Browser, width: int
) -> None:
    """The five columns fit the side column (the Latvian "Izmaiņa" was cut off at 1300 px)."""
    from tests.web.test_api import _play_to_the_end

    t = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila"}], edition="classic", language="lv"
    )
    _play_to_the_end(server, t)
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="lv-LV")
    try:
        page = context.new_page()
        page.goto(server.base + t["seats"][0]["link"])
        page.locator("#standings tbody tr").first.wait_for()
        table = page.locator("#standings").bounding_box()
        panel = page.locator("#end").bounding_box()
        assert table is not None and panel is not None
        assert table["x"] + table["width"] <= panel["x"] + panel["width"], (table, panel)
    finally:
        context.close()


IN_SIGHT = (
    "(n) => { const r = document.querySelector(`#board [data-square='${n}']`)"
    ".getBoundingClientRect(); const bar = document.querySelector('#dock')"
    ".getBoundingClientRect().top; return r.top >= 0 && r.bottom <= bar; }"
)


def test_on_a_phone_the_board_follows_the_pawn_that_moves(server: Server, browser: Browser) -> None:
    """Issue 18: the board never scrolled to the pawn that moves. A spectator on a phone sees
    each move's square scrolled into sight above the bar."""
    from tests.web.conftest import forward
    from tests.web.test_api import _act

    def move(t: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        game = server.get(f"/api/tables/{t['table']}").json()["game"]
        r = _act(server, t, game["to_move"], game["version"], forward(game["legal"]))
        assert r.status_code == 200, r.text
        return game["to_move"], server.get(f"/api/tables/{t['table']}").json()["game"]

    for _ in range(10):  # both pawns past 24: their moves end below the first screen
        t = server.create([{"name": "Anna"}, {"name": "Bruno"}], edition="classic")
        game = server.get(f"/api/tables/{t['table']}").json()["game"]
        while not game["over"] and min(p["position"] for p in game["players"]) < 25:
            _, game = move(t)
        if not game["over"]:
            break
    context = browser.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + t["spectator"])
        page.wait_for_selector("#turn[data-state]")
        page.evaluate("window.scrollTo(0, 0)")  # the page shows the top of the board
        seen = 0
        for _ in range(12):
            mover, after = move(t)
            square = after["players"][mover]["position"]
            page.locator(f"#actions[data-version='{after['version']}']").wait_for(state="attached")
            if square >= 25 and after["players"][mover]["alive"] and not after["over"]:
                page.wait_for_function(IN_SIGHT, arg=square)
                seen += 1
            if after["over"]:
                break
            page.evaluate("window.scrollTo(0, 0)")
        assert seen >= 1 and problems == []
    finally:
        context.close()


def test_on_a_phone_your_turn_brings_your_pawn_into_sight_above_the_bar(
    server: Server, browser: Browser
) -> None:
    from tests.web.conftest import forward
    from tests.web.test_api import _act

    for _ in range(10):  # a game where Anna stands far down the board at her turn
        t = server.create([{"name": "Anna"}, {"name": "Bruno"}], edition="classic")
        for _ in range(400):
            game = server.get(f"/api/tables/{t['table']}").json()["game"]
            if game["over"]:
                break
            anna = game["players"][0]
            if game["to_move"] == 0 and game["legal"] == ["roll"] and anna["position"] >= 31:
                break
            r = _act(server, t, game["to_move"], game["version"], forward(game["legal"]))
            assert r.status_code == 200, r.text
        if not game["over"]:
            break
    else:  # pragma: no cover
        pytest.skip("no game put Anna past 30 at her turn")
    context = browser.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    try:
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        square = anna["position"]
        page.wait_for_function(
            "(n) => { const r = document.querySelector(`#board [data-square='${n}']`)"
            ".getBoundingClientRect(); const bar = document.querySelector('#dock')"
            ".getBoundingClientRect().top; return r.top >= 0 && r.bottom <= bar; }",
            arg=square,
        )
        page.screenshot(path="/tmp/shots/own_pawn_phone.png")
    finally:
        context.close()


def test_the_rules_page_has_play_now(server: Server, browser: Browser) -> None:
    context = browser.new_context(locale="lv-LV")
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + "/rules")
        button = page.locator("#rules-play-now")
        button.wait_for()
        ui = server.get("/api/i18n/lv").json()["ui"]
        assert button.inner_text() == ui["web.play_now"]
        # the quick start comes first: five lines, before the printed text and the button
        quick = page.locator("#quick-start li").all_inner_texts()
        assert quick == [ui[f"web.quick.{i}"] for i in range(1, 6)] and all(quick)
        assert page.locator("#quick-start + p #rules-play-now").count() == 1
        button.click()
        page.wait_for_selector("[data-move='roll']")
        assert "/t/" in page.url
        assert page.locator("#players .name").first.inner_text() == "Anna"
        assert problems == []
    finally:
        context.close()


def test_a_players_first_game_shows_the_quick_start_until_got_it(
    server: Server, browser: Browser
) -> None:
    """Issue 18 "Rules and help": the rules' five lines as a hint in a first game."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], language="lv")
    ui = server.get("/api/i18n/lv").json()["ui"]
    context = browser.new_context(locale="lv-LV")
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        hints = page.locator("#hints")
        assert hints.is_visible()
        assert hints.locator("li").all_inner_texts() == [ui[f"web.quick.{i}"] for i in range(1, 6)]
        hints.locator("#quick-done").click()
        assert hints.is_hidden()
        page.reload()
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("#hints").is_hidden()  # said once, for every table after
        watcher = browser.new_context(locale="lv-LV").new_page()
        watcher.goto(server.base + t["spectator"])
        watcher.wait_for_selector("#turn[data-state]")
        assert watcher.locator("#hints").is_hidden()  # a spectator plays no first game
        watcher.context.close()
        assert problems == []
    finally:
        context.close()


def test_no_select_or_checkbox_keeps_the_browsers_own_look(
    server: Server, browser: Browser
) -> None:
    """Issue 18's one visual language: the home form's selects draw the island's arrow, and the
    table's switches are checked in its brown, not the browser's grey and blue."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#seats select")
        looks = page.evaluate(
            "[...document.querySelectorAll('select')].map((s) => getComputedStyle(s).appearance)"
        )
        assert looks and set(looks) == {"none"}, looks
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        accents = page.evaluate(
            "[...document.querySelectorAll('input[type=checkbox]')]"
            ".map((c) => getComputedStyle(c).accentColor)"
        )
        assert accents and set(accents) == {"rgb(164, 71, 31)"}, accents
    finally:
        page.close()
