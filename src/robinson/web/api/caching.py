"""The page's weight: compressed and revalidated static files, pages and texts.

A first visit downloads the page gzip-compressed; a repeat visit asks "has it changed?" for each
file (If-None-Match) and gets 304 Not Modified with no body. Every cacheable GET answer carries
an ETag made from its body (weak, since gzip may re-encode it) and `Cache-Control: no-cache`
(keep it, but check before using it), so a new release is picked up at once: no hashed file
names, no build step."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# GET answers that depend only on the address (and the code's version): safe to revalidate.
CACHEABLE_PREFIXES = ("/static/", "/api/i18n/")
CACHEABLE_PAGES = ("/", "/rules", "/api/meta")
PAGE_PREFIXES = ("/t/", "/replay/")
# the ETag made here replaces the file's own validators (one way to revalidate, not two)
DROPPED = (b"etag", b"cache-control", b"last-modified")
MAX_BUFFER = 2_000_000  # bytes: anything bigger streams through unchanged
REVALIDATION = (b"etag", b"cache-control", b"vary")  # what a 304 carries


def cacheable(path: str) -> bool:
    return (
        path in CACHEABLE_PAGES
        or path.startswith(CACHEABLE_PREFIXES)
        or (path.startswith(PAGE_PREFIXES) and path.count("/") == 2)
    )


class Revalidate:
    """ETag + If-None-Match for cacheable GET answers (a pure ASGI middleware: it buffers only
    those answers, never a WebSocket or an API call that changes with the game)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        if not cacheable(scope["path"]):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            if message["type"] == "http.response.body" and not message.get("more_body"):
                await self._answer(scope, start, b"".join(chunks), send)

        await self.app(scope, receive, capture)

    @staticmethod
    async def _answer(scope: Scope, start: Message | None, body: bytes, send: Send) -> None:
        assert start is not None
        headers = [(k, v) for k, v in start["headers"] if k.lower() not in DROPPED]
        if start["status"] != 200 or len(body) > MAX_BUFFER:
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        etag = f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'.encode()
        headers += [(b"etag", etag), (b"cache-control", b"no-cache")]
        asked = dict(scope["headers"]).get(b"if-none-match", b"")
        if etag in [tag.strip() for tag in asked.split(b",")]:
            # What revalidation needs, nothing else: the browser keeps the stored answer's
            # headers (RFC 9111 4.3.4), its security headers among them (api/guard.py adds
            # none to a 304). A repeat visit is some twenty of these: 350 bytes less each.
            kept = [(k, v) for k, v in headers if k.lower() in REVALIDATION]
            await send({"type": "http.response.start", "status": 304, "headers": kept})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def install(app: FastAPI) -> None:
    """Compression (outermost, so the ETag is of the plain body), then revalidation."""
    app.add_middleware(Revalidate)
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=9)
