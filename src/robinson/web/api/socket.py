"""The table WebSocket: one connection follows one table; moves go through the same service as
REST. Every message the server sends is described by protocol/messages.py's `ServerMessage` (and
checked against it where ROBINSON_CHECK_MESSAGES=1: the tests)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter, deque
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from robinson.web import collector
from robinson.web.api import language
from robinson.web.api.guard import check_json
from robinson.web.api.ratelimit import Limiter
from robinson.web.protocol.client import (
    Act,
    GiveSeed,
    HandToBot,
    Hello,
    Lang,
    Ping,
    React,
    Rematch,
    TakeBack,
    client_message,
    explain,
)
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.limits import MAX_MESSAGE
from robinson.web.protocol.messages import encode
from robinson.web.service import GameService, views
from robinson.web.service.live import LiveTable

log = logging.getLogger("robinson.web")
# Counted against the address's rate of moves.
ACTING = (Act, HandToBot, TakeBack, Rematch, GiveSeed)

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    service: GameService = websocket.app.state.service
    limiter: Limiter = websocket.app.state.limiter
    address = websocket.client.host if websocket.client else None
    try:
        await limiter.hit("sockets", address)
    except ServiceError as e:  # refused before the handshake: a plain HTTP 429
        log.info("socket refused from %s: %s", address, e.message)  # a note, not an error
        body = {"error": e.to_json()}
        await websocket.send_denial_response(JSONResponse(body, e.status, headers=e.headers))
        return
    await websocket.accept()
    opened: Counter[str | None] = websocket.app.state.sockets_open
    cap = int(websocket.app.state.sockets_per_address)
    if opened[address] >= cap:  # told why, in words and in the close code
        reason = f"too many connections open from your address (at most {cap})"
        log.info("socket refused from %s: %s", address, reason)
        error = {"type": "error", "code": "rate_limited", "message": reason, "id": None}
        await websocket.send_text(encode(error))
        await websocket.close(code=4429, reason=reason)
        return
    opened[address] += 1
    try:
        await _follow(websocket, service, limiter, address, table_id)
    finally:
        opened[address] -= 1
        if opened[address] <= 0:
            del opened[address]
        collector.closed()  # its cycles are collected within the next CLOSED_LIMIT closes


class QuietDenials(logging.Filter):
    """uvicorn logs an ERROR for every socket refused before its handshake (a 429 of the rate
    limit, noted above as it happens): that is no error of the server's."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "returned without completing handshake" not in record.getMessage()


async def _follow(
    websocket: WebSocket,
    service: GameService,
    limiter: Limiter,
    address: str | None,
    table_id: str,
) -> None:
    try:
        table = await service.table(table_id)
    except ServiceError as e:
        await websocket.send_text(encode({"type": "error", **e.to_json(), "id": None}))
        await websocket.close(code=4404)
        return
    conn = Connection(websocket, table.language)
    sender = asyncio.create_task(conn.pump())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            msg_id: Any = None
            try:
                msg = _parse(message.get("text"), message.get("bytes"))
                msg_id = getattr(msg, "id", None)
                if isinstance(msg, ACTING):
                    await limiter.hit("actions", address)
                elif isinstance(msg, Hello | Lang):  # each sends a snapshot, or a state to all
                    await limiter.hit("reads", address)
                if isinstance(msg, Act):  # its update and ack go out on this task, after it
                    async with conn.answering:
                        await _reply(service, table, conn, msg, msg_id)
                else:
                    await _reply(service, table, conn, msg, msg_id)
            except ServiceError as e:
                if msg_id is None:  # refused before it was read: its id, if it has one
                    msg_id = _id_of(message.get("text"))
                conn.send({"type": "error", **e.to_json(), "id": msg_id})
    finally:
        service.unsubscribe(table, conn)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


class Connection:
    """One WebSocket following a table. What it is sent waits in its outbox, in order, for one
    task at a time to send it: the socket's own handler right after it answered a move (the
    mover hears the update and the ack with no other task woken: the common case), else the
    connection's pump, woken for what others cause. A slow client thus holds up nobody else's
    move being broadcast, only its own socket."""

    OUTBOX = 512

    def __init__(self, websocket: WebSocket, lang: str) -> None:
        self.websocket = websocket
        self.lang = lang
        self.seats: set[int] = set()
        self.subscribed = False
        # None last: the client fell hopelessly behind; the socket is closed (it resyncs).
        self._outbox: deque[dict[str, Any] | str | None] = deque()
        self._wake: asyncio.Future[None] | None = None  # the pump waits on it, idle
        self._answering = False  # its handler sends what comes meanwhile, once it answered
        self._sending = False  # a task is sending from the outbox (the other leaves it be)
        self._closed = False
        self.answering = _Answering(self)

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or its JSON text when it was encoded once for many)."""
        if self._closed:
            return
        if len(self._outbox) < self.OUTBOX:
            self._outbox.append(message)
        else:  # hopelessly behind: drop what waits and close; it reconnects and resyncs
            self._outbox.clear()
            self._outbox.append(None)
        if not self._answering and not self._sending:  # a task sending takes it: it loops
            self._wake_pump()

    def _wake_pump(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def pump(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed:
            if self._outbox and not self._answering and not self._sending:
                await self._send_waiting()
                continue
            self._wake = loop.create_future()
            try:
                await self._wake
            finally:
                self._wake = None

    async def _send_waiting(self) -> None:
        """Send the outbox's messages in order until it is empty (one task at a time)."""
        self._sending = True
        try:
            while self._outbox:
                message = self._outbox.popleft()
                if message is None:
                    self._closed = True
                    await self.websocket.close(code=4408)
                    return
                text = message if isinstance(message, str) else encode(message)
                await self.websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            self._closed = True  # the client left while a message was on its way
        except ValidationError:
            # A message the models do not describe is a bug of ours: say so, and close rather
            # than send something the protocol does not promise.
            log.exception("an outgoing message does not match protocol.messages.ServerMessage")
            self._closed = True
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await self.websocket.close(code=1011)
        finally:
            self._sending = False


