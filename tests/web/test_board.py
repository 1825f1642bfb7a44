"""Issue 9 in Chromium: the illustrated board, pawns, motion (and its absence), whose turn, the
log by turns, the ending, the replay's scrubber, the phone layout and the page's weight."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import WAIT_MS, watch
from tests.web.test_api import _play_to_the_end

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def _hot_seat(
    server: Server, names: tuple[str, ...] = ("Anna", "Bruno"), **options: Any
) -> tuple[dict[str, Any], str]:
    t = server.create([{"name": n} for n in names], **options)
    return t, t["seats"][0]["link"] + "".join("," + s["token"] for s in t["seats"][1:])


def _roll_and_wait(page: Page) -> None:
    from playwright.sync_api import expect

    version = page.locator("#actions").get_attribute("data-version") or ""
    page.locator("#actions button").first.click()
    expect(page.locator("#actions")).not_to_have_attribute("data-version", version, timeout=WAIT_MS)


# WCAG contrast of two #rrggbb colours, computed in the page from the pawns' own attributes.
CONTRAST = """(pair) => {
  const lum = (hex) => { const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
  const [a, b] = pair.map(lum).sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_the_board_has_45_illustrated_squares_and_distinct_pawns(
    server: Server, browser: Browser
) -> None:
    _, link = _hot_seat(server, ("A", "B", "C", "D", "E", "F", "G", "H"))
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("[data-square]").count() == 45
        for n in (1, 4, 17, 25, 42, 45):  # each square holds its own drawn picture
            pic = page.locator(f"[data-square='{n}'] [data-pictogram='{n}']")
            assert pic.count() == 1 and pic.locator("path").count() >= 2, n
        pictures = page.eval_on_selector_all("[data-pictogram]", "ps => ps.map(p => p.innerHTML)")
        assert len(set(pictures)) == 45  # 45 different pictures, not one repeated
        pawns = page.locator("[data-pawn]")
        assert pawns.count() == 8
        shapes = {pawns.nth(i).locator(".body").get_attribute("d") for i in range(8)}
        colours = {pawns.nth(i).locator(".body").get_attribute("fill") for i in range(8)}
        assert len(shapes) == 8 and len(colours) == 8  # not told by colour alone
        for i in range(8):
            fill = pawns.nth(i).locator(".body").get_attribute("fill")
            ink = pawns.nth(i).locator(".label").get_attribute("fill")
            assert page.evaluate(CONTRAST, [fill, ink]) >= 4.5, (i, fill, ink)
        # titles at least 12 px on a desktop: font size in the SVG times its scale
        px = page.evaluate(
            """() => { const svg = document.querySelector('#board');
              const t = svg.querySelector('[data-square="25"] .title');
              const scale = svg.clientWidth / svg.viewBox.baseVal.width;
              return parseFloat(getComputedStyle(t).fontSize) * scale; }"""
        )
        assert px >= 12, px
        # up to eight pawns stack on one square without covering its number or title
        clear = page.evaluate(
            """async () => { const b = await import('/static/board.js');
              const bad = [];
              for (let n = 1; n <= 45; n++) {
                const sq = document.querySelector(`[data-square="${n}"]`);
                const boxes = [...sq.querySelectorAll('.title, .num')].map((e) => e.getBBox());
                for (let k = 0; k < 8; k++) {
                  for (const count of [k + 1, 8]) {
                    // the star reaches 1.3 × 12 (less its stroke)
                    const s = b.spot(n, k, count), h = 15 * s.s;
                    for (const r of boxes) {
                      if (s.x + h > r.x && s.x - h < r.x + r.width
                          && s.y + h > r.y && s.y - h < r.y + r.height) bad.push([n, k, count]);
                    }
                  }
                }
              }
              return bad; }"""
        )
        assert clear == []
        # the colour legend names every colour used
        assert page.locator("#legend li").count() == 9
        assert problems == []
    finally:
        context.close()


def test_a_square_tells_its_story_on_focus_without_moving_the_page(
    server: Server, browser: Browser
) -> None:
    _, link = _hot_seat(server)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move='roll']")
        squares = page.evaluate("fetch('/api/i18n/en').then(r => r.json())")["squares"]
        info = page.locator("#square-info")
        assert info.get_attribute("aria-live") == "polite"
        before = [page.locator(s).bounding_box() for s in ("#bank", "#players")]
        page.locator("[data-square='1']").focus()
        for _ in range(11):
            page.keyboard.press("ArrowRight")
        assert squares[11]["story"] in info.inner_text()  # square 12, reached by keyboard
        for n in (8, 29, 45):
            page.hover(f"[data-square='{n}']")
            assert squares[n - 1]["story"] in info.inner_text()
            after = [page.locator(s).bounding_box() for s in ("#bank", "#players")]
            assert after == before, n  # the longest stories do not push the bank down
    finally:
        context.close()


# Sets window.seenMotion once any animation runs or the die tumbles, checking every frame.
SEEN_MOTION = """() => {
  window.seenMotion = false;
  const look = () => {
    if (document.getAnimations().length > 0 || document.querySelector('#die.tumbling')) {
      window.seenMotion = true;
    } else {
      requestAnimationFrame(look);
    }
  };
  look();
}"""


def test_with_reduced_motion_nothing_animates_after_a_roll(
    server: Server, browser: Browser
) -> None:
    for reduce in (False, True):
        _, link = _hot_seat(server)
        context = browser.new_context(reduced_motion="reduce" if reduce else "no-preference")
        page = context.new_page()
        try:
            page.goto(server.base + link)
            page.wait_for_selector("[data-move='roll']")
            # Watch every frame from before the roll: on a fast machine the tumble can be over
            # before a check made after the roll would look.
            page.evaluate(SEEN_MOTION)
            _roll_and_wait(page)
            page.wait_for_selector("#die[data-face]:not([data-face=''])")
            if reduce:
                assert page.evaluate("document.getAnimations().length") == 0
                assert page.evaluate("document.querySelector('#die').dataset.face") != ""
                assert page.evaluate("window.seenMotion") is False
            else:  # the same roll with motion allowed does animate (so the check above can fail)
                page.wait_for_function("window.seenMotion === true")
        finally:
            context.close()


# Records, at each change of the log, the purses, the banner or the prompt, whether the die was
# still tumbling or a pawn still walking (issue 18: the words wait for the die and the pawn).
TOLD_EARLY = """() => {
  window.toldEarly = []; window.toldChanges = 0;
  const busy = () => !!document.querySelector('#die.tumbling')
    || document.getAnimations().some((a) => a.effect && a.effect.target
      && a.effect.target.closest && a.effect.target.closest('#pawns') && a.playState === 'running');
  const watch = new MutationObserver(() => {
    window.toldChanges += 1;
    if (busy()) window.toldEarly.push(document.querySelector('#log').innerText.slice(-60));
  });
  const what = { childList: true, subtree: true, characterData: true };
  for (const id of ['log', 'purses', 'turn', 'prompt']) {
    watch.observe(document.getElementById(id), what);
  }
}"""


def test_with_motion_the_words_and_purses_wait_for_the_die_and_the_pawn(
    server: Server, browser: Browser
) -> None:
    _, link = _hot_seat(server)
    context = browser.new_context(reduced_motion="no-preference")
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move='roll']")
        page.evaluate(TOLD_EARLY)
        for _ in range(3):  # three moves, each told after its die landed and its pawn arrived
            _roll_and_wait(page)
            page.wait_for_function(
                "document.getAnimations().every((a) => a.playState !== 'running')"
            )
        assert page.evaluate("window.toldChanges") > 0
        assert page.evaluate("window.toldEarly") == []
        assert problems == []
    finally:
        context.close()


