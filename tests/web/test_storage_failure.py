"""When the database fails, a move is refused with a stable code and nothing is half-applied."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from robinson.web.protocol.errors import ServiceError
from robinson.web.service import GameService, SeatSpec
from robinson.web.service.driver import BOT_RETRY_PAUSE
from robinson.web.settings import Settings
from robinson.web.store import Store
from tests.web.fakes import FakeClock, SeededDice


def test_a_move_the_database_cannot_store_is_refused_and_not_applied(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    store = Store(f"sqlite:///{folder / 'robinson.sqlite3'}")

    async def scenario() -> None:
        service = GameService(store, Settings(bot_delay=0))
        made = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
        )
        game_id, anna = made["game"], made["seats"][0]["token"]
        assert await service.act(game_id, anna, 0, "roll") == 1
        # The database goes away: its connections are closed and its folder removed, so the
        # next write cannot even open the file.
        store.engine.dispose()
        shutil.rmtree(folder)
        table = await service.table_of_game(game_id)
        before = (table.game.version, table.game.state)
        bruno = made["seats"][1]["token"]
        try:
            await service.act(game_id, bruno, 1, "roll")
        except ServiceError as e:
            assert e.code == "storage_unavailable" and e.status == 503
        else:
            raise AssertionError("the move was accepted without being stored")
        assert (table.game.version, table.game.state) == before
        await service.stop()

    try:
        asyncio.run(scenario())
    finally:
        store.close()


def test_bots_wait_out_a_database_outage_and_finish_the_game(tmp_path: Path) -> None:
    """On the fake clock: the bots' pauses, and theirs after a refused write, pass at once."""
    folder = tmp_path / "db"
    folder.mkdir()
    away = tmp_path / "away"
    store = Store(f"sqlite:///{folder / 'robinson.sqlite3'}")
    clock = FakeClock()

    async def scenario() -> None:
        service = GameService(
            store, Settings(bot_delay=0.005), clock=clock, dice=SeededDice(b"\7" * 32)
        )
        made = await service.create_table(
            [SeatSpec("A", "bot", "eager"), SeatSpec("B", "bot", "random")],
            {"edition": "standard"},
        )
        table = await service.table_of_game(made["game"])
        await clock.advance(0.005 * 3 + 0.001)
        assert table.game.version == 3
        # The database vanishes for a while (its folder is moved away; new connections fail),
        # then comes back with everything it had.
        folder.rename(away)
        store.engine.dispose()
        await clock.advance(BOT_RETRY_PAUSE * 4)  # the bots try, are refused, pause, try again
        assert table.game.version == 3 and not table.game.state.over
        away.rename(folder)
        await clock.advance(BOT_RETRY_PAUSE)
        assert table.game.version > 3  # they go on at once
        for _ in range(100):
            if table.game.state.over:
                break
            await clock.advance(1)
        assert table.game.state.over
        row = await asyncio.to_thread(store.load_game, made["game"])
        assert row is not None and len(row.actions) == table.game.version
        await service.stop()

    try:
        asyncio.run(scenario())
    finally:
        store.close()