class _Answering:
    """`async with conn.answering:` around the handling of a move: what the connection is sent
    meanwhile (the update, then the ack) is sent after it on the handler's task, with no other
    task woken. A refusal (an exception) leaves it to the pump. (A class of its own, made once
    a connection: a move costs no context manager built and run as a generator.)"""

    __slots__ = ("conn",)

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def __aenter__(self) -> None:
        self.conn._answering = True

    async def __aexit__(self, kind: type[BaseException] | None, *_: object) -> None:
        conn = self.conn
        conn._answering = False
        if kind is not None:
            conn._wake_pump()
        elif not conn._sending:  # else the pump is sending (a slow client): it takes these too
            await conn._send_waiting()


async def _reply(
    service: GameService, table: LiveTable, conn: Connection, msg: Any, msg_id: Any
) -> None:
    reply = await _handle(service, table, conn, msg)
    if reply is not None:
        conn.send({**reply, "id": msg_id})


def _id_of(text: str | None) -> int | str | None:
    """The `id` of a message the models refused, when it is a JSON object with a usable one
    (so the client knows which message it was); else None."""
    if text is None or len(text) > MAX_MESSAGE:
        return None
    try:
        found = json.loads(text).get("id")
    except (ValueError, AttributeError, RecursionError):
        return None
    if isinstance(found, str) and len(found) <= 64:
        return found
    return found if type(found) is int and abs(found) < 2**63 else None


def _parse(text: str | None, data: bytes | None) -> Any:
    if text is not None:
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate cannot even be sent back in an error
            raise ServiceError("malformed", "a message is UTF-8 text") from None
    else:
        raw = data or b""
    if len(raw) > MAX_MESSAGE:  # bytes, not characters: "é" is two
        raise ServiceError("too_large", f"a message is at most {MAX_MESSAGE} bytes, got {len(raw)}")
    check_json(raw)  # bounded nesting and numbers: the parser below meets nothing worse
    try:
        return client_message.validate_json(raw)  # parsed and checked in one pass (Rust)
    except ValidationError as e:
        first = e.errors()[0]
        if first["type"] == "json_invalid":  # not JSON, or not UTF-8
            why = first["msg"]
            raise ServiceError("malformed", f"a message is one JSON object: {why}") from None
        raise ServiceError("malformed", explain(e)) from None


async def _handle(
    service: GameService, table: LiveTable, conn: Connection, msg: Any
) -> dict[str, Any] | None:
    if isinstance(msg, Hello | Lang):
        previous, conn.lang = conn.lang, language(msg.lang)
        await views.narrated(table, conn.lang)  # a long game's log: narrated off the loop
        if isinstance(msg, Hello):
            held = {table.seat_of(t) for t in msg.tokens}
            seats = {s for s in held if s is not None}
            # Sent only what it missed while it holds what it held: on a new connection the
            # page had these tokens' seats before, on this one the seats it holds now.
            same = None not in held and (
                not conn.subscribed or (seats == conn.seats and conn.lang == previous)
            )
            service.hold(table, conn, seats)
            if None in held:
                conn.send(
                    {
                        "type": "error",
                        "code": "bad_token",
                        "id": msg.id,
                        "message": "a token is not a seat at this table; watching without it",
                    }
                )
            game, version = (msg.game, msg.version) if same else (None, None)
            if not conn.subscribed:
                conn.subscribed = True
                service.subscribe(table, conn, game, version)
            else:
                views.greet(table, conn, game, version)
            return None
        if not conn.subscribed:  # a "lang" first: it follows the table in that language
            conn.subscribed = True
            service.subscribe(table, conn)
        else:
            conn.send(views.snapshot(table, conn))
        return None
    if isinstance(msg, React):
        service.reactions.react(table, conn, msg.seat, msg.reaction)
        return {"type": "ack"}
    if isinstance(msg, Act):
        version = await service.act(msg.game, msg.token, msg.version, msg.move)
        return {"type": "ack", "version": version}
    if isinstance(msg, HandToBot):
        await service.hand_to_bot(table.id, msg.token, msg.seat, msg.bot)
        return {"type": "ack"}
    if isinstance(msg, TakeBack):
        await service.take_back(table.id, msg.token, msg.seat)
        return {"type": "ack"}
    if isinstance(msg, GiveSeed):
        await service.give_seed(table.id, msg.token, msg.game, msg.seat, msg.seed)
        return {"type": "ack"}
    if isinstance(msg, Rematch):
        return {"type": "ack", "game": await service.rematch(table.id, msg.token)}
    assert isinstance(msg, Ping)
    return {"type": "pong"}
