"""When the database fails, a move is refused with a stable code and nothing is half-applied."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from robinson.web.errors import ServiceError
from robinson.web.service import GameService, SeatSpec
from robinson.web.store import Store


def test_a_move_the_database_cannot_store_is_refused_and_not_applied(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    store = Store(f"sqlite:///{folder / 'robinson.sqlite3'}")

    async def scenario() -> None:
        service = GameService(store, bot_delay=0)
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
