"""A `GameService` in the test's own process, on a store of the test's (a temporary SQLite file,
or a PostgreSQL database), with the fake clock and seeded dice (fakes.py): what the fast tier's
web tests drive instead of a `robinson serve` process.

`Served.stop()` then `Served.start()` is a restart: a new store and a new service on the same
database, the clock going on where it was (so a move can fall due while nothing runs). A
`Viewer` stands for a WebSocket: it holds seats like a `hello` with tokens and keeps every
message the service sends it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from robinson.web.cluster import Cluster
from robinson.web.service import GameService, views
from robinson.web.service.notices import Channel
from robinson.web.settings import Settings
from robinson.web.store import Store
from robinson.web.store.seeds import SeedBox
from tests.web.fakes import FakeClock, SeededDice


class Viewer:
    """A connection following a table (service/live.py `Listener`), as the socket makes one."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.seats: set[int] = set()
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | str) -> None:
        """A message, or the text of one encoded once for many viewers (read back here)."""
        self.messages.append(json.loads(message) if isinstance(message, str) else message)

    def of(self, kind: str) -> list[dict[str, Any]]:
        """The messages of type `kind` received so far, in order."""
        return [m for m in self.messages if m["type"] == kind]


class Served:
    def __init__(
        self,
        url: str,
        clock: FakeClock,
        settings: Settings | None = None,
        dice: SeededDice | None = None,
        seeds: SeedBox | None = None,
        channels: Callable[[Store], Sequence[Channel]] | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.url = url
        self.cluster = cluster  # what it shares with other processes (none: alone)
        self.clock = clock
        # The subprocess tests' server moves its bots at once (--bot-delay 0): so does this one.
        self.settings = settings or Settings(bot_delay=0.0)
        self.dice = dice or SeededDice(bytes(range(32)))
        self.seeds = seeds  # the dice seeds' key at rest (none: stored in the clear)
        self.channels = channels  # the notifications' channels, made on the store (none: none)
        self._store: Store | None = None
        self._service: GameService | None = None

    @property
    def service(self) -> GameService:
        assert self._service is not None, "not started"
        return self._service

    async def start(self) -> GameService:
        self._store = Store(self.url, self.seeds)
        channels = self.channels(self._store) if self.channels else ()
        self._service = GameService(
            self._store,
            self.settings,
            cluster=self.cluster,
            clock=self.clock,
            dice=self.dice,
            channels=channels,
        )
        await self._service.start()
        await self.clock.settle()
        return self._service

    async def stop(self) -> None:
        if self._service is not None:
            await self._service.stop()
            self._service = None
        if self._store is not None:
            self._store.close()
            self._store = None

    async def hello(self, table_id: str, tokens: tuple[str, ...] = (), lang: str = "en") -> Viewer:
        """A viewer following the table with the seats of `tokens` (the socket's `hello`); its
        first message is the snapshot."""
        table = await self.service.table(table_id)
        viewer = Viewer(lang)
        held = {table.seat_of(t) for t in tokens}
        self.service.hold(table, viewer, {s for s in held if s is not None})
        self.service.subscribe(table, viewer)
        await self.clock.settle()
        return viewer

    async def log(self, table_id: str) -> list[str]:
        """The narration so far, as a viewer connecting now gets it."""
        table = await self.service.table(table_id)
        lines: list[str] = views.snapshot(table, Viewer())["log"]
        return lines

    async def game(self, table_id: str, lang: str = "en") -> dict[str, Any]:
        """The game of the table as `GET /api/tables/{id}` shows it."""
        table = await self.service.table(table_id)
        return views.game_view(table, lang)
