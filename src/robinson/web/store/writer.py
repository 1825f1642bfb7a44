"""How a move's step reaches the database: the store's hot path, apart from its other calls.

`GroupWriter` (what the server uses) owns one thread and one long-lived connection. A step
handed to it waits while the commit before it is under way; the next commit then writes every
step that arrived meanwhile, in one transaction, with plain prepared SQL (no statement built per
move, no pool checkout and no pre-ping per move). Each step's caller is answered only once its
commit is durable, so the rule "nobody is told of a move before it is stored" holds as before.
At one move at a time it is one transaction per move; under load a commit carries many
(docs/scaling.md has the figures).

The thread is the writer's own, fed through a queue and answering on the event loop with
`call_soon_threadsafe`: a group costs the loop one queue put and one callback, where
`run_in_executor` on a pool cost a pool's locks, a concurrent future and its chaining to an
asyncio one (≈0.1 ms a move at 200 moves a second, docs/scaling.md). `busy()` says whether a
group is being written (the tests' fake clock waits for it: web/service/clock.py `track`).

A step the database already has (another process wrote it) makes the group be written again
step by step, so that only that step is refused with `Conflict`. A lost connection is opened
again and the group tried once more; any other failure refuses the whole group with
`StorageDown`, and nothing of it was written.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from robinson.web.store.dialects import is_duplicate
from robinson.web.store.errors import Conflict, StorageDown
from robinson.web.store.rows import Step

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

log = logging.getLogger("robinson.web.store")


class Store(Protocol):
    """What a writer needs of the store (store.py), which makes its writer (`Store.writer`)."""

    engine: Engine


class Writer(Protocol):
    async def append(self, step: Step, summary: str, over: bool, to_move: int | None) -> None:
        """Store `step` durably before returning; `Conflict` if the game has it already,
        `StorageDown` if the database did not take it (then nothing of it was written)."""

    async def close(self) -> None: ...

    def busy(self) -> bool:
        """Whether steps are being written now (on a thread of the writer's)."""


@dataclass(frozen=True)
class _Item:
    step: Step
    summary: str
    over: bool
    to_move: int | None


# The statements of a step, with named parameters (sqlite3's ":name", psycopg's "%(name)s").
_SQL = {
    "action": "INSERT INTO actions (game_id, seq, action, seat, created) "
    "VALUES ({game}, {seq}, {action}, {seat}, {created})",
    "game": "UPDATE games SET version = {version}, over = {over}, summary = {summary}, "
    "deadline = {deadline}, to_move = {to_move}, moved = {moved} WHERE id = {game}",
    "seat": "UPDATE seats SET name = {name}, kind = {kind}, bot = {bot}, "
    "token_sha256 = {token_sha256}, invite_sha256 = {invite_sha256}, timeouts = {timeouts} "
    "WHERE table_id = {table} AND seat = {seat}",
    "note": "INSERT INTO notes (game_id, version, kind, data, created) "
    "VALUES ({game}, {version}, {kind}, {data}, {created})",
}
_NAMES = (
    *("game", "seq", "action", "seat", "created"),
    *("version", "over", "summary", "deadline", "to_move", "moved"),
    *("name", "kind", "bot", "token_sha256", "invite_sha256", "timeouts", "table"),
    "data",
)


def _statements(database: str) -> dict[str, str]:
    if database == "sqlite":  # sqlite3 takes named parameters in any paramstyle
        marks = {n: f":{n}" for n in _NAMES}
    elif database == "postgresql":  # psycopg
        marks = {n: f"%({n})s" for n in _NAMES}
    else:
        raise ValueError(f"the group writer has no SQL for {database!r}")
    return {k: sql.format(**marks) for k, sql in _SQL.items()}


class GroupWriter:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._sql = _statements(store.engine.dialect.name)
        # The writer's thread, started with its first job; None on its queue ends it.
        self._thread: threading.Thread | None = None
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._in_flight = 0  # jobs handed to the thread and not answered yet
        self._connection: Any = None  # the writer thread's own; opened there, used there only
        self._pool: Any = None  # the engine's pool it came from (a disposed engine has a new one)
        self._waiting: list[tuple[_Item, asyncio.Future[None]]] = []
        self._writing = False  # a group is on the thread: steps arriving now wait for the next
        self._idle: asyncio.Future[None] | None = None  # `close` waits on it for the last group
        self.commits = 0  # for the benchmark: steps per commit = steps / commits
        self.steps = 0

    async def append(self, step: Step, summary: str, over: bool, to_move: int | None) -> None:
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((_Item(step, summary, over, to_move), done))
        if not self._writing:
            self._write_waiting()
        # Not shielded (a shield costs a future and two callbacks a move): a caller given up on
        # (its task cancelled) cancels only `done`; its step stays in the group and is written
        # all the same (`_written` skips answering it), as a shielded wait would have it.
        await done

    def _write_waiting(self) -> None:
        """Hand the steps waiting to the thread as one group; `_written` takes its outcome.
        No task of its own: a group costs the loop one queue put and one callback."""
        group, self._waiting = self._waiting, []
        self._writing = True
        self._hand(partial(self._written, group), self._write, [item for item, _ in group])

    def _written(
        self,
        group: list[tuple[_Item, asyncio.Future[None]]],
        outcomes: list[Exception | None] | None,
        error: Exception | None,
    ) -> None:
        """On the loop: a group's outcome to each of its callers, then the next group (that
        one whatever happens here: a writer stuck would stop every table's moves)."""
        try:
            if error is not None:  # a bug of ours: every caller hears of it
                outcomes = [error] * len(group)
            assert outcomes is not None
            for (_, done), outcome in zip(group, outcomes, strict=True):
                _answer(done, None, outcome)
        finally:
            self._next_group()

    def _next_group(self) -> None:
        if self._waiting:
            self._write_waiting()
            return
        self._writing = False
        if self._idle is not None:
            _answer(self._idle, None, None)
            self._idle = None

    async def close(self) -> None:
        while self._writing:
            if self._idle is None:
                self._idle = asyncio.get_running_loop().create_future()
            await self._idle
        if self._thread is not None:
            await self._on_thread(self._release)
            self._jobs.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None

    def busy(self) -> bool:
        return self._in_flight > 0

    async def _on_thread(self, work: Any, *args: Any) -> Any:
        """`work(*args)` on the writer's thread; its result (or exception) here."""
        answer = asyncio.get_running_loop().create_future()
        self._hand(partial(_answer, answer), work, *args)
        return await answer

    def _hand(self, then: Any, work: Any, *args: Any) -> None:
        """`work(*args)` on the writer's thread, then `then(result, error)` on this loop."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="robinson-writer")
            self._thread.daemon = True  # a store never closed must not keep the process alive
            self._thread.start()
        self._in_flight += 1
        self._jobs.put((asyncio.get_running_loop(), partial(self._done, then), work, args))

    def _done(self, then: Any, result: Any, error: Exception | None) -> None:
        self._in_flight -= 1
        then(result, error)

    # -- on the writer thread ------------------------------------------------------------------

    def _serve(self) -> None:
        """The writer thread: each job in turn, answered on its event loop."""
        while (job := self._jobs.get()) is not None:
            loop, then, work, args = job
            try:
                result, error = work(*args), None
            except Exception as e:
                result, error = None, e
            with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                loop.call_soon_threadsafe(then, result, error)

    def _write(self, items: list[_Item]) -> list[Exception | None]:
        for attempt in (1, 2):
            try:
                self._commit(items)
                return [None] * len(items)
            except Exception as e:
                reason = self._failed(e)
                if reason == "duplicate":
                    return [self._write_alone(item) for item in items]
                if reason == "disconnect" and attempt == 1:
                    continue  # a connection the database dropped: once more on a new one
                log.warning("the database did not take %d steps: %s", len(items), e)
                return [StorageDown(_reason(e))] * len(items)
        raise AssertionError("unreachable")

    def _write_alone(self, item: _Item) -> Exception | None:
        try:
            self._commit([item])
            return None
        except Exception as e:
            if self._failed(e) == "duplicate":
                step = item.step
                return Conflict(f"game {step.game} already has step {step.seq}")
            return StorageDown(_reason(e))

    def _commit(self, items: list[_Item]) -> None:
        engine = self.store.engine
        if self._connection is not None and self._pool is not engine.pool:
            self._disconnect()  # the engine was disposed (its connections closed): follow it
        if self._connection is None:
            self._pool = engine.pool
            self._connection = engine.raw_connection()
        conn = self._connection
        cursor = conn.cursor()
        try:
            for item in items:
                self._execute(cursor, item)
            conn.commit()
        finally:
            cursor.close()
        self.commits += 1
        self.steps += len(items)

    def _execute(self, cursor: Any, item: _Item) -> None:
        step, sql = item.step, self._sql
        moved = step.at // 1000
        action = json.dumps(step.action.to_json())
        cursor.execute(
            sql["action"],
            {"game": step.game, "seq": step.seq, "action": action, "seat": step.seat,
             "created": moved},
        )  # fmt: skip
        cursor.execute(
            sql["game"],
            {
                "game": step.game,
                "version": step.seq + 1,
                "over": int(item.over),
                "summary": item.summary,
                "deadline": step.deadline,
                "to_move": None if item.over else item.to_move,
                "moved": moved,
            },
        )
        for row in step.seats:  # `seen_at` is presence's own column: never written back here
            cursor.execute(
                sql["seat"],
                {"table": step.table, "seat": row.seat, "name": row.name, "kind": row.kind,
                 "bot": row.bot, "token_sha256": row.token_sha256,
                 "invite_sha256": row.invite_sha256, "timeouts": row.timeouts},
            )  # fmt: skip
        for note in step.notes:
            data = json.dumps(note.data, ensure_ascii=False)
            cursor.execute(
                sql["note"],
                {"game": step.game, "version": note.version, "kind": note.kind, "data": data,
                 "created": moved},
            )  # fmt: skip

    def _failed(self, error: Exception) -> str:
        """Undo what the failed commit began and say why it failed: "duplicate" (a step the
        database has), "disconnect" (the connection is gone: it is dropped) or "other"."""
        dialect = self.store.engine.dialect
        conn = self._connection
        gone = conn is not None and dialect.is_disconnect(
            error,  # type: ignore[arg-type]  # any exception: a DBAPI one is recognized
            conn.dbapi_connection,
            None,
        )
        if conn is not None and not gone:
            try:
                conn.rollback()
            except Exception:
                gone = True
        if gone:
            self._disconnect()
            return "disconnect"
        if is_duplicate(error):
            return "duplicate"
        return "other"

    def _release(self) -> None:
        conn, self._connection = self._connection, None
        if conn is not None:
            conn.close()  # back to the pool

    def _disconnect(self) -> None:
        conn, self._connection = self._connection, None
        if conn is not None:
            try:
                conn.invalidate()  # the pool must not hand this one out again
            except Exception as e:
                log.debug("closing the writer's connection: %s", e)


# A job for the writer thread: the loop to answer on, what to call there with the outcome, the
# work and its arguments.
_Job = tuple[asyncio.AbstractEventLoop, Any, Any, tuple[Any, ...]]


def _answer(answer: asyncio.Future[Any], result: Any, error: Exception | None) -> None:
    """On the event loop: an outcome into the future awaited, unless it was given up on (a
    job's, a step's by its caller, `close`'s)."""
    if answer.done():
        return
    if error is None:
        answer.set_result(result)
    else:
        answer.set_exception(error)


def _reason(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
