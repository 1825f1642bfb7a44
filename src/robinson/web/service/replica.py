"""Several processes serving one table (cluster/, docs/deploy.md): how this process's copy of a
table follows the changes another process made.

A committed change is published on the table's channel after the local broadcast (moves.py).
Here a message from another process is applied to this copy in arrival order under the table's
lock; a copy that misses a step catches up from the database (moves.py `catch_up`), and a Redis
that came back (messages may be lost) makes every copy reload. The database is the truth
throughout.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from robinson.web.cluster.messages import (
    BusMessage,
    Moved,
    NewGame,
    Reacted,
    Reload,
    SeatsChanged,
    SeedGiven,
    Seen,
)
from robinson.web.service.live import LiveTable
from robinson.web.service.moves import Moves
from robinson.web.service.presence import Presence
from robinson.web.service.reactions import Reactions
from robinson.web.service.tables import Tables

log = logging.getLogger("robinson.web")


class CatchUp:
    """Not a message but a note to self: read the steps this copy lacks from the database."""

    k = "catch_up"


Inbound = BusMessage | CatchUp


class Replica:
    def __init__(
        self,
        tables: Tables,
        moves: Moves,
        presence: Presence,
        reactions: Reactions,
        adopt: Callable[[], Awaitable[None]],
    ) -> None:
        self.tables = tables
        self.moves = moves
        self.presence = presence
        self.reactions = reactions
        self.adopt = adopt  # drive what nobody drives: after Redis came back
        # Messages waiting for their table's lock, and the task applying each table's.
        self._inbox: dict[str, deque[Inbound]] = {}
        self._draining: dict[str, asyncio.Task[None]] = {}
        self._chores: set[asyncio.Task[None]] = set()
        tables.busy.append(self._inbox.__contains__)

    async def stop(self) -> None:
        tasks = [*self._draining.values(), *self._chores]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def on_message(self, table_id: str, message: Inbound) -> None:
        """A message of another process: applied in arrival order under the table's lock."""
        if table_id not in self.tables.held:
            return  # not held here (any more)
        self._inbox.setdefault(table_id, deque()).append(message)
        task = self._draining.get(table_id)
        if task is None or task.done():
            self._draining[table_id] = asyncio.create_task(self._drain(table_id))

    def on_followed(self, table_id: str) -> None:
        """The table's channel is followed now: what came before is in the database."""
        self.on_message(table_id, CatchUp())

    async def on_resync(self) -> None:
        """Redis came back: messages may be lost. Every copy here reloads; drivers look again."""
        for table_id in list(self.tables.held):
            self.on_message(table_id, Reload())
        task = asyncio.ensure_future(self.adopt())
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _drain(self, table_id: str) -> None:
        inbox = self._inbox.get(table_id)
        while inbox:
            message = inbox.popleft()
            table = self.tables.held.get(table_id)
            if table is None:
                break
            try:
                async with table.lock:
                    await self.apply(table, message)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message must not stop the table
                log.exception("message %r of table %s failed", message.k, table_id)
        self._inbox.pop(table_id, None)

    async def apply(self, table: LiveTable, message: Inbound) -> None:
        """One message into this copy (lock held)."""
        match message:
            case Moved():
                game = table.game
                if message.game != game.id:
                    if message.game not in self.tables.game_table:
                        await self.moves.reload(table)  # a rematch this copy has not seen
                    # else a late step of a game this copy has left behind: nothing to do
                elif message.seq == game.version:
                    if "roll" in message.action:  # the seeds it came from (second scheme)
                        await self.moves.final_seeds(game)
                    self.moves.take_step(table, message.step())
                elif message.seq > game.version:
                    await self.moves.catch_up(table)  # a message was lost: the database has it
                # seq < version: this copy has it already (it caught up before)
            case SeatsChanged():
                self.moves.take_seats(table, message.change())
            case SeedGiven():
                self.moves.take_seed(table, message.game, message.seat, message.seed)
            case NewGame():
                await self.moves.reload(table)
            case Reload():  # what another process did not publish: its moves, its `Seen` too
                await self.moves.reload(table)
                await self.presence.refresh(table)
            case Seen():
                await self.presence.seen_elsewhere(table, message)
            case Reacted():
                self.reactions.show(table, message.seat, message.reaction)
            case CatchUp():
                await self.moves.catch_up(table)
