"""The FastAPI application: REST endpoints, the table WebSocket, and the static page."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError

from robinson.bots import BOT_NAMES
from robinson.engine import EDITIONS, Ruleset
from robinson.web import seat_routes, texts
from robinson.web.errors import ServiceError
from robinson.web.protocol import (
    MAX_MESSAGE,
    Act,
    ActIn,
    BotIn,
    HandToBot,
    Hello,
    Lang,
    Ping,
    Rematch,
    TableIn,
    TakeBack,
    TokenIn,
    client_message,
    explain,
)
from robinson.web.service import GameService, SeatSpec
from robinson.web.store import Store

STATIC = resources.files("robinson.web") / "static"

log = logging.getLogger("robinson.web")


def create_app(database_url: str, bot_delay: float = 0.8, absent_after: float = 60.0) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        service = GameService(store, bot_delay, absent_after)
        app.state.service = service
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            store.close()

    app = FastAPI(
        title="Robinson",
        summary="Online tables for the Robinson Crusoe dice race game (see docs/protocol.md).",
        version="1",
        lifespan=lifespan,
    )

    def svc(request: Request) -> GameService:
        service: GameService = request.app.state.service
        return service

    @app.exception_handler(ServiceError)
    async def service_error(_: Request, e: ServiceError) -> JSONResponse:
        return JSONResponse({"error": e.to_json()}, status_code=e.status)

    @app.exception_handler(DBAPIError)
    async def storage_error(_: Request, e: DBAPIError) -> JSONResponse:
        log.warning("database error: %s", e.orig)
        error = ServiceError("storage_unavailable", "the database is not answering; try again")
        return JSONResponse({"error": error.to_json()}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        error = {"code": "malformed", "message": f"{where}: {first['msg']}"}
        return JSONResponse({"error": error}, status_code=400)

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE):
            error = {
                "code": "too_large",
                "message": f"a request body is at most {MAX_MESSAGE} bytes",
            }
            return JSONResponse({"error": error}, status_code=413)
        response: Response = await call_next(request)
        return response

    # -- REST ----------------------------------------------------------------------------------

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        """What a table can be made of: editions, bots and languages."""
        return {
            "editions": [
                {"name": e.name, "fever": e.fever.value, "choices": e.choices.value}
                for e in EDITIONS.values()
            ],
            "bots": list(BOT_NAMES),
            "languages": list(texts.LANGUAGES),
        }

    @app.post("/api/tables", status_code=201)
    async def create_table(body: TableIn, request: Request) -> dict[str, Any]:
        """Create a table and its first game. Each human seat's token is returned once."""
        ruleset = {k: getattr(body, k) for k in ("edition", "start_tokens", "stake", "share")}
        seats = [SeatSpec(s.name, s.kind, s.bot) for s in body.seats]
        return await svc(request).create_table(
            seats, ruleset, body.first, body.language, body.move_seconds
        )

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request, lang: str = "en") -> dict[str, Any]:
        table = await svc(request).table(table_id)
        return {"table": table.id, "language": table.language, "game": table.game_view(_lang(lang))}

    @app.post("/api/tables/{table_id}/whoami")
    async def whoami(table_id: str, body: TokenIn, request: Request) -> dict[str, int]:
        """The seat a token holds (a browser keeps tokens, and needs to know whose is whose)."""
        service = svc(request)
        return {"seat": service.authenticate(await service.table(table_id), body.token)}

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: ActIn, request: Request) -> dict[str, Any]:
        """Play a move; the answer comes after it is stored and broadcast."""
        version = await svc(request).act(game_id, body.token, body.version, body.move)
        return {"version": version}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def hand_to_bot(
        table_id: str, seat: int, body: BotIn, request: Request
    ) -> dict[str, Any]:
        """The owner hands his seat to a bot; anyone seated, a seat absent or out of time."""
        await svc(request).hand_to_bot(table_id, body.token, seat, body.bot)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/seats/{seat}/human")
    async def take_back(
        table_id: str, seat: int, body: TokenIn, request: Request
    ) -> dict[str, Any]:
        await svc(request).take_back(table_id, body.token, seat)
        return {"ok": True}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: TokenIn, request: Request) -> dict[str, Any]:
        return {"game": await svc(request).rematch(table_id, body.token)}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        """The game in the engine's record format; meta.dice.seed appears once it is over."""
        rec = await svc(request).record(game_id)
        return Response(
            rec.dumps(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="robinson-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request, lang: str = "en") -> dict[str, Any]:
        return await svc(request).replay(game_id, _lang(lang))

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str, request: Request, game: str | None = None) -> dict[str, Any]:
        """UI strings and square texts; with `game`, the effect lines follow its ruleset."""
        lang = _lang(lang)
        ruleset = Ruleset()
        if game is not None:
            ruleset = (await svc(request).record(game)).ruleset
        return {
            "lang": lang,
            "ui": texts.ui_strings(lang),
            "plurals": texts.ui_plurals(lang),
            "plural_index": texts.plural_index(lang),
            "options": texts.option_labels(lang),
            "squares": texts.squares(lang, ruleset),
            "rules": texts.rules_summary(lang, ruleset),
        }

    # -- WebSocket -----------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        service: GameService = websocket.app.state.service
        await websocket.accept()
        try:
            table = await service.table(table_id)
        except ServiceError as e:
            await websocket.send_json({"type": "error", **e.to_json(), "id": None})
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
                    reply = await _handle(service, table, conn, msg)
                    if reply is not None:
                        conn.send({**reply, "id": msg_id})
                except ServiceError as e:
                    conn.send({"type": "error", **e.to_json(), "id": msg_id})
        finally:
            service.unsubscribe(table, conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    @app.get("/replay/{game_id}", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.include_router(seat_routes.router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def _lang(lang: str) -> str:
    try:
        return texts.check_language(lang)
    except ValueError as e:
        raise ServiceError("bad_request", str(e)) from None


class Connection:
    """One WebSocket following a table. Messages go through a queue so that a slow client
    never holds up a move being broadcast to the others."""

    QUEUE = 512

    def __init__(self, websocket: WebSocket, lang: str) -> None:
        self.websocket = websocket
        self.lang = lang
        self.seats: set[int] = set()
        self.subscribed = False
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(self.QUEUE)

    def send(self, message: dict[str, Any]) -> None:
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:  # hopelessly behind: drop it; it reconnects and resyncs
            self._queue = asyncio.Queue(self.QUEUE)
            self._queue.put_nowait(None)

    async def pump(self) -> None:
        try:
            while True:
                message = await self._queue.get()
                if message is None:
                    await self.websocket.close(code=4408)
                    return
                await self.websocket.send_text(json.dumps(message, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError):
            return  # the client left while a message was on its way: nothing more to send


def _parse(text: str | None, data: bytes | None) -> Any:
    raw = text if text is not None else data
    if raw is None or len(raw) > MAX_MESSAGE:
        size = len(raw) if raw is not None else 0
        raise ServiceError("too_large", f"a message is at most {MAX_MESSAGE} bytes, got {size}")
    try:
        return client_message.validate_python(json.loads(raw))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ServiceError("malformed", f"a message is one JSON object: {e}") from None
    except ValidationError as e:
        raise ServiceError("malformed", explain(e)) from None


async def _handle(
    service: GameService, table: Any, conn: Connection, msg: Any
) -> dict[str, Any] | None:
    if isinstance(msg, Hello | Lang):
        conn.lang = _lang(msg.lang)
        if isinstance(msg, Hello):
            held = {table.seat_of(t) for t in msg.tokens}
            service.hold(table, conn, {s for s in held if s is not None})
            if None in held:
                conn.send(
                    {
                        "type": "error",
                        "code": "bad_token",
                        "id": None,
                        "message": "a token is not a seat at this table; watching without it",
                    }
                )
        if not conn.subscribed:
            conn.subscribed = True
            service.subscribe(table, conn)
        else:
            conn.send(table.snapshot(conn))
        return None
    if isinstance(msg, Act):
        version = await service.act(msg.game, msg.token, msg.version, msg.move)
        return {"type": "ack", "version": version}
    if isinstance(msg, HandToBot):
        await service.hand_to_bot(table.id, msg.token, msg.seat, msg.bot)
        return {"type": "ack"}
    if isinstance(msg, TakeBack):
        await service.take_back(table.id, msg.token, msg.seat)
        return {"type": "ack"}
    if isinstance(msg, Rematch):
        return {"type": "ack", "game": await service.rematch(table.id, msg.token)}
    assert isinstance(msg, Ping)
    return {"type": "pong"}