COUNT_TONES = """
const made = AudioContext.prototype.createOscillator;
window.tones = 0;
AudioContext.prototype.createOscillator = function () {
  window.tones += 1;
  return made.call(this);
};
"""


@pytest.mark.parametrize("switched", ["on", "off"])
def test_the_sounds_play_only_when_switched_on(
    server: Server, browser: Browser, switched: str
) -> None:
    """Issue 18: the die, a landing, paying, a death, the win and the turn chime, made in the
    page (counted here as the notes it makes), and none at all with the switch off."""
    _, link = _hot_seat(server)
    context = browser.new_context(reduced_motion="no-preference")
    context.add_init_script(COUNT_TONES)
    context.add_init_script(f"localStorage.setItem('robinson.sound', '{switched}')")
    page = context.new_page()
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("#sound").is_checked() == (switched == "on")
        _roll_and_wait(page)
        page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
        tones = page.evaluate("window.tones")
        assert tones >= 6 if switched == "on" else tones == 0, tones  # the die's five, a landing
    finally:
        context.close()


def test_whose_turn_is_said_for_players_and_spectators(server: Server, browser: Browser) -> None:
    t, link = _hot_seat(server)
    context = browser.new_context()
    page, watcher = context.new_page(), browser.new_page()
    try:
        page.goto(server.base + link)
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("#turn").get_attribute("data-state") == "yours"
        assert "Anna" in page.locator("#turn").inner_text()
        assert page.title().startswith("▶")
        assert page.locator("[data-pawn='0'].to-move").count() == 1
        watcher.goto(server.base + t["spectator"])
        watcher.wait_for_selector("#turn[data-state='waiting']")
        english = page.evaluate("fetch('/api/i18n/en').then(r => r.json())")["ui"]
        assert english["web.watching"] in watcher.locator("#turn").inner_text()
        assert not watcher.title().startswith("▶")
    finally:
        context.close()
        watcher.close()


