"""REST endpoints of seats (docs/protocol.md "Seats"): claiming an invite, the host's invites,
a new invite for an absent seat, and a seat's own link for another device."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from robinson.web.protocol import ClaimIn, DeviceIn, HostIn
from robinson.web.seats import check_origin
from robinson.web.service import GameService

router = APIRouter()


def _svc(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _origin(request: Request, given: str | None) -> str:
    """Absolute links for QR codes: the page's own origin, else the address it asked."""
    return check_origin(given) or str(request.base_url).rstrip("/")


@router.post("/api/tables/{table_id}/claim")
async def claim(table_id: str, body: ClaimIn, request: Request) -> dict[str, Any]:
    """Open an invite: `{seat, token, link}` to this browser alone; the invite is spent."""
    return await _svc(request).claim(table_id, body.invite)


@router.post("/api/tables/{table_id}/invites")
async def invites(table_id: str, body: HostIn, request: Request) -> dict[str, Any]:
    """The host's invite panel: each human seat, its link and QR code while unclaimed."""
    return await _svc(request).invites(table_id, body.host, _origin(request, body.origin))


@router.post("/api/tables/{table_id}/seats/{seat}/invite")
async def reinvite(table_id: str, seat: int, body: HostIn, request: Request) -> dict[str, Any]:
    """The host invites someone new to an absent seat; the old secret stops working."""
    origin = _origin(request, body.origin)
    return await _svc(request).reinvite(table_id, body.host, seat, origin)


@router.post("/api/tables/{table_id}/seats/{seat}/device")
async def device(table_id: str, seat: int, body: DeviceIn, request: Request) -> dict[str, Any]:
    """A seat's own link and QR code, to continue on another device."""
    origin = _origin(request, body.origin)
    return await _svc(request).device_link(table_id, body.token, seat, origin)
