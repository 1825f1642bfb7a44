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