def test_the_log_is_grouped_by_turn_and_numbered_as_in_the_replay(
    server: Server, browser: Browser
) -> None:
    t, link = _hot_seat(server, edition="classic")
    _play_to_the_end(server, t)
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + link)
        page.wait_for_selector("#winner")
        turns = [
            int(x)
            for x in page.eval_on_selector_all("#log > li", "ls => ls.map(l => l.dataset.turn)")
        ]
        assert turns == list(range(turns[0], turns[0] + len(turns))) and len(turns) > 3
        assert page.locator("#log > li").first.locator("ul li").count() >= 1
        assert page.locator("#log > li[data-seat] .seat-icon").count() == len(turns)
        # the end: standings for every player, the focus on the panel, the rematch prominent
        assert page.locator("#standings tbody tr").count() == 2
        assert page.evaluate("document.querySelector('#end').contains(document.activeElement)")
        assert page.locator("#actions #rematch").is_visible()
        page.goto(f"{server.base}/replay/{t['game']}?step=100000")
        page.wait_for_selector("#winner")
        replay_turns = page.eval_on_selector_all("#log > li", "ls => ls.map(l => l.dataset.turn)")
        assert int(replay_turns[-1]) == turns[-1]
        assert problems == []
    finally:
        context.close()


def test_the_replay_scrubber_and_the_position_in_the_address(
    server: Server, browser: Browser
) -> None:
    t, _ = _hot_seat(server, edition="classic")
    _play_to_the_end(server, t)
    total = len(server.get(f"/api/games/{t['game']}/record").json()["actions"])
    context = browser.new_context()
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(f"{server.base}/replay/{t['game']}?step=7")
        page.wait_for_selector("#step[data-step='7']")
        scrub = page.locator("input[type=range]#scrub")
        assert scrub.input_value() == "7" and scrub.get_attribute("max") == str(total)
        scrub.fill("12")
        page.wait_for_selector("#step[data-step='12']")
        assert page.url.endswith("?step=12")
        turn = int(page.locator("#step").get_attribute("data-turn") or 0)
        page.click("#forward-turn")
        page.wait_for_function(f"document.querySelector('#step').dataset.turn === '{turn + 1}'")
        at = page.locator("#step").get_attribute("data-step")
        page.select_option("#lang", "cs")  # the language changes, the position stays
        page.wait_for_function("document.documentElement.lang === 'cs'")
        page.wait_for_selector(f"#step[data-step='{at}']")
        page.click("#last")
        page.wait_for_selector("#winner")
        assert page.locator("#end").is_visible()
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("view", ["table", "replay"])
def test_on_a_phone_the_prompt_bank_and_purses_stay_in_view(
    server: Server, browser: Browser, view: str
) -> None:
    t, link = _hot_seat(server, ("Anna", "Bruno", "Cila"))
    if view == "replay":
        _play_to_the_end(server, t)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    try:
        if view == "table":
            page.goto(server.base + link)
            page.wait_for_selector("[data-move='roll']")
        else:
            page.goto(f"{server.base}/replay/{t['game']}?step=5")
            page.wait_for_selector("#step[data-step='5']")
        for scroll in (0, 500, 1500):
            page.evaluate(f"scrollTo(0, {scroll})")
            for selector in ("#prompt", "#bank", "#purses"):
                box = page.locator(selector).bounding_box()
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (
                    selector,
                    scroll,
                )
            assert page.locator("#purses li").count() == 3
            # nothing of the page shows through the bar
            assert page.evaluate(
                "getComputedStyle(document.querySelector('#dock')).backgroundColor"
            ).startswith("rgb(")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    finally:
        context.close()


