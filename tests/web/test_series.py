"""Issue 18 "a real end and a series": each seat's wins over the table's games travel in the
game view (`players[].wins`), count the current game once it is over, go on across rematches,
and are read back from the stored games after a restart. In process, on the fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from robinson.web.service import SeatSpec
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served


async def _play_out(srv: Served, t: dict[str, Any]) -> dict[str, Any]:
    """Both seats move forward until the current game is over; its last view."""
    game = await srv.game(t["table"])
    while not game["over"]:
        token = t["seats"][game["to_move"]]["token"]
        await srv.service.act(game["id"], token, game["version"], forward(game["legal"]))
        game = await srv.game(t["table"])
    return game


def _wins(game: dict[str, Any]) -> list[int]:
    return [p["wins"] for p in game["players"]]


@pytest.mark.anyio
async def test_wins_count_over_the_series_and_survive_a_restart(database_url: str) -> None:
    srv = Served(database_url, FakeClock())
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
        )
        first = await srv.game(t["table"])
        assert first["number"] == 1 and _wins(first) == [0, 0]
        ended = await _play_out(srv, t)
        one = [int(ended["winner"] == seat) for seat in (0, 1)]
        assert _wins(ended) == one and sum(one) == (ended["winner"] is not None)
        await service.rematch(t["table"], t["seats"][0]["token"])
        second = await srv.game(t["table"])
        assert second["number"] == 2 and not second["over"] and _wins(second) == one
        ended = await _play_out(srv, t)
        two = [one[seat] + int(ended["winner"] == seat) for seat in (0, 1)]
        assert _wins(ended) == two
        await srv.stop()
        await srv.start()  # a new service: the wins come from the stored games
        assert _wins(await srv.game(t["table"])) == two
        await srv.service.rematch(t["table"], t["seats"][1]["token"])
        assert _wins(await srv.game(t["table"])) == two  # the new game counts once it is over
    finally:
        await srv.stop()
