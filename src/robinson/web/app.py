"""The FastAPI application: the routes of web/api/, the error answers, and the static page."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from robinson.web import collector
from robinson.web.api import caching, games, mail, meta, odds, pages, push, seats, socket, tables
from robinson.web.api.guard import HEADERS, Guard
from robinson.web.api.ratelimit import Limiter
from robinson.web.cluster import connect as connect_cluster
from robinson.web.notify import vapid
from robinson.web.notify.push import PUSH_SERVICES, PushChannel
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import GameService
from robinson.web.service.clock import FAIR_DICE, SYSTEM_CLOCK, Clock, Dice
from robinson.web.service.odds import OddsService
from robinson.web.settings import Settings
from robinson.web.store import Store, default_url, seeds
from robinson.web.store.errors import StorageDown

log = logging.getLogger("robinson.web")


def create_app(settings: Settings, clock: Clock = SYSTEM_CLOCK, dice: Dice = FAIR_DICE) -> FastAPI:
    """The server of `settings` (web/settings.py): its store, its cluster (alone, or shared
    through Redis), the game and odds services, the limits, the routes and the page. A test
    may hand it a clock and dice of its own (tests/web/fakes.py)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url or default_url())
        sqlite = store.engine.url.database if store.engine.dialect.name == "sqlite" else None
        key = seeds.load_key(seeds.key_path(sqlite, settings.seed_key))
        store.seeds = seeds.SeedBox(key)  # a copy of the database predicts no roll
        cluster = await connect_cluster(settings.redis_url)
        pusher = PushChannel(
            store,
            vapid.load_key(vapid.key_path(sqlite, settings.vapid_key)),
            settings.vapid_subject,
            settings.push_services or PUSH_SERVICES,
        )
        app.state.push = pusher
        # The notice channels, for the notifier (service/notices.py): Web Push always, e-mail
        # when the server is given SMTP settings.
        app.state.mail, app.state.channels = None, [pusher]
        if settings.mail is not None:
            from robinson.web.notify.mail import MailChannel

            app.state.mail = MailChannel(settings.mail, store, clock, store.seeds.key)
            app.state.channels.append(app.state.mail)
        service = GameService(store, settings, cluster, clock, dice, channels=app.state.channels)
        app.state.service = service
        app.state.odds = OddsService(lane=service.lane)
        app.state.cluster = cluster
        await service.start()
        if app.state.mail is not None:
            app.state.mail.start()
        pacing = asyncio.create_task(collector.pace())  # the garbage collector, off the tail
        try:
            yield
        finally:
            pacing.cancel()
            if app.state.mail is not None:
                await app.state.mail.close()
            await service.stop()
            await pusher.close()
            app.state.odds.close()
            await cluster.close()
            store.close()

    app = FastAPI(
        title="Robinson",
        summary="Online tables for the Robinson Crusoe dice race game (see docs/protocol.md).",
        version="1",
        lifespan=lifespan,
        # The interactive pages load scripts from elsewhere and run inline ones, which the
        # Content-Security-Policy forbids; /openapi.json is the schema for any OpenAPI viewer.
        docs_url=None,
        redoc_url=None,
    )
    app.state.limiter = Limiter(settings.rates, settings.redis_url)
    app.state.mail = None  # the e-mail channel (web/notify/mail.py), made at start if configured
    app.state.channels = []  # every notice channel (service/notices.py `Channel`), the same
    sockets_open: Counter[str | None] = Counter()
    app.state.sockets_open = sockets_open  # open table sockets per client address
    app.state.sockets_per_address = settings.sockets_per_address
    uvicorn_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, socket.QuietDenials) for f in uvicorn_log.filters):
        uvicorn_log.addFilter(socket.QuietDenials())
    app.add_exception_handler(ServiceError, service_error)  # type: ignore[arg-type]
    app.add_exception_handler(StorageDown, storage_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, internal_error)
    app.add_middleware(Guard)
    for module in (meta, tables, seats, push, mail, games, odds, socket, pages):
        app.include_router(module.router)
    caching.install(app)  # gzip and ETags for the page, its files and its texts
    app.mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static")
    return app


def _error(code: str, message: str, status: int, **headers: str) -> JSONResponse:
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers or None)


async def service_error(_: Request, e: ServiceError) -> JSONResponse:
    return _error(e.code, e.message, e.status, **e.headers)


async def storage_error(_: Request, e: StorageDown) -> JSONResponse:
    log.warning("database error: %s", e)
    return _error("storage_unavailable", "the database is not answering; try again", 503)


async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return _error("malformed", f"{where}: {first['msg']}", 400)


# Starlette's and FastAPI's own refusals, in the protocol's envelope.
HTTP_CODES = {400: "malformed", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


# Paths of the API and the files, which answer a 404 in the envelope; any other unknown address
# is a page a person opened: the page itself with status 404, which says so in their language.
NOT_PAGES = ("/api/", "/ws/", "/static/", "/openapi.json")


async def http_error(request: Request, e: HTTPException) -> Response:
    page = request.method in ("GET", "HEAD") and not request.url.path.startswith(NOT_PAGES)
    if e.status_code == 404 and page:
        return FileResponse(str(pages.STATIC / "index.html"), 404, media_type="text/html")
    code = HTTP_CODES.get(e.status_code, "bad_request")
    message = {
        "not_found": f"there is nothing at {request.url.path}",
        "method_not_allowed": f"{request.method} is not allowed on {request.url.path}",
    }.get(code, str(e.detail))
    return _error(code, message, e.status_code, **(e.headers or {}))


async def internal_error(_: Request, e: Exception) -> JSONResponse:
    log.error("unexpected error", exc_info=e)
    # Starlette answers this one outside the middleware, so the guard's headers are added here.
    secure = {name.decode(): value.decode() for name, value in HEADERS}
    return _error("internal", "the server failed; this is a bug of ours", 500, **secure)
