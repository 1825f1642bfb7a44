"""A game's record, and its replay: every step with its narration, once the game is over."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from robinson.engine import GameRecord, State, state_to_json
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import texts
from robinson.web.service.live import LiveGame
from robinson.web.service.tables import Tables
from robinson.web.store.rows import Note, SeatRow

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
        """Every step of a finished game with its narration and the seat notes that go with it
        (hand-overs, take-backs, timeouts: each told with the move after it, as in the live log),
        for the replay view."""
        table = await self.tables.of_game(game_id)
        if table.game.id == game_id:
            game = table.game
        else:
            row = await asyncio.to_thread(self.store.load_game, game_id)
            assert row is not None
            game = LiveGame.from_row(row)
        record = game.record()
        if "seed" not in record.meta["dice"]:
            raise ServiceError("not_over", "a replay is shown once the game is over")
        names = list(record.players)
        notes = sorted(game.notes, key=lambda n: n.version)  # stable: same version in order
        last = len(record.actions) - 1
        steps = []
        for k, (action, state, events) in enumerate(record.steps()):
            each = texts.narrate_each(lang, events, names)
            told = [n for n in notes if n.version == k or (k == last and n.version > k)]
            steps.append(
                {
                    "action": action.to_json(),
                    "events": [e.to_json() for e in events],
                    "narration": [line for line in each if line],
                    "told": texts.told(each),
                    "notes": [texts.note(lang, n, names) for n in told],
                    "state": positions(state),
                }
            )
        return {
            "game": game_id,
            "record": record.to_json(),
            "seats": start_seats(table.seats, notes),
            "seat_changes": [
                {"version": n.version, "seat": n.data["seat"], "kind": SEAT_KIND[n.kind]}
                for n in notes
                if n.kind in SEAT_KIND and isinstance(n.data.get("seat"), int)
            ],
            "initial": positions(record.initial_state()),
            "steps": steps,
        }


# The notes that change who plays a seat: a bot from then on, or its owner again.
SEAT_KIND = {"bot": "bot", "timeout_bot": "bot", "back": "human", "returned": "human"}


def start_seats(seats: Sequence[SeatRow], notes: Sequence[Note]) -> list[dict[str, Any]]:
    """Who played each seat when the game began: the seat as it is now, unless the game's own
    notes changed it (then the opposite of its first change: a seat handed to a bot was a
    person's; one taken back was a bot's)."""
    out = []
    for seat, row in enumerate(seats):
        first = next((n for n in notes if n.kind in SEAT_KIND and n.data.get("seat") == seat), None)
        if first is None:
            out.append({"kind": row.kind, "bot": row.bot})
        elif SEAT_KIND[first.kind] == "bot":
            out.append({"kind": "human", "bot": None})
        else:
            out.append({"kind": "bot", "bot": row.bot or "heuristic"})
    return out


def positions(state: State) -> dict[str, Any]:
    """The state's JSON without the players' names (the replay has them once, in the record)."""
    return state_to_json(state)
