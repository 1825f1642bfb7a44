"""Issue 19, vacation for long clocks: a seat of a table with a clock of a day or more may pause
its own clock for a few whole days a game. Taken on its turn, the deadline moves on by those
days and no timeout comes before it; taken at another time, its next turn's clock starts when
the vacation ends. Everyone is shown the pause; it survives a restart; a table without a long
clock gives none. In process, on the fake clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec
from robinson.web.settings import Settings
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served

DAY = 86_400


@pytest.fixture(autouse=True)
def _days_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Days pass on the fake clock: the loops that look every 30 s or 60 s would make it step
    through thousands of wake-ups; the deadlines wake the clock by themselves."""
    from robinson.web.service import driver

    monkeypatch.setattr(driver, "CLOCK_POLL", 10.0 * DAY)


def _served(tmp_path: Path, clock: FakeClock) -> Served:
    settings = Settings(bot_delay=0.0, unload_after=0, expire_days=0)
    return Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock, settings)


async def _move(srv: Served, made: dict[str, Any]) -> None:
    game = await srv.game(made["table"])
    token = made["seats"][game["to_move"]]["token"]
    await srv.service.act(game["id"], token, game["version"], forward(game["legal"]))


@pytest.mark.anyio
async def test_a_vacation_on_ones_turn_pauses_the_clock_then_it_runs_again(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    srv = _served(tmp_path, clock)
    service = await srv.start()
    try:
        made = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=DAY
        )
        assert made["vacation_days"] == 3  # the default for a clock of a day
        table = await service.table(made["table"])
        deadline = table.game.deadline
        assert deadline is not None
        anna = made["seats"][0]["token"]
        until = await service.take_vacation(made["table"], anna, 0, 2)
        assert table.game.deadline == deadline + 2 * DAY * 1000  # her clock waits two days
        game = await srv.game(made["table"])
        assert game["players"][0]["vacation_until"] is not None
        assert game["players"][0]["vacation_left"] == 1
        assert (await srv.log(made["table"]))[-1] == (
            "Anna takes 2 days of vacation: their clock waits."
        )
        await clock.advance(DAY + 60)  # past the deadline she had: no timeout
        assert table.game.version == 0 and table.seats[0].timeouts == 0
        await srv.stop()
        await srv.start()  # through a restart: the pause is stored
        table = await srv.service.table(made["table"])
        assert table.vacation_until(0) == until and table.vacation_left(0) == 1
        await clock.advance(2 * DAY)  # the clock has run again: the move is made for her
        assert table.game.version >= 1 and table.seats[0].timeouts == 1
        assert (await srv.game(made["table"]))["players"][0]["vacation_until"] is None
    finally:
        await srv.stop()


@pytest.mark.anyio
async def test_a_vacation_taken_before_ones_turn_starts_its_clock_after(tmp_path: Path) -> None:
    clock = FakeClock()
    srv = _served(tmp_path, clock)
    service = await srv.start()
    try:
        made = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")],
            {"edition": "standard"},
            move_seconds=DAY,
            vacation_days=5,
        )
        bruno = made["seats"][1]["token"]
        until = await service.take_vacation(made["table"], bruno, 1, 4)
        table = await service.table(made["table"])
        while table.game.state.to_move != 1:  # Anna plays on meanwhile
            await _move(srv, made)
        assert table.game.deadline == until + DAY * 1000  # his move's day starts after it
        with pytest.raises(ServiceError) as spent:
            await service.take_vacation(made["table"], bruno, 1, 2)
        assert spent.value.code == "bad_request" and "1 to 1 (of 5 a game)" in spent.value.message
        with pytest.raises(ServiceError) as other:  # Anna cannot send Bruno on vacation
            await service.take_vacation(made["table"], made["seats"][0]["token"], 1, 1)
        assert other.value.code == "bad_token"
    finally:
        await srv.stop()


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("move_seconds", "vacation_days", "expected"),
    [(600, None, "gives no vacation days"), (None, 2, "needs a clock"), (DAY, 31, "0 to 30")],
)
async def test_no_vacation_without_a_long_clock(
    tmp_path: Path, move_seconds: int | None, vacation_days: int | None, expected: str
) -> None:
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", FakeClock())
    service = await srv.start()
    try:
        with pytest.raises(ServiceError) as refused:
            made = await service.create_table(
                [SeatSpec("Anna"), SeatSpec("Bruno")],
                {"edition": "standard"},
                move_seconds=move_seconds,
                vacation_days=vacation_days,
            )
            await service.take_vacation(made["table"], made["seats"][0]["token"], 0, 1)
        assert refused.value.code == "bad_request" and expected in refused.value.message
    finally:
        await srv.stop()
