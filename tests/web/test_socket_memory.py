"""Memory returned after a socket closes (issue 22): 1,000 table sockets opened (a `hello`, half
with a seat's token) and closed leave the process's tables and maps as they were — no listener,
no connection object, no task, no timer, no count per address left behind. In process, through
the socket's own handler, on the fake clock."""

from __future__ import annotations

import asyncio
import gc
import json
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from robinson.web.api import socket
from robinson.web.api.ratelimit import Limiter
from robinson.web.service import GameService, SeatSpec
from robinson.web.settings import Rates
from tests.web.inprocess import Served

pytestmark = pytest.mark.anyio

SOCKETS = 1000
GENEROUS = Rates("1000000/minute", "1000000/minute", "1000000/minute", "1000000/minute")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FakeWebSocket:
    """What the socket's handler asks of Starlette's WebSocket: the client says `texts`, then
    leaves."""

    def __init__(self, app: Any, host: str, texts: list[str]) -> None:
        self.app = app
        self.client = SimpleNamespace(host=host)
        self.texts = texts
        self.sent: list[str] = []

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict[str, Any]:
        await asyncio.sleep(0)
        if self.texts:
            return {"type": "websocket.receive", "text": self.texts.pop(0)}
        return {"type": "websocket.disconnect"}

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def _held(service: GameService, app: Any) -> dict[str, Any]:
    """What the process keeps that a socket could leave behind."""
    presence = service.presence
    return {
        "tables": sorted(service.tables.held),
        "listeners": {t.id: len(t.listeners) for t in service.tables.held.values()},
        "news": {
            t.id: (dict(t.news.leaving), dict(t.news.seen), t.news.owed, t.news.timer is None)
            for t in service.tables.held.values()
        },
        "sockets_open": dict(app.state.sockets_open),
        "presence timers": len(presence._timers),
        "presence absences": len(presence._absences),
        "presence chores": len(presence.chores),
        "lane jobs": dict(service.lane._jobs),
        "tasks": len(asyncio.all_tasks()),
        "connections": sum(isinstance(o, socket.Connection) for o in gc.get_objects()),
    }


async def test_a_thousand_sockets_opened_and_closed_leave_nothing_behind(served: Served) -> None:
    service, clock = served.service, served.clock
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
    )
    anna = made["seats"][0]["token"]
    state = SimpleNamespace(
        service=service,
        limiter=Limiter(GENEROUS),
        sockets_open=Counter(),
        sockets_per_address=64,
    )
    app = SimpleNamespace(state=state)

    async def one(n: int) -> list[str]:
        hello = {"type": "hello", "lang": "en", "tokens": [anna] if n % 2 else []}
        ws = FakeWebSocket(app, f"10.0.{n // 250}.{n % 250}", [json.dumps(hello)])
        await socket.table_socket(ws, made["table"])  # type: ignore[arg-type]
        return ws.sent

    first = await one(0)
    assert json.loads(first[0])["type"] == "snapshot"
    await clock.advance(service.settings.absent_after + 5)  # its absence shown: all quiet
    gc.collect()
    before = _held(service, app)
    for batch in range(0, SOCKETS, 100):  # 100 open at once, then closed
        sent = await asyncio.gather(*(one(n) for n in range(batch, batch + 100)))
        assert all(json.loads(s[0])["type"] == "snapshot" for s in sent)
        await clock.advance(1)
    await clock.advance(service.settings.absent_after + 5)
    gc.collect()
    assert _held(service, app) == before
