"""Web Push (docs/notifications.md): the server's public key, and a seat's subscriptions, made and
removed with the seat's own token (counted as actions, like the other seat changes)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from robinson.web.api import ERRORS, Service
from robinson.web.api.tables import ACTING
from robinson.web.notify.push import PushChannel
from robinson.web.protocol.client import PushIn, PushOutIn
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.server import Ok, PushKey
from robinson.web.service import GameService
from robinson.web.service.live import token_hash

router = APIRouter(tags=["push"], responses=ERRORS)


def _pusher(request: Request) -> PushChannel:
    pusher: PushChannel = request.app.state.push
    return pusher


async def _own_seat(service: GameService, table_id: str, seat: int, token: str) -> str:
    """The seat's own token (else `bad_token`): its hash, which the subscription is bound to."""
    table = await service.table(table_id)
    if service.authenticate(table, token) != seat:
        raise ServiceError("bad_token", "only the seat's own link subscribes it to notifications")
    return token_hash(token)


@router.get("/api/push/key", response_model=PushKey)
async def key(request: Request) -> dict[str, str]:
    """The server's VAPID public key, for `pushManager.subscribe({applicationServerKey})`."""
    return {"key": _pusher(request).key}


@router.post("/api/tables/{table_id}/seats/{seat}/push", response_model=Ok, dependencies=[ACTING])
async def subscribe(
    table_id: str, seat: int, body: PushIn, request: Request, service: Service
) -> dict[str, Any]:
    """This browser is told when it is the seat's turn (and the rest, docs/notifications.md)
    in `language` while no page of it is at the table. `bad_subscription` for a subscription
    that is not one, or whose endpoint is not at a known push service."""
    pusher = _pusher(request)
    row = pusher.check(table_id, seat, body.subscription, body.language)
    digest = await _own_seat(service, table_id, seat, body.token)
    await pusher.subscribe(row, digest, service.clock.now_ms())
    return {"ok": True}


@router.delete("/api/tables/{table_id}/seats/{seat}/push", response_model=Ok, dependencies=[ACTING])
async def unsubscribe(
    table_id: str, seat: int, body: PushOutIn, request: Request, service: Service
) -> dict[str, Any]:
    """This browser is told nothing more of the seat (none kept: the same answer)."""
    await _own_seat(service, table_id, seat, body.token)
    await _pusher(request).unsubscribe(table_id, seat, body.endpoint)
    return {"ok": True}
