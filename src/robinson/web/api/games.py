"""Games: play a move, download the record, replay a finished game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from robinson.web.api import ERRORS, Service, client, language, rate
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
    dependencies=[rate("reads")],
)
async def record(game_id: str, service: Service, request: Request) -> Response:
    """The game in the engine's record format; meta.dice.seed appears once it is over."""
    text = await service.record_text(game_id, client(request))
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="robinson-{game_id}.json"'},
    )


@router.get(
    "/{game_id}/replay",
    response_class=Response,
    responses={200: {"model": Replay, "description": "the steps asked for"}},
    dependencies=[rate("reads")],
)
async def replay(
    game_id: str,
    service: Service,
    request: Request,
    lang: str = "en",
    start: Annotated[int, Query(ge=0)] = 0,
    count: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    """Every step of a finished game with its narration and state: `count` steps from `start`
    (all of them to the end by default; `total` says how many there are)."""
    text = await service.replay(game_id, language(lang), start, count, client(request))
    return Response(text, media_type="application/json")
