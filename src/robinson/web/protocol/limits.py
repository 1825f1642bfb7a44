"""The web's limits, declared once: the request models (protocol.py), the answers (models.py),
the service and the page (through /api/meta) all read them from here."""

from __future__ import annotations

from robinson.engine import MAX_PLAYERS, MIN_PLAYERS

MAX_NAME = 40  # characters of a seat's name, after spaces are collapsed
MIN_SEATS = MIN_PLAYERS  # the engine's own bounds on the number of players
MAX_SEATS = MAX_PLAYERS
MAX_MESSAGE = 8192  # bytes of one WebSocket message or REST body; real messages are < 1 KB
MIN_TOKEN, MAX_TOKEN = 8, 200  # characters of a seat token worth hashing (ours are 32)
MOVE_SECONDS = (5, 604800)  # the clock's range: a live game to a game by correspondence (a week)
MAX_TOKENS = MAX_SEATS  # tokens one browser may present (hot-seat: every seat of a table)
MAX_DEPTH = 16  # levels of JSON nesting (our deepest message has 3)
MAX_NUMBER = 20  # characters of one JSON number (a 64-bit integer has at most 20)
# Reactions a seated player may send (each shown as a bubble by his pawn): at most
# REACTION_BURST at once, then one every REACTION_SECONDS per seat.
REACTIONS = ("hello", "good_luck", "well_played", "wow", "oops", "good_game")
REACTION_BURST, REACTION_SECONDS = 3, 2.0


def as_json() -> dict[str, int]:
    """The limits the page needs (GET /api/meta)."""
    return {
        "name": MAX_NAME,
        "min_seats": MIN_SEATS,
        "max_seats": MAX_SEATS,
        "message": MAX_MESSAGE,
    }


def reactions() -> list[str]:
    return list(REACTIONS)
