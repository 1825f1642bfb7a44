"""The FastAPI application: the routes of web/routes/, the error answers, and the static page."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError

from robinson.web import static_files
from robinson.web.cluster import connect as connect_cluster
from robinson.web.errors import ServiceError
from robinson.web.limits import MAX_MESSAGE
from robinson.web.odds import OddsService
from robinson.web.routes import games, meta, odds, pages, seats, socket, tables
from robinson.web.service import GameService
from robinson.web.store import Store

log = logging.getLogger("robinson.web")


def create_app(
    database_url: str,
    bot_delay: float = 0.8,
    redis_url: str | None = None,
    absent_after: float = 60.0,
) -> FastAPI:
    """`redis_url`: share the tables with other processes through that Redis (web/cluster.py)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        cluster = await connect_cluster(redis_url)
        service = GameService(store, bot_delay, cluster, absent_after)
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
    )
    app.add_exception_handler(ServiceError, service_error)  # type: ignore[arg-type]
    app.add_exception_handler(DBAPIError, storage_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.middleware("http")(limit_body)
    for module in (meta, tables, seats, games, odds, socket, pages):
        app.include_router(module.router)
    static_files.install(app)  # gzip and ETags for the page, its files and its texts
    app.mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static")
    return app


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def service_error(_: Request, e: ServiceError) -> JSONResponse:
    return _error(e.code, e.message, e.status)


async def storage_error(_: Request, e: DBAPIError) -> JSONResponse:
    log.warning("database error: %s", e.orig)
    return _error("storage_unavailable", "the database is not answering; try again", 503)


async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return _error("malformed", f"{where}: {first['msg']}", 400)


async def limit_body(request: Request, call_next: Any) -> Response:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE):
        return _error("too_large", f"a request body is at most {MAX_MESSAGE} bytes", 413)
    response: Response = await call_next(request)
    return response
