"""The chances of a game's positions (docs/protocol.md, "Chances"): after any version, and over
the whole game. 202 with `{"status": "computing"}` while the chances of its rules are being
solved for the first time on this server (seconds, in a worker process)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from robinson.web.api import ERRORS, Service, client, rate
from robinson.web.protocol.server import Computing as ComputingAnswer
from robinson.web.protocol.server import Odds, OddsHistory
from robinson.web.service.odds import Computing, OddsService


def _odds_service(request: Request) -> OddsService:
    odds: OddsService = request.app.state.odds
    return odds


OddsDep = Annotated[OddsService, Depends(_odds_service)]
COMPUTING: dict[int | str, dict[str, Any]] = {
    202: {"model": ComputingAnswer, "description": "the chances are being solved: ask again"}
}
router = APIRouter(prefix="/api/games", tags=["odds"], responses={**ERRORS, **COMPUTING})


@router.get(
    "/{game_id}/odds",
    response_model=Odds,
    response_model_exclude_none=True,
    dependencies=[rate("reads")],
)
async def odds(
    game_id: str,
    service: Service,
    chances: OddsDep,
    request: Request,
    version: int | None = None,
    policy: str = "eager",
) -> Any:
    """Every seat's chances after `version` actions (the current position without it)."""
    record, now = await service.position(game_id)
    try:
        return await chances.odds(game_id, record, version, policy, client(request), now)
    except Computing:
        return JSONResponse({"status": "computing", "version": version}, status_code=202)


@router.get(
    "/{game_id}/odds/history",
    response_class=Response,
    responses={200: {"model": OddsHistory, "description": "the chart of the game so far"}},
    dependencies=[rate("reads")],
)
async def history(
    game_id: str, service: Service, chances: OddsDep, request: Request, policy: str = "eager"
) -> Any:
    """Every seat's chances at the start of every turn, and the turns that swung them most."""
    record = await service.record(game_id)
    try:
        text = await chances.history(game_id, record, policy, client(request))
        return Response(text, media_type="application/json")
    except Computing:
        return JSONResponse({"status": "computing"}, status_code=202)
