"""Seats (docs/protocol.md "Seats"): claiming an invite, the host's invites, a new invite for an
absent seat, and a seat's own link for another device."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from robinson.web.api import ERRORS, Service, client, rate
from robinson.web.protocol.client import ClaimIn, DeviceIn, HostIn
from robinson.web.protocol.server import Claimed, Invites, Offer, SeatLink
from robinson.web.service.invites import check_origin

router = APIRouter(prefix="/api/tables", tags=["seats"], responses=ERRORS)
# Counted with the moves: each is a small write (or a look at an invite), and one client's
# flood of them must cost the other players no more than a flood of moves would.
SEATING = rate("actions")


def _origin(request: Request, given: str | None) -> str:
    """Absolute links for QR codes: the page's own origin, else the address it asked."""
    return check_origin(given) or str(request.base_url).rstrip("/")


@router.post("/{table_id}/offer", response_model=Offer, dependencies=[SEATING])
async def offer(table_id: str, body: ClaimIn, service: Service) -> dict[str, Any]:
    """What an invite offers (the seat and its name), spending nothing: the invite page shows
    it with a "Take this seat" button."""
    return await service.offer(table_id, body.invite)


@router.post("/{table_id}/claim", response_model=Claimed, dependencies=[SEATING])
async def claim(table_id: str, body: ClaimIn, service: Service) -> dict[str, Any]:
    """Take an invite's seat (the click): the seat's new secret, to this browser alone; the
    invite is spent (`seat_taken` for anyone who tries it again)."""
    return await service.claim(table_id, body.invite)


@router.post("/{table_id}/invites", response_model=Invites, dependencies=[SEATING])
async def invites(
    table_id: str, body: HostIn, request: Request, service: Service
) -> dict[str, Any]:
    """The host's Invite panel: each human seat, its link and QR code while unclaimed."""
    return await service.invites(
        table_id, body.host, _origin(request, body.origin), client(request)
    )


@router.post("/{table_id}/seats/{seat}/invite", response_model=SeatLink, dependencies=[SEATING])
async def reinvite(
    table_id: str, seat: int, body: HostIn, request: Request, service: Service
) -> dict[str, Any]:
    """The host invites someone new to an absent seat; the old secret stops working."""
    return await service.reinvite(
        table_id, body.host, seat, _origin(request, body.origin), client(request)
    )


@router.post("/{table_id}/seats/{seat}/device", response_model=SeatLink, dependencies=[SEATING])
async def device(
    table_id: str, seat: int, body: DeviceIn, request: Request, service: Service
) -> dict[str, Any]:
    """A one-time link and its QR code, to continue on another device (taken, the seat's
    secret there is a new one and this browser's stops working)."""
    return await service.device_link(
        table_id, body.token, seat, _origin(request, body.origin), client(request)
    )


@router.post("/{table_id}/seats/{seat}/revoke", response_model=Claimed, dependencies=[SEATING])
async def revoke(table_id: str, seat: int, body: DeviceIn, service: Service) -> dict[str, Any]:
    """The seat's owner ends his other devices: a new secret for this browser; the old one
    answers `bad_token` from now on."""
    return await service.revoke(table_id, body.token, seat)
