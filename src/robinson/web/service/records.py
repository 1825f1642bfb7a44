"""A game's record, and its replay: every step with its narration, once the game is over."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from robinson.engine import GameRecord, State, state_to_json
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import texts
from robinson.web.service.live import LiveGame
from robinson.web.service.tables import Tables

if TYPE_CHECKING:
    from robinson.web.store import Store


class Records:
    def __init__(self, tables: Tables, store: Store) -> None:
        self.tables = tables
        self.store = store

    async def record(self, game_id: str) -> GameRecord:
        table = await self.tables.of_game(game_id)
        if table.game.id == game_id:
            return table.game.record()
        row = await asyncio.to_thread(self.store.load_game, game_id)
        assert row is not None
        return LiveGame.from_row(row).record()

    async def replay(self, game_id: str, lang: str) -> dict[str, Any]:
        """Every step of a finished game with its narration, for the replay view."""
        table = await self.tables.of_game(game_id)
        record = await self.record(game_id)
        if "seed" not in record.meta["dice"]:
            raise ServiceError("not_over", "a replay is shown once the game is over")
        names = list(record.players)
        steps = []
        for action, state, events in record.steps():
            each = texts.narrate_each(lang, events, names)
            steps.append(
                {
                    "action": action.to_json(),
                    "events": [e.to_json() for e in events],
                    "narration": [line for line in each if line],
                    "told": texts.told(each),
                    "state": positions(state),
                }
            )
        return {
            "game": game_id,
            "record": record.to_json(),
            "seats": [{"kind": s.kind, "bot": s.bot} for s in table.seats],
            "initial": positions(record.initial_state()),
            "steps": steps,
        }


def positions(state: State) -> dict[str, Any]:
    """The state's JSON without the players' names (the replay has them once, in the record)."""
    return state_to_json(state)
