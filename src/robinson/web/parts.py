"""What the parts of `GameService` use of each other, declared once.

The game service is one class put together from parts, each a module of its own: service.py
(tables and the one move pipeline), seating.py (seats, invites, presence), driving.py (bots and
clocks, under the table's lease) and replication.py (other processes' changes). Each part
inherits this base, so the type checker knows what the others provide; at run time it is empty.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from robinson.engine import Action, Event, State
    from robinson.web.cluster import Cluster
    from robinson.web.live import LiveTable
    from robinson.web.solver import OptimalSolver
    from robinson.web.store import Note, Store

# A handler of a kind of message from another process (e.g. presence): (table, message).
BusHandler = Callable[["LiveTable", dict[str, Any]], Awaitable[None]]


class ServiceParts:
    store: Store
    cluster: Cluster
    bot_delay: float
    absent_after: float
    solver: OptimalSolver
    _tables: dict[str, LiveTable]
    _game_table: dict[str, str]
    _inbox: dict[str, deque[dict[str, Any]]]
    _draining: dict[str, asyncio.Task[None]]
    bus_handlers: dict[str, BusHandler]
    _clock_task: asyncio.Task[None] | None
    _clock_wake: asyncio.Event
    _clock_next: int | None

    if TYPE_CHECKING:
        # service.py
        async def table(self, table_id: str) -> LiveTable: ...

        def authenticate(self, table: LiveTable, token: object) -> int: ...

        def _seat_index(self, table: LiveTable, seat: object) -> int: ...

        async def _commit(
            self,
            table: LiveTable,
            action: Action,
            seat: int,
            notes: list[Note] | None = None,
            seat_changes: list[tuple[int, dict[str, Any]]] | None = None,
        ) -> None: ...

        def _advance(
            self,
            table: LiveTable,
            action: Action,
            seat: int,
            state: State,
            events: Sequence[Event],
            deadline: int | None = None,
            notes: Sequence[Note] = (),
            seat_changes: Sequence[tuple[int, dict[str, Any]]] = (),
        ) -> None: ...

        def _publish(self, table: LiveTable, message: dict[str, Any]) -> None: ...

        def _chore(self, coro: Awaitable[None]) -> None: ...

        async def adopt(self) -> None: ...

        # driving.py
        def _wake_bots(self, table: LiveTable) -> None: ...

        def _clock_changed(self, deadline: int | None) -> None: ...
