"""The seeds the seats add to a game's dice (docs/fair-dice.md, `hmac-sha256-seeds-v2`): one per
seat, accepted only before the game's first move. Called by store.py inside its guards."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robinson.fairdice import SCHEME
from robinson.web.store.dialects import is_duplicate
from robinson.web.store.schema_tables import dice_seeds, games


def add(engine: Engine, game_id: str, seat: int, seed_hex: str, at: int) -> bool:
    """Store a seat's seed unless the game's dice are fixed (`fix`), it has a move, or the seat
    gave one already (False). Both begin by updating the game's row, which takes its lock: a
    seed and the fixing are written one after the other, never across each other, in any
    process (SQLite: one writer at a time anyway)."""
    try:
        with engine.begin() as conn:
            still_open = update(games).where(
                games.c.id == game_id, games.c.version == 0, games.c.dice_fixed.is_(None)
            )
            if conn.execute(still_open.values(version=0)).rowcount != 1:
                return False
            row = {"game_id": game_id, "seat": seat, "seed": seed_hex, "created": at}
            conn.execute(insert(dice_seeds).values(**row))
        return True
    except IntegrityError as e:
        if not is_duplicate(e):
            raise
        return False


def fix(engine: Engine, game_id: str, at: int) -> dict[int, str]:
    """Close the game's seeds (before its first roll; again: no change) and return them: the
    seeds every roll of the game is derived from, whichever process rolls."""
    with engine.begin() as conn:
        conn.execute(
            update(games)
            .where(games.c.id == game_id)
            .values(dice_fixed=func.coalesce(games.c.dice_fixed, at))
        )
        return read(conn, game_id)


def read(conn: Any, game_id: str) -> dict[int, str]:
    """The seeds the seats of a game gave: seat -> hex."""
    rows = conn.execute(
        select(dice_seeds.c.seat, dice_seeds.c.seed).where(dice_seeds.c.game_id == game_id)
    ).all()
    return {r.seat: r.seed for r in rows}


def scheme_of(stored: str | None) -> str:
    """A game's dice scheme: a game stored before revision 0004 has none, and is the first."""
    return stored or SCHEME
