"""Issue 18 "a waiting room": a table made with `wait_for` makes no move, not even a bot's, and
runs no clock, until each of those seats' invites is claimed (the game then starts by itself)
or the host starts it; a table made without it plays at once, as before. In process, on the
fake clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served


def _code(made: dict[str, Any], seat: int) -> str:
    return str(made["seats"][seat]["invite"]).split("#i:", 1)[1]


async def _roll(srv: Served, made: dict[str, Any], seat: int) -> int:
    game = await srv.game(made["table"])
    token = made["seats"][seat]["token"]
    return await srv.service.act(game["id"], token, game["version"], forward(game["legal"]))


@pytest.mark.anyio
async def test_the_game_waits_for_the_invited_then_starts_by_itself(tmp_path: Path) -> None:
    clock = FakeClock()
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock)
    service = await srv.start()
    try:
        made = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno"), SeatSpec("Cila")],
            {"edition": "standard"},
            move_seconds=60,
            wait_for=[1, 2],
        )
        game = await srv.game(made["table"])
        assert game["awaited"] == [1, 2] and game["clock"] is None  # no clock runs yet
        with pytest.raises(ServiceError) as early:
            await _roll(srv, made, 0)
        assert early.value.code == "not_started" and "Bruno, Cila" in early.value.message
        await clock.advance(120)  # two moves' time: nobody is timed out while the table waits
        assert (await srv.game(made["table"]))["version"] == 0
        await service.claim(made["table"], _code(made, 1))
        assert (await srv.game(made["table"]))["awaited"] == [2]
        guest = await service.claim(made["table"], _code(made, 2))
        game = await srv.game(made["table"])
        assert game["awaited"] == [] and game["clock"] is not None  # the clock starts now
        assert game["clock"]["seat"] == 0
        log = await srv.log(made["table"])
        assert log[0].startswith("Waiting for Bruno, Cila") and log[-1] == (
            "Everyone is here: the game begins."
        )
        assert await _roll(srv, made, 0) == 1
        assert guest["seat"] == 2
    finally:
        await srv.stop()


@pytest.mark.anyio
async def test_the_host_may_start_without_them_and_a_bot_waits_too(tmp_path: Path) -> None:
    clock = FakeClock()
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock)
    service = await srv.start()
    try:
        made = await service.create_table(
            [SeatSpec("Robot", "bot", "eager"), SeatSpec("Anna"), SeatSpec("Bruno")],
            {"edition": "standard"},
            wait_for=[2],
        )
        await clock.advance(5)
        assert (await srv.game(made["table"]))["version"] == 0  # the bot to move waits as well
        with pytest.raises(ServiceError) as stranger:
            await service.start_game(made["table"], "not-the-host-secret")
        assert stranger.value.code == "bad_token"
        await service.start_game(made["table"], made["host"])
        await service.start_game(made["table"], made["host"])  # again: nothing more to do
        await clock.advance(1)
        game = await srv.game(made["table"])
        assert game["awaited"] == [] and game["version"] >= 1  # the bot has moved
        assert (await srv.log(made["table"])).count("The host starts the game.") == 1
        await service.claim(made["table"], _code(made, 2))  # Bruno may still come later
        await srv.stop()
        await srv.start()  # the notes are stored: after a restart the table does not wait
        assert (await srv.game(made["table"]))["awaited"] == []
    finally:
        await srv.stop()


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("wait_for", "expected"),
    [([5], "wait_for lists seats from 0 to 2"), ([0, 0], "each seat once"), ([2], "a bot's")],
)
async def test_wait_for_names_distinct_human_seats(
    tmp_path: Path, wait_for: list[int], expected: str
) -> None:
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", FakeClock())
    service = await srv.start()
    try:
        with pytest.raises(ServiceError) as bad:
            await service.create_table(
                [SeatSpec("Anna"), SeatSpec("Bruno"), SeatSpec("Robot", "bot", "eager")],
                {"edition": "standard"},
                wait_for=wait_for,
            )
        assert bad.value.code == "bad_request" and expected in bad.value.message
    finally:
        await srv.stop()
