"""What every HTTP answer goes through before the routes see a request (a plain ASGI middleware).

- **Body size.** A request body is read up to `MAX_MESSAGE` bytes whatever its transfer encoding
  (a `Content-Length` over the limit is refused before reading; a chunked body is counted as it
  comes and refused the moment it passes the limit): 413 `too_large`, and the connection is
  closed, so the rest of a huge body is never read.
- **JSON shape.** Nesting deeper than `MAX_DEPTH` or a number longer than `MAX_NUMBER`
  characters is `malformed` before any parser sees it (the same check serves the WebSocket).
- **Security headers** on every answer (`HEADERS`): a Content-Security-Policy that allows only
  the server's own scripts and styles (no inline script), nosniff, no framing, no referrer.
  A WebSocket's handshake answer carries them too: the 101 that opens it and the HTTP answer
  that refuses it (a 429 before the handshake). Only the framing ones matter to a browser
  there, but one set for every answer leaves no answer to forget.
"""

from __future__ import annotations

import json
import re
from typing import Any

from robinson.web.protocol.errors import STATUS, ErrorCode, ServiceError
from robinson.web.protocol.limits import MAX_DEPTH, MAX_MESSAGE, MAX_NUMBER

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]

# The ASGI messages that begin an answer: HTTP's, and a WebSocket's 101 or its refusal.
_STARTS = ("http.response.start", "websocket.accept", "websocket.http.response.start")

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NUMBER = re.compile(rb"[-+0-9.eE]{%d,}" % (MAX_NUMBER + 1))
_BRACKETS = re.compile(rb"[\[\]{}]")


def check_json(raw: bytes) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH or with a number over MAX_NUMBER characters,
    without parsing it (Python's parser would recurse, or convert a 5000-digit number)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH and _NUMBER.search(raw) is None:
        return  # too few brackets to nest too deep, no long number even inside strings: fine
    bare = _STRING.sub(b'""', raw)  # brackets and digits inside strings do not count
    if _NUMBER.search(bare):
        raise ServiceError("malformed", f"a number has at most {MAX_NUMBER} characters")
    depth = 0
    for bracket in _BRACKETS.findall(bare):
        depth += 1 if bracket in (b"[", b"{") else -1
        if depth > MAX_DEPTH:
            raise ServiceError("malformed", f"JSON is nested at most {MAX_DEPTH} levels deep")


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}}).encode()


class TooLarge(Exception):
    pass


class Guard:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def secure_send(message: dict[str, Any]) -> None:
            # Every answer but a 304, whose stored answer's headers the browser keeps (with
            # these among them: api/caching.py).
            if message["type"] in _STARTS and message.get("status") != 304:
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if scope["type"] == "websocket":  # messages are the socket's business (api/socket.py)
            await self.app(scope, receive, secure_send)
            return

        async def refuse(code: ErrorCode, message: str) -> None:
            body = error_body(code, message)
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),  # the rest of the body is not read
            ]
            await secure_send(
                {"type": "http.response.start", "status": STATUS[code], "headers": headers}
            )
            await send({"type": "http.response.body", "body": body})

        headers = dict(scope.get("headers", []))
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE):
            await refuse("too_large", f"a request body is at most {MAX_MESSAGE} bytes")
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, secure_send)
            return
        try:
            body = await _read_body(receive)
            if body:
                check_json(body)
        except TooLarge:
            await refuse("too_large", f"a request body is at most {MAX_MESSAGE} bytes")
            return
        except ServiceError as e:
            await refuse(e.code, e.message)
            return
        await self.app(scope, _replay(body, receive), secure_send)


async def _read_body(receive: Any) -> bytes:
    """The whole body, or TooLarge as soon as it passes the limit (the rest is never read)."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise TooLarge
        parts.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(parts)


def _replay(body: bytes, receive: Any) -> Any:
    """A receive() that gives the app the body already read, then waits as the server's would."""
    sent = False

    async def replayed() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return dict(await receive())

    return replayed
