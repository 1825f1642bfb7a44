"""Games: play a move, download the record, replay a finished game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from robinson.web.api import ERRORS, Service, language, rate
from robinson.web.protocol.client import ActIn
from robinson.web.protocol.server import Replay, Version

router = APIRouter(prefix="/api/games", tags=["games"], responses=ERRORS)


@router.post("/{game_id}/actions", response_model=Version, dependencies=[rate("actions")])
async def act(game_id: str, body: ActIn, service: Service) -> dict[str, Any]:
    """Play a move; the answer comes after it is stored and broadcast."""
    return {"version": await service.act(game_id, body.token, body.version, body.move)}


@router.get(
    "/{game_id}/record",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}, "description": "the engine's record"}},
)
async def record(game_id: str, service: Service) -> Response:
    """The game in the engine's record format; meta.dice.seed appears once it is over."""
    rec = await service.record(game_id)
    return Response(
        rec.dumps(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="robinson-{game_id}.json"'},
    )


@router.get("/{game_id}/replay", response_model=Replay)
async def replay(game_id: str, service: Service, lang: str = "en") -> dict[str, Any]:
    """Every step of a finished game with its narration and state."""
    return await service.replay(game_id, language(lang))
