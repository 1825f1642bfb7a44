"""The chances of a game's positions (docs/protocol.md, "Chances"): after any version, and over
the whole game. 202 with `{"status": "computing"}` while the chances of its rules are being
solved for the first time on this server (seconds, in a worker process)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from robinson.web.odds import Computing, OddsService
from robinson.web.service import GameService

router = APIRouter(prefix="/api/games", tags=["odds"])


class Odds(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(description="the position after this many actions")
    p_win: list[float] = Field(description="each seat's chance of winning; 0 for the dead")
    p_no_winner: float = Field(description="the chance that everybody dies")
    method: str = Field(description="exact (up to 4 living players) or simulation")
    policy: str = Field(description="how the decisions are taken: eager or optimal")
    options: dict[str, float] | None = Field(
        None, description="at a pending decision: the chooser's chance after each option"
    )
    ci95: list[list[float]] | None = Field(None, description="simulation: 95% interval per seat")
    games: int | None = Field(None, description="simulation: games played from the position")
    policy_played: str | None = Field(None, description="simulation: the policy played")
    seed: int | None = Field(None, description="simulation: the dice seed")


class Point(BaseModel):
    turn: int
    version: int = Field(description="actions played before this turn: where to jump")
    seat: int | None = Field(description="who moves in this turn; null once the game is over")
    square: int | None
    roll: int | None = Field(description="his first roll in this turn")
    p_win: list[float]


class Swing(BaseModel):
    turn: int
    version: int
    seat: int
    roll: int
    square: int = Field(description="where he rolled from")
    delta: float = Field(description="the change of his own chance over the turn")


class History(BaseModel):
    version: int
    policy: str
    points: list[Point]
    swings: list[Swing] = Field(description="the turns that swung their mover's chance most")


class Computing202(BaseModel):
    status: str = "computing"
    version: int | None = None


def _services(request: Request) -> tuple[GameService, OddsService]:
    return request.app.state.service, request.app.state.odds


_COMPUTING: dict[int | str, dict[str, Any]] = {
    202: {"model": Computing202, "description": "the chances are being solved; ask again"}
}


@router.get(
    "/{game_id}/odds", response_model=Odds, response_model_exclude_none=True, responses=_COMPUTING
)
async def odds(
    game_id: str, request: Request, version: int | None = None, policy: str = "eager"
) -> Any:
    """Every seat's chances after `version` actions (the current position without it)."""
    service, odds_service = _services(request)
    record = await service.record(game_id)
    try:
        return await odds_service.odds(game_id, record, version, policy)
    except Computing:
        return JSONResponse({"status": "computing", "version": version}, status_code=202)


@router.get("/{game_id}/odds/history", response_model=History, responses=_COMPUTING)
async def history(game_id: str, request: Request, policy: str = "eager") -> Any:
    """Every seat's chances at the start of every turn, and the biggest swings."""
    service, odds_service = _services(request)
    record = await service.record(game_id)
    try:
        return await odds_service.history(game_id, record, policy)
    except Computing:
        return JSONResponse({"status": "computing"}, status_code=202)
