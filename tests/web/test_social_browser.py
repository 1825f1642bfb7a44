"""Issue 18 "Social", in Chromium: a player's reaction reaches a spectator's page as a bubble by
the player's pawn (and in the screen readers' line), and the player sees "1 watching"."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def test_a_reaction_shows_by_the_pawn_for_everyone_and_spectators_are_counted(
    server: Server, browser: Browser
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], language="cs")
    player_context = browser.new_context(locale="cs-CZ")
    spectator_context = browser.new_context(locale="cs-CZ")
    try:
        player, spectator = player_context.new_page(), spectator_context.new_page()
        problems = [watch(player), watch(spectator)]
        player.goto(server.base + t["seats"][0]["link"])
        player.wait_for_selector("[data-move='roll']")
        assert player.locator("#watching").is_hidden()  # nobody watches yet
        spectator.goto(server.base + t["spectator"])
        spectator.wait_for_selector("#pawns [data-pawn='0']")
        player.locator("#watching").filter(has_text="1 divák").wait_for()
        assert spectator.locator("#reactions").is_hidden()  # a spectator has nothing to say
        buttons = player.locator("#reactions button")
        assert buttons.count() == 6
        clap = player.locator("#reactions [data-reaction='well_played']")
        assert clap.inner_text() == "Dobrý tah"
        clap.click()
        spectator.locator("#pawns [data-pawn='0'] .bubble").wait_for()
        bubble = spectator.locator("#pawns [data-pawn='0'] .bubble text")
        assert bubble.text_content() == "Dobrý tah"
        assert spectator.locator("#reaction-said").inner_text() == "Anna: Dobrý tah"
        player.locator("#pawns [data-pawn='0'] .bubble").wait_for()  # the sender sees it too
        spectator.close()
        player.locator("#watching").wait_for(state="hidden")  # the spectator left
        assert problems == [[], []]
    finally:
        player_context.close()
        spectator_context.close()


def test_on_a_phone_the_reactions_take_one_row_of_the_bar(server: Server, browser: Browser) -> None:
    """The phone's bar keeps its room for the game: the six reactions scroll sideways in one row
    (seats.css, loaded after style.css, once made them wrap into two)."""
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}], language="ca")
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ca-ES")
    try:
        page = context.new_page()
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-move='roll']")
        buttons = page.locator("#reactions button")
        assert buttons.count() == 6
        tops = {round(b["y"]) for b in (buttons.nth(i).bounding_box() for i in range(6)) if b}
        assert len(tops) == 1, tops
    finally:
        context.close()
