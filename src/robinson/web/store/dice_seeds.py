"""The seeds the seats add to a game's dice (docs/fair-dice.md, `hmac-sha256-seeds-v2`): one per
seat, accepted only before the game's first move. Called by store.py inside its guards."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robinson.web.store.dialects import is_duplicate
from robinson.web.store.schema_tables import dice_seeds, games


def add(engine: Engine, game_id: str, seat: int, seed_hex: str, at: int) -> bool:
    """Store a seat's seed unless the game has a move already or the seat gave one (False).
    The update of the game's row takes its lock, so a first move stored at the same moment
    (which updates that row too) is written before or after this, never across it."""
    try:
        with engine.begin() as conn:
            still_open = update(games).where(games.c.id == game_id, games.c.version == 0)
            if conn.execute(still_open.values(version=0)).rowcount != 1:
                return False
            row = {"game_id": game_id, "seat": seat, "seed": seed_hex, "created": at}
            conn.execute(insert(dice_seeds).values(**row))
        return True
    except IntegrityError as e:
        if not is_duplicate(e):
            raise
        return False


def read(conn: Any, game_id: str) -> dict[int, str]:
    """The seeds the seats of a game gave: seat -> hex."""
    rows = conn.execute(
        select(dice_seeds.c.seat, dice_seeds.c.seed).where(dice_seeds.c.game_id == game_id)
    ).all()
    return {r.seat: r.seed for r in rows}
