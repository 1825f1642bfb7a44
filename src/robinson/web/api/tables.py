"""Tables: create one, look at it, find one's seat, hand seats to bots and back, rematch."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from robinson.web.api import ERRORS, Service, language, rate
from robinson.web.protocol.client import BotIn, HostIn, TableIn, TokenIn, VacationIn
from robinson.web.protocol.server import NewGame, Ok, Seat, TableCreated, TableView, Vacation
from robinson.web.service import SeatSpec, views

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=ERRORS)
ACTING = rate("actions")


@router.post("", status_code=201, response_model=TableCreated, dependencies=[rate("tables")])
async def create_table(body: TableIn, service: Service) -> dict[str, Any]:
    """Create a table and its first game. Each human seat's token is returned once."""
    ruleset = {k: getattr(body, k) for k in ("edition", "start_tokens", "stake", "share")}
    seats = [SeatSpec(s.name, s.kind, s.bot) for s in body.seats]
    return await service.create_table(
        seats,
        ruleset,
        body.first,
        body.language,
        body.move_seconds,
        body.wait_for,
        body.vacation_days,
    )


@router.get("/{table_id}", response_model=TableView, dependencies=[rate("reads")])
async def get_table(table_id: str, service: Service, lang: str = "en") -> dict[str, Any]:
    """The table and its current game, in the viewer's language."""
    table = await service.table(table_id)
    return {
        "table": table.id,
        "language": table.language,
        "game": views.game_view(table, language(lang)),
    }


@router.post("/{table_id}/whoami", response_model=Seat, dependencies=[ACTING])
async def whoami(table_id: str, body: TokenIn, service: Service) -> dict[str, int]:
    """The seat a token holds (a browser keeps tokens, and needs to know whose is whose)."""
    return {"seat": service.authenticate(await service.table(table_id), body.token)}


@router.post("/{table_id}/seats/{seat}/bot", response_model=Ok, dependencies=[ACTING])
async def hand_to_bot(table_id: str, seat: int, body: BotIn, service: Service) -> dict[str, Any]:
    """The owner hands his own seat to a bot; anyone else seated only a seat absent or out of
    time (else `seat_present`)."""
    await service.hand_to_bot(table_id, body.token, seat, body.bot)
    return {"ok": True}


@router.post("/{table_id}/seats/{seat}/human", response_model=Ok, dependencies=[ACTING])
async def take_back(table_id: str, seat: int, body: TokenIn, service: Service) -> dict[str, Any]:
    """The seat's own token takes it back from the bot."""
    await service.take_back(table_id, body.token, seat)
    return {"ok": True}


@router.post("/{table_id}/seats/{seat}/vacation", response_model=Vacation, dependencies=[ACTING])
async def take_vacation(
    table_id: str, seat: int, body: VacationIn, service: Service
) -> dict[str, Any]:
    """The seat's owner pauses its clock for whole days (a table's `vacation_days` a game)."""
    until = await service.take_vacation(table_id, body.token, seat, body.days)
    return {"ok": True, "until": views.utc(until)}


@router.post("/{table_id}/start", response_model=Ok, dependencies=[ACTING])
async def start(table_id: str, body: HostIn, service: Service) -> dict[str, Any]:
    """The host starts a waiting table's game without the invited seats still awaited."""
    await service.start_game(table_id, body.host)
    return {"ok": True}


@router.post("/{table_id}/rematch", response_model=NewGame, dependencies=[ACTING])
async def rematch(table_id: str, body: TokenIn, service: Service) -> dict[str, Any]:
    """A new game with the same seats, once the current one is over."""
    return {"game": await service.rematch(table_id, body.token)}
