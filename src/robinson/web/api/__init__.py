"""The server's routes, one module per resource; `robinson.web.app.create_app` includes them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request

from robinson.engine import RobinsonError
from robinson.web.api.ratelimit import Limiter
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.server import Error
from robinson.web.service import GameService, texts


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(_service)]


def client(request: Request) -> str | None:
    """The client's address (ratelimit.py says where it comes from)."""
    return request.client.host if request.client else None


def rate(kind: str) -> Any:
    """A dependency counting one `kind` (ratelimit.KINDS) for the client's address."""

    async def hit(request: Request) -> None:
        limiter: Limiter = request.app.state.limiter
        await limiter.hit(kind, client(request))

    return Depends(hit)


# The error answers every API route may give, for the OpenAPI schema (docs/protocol.md, Errors).
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": Error, "description": meaning}
    for status, meaning in [
        (400, "malformed or bad_request"),
        (403, "bad_token"),
        (404, "unknown_game"),
        (
            409,
            "game_over, not_your_turn, seat_is_bot, stale_version, not_over, seat_present or "
            "seat_taken",
        ),
        (413, "too_large"),
        (429, "rate_limited (with Retry-After)"),
        (503, "storage_unavailable or busy (with Retry-After)"),
    ]
}


def language(lang: str) -> str:
    try:
        return texts.check_language(lang)
    except RobinsonError as e:
        raise ServiceError("bad_request", str(e)) from None
