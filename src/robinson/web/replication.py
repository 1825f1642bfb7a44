"""Several processes serving one table (web/cluster.py, docs/deploy.md): how this process's copy
of a table follows the changes another process made.

A mixin of `GameService` (service.py). A committed change is published on the table's channel
after the local broadcast (service.py `_publish`); here a message from another process is
applied to this copy in arrival order under the table's lock (`_on_bus`), a copy that misses a
step catching up from the database (`_catch_up`), and a Redis that came back (messages may be
lost) makes every copy reload (`_resync`). The database is the truth throughout.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from robinson.engine import action_from_json, apply
from robinson.web.live import LiveGame, LiveTable
from robinson.web.parts import ServiceParts
from robinson.web.store import Note

log = logging.getLogger("robinson.web")


class Replication(ServiceParts):
    """Other processes' changes in this copy (a part of `GameService`: web/parts.py)."""

    def _on_bus(self, table_id: str, message: dict[str, Any]) -> None:
        """A message of another process: applied in arrival order under the table's lock."""
        if table_id not in self._tables:
            return  # not held here (any more)
        self._inbox.setdefault(table_id, deque()).append(message)
        task = self._draining.get(table_id)
        if task is None or task.done():
            self._draining[table_id] = asyncio.create_task(self._drain(table_id))

    async def _drain(self, table_id: str) -> None:
        inbox = self._inbox.get(table_id)
        while inbox:
            message = inbox.popleft()
            table = self._tables.get(table_id)
            if table is None:
                break
            try:
                async with table.lock:
                    await self._apply_message(table, message)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message must not stop the table
                log.exception("message %r of table %s failed", message.get("k"), table_id)
        self._inbox.pop(table_id, None)

    async def _apply_message(self, table: LiveTable, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "move":
            game = table.game
            seq = message["seq"]
            if message["game"] != game.id:
                if message["game"] not in self._game_table:
                    await self._reload(table)  # a rematch this copy has not seen
                # else a late step of a game this copy has left behind: nothing to do
            elif seq == game.version:
                action = action_from_json(message["action"])
                state, events = apply(game.state, action)
                notes = [Note(**n) for n in message.get("notes", [])]
                changes = [(s, v) for s, v in message.get("seat_changes", [])]
                deadline = message.get("deadline")
                self._advance(
                    table, action, message["seat"], state, events, deadline, notes, changes
                )
            elif seq > game.version:
                await self._catch_up(table)  # a message was lost: the database has it
            # seq < version: this copy has it already (it caught up before)
        elif kind == "seats":  # seats changed there: their rows, notes and the deadline
            row = await asyncio.to_thread(self.store.load_table, table.id)
            if row is not None:
                table.seats = row.seats
                notes = [Note(**n) for n in message.get("notes", [])]
                if message.get("game") == table.game.id:
                    table.game.notes.extend(notes)
                    if "deadline" in message:
                        table.game.deadline = message["deadline"]
                table.broadcast_state(notes)
                self._wake_bots(table)
        elif kind == "followed":
            await self._catch_up(table)
        elif kind in ("game", "reload"):
            await self._reload(table)
        elif isinstance(kind, str) and kind in self.bus_handlers:
            await self.bus_handlers[kind](table, message)

    async def _catch_up(self, table: LiveTable) -> None:
        """Read the game from the database and take in the steps this copy lacks, telling the
        viewers here of each, in order (as if the messages had come)."""
        game = table.game
        row = await asyncio.to_thread(self.store.load_game, game.id)
        assert row is not None
        if len(row.actions) < game.version:  # cannot be (the log only grows): start afresh
            await self._reload(table)
            return
        steps = row.actions[game.version :]
        if steps:  # seat changes and notes went with them: take the stored ones
            table_row = await asyncio.to_thread(self.store.load_table, table.id)
            if table_row is not None:
                table.seats = table_row.seats
        for step in steps:
            action = action_from_json(step)
            seat = game.state.to_move
            assert seat is not None
            state, events = apply(game.state, action)
            self._advance(table, action, seat, state, events, row.deadline)
        game.deadline, game.notes = row.deadline, list(row.notes)

    async def _reload(self, table: LiveTable) -> None:
        """Read the table and its current game afresh; every viewer here gets a snapshot."""
        row = await asyncio.to_thread(self.store.load_table, table.id)
        if row is None or row.current_game is None:
            return
        if row.current_game != table.game.id:
            game_row = await asyncio.to_thread(self.store.load_game, row.current_game)
            assert game_row is not None
            table.game = LiveGame.from_row(game_row)
            self._game_table[game_row.id] = table.id
        else:
            await self._catch_up(table)
        table.seats = row.seats
        table.broadcast(table.snapshot)
        self._wake_bots(table)

    async def _resync(self) -> None:
        """Redis came back: messages may be lost. Every copy here reloads; drivers look again."""
        for table_id in list(self._tables):
            self._on_bus(table_id, {"k": "reload"})
        self._chore(self.adopt())
