"""The move clock, in process with a fake clock: no test here waits out a real second.

The service runs on a temporary SQLite store; time moves only when the test says so, so a
five-second clock runs out at once and each timeout can be read off the table and the store
(`advance` returns once the store's threads are done too).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from robinson.web.service import GameService, SeatSpec
from robinson.web.settings import Settings
from robinson.web.store import Store
from tests.web.fakes import FakeClock, SeededDice
from tests.web.inprocess import Served

CLOCK = 5  # seconds per move

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[GameService]:
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    service = GameService(store, Settings(bot_delay=0.5), clock=clock, dice=SeededDice(b"\1" * 32))
    await service.start()
    try:
        yield service
    finally:
        await service.stop()
        store.close()


async def test_a_seat_out_of_time_is_moved_for_then_handed_to_a_bot_after_three(
    service: GameService, clock: FakeClock
) -> None:
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=CLOCK
    )
    table = await service.table(made["table"])
    anna = made["seats"][0]["token"]
    assert table.game.deadline == clock.now_ms() + CLOCK * 1000
    await clock.advance(CLOCK - 1)
    assert table.game.version == 0  # not yet
    await clock.advance(1.1)
    assert table.game.version == 1
    assert [n.kind for n in table.game.notes] == ["timeout"]
    assert table.seats[0].timeouts == 1 and table.seats[0].kind == "human"
    # Anna acting again wipes her count (and it is Bruno's turn meanwhile: his clock runs).
    while table.game.state.to_move != 0:
        await clock.advance(CLOCK + 0.1)
        assert table.game.deadline is None or table.game.deadline > clock.now_ms()
    await service.act(table.game.id, anna, table.game.version, "roll")
    assert table.seats[0].timeouts == 0
    row = service.store.load_table(table.id)
    assert row is not None and row.seats[0].timeouts == 0


async def test_three_timeouts_in_a_row_give_the_seat_to_the_eager_bot(
    service: GameService, clock: FakeClock
) -> None:
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=CLOCK
    )
    table = await service.table(made["table"])
    for _ in range(40):
        if table.seats[0].kind == "bot":
            break
        version = table.game.version
        await clock.advance(CLOCK + 0.1)
        assert table.game.version > version or table.game.state.over
    assert table.seats[0].kind == "bot" and table.seats[0].bot == "eager"
    handed = [n for n in table.game.notes if n.kind == "timeout_bot" and n.data["seat"] == 0]
    assert len(handed) == 1 and handed[0].data["count"] == 3
    stored = service.store.load_table(table.id)
    assert stored is not None and stored.seats[0].kind == "bot"


async def test_a_bot_moves_after_its_delay_on_the_fake_clock(
    service: GameService, clock: FakeClock
) -> None:
    made = await service.create_table(
        [SeatSpec("Robot", "bot", "eager"), SeatSpec("Bruno")], {"edition": "standard"}
    )
    table = await service.table(made["table"])
    await clock.settle()
    assert table.game.version == 0  # the bot waits its 0.5 s
    await clock.advance(0.6)
    assert table.game.version == 1


async def test_a_clock_through_an_outage_gives_the_grace_after_the_restart_and_says_so(
    tmp_path: Path,
) -> None:
    """Issue 22: a move that fell due while the server was down is not played during start-up:
    its deadline becomes the start plus `restart_grace` (the greater of that and its own time
    left), narrated; a deadline set after the start runs as usual."""
    clock = FakeClock()
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock, Settings(bot_delay=0.0))
    grace = srv.settings.restart_grace
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=CLOCK
        )
        await srv.stop()
        await clock.advance(26)  # a 26-s outage: Anna's deadline fell due meanwhile
        service = await srv.start()
        restarted = clock.now_ms()
        table = await service.table(t["table"])
        assert table.game.version == 0 and table.game.deadline == restarted + grace * 1000
        line = f"The server was restarted: Anna has {grace:g} seconds to make this move."
        assert line in await srv.log(t["table"])
        stored = service.store.load_game(t["game"])
        assert stored is not None and stored.deadline == table.game.deadline
        await clock.advance(grace - 0.5)
        assert table.game.version == 0  # nothing made for her within the grace
        await clock.advance(0.6)
        assert table.game.version == 1 and table.seats[0].timeouts == 1
        assert (await srv.log(t["table"])).count(line) == 1
        # the next deadline is an ordinary one: no grace for it
        deadline = table.game.deadline
        assert deadline is not None and deadline - clock.now_ms() <= CLOCK * 1000
    finally:
        await srv.stop()


async def test_a_deadline_with_more_time_left_than_the_grace_keeps_it(tmp_path: Path) -> None:
    clock = FakeClock()
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock, Settings(bot_delay=0.0))
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=600
        )
        deadline = (await service.table(t["table"])).game.deadline
        await srv.stop()
        await clock.advance(60)
        service = await srv.start()
        await clock.advance(srv.settings.restart_grace + 1)
        table = await service.table(t["table"])
        assert table.game.deadline == deadline and table.game.version == 0
        assert not any("restarted" in line for line in await srv.log(t["table"]))
    finally:
        await srv.stop()


async def test_one_failing_game_does_not_stop_the_clock_of_the_others(
    service: GameService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    made = [
        await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=CLOCK
        )
        for _ in range(3)
    ]
    broken = made[1]["game"]
    time_out = service.driver.time_out

    async def failing(table_id: str, game_id: str) -> None:
        if game_id == broken:
            raise RuntimeError("a broken game")
        await time_out(table_id, game_id)

    service.driver.time_out = failing  # type: ignore[method-assign]
    await clock.advance(CLOCK + 0.1)
    versions = [(await service.table(m["table"])).game.version for m in made]
    assert versions == [1, 0, 1]
    assert any(r.levelname == "ERROR" and broken in r.getMessage() for r in caplog.records), (
        caplog.text
    )
