"""Issue 18 "Drama": a death on 42 leaves the pawn lying faded on 42 and greys the player's row;
the winner's pawn wears a crown on 45. Shown by the replay of a stored game in which one player
dies and the other wins (its rolls written into the database, as the server would have)."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

import pytest

from robinson.engine import Roll, Ruleset, apply, legal_actions, new_game, to_text
from robinson.web.store import Store
from robinson.web.store.rows import Step
from tests.web.conftest import watch

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser


def _a_game_with_a_death() -> list[tuple[Any, int, Any]]:
    """(action, seat, state after) of a two-player game where one dies and the other wins."""
    for seed in range(1000):
        rng, state, steps = random.Random(seed), new_game(2, Ruleset("standard"), 0), []
        while not state.over:
            legal = legal_actions(state)
            action = Roll(rng.randint(1, 6)) if isinstance(legal[0], Roll) else legal[-1]
            seat = state.to_move
            state, _ = apply(state, action)
            steps.append((action, seat, state))
        if state.winner is not None and not all(p.alive for p in state.players):
            return steps
    raise AssertionError("no such game in 1,000 seeds")


def test_the_dead_lie_on_42_and_the_winner_is_crowned(
    fresh_server: Callable[..., Server], browser: Browser
) -> None:
    srv = fresh_server()
    srv.start()
    t = srv.create([{"name": "Anna"}, {"name": "Bruno"}])
    srv.stop()
    steps = _a_game_with_a_death()
    store = Store(srv.url_db)
    try:
        now = int(time.time() * 1000)
        for seq, (action, seat, after) in enumerate(steps):
            step = Step(t["table"], t["game"], seq, action, seat, now)
            store.append(step, to_text(after), after.over, after.to_move)
    finally:
        store.close()
    dead = next(i for i, p in enumerate(steps[-1][2].players) if not p.alive)
    died_at = next(k for k, (_, _, after) in enumerate(steps) if not after.players[dead].alive)
    winner = steps[-1][2].winner
    srv.start()
    context = browser.new_context()
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(f"{srv.base}/replay/{t['game']}?step={died_at + 1}")
        page.wait_for_selector(f"#step[data-step='{died_at + 1}']")
        fallen = page.locator(f"#pawns [data-pawn='{dead}']")
        assert "dead" in (fallen.get_attribute("class") or "")
        assert "rotate(80deg)" in (fallen.get_attribute("style") or "")
        on_42 = page.locator("[data-square='42'] rect").first.bounding_box()
        body = fallen.locator(".body").bounding_box()
        assert on_42 is not None and body is not None
        assert on_42["x"] <= body["x"] + body["width"] / 2 <= on_42["x"] + on_42["width"]
        assert page.locator(f"#players [data-player='{dead}']").get_attribute("class") == "out"
        page.click("#back")  # a step before the death: standing again, the row not greyed
        page.wait_for_selector(f"#step[data-step='{died_at}']")
        assert "dead" not in (fallen.get_attribute("class") or "")
        assert page.locator("#pawns .crown").count() == 0
        page.click("#last")
        page.wait_for_selector(f"#step[data-step='{len(steps)}']")
        assert page.locator(f"#pawns [data-pawn='{winner}'] .crown").count() == 1
        assert page.locator("#pawns .crown").count() == 1
        assert problems == []
    finally:
        context.close()
