"""A waiting room (issue 18 "Play with friends"): a table made with `wait_for` makes no move
before each of those seats' invites is claimed, or the host starts the game without them.

Held in the game's notes, so it needs no column and reaches other processes with the notes: a
"waiting" note at version 0 lists the seats (`LiveTable.awaited` reads it), a "started" note
ends the wait. The clock does not run while the table waits: the first move's deadline is set
when the game starts. A rematch never waits (its game is not the table's first).
"""

from __future__ import annotations

from collections.abc import Sequence

from robinson.web.protocol.errors import ServiceError
from robinson.web.service.live import LiveTable
from robinson.web.store.rows import Note, SeatRow


def waiting_note(seats: Sequence[SeatRow], wait_for: Sequence[int]) -> Note | None:
    """The note of a new table that waits for `wait_for` (None: it does not wait), or
    `bad_request` unless they are distinct human seats of the table."""
    if not wait_for:
        return None
    for seat in wait_for:
        if type(seat) is not int or not 0 <= seat < len(seats):
            raise ServiceError(
                "bad_request", f"wait_for lists seats from 0 to {len(seats) - 1}, got {seat}"
            )
        if seats[seat].kind != "human":
            raise ServiceError("bad_request", f"wait_for: seat {seat} is a bot's, not invited")
    if len(set(wait_for)) != len(wait_for):
        raise ServiceError("bad_request", "wait_for lists each seat once")
    return Note(0, "waiting", {"seats": sorted(wait_for)})


def first_deadline(table: LiveTable, now: int) -> int | None:
    """The first move's deadline from now, for a clocked table whose first mover is human."""
    to_move = table.game.state.to_move
    if table.move_seconds is None or to_move is None or table.seats[to_move].kind != "human":
        return None
    return now + table.move_seconds * 1000


def started(table: LiveTable, claimed: int, now: int) -> tuple[Note, int | None] | None:
    """When `claimed` was the last seat the table waited for: the note that starts the game
    and its first deadline; else None."""
    if table.awaited() != [claimed]:
        return None
    return Note(table.game.version, "started", {"seat": claimed}), first_deadline(table, now)
