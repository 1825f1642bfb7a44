"""The table socket's outbox (api/socket.py `Connection`): who sends what, and in which order.

The order and the "nobody waits for a slow client" promise are end-to-end matters (test_ws,
test_browser); what is checked here is the hand-off between the two tasks that may send on one
socket, which no client can see: the handler after it answered a move, and the pump for the
rest. `Recorder` stands in for the WebSocket (it records which task sent each text and can be
held like a client that stopped reading); the real socket is exercised by test_ws."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from robinson.web.api.socket import Connection
from robinson.web.protocol.errors import ServiceError


class Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[str, asyncio.Task[Any] | None]] = []
        self.closed: int | None = None
        self.open = asyncio.Event()  # cleared: a client that stopped reading
        self.open.set()

    async def send_text(self, text: str) -> None:
        await self.open.wait()
        self.sent.append((text, asyncio.current_task()))

    async def close(self, code: int = 1000) -> None:
        self.closed = code

    def texts(self) -> list[str]:
        return [text for text, _ in self.sent]


def _run(test: Callable[[], Awaitable[None]]) -> Callable[[], None]:
    """The test, on an event loop of its own."""

    def run() -> None:
        asyncio.run(test())

    return run


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def _connection() -> tuple[Connection, Recorder, asyncio.Task[None]]:
    socket = Recorder()
    conn = Connection(socket, "en")  # type: ignore[arg-type]  # the socket's two methods
    pump = asyncio.create_task(conn.pump())
    await _settle()
    return conn, socket, pump


@_run
async def test_a_moves_update_and_ack_go_out_on_the_handlers_task_in_order() -> None:
    conn, socket, pump = await _connection()
    async with conn.answering:
        conn.send('"update"')
        conn.send({"type": "ack", "version": 1, "id": 7})
        assert socket.sent == []  # nothing before the move is answered
    assert socket.texts() == ['"update"', '{"type":"ack","version":1,"id":7}']
    assert {task for _, task in socket.sent} == {asyncio.current_task()}
    pump.cancel()


@_run
async def test_what_others_cause_is_sent_by_the_pump() -> None:
    conn, socket, pump = await _connection()
    conn.send('"a"')
    conn.send('"b"')
    await _settle()
    assert socket.texts() == ['"a"', '"b"']
    assert {task for _, task in socket.sent} == {pump}
    pump.cancel()


@_run
async def test_what_comes_while_a_move_is_answered_keeps_its_order() -> None:
    conn, socket, pump = await _connection()
    conn.send('"before"')  # queued; the pump has not run yet
    async with conn.answering:
        conn.send('"update"')
        await _settle()  # another task's message meanwhile waits for the answer
        conn.send('"ack"')
    await _settle()
    assert socket.texts() == ['"before"', '"update"', '"ack"']
    pump.cancel()


@_run
async def test_a_refused_move_leaves_its_error_and_the_rest_to_the_pump() -> None:
    conn, socket, pump = await _connection()
    with pytest.raises(ServiceError):
        async with conn.answering:
            conn.send('"state"')
            raise ServiceError("not_your_turn", "it is Anna's turn")
    conn.send('"error"')
    await _settle()
    assert socket.texts() == ['"state"', '"error"']
    assert {task for _, task in socket.sent} == {pump}
    pump.cancel()


@_run
async def test_a_stalled_socket_is_sent_to_by_one_task_only_and_in_order() -> None:
    conn, socket, pump = await _connection()
    socket.open.clear()  # the client stops reading: the pump's send waits
    conn.send('"first"')
    await _settle()
    async with conn.answering:
        conn.send('"update"')
    assert socket.sent == []  # the handler did not send past the stalled pump
    socket.open.set()
    await _settle()
    assert socket.texts() == ['"first"', '"update"']
    assert {task for _, task in socket.sent} == {pump}
    pump.cancel()


@_run
async def test_a_client_hopelessly_behind_is_closed_and_sent_nothing_more() -> None:
    conn, socket, pump = await _connection()
    socket.open.clear()
    conn.send('"0"')
    await _settle()  # on its way, stalled
    for i in range(1, Connection.OUTBOX + 2):
        conn.send(f'"{i}"')
    socket.open.set()
    await _settle()
    assert socket.closed == 4408
    assert socket.texts() == ['"0"']  # the one on its way when it stalled; the rest dropped
    conn.send('"late"')
    await _settle()
    assert socket.texts() == ['"0"']
    await asyncio.wait_for(pump, 1)  # the pump ended