def test_a_finished_game_on_a_phone_shows_the_standings_in_view(
    server: Server, browser: Browser
) -> None:
    t, link = _hot_seat(server)
    _play_to_the_end(server, t)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(server.base + link)
        page.wait_for_selector("#winner")
        page.wait_for_function("document.activeElement && document.activeElement.id === 'winner'")
        box = page.locator("#winner").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
        rematch = page.locator("#rematch").bounding_box()
        assert rematch is not None and rematch["y"] + rematch["height"] <= 844
    finally:
        context.close()


def test_home_plays_now_against_bots_in_one_click_and_links_the_rules(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(locale="cs-CZ")
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#bot-kinds dd")
        # the default edition follows the language until the viewer picks one
        assert page.locator("[name=edition]").input_value() == "cs"
        page.select_option("#lang", "ca")
        page.wait_for_function("document.querySelector('[name=edition]').value === 'ca'")
        page.select_option("[name=edition]", "classic")
        page.select_option("#lang", "lv")
        page.wait_for_function("document.documentElement.lang === 'lv'")
        assert page.locator("[name=edition]").input_value() == "classic"
        assert page.locator("#home-board [data-pictogram]").count() == 45
        assert page.locator("#bot-kinds dt").count() == 4
        page.click("#play-now")
        page.wait_for_selector("[data-move='roll']")
        assert page.locator("[data-pawn]").count() == 3
        assert page.locator("#players .bot").count() == 2
        page.click("#rules-link")
        page.wait_for_selector("#rules-squares li")
        lv = page.evaluate("fetch('/api/i18n/lv').then(r => r.json())")["ui"]
        first = lv["rules.text"].split("\n")[0]
        assert first in page.locator("#rules-page").inner_text()  # the printed rules' own words
        assert page.locator("#rules-squares li").count() == 45
        assert page.locator("#editions tbody tr").count() == 5
        assert problems == []
    finally:
        context.close()


def _bytes_of_a_visit(page: Page, url: str, ready: str) -> tuple[int, list[str]]:
    """Bytes received (HTTP, headers included, as sent: compressed) and WebSocket frames."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    total = [0]
    urls: list[str] = []
    cdp.on(
        "Network.loadingFinished", lambda e: total.__setitem__(0, total[0] + e["encodedDataLength"])
    )
    cdp.on("Network.requestWillBeSent", lambda e: urls.append(e["request"]["url"]))
    cdp.on(
        "Network.webSocketFrameReceived",
        lambda e: total.__setitem__(0, total[0] + len(e["response"]["payloadData"])),
    )
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")  # the last responses have arrived
    cdp.detach()
    return total[0], urls


def test_a_table_weighs_at_most_150_kb_first_and_20_kb_again(
    server: Server, browser: Browser
) -> None:
    _, link = _hot_seat(server)
    context = browser.new_context()
    try:
        page = context.new_page()
        first, urls = _bytes_of_a_visit(page, server.base + link, "[data-move='roll']")
        assert all(
            re.match(r"(https?|wss?)://127\.0\.0\.1:", u) or u.startswith("data:") for u in urls
        ), urls
        assert sum("/api/i18n/" in u for u in urls) == 1, urls  # the translations, once
        again, _ = _bytes_of_a_visit(page, page.url, "[data-move='roll']")
        print(f"first visit {first} B, repeat visit {again} B")
        assert first <= 150_000, first
        assert again <= 20_000, again
        r = server.get("/static/board.js")
        assert r.headers.get("etag") and r.headers.get("content-encoding") == "gzip"
        assert server.get("/static/board.js").headers["etag"] == r.headers["etag"]
    finally:
        context.close()
