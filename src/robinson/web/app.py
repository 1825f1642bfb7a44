"""The FastAPI application: the routes of web/routes/, the error answers, and the static page."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException

from robinson.web import static_files
from robinson.web.cluster import connect as connect_cluster
from robinson.web.errors import ServiceError
from robinson.web.guard import HEADERS, Guard
from robinson.web.odds import OddsService
from robinson.web.ratelimit import Limiter, Rates
from robinson.web.routes import games, meta, odds, pages, seats, socket, tables
from robinson.web.service import UNLOAD_AFTER, GameService
from robinson.web.store import Store

log = logging.getLogger("robinson.web")


def create_app(
    database_url: str,
    bot_delay: float = 0.8,
    redis_url: str | None = None,
    absent_after: float = 60.0,
    rates: Rates | None = None,
    expire_days: float = 30,
    unload_after: float = UNLOAD_AFTER,
) -> FastAPI:
    """`redis_url`: share the tables with other processes through that Redis (web/cluster.py);
    `absent_after`: seconds without a connection after which others may hand a seat to a bot;
    `rates`: the per-address limits; `expire_days`: close tables with no move for that long;
    `unload_after`: seconds a table nobody uses stays in memory (0: until the server stops)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        cluster = await connect_cluster(redis_url)
        service = GameService(
            store,
            bot_delay,
            cluster,
            absent_after=absent_after,
            expire_days=expire_days,
            unload_after=unload_after,
        )
        app.state.service = service
        app.state.odds = OddsService()
        app.state.cluster = cluster
        await service.start()
        try:
            yield
        finally:
            await service.stop()
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
    app.state.limiter = Limiter(rates or Rates(), redis_url)
    app.add_exception_handler(ServiceError, service_error)  # type: ignore[arg-type]
    app.add_exception_handler(DBAPIError, storage_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, internal_error)
    app.add_middleware(Guard)
    for module in (meta, tables, seats, games, odds, socket, pages):
        app.include_router(module.router)
    static_files.install(app)  # gzip and ETags for the page, its files and its texts
    app.mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static")
    return app


def _error(code: str, message: str, status: int, **headers: str) -> JSONResponse:
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers or None)


async def service_error(_: Request, e: ServiceError) -> JSONResponse:
    return _error(e.code, e.message, e.status, **e.headers)


async def storage_error(_: Request, e: DBAPIError) -> JSONResponse:
    log.warning("database error: %s", e.orig)
    return _error("storage_unavailable", "the database is not answering; try again", 503)


async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return _error("malformed", f"{where}: {first['msg']}", 400)


# Starlette's and FastAPI's own refusals, in the protocol's envelope.
HTTP_CODES = {400: "malformed", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


async def http_error(request: Request, e: HTTPException) -> JSONResponse:
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
