"""The page (one HTML file; the client decides what to show from the address)."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = resources.files("robinson.web") / "static"

router = APIRouter(include_in_schema=False)


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """The service worker (notifications) at the root: its scope is every table's page."""
    headers = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}
    return FileResponse(str(STATIC / "sw.js"), media_type="text/javascript", headers=headers)


@router.get("/")
@router.get("/t/{table_id}")
@router.get("/replay/{game_id}")
@router.get("/rules")
async def page() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")
