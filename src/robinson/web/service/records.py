"""A game's record, and its replay: every step with its narration, once the game is over.

Both cost time in proportion to the game (a game both players keep going on the tree may run to
tens of thousands of actions), so both are built on the heavy lane (lane.py), off the event
loop, and kept: the record's text per (game, version), the replay of a finished game (which
never changes) per (game, language) as one encoded text per step, so that a page of it is a
join. The kept texts are bounded by their total size.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from robinson.engine import GameRecord, State, state_to_json
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import texts
from robinson.web.service.lane import Lane
from robinson.web.service.live import LiveGame
from robinson.web.service.tables import Tables
from robinson.web.store.rows import Note, SeatRow

if TYPE_CHECKING:
    from robinson.web.store import Store

KEEP_BYTES = 64 * 1024 * 1024  # the kept records' and replays' texts, all together
K = TypeVar("K")
V = TypeVar("V")


class SizedCache(Generic[K, V]):
    """The most recently used values, as many as fit in `limit` bytes (each value's size is
    given when it is put)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._size = 0

    def get(self, key: K) -> V | None:
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[0]

    def put(self, key: K, value: V, size: int) -> None:
        if key in self._items:
            self._size -= self._items.pop(key)[1]
        self._items[key] = (value, size)
        self._size += size
        while self._size > self.limit and len(self._items) > 1:
            self._size -= self._items.popitem(last=False)[1][1]


@dataclass(frozen=True)
class ReplayText:
    """A finished game's replay, encoded: the head's fields and each step's JSON text."""

    head: str  # '"game": …, "record": …, "seats": …, "initial": …' (no braces)
    steps: list[str]

    @property
    def size(self) -> int:
        return len(self.head) + sum(len(s) for s in self.steps)

    def page(self, start: int, count: int | None) -> str:
        """The replay's JSON with the steps [start, start + count) (all from `start`: None)."""
        total = len(self.steps)
        if not 0 <= start <= total:
            raise ServiceError("bad_request", f"start must be from 0 to {total}, got {start}")
        if count is not None and count < 1:
            raise ServiceError("bad_request", f"count must be at least 1, got {count}")
        end = total if count is None else min(total, start + count)
        steps = ",".join(self.steps[start:end])
        return f'{{{self.head},"total":{total},"start":{start},"steps":[{steps}]}}'


class Records:
    def __init__(self, tables: Tables, store: Store, lane: Lane) -> None:
        self.tables = tables
        self.store = store
        self.lane = lane
        self._kept: SizedCache[tuple[str, str, int | str], Any] = SizedCache(KEEP_BYTES)
        self._building: dict[tuple[str, str, int | str], asyncio.Future[Any]] = {}

    async def record(self, game_id: str) -> GameRecord:
        table = await self.tables.of_game(game_id)
        if table.game.id == game_id:
            return table.game.record()
        row = await asyncio.to_thread(self.store.load_game, game_id)
        assert row is not None
        return LiveGame.from_row(row).record()

    async def position(self, game_id: str) -> tuple[GameRecord, State | None]:
        """The record, and the position now when the game is its table's current one."""
        table = await self.tables.of_game(game_id)
        if table.game.id == game_id:
            return table.game.record(), table.game.state
        return await self.record(game_id), None

    async def record_text(self, game_id: str, client: str | None = None) -> str:
        """The record's JSON text, as `robinson verify` and `replay` read it."""
        record = await self.record(game_id)
        key = (game_id, "record", len(record.actions))
        return str(await self._once(key, record.dumps, len, client))

    async def replay(
        self,
        game_id: str,
        lang: str,
        start: int = 0,
        count: int | None = None,
        client: str | None = None,
    ) -> str:
        """The JSON text of a finished game's replay (protocol/server.py `Replay`): its steps
        from `start`, `count` of them (None: to the end), each with its narration, the seat
        notes told with it (hand-overs, take-backs, timeouts: with the move after them, as in
        the live log) and its state."""
        table = await self.tables.of_game(game_id)
        if table.game.id == game_id:
            game = table.game
        else:
            row = await asyncio.to_thread(self.store.load_game, game_id)
            assert row is not None
            game = await self.lane.run(lambda: LiveGame.from_row(row), client)
        record, notes = game.record(), sorted(game.notes, key=lambda n: n.version)
        if "seed" not in record.meta["dice"]:
            raise ServiceError("not_over", "a replay is shown once the game is over")
        seats = list(table.seats)
        text: ReplayText = await self._once(
            (game_id, lang, "replay"),
            lambda: encode_replay(game_id, record, seats, notes, lang),
            lambda r: r.size,
            client,
        )
        return text.page(start, count)

    async def _once(
        self,
        key: tuple[str, str, int | str],
        build: Callable[[], Any],
        size: Callable[[Any], int],
        client: str | None,
    ) -> Any:
        """The kept value of `key`, or the one being built (asked for at once by several: one
        build), or a new build on the lane, kept when done."""
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        running = self._building.get(key)
        if running is None:
            running = asyncio.ensure_future(self.lane.run(build, client))
            self._building[key] = running

            def done(f: asyncio.Future[Any]) -> None:
                self._building.pop(key, None)
                if not f.cancelled() and f.exception() is None:
                    self._kept.put(key, f.result(), size(f.result()))

            running.add_done_callback(done)
        return await asyncio.shield(running)  # one who leaves does not cancel the others'


def encode_replay(
    game_id: str, record: GameRecord, seats: Sequence[SeatRow], notes: list[Note], lang: str
) -> ReplayText:
    """Every step of `record` narrated in `lang` with its seat `notes` (sorted by version),
    each step encoded once."""
    names = list(record.players)
    last = len(record.actions) - 1
    steps = []
    for k, (action, state, events) in enumerate(record.steps()):
        each = texts.narrate_each(lang, events, names)
        told = [n for n in notes if n.version == k or (k == last and n.version > k)]
        step = {
            "action": action.to_json(),
            "events": [e.to_json() for e in events],
            "narration": [line for line in each if line],
            "told": texts.told(each),
            "notes": [texts.note(lang, n, names) for n in told],
            "state": positions(state),
        }
        steps.append(_dumps(step))
    head = {
        "game": game_id,
        "record": record.to_json(),
        "seats": start_seats(seats, notes),
        "seat_changes": [
            {"version": n.version, "seat": n.data["seat"], "kind": SEAT_KIND[n.kind]}
            for n in notes
            if n.kind in SEAT_KIND and isinstance(n.data.get("seat"), int)
        ],
        "initial": positions(record.initial_state()),
    }
    return ReplayText(_dumps(head)[1:-1], steps)


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


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def positions(state: State) -> dict[str, Any]:
    """The state's JSON without the players' names (the replay has them once, in the record)."""
    return state_to_json(state)
