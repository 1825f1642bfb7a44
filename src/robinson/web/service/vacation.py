"""Vacation for long clocks (issue 19): a seat of a clocked table may pause its own clock for a
few whole days a game (`vacation_days`, a table option: by default VACATION_DAYS for clocks of a
day or more, none for shorter ones).

Taken during its own turn, the running deadline moves on by those days; taken at another
time, the seat's next turn's clock starts when the vacation ends (moves.py `deadline_after`
reads `LiveTable.vacation_until`). Each taking is a "vacation" note of the game (its seat, days
and end), so everyone is shown the pause, it reaches other processes and survives restarts,
and a new game (a rematch) gives the days again.
"""

from __future__ import annotations

from robinson.web.protocol.errors import ServiceError
from robinson.web.service.live import LiveTable
from robinson.web.store.rows import KEEP, Keep, Note

DAY_MS = 86_400_000
VACATION_DAYS = 3  # the default for a clock of a day or more a move
MAX_VACATION_DAYS = 30


def allowance(move_seconds: int | None, asked: int | None) -> int:
    """The table's vacation days: `asked`, checked, else the default for its clock."""
    if asked is None:
        return VACATION_DAYS if move_seconds is not None and move_seconds >= 86_400 else 0
    if type(asked) is not int or not 0 <= asked <= MAX_VACATION_DAYS:
        raise ServiceError(
            "bad_request", f"vacation_days is 0 to {MAX_VACATION_DAYS} days, got {asked}"
        )
    if asked and move_seconds is None:
        raise ServiceError("bad_request", "vacation_days needs a clock (move_seconds)")
    return asked


def taking(table: LiveTable, seat: int, days: object, now: int) -> tuple[Note, int | Keep]:
    """The note of `seat` taking `days` of vacation now, and the game's new deadline (KEEP
    unless it is the seat's turn, whose clock waits that long more); else `bad_request`."""
    game = table.game
    if table.move_seconds is None or not table.vacation_days:
        raise ServiceError(
            "bad_request", "this table gives no vacation days (a clock of a day or more does)"
        )
    if game.state.over:
        raise ServiceError("game_over", "this game is over")
    left = table.vacation_left(seat)
    if type(days) is not int or not 1 <= days <= left:
        raise ServiceError(
            "bad_request",
            f"days of vacation: 1 to {left} (of {table.vacation_days} a game)"
            if left
            else f"no vacation days left in this game (it gives {table.vacation_days})",
        )
    until = max(now, table.vacation_until(seat)) + days * DAY_MS
    note = Note(game.version, "vacation", {"seat": seat, "days": days, "until": until})
    mine = game.state.to_move == seat and game.deadline is not None
    return note, (game.deadline + days * DAY_MS if mine and game.deadline else KEEP)
