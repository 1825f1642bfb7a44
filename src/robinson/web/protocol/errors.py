"""The stable error codes of the protocol (docs/protocol.md). Clients switch on `code`; the
message is for people and says what was expected."""

from __future__ import annotations

from typing import Literal, get_args

ErrorCode = Literal[
    "malformed",
    "bad_request",
    "bad_token",
    "unknown_game",
    "game_over",
    "not_your_turn",
    "seat_is_bot",
    "stale_version",
    "not_over",
    "not_started",
    "seat_present",
    "seat_connected",
    "seat_taken",
    "bad_invite",
    "link_expired",
    "illegal_action",
    "bad_seed",
    "bad_subscription",
    "seeds_fixed",
    "bad_address",
    "mail_off",
    "too_large",
    "storage_unavailable",
    "presence_unknown",
    "not_found",
    "method_not_allowed",
    "table_closed",
    "rate_limited",
    "busy",
    "internal",
]

# code -> HTTP status used by the REST endpoints
STATUS: dict[ErrorCode, int] = {
    "malformed": 400,  # not JSON, wrong shape, unknown message type or field
    "bad_request": 400,  # well-formed but invalid: bad ruleset, unknown bot, too many seats
    "bad_token": 403,  # the token is not a seat of this table
    "unknown_game": 404,  # no such game or table
    "game_over": 409,  # the game has ended (or a rematch replaced it)
    "not_your_turn": 409,  # another seat is to move
    "seat_is_bot": 409,  # the seat was handed to a bot; take it back first
    "stale_version": 409,  # the client acted on an old state (a repeated or late click)
    "not_over": 409,  # a rematch or a seed asked for before the end
    "not_started": 409,  # a move while the table waits for its invited players
    "seat_present": 409,  # someone else's seat while its player is there and has time left
    "seat_connected": 409,  # someone else's seat while its player is connected (docs: Seats)
    "seat_taken": 409,  # the invite was used already (or replaced by a new one)
    "bad_invite": 403,  # the code was never an invite of this table
    "link_expired": 410,  # a link to continue on another device: used, replaced or too old
    "illegal_action": 422,  # the rules do not allow that move now
    "bad_seed": 400,  # a seat's dice seed that is not 16 to 32 bytes of hex (docs/fair-dice.md)
    "bad_subscription": 400,  # a push subscription that is not one, or at an unknown service
    "seeds_fixed": 409,  # a seat's seed after the first roll, or a second one for the seat
    "bad_address": 400,  # not an e-mail address we send to (docs/notifications.md, E-mail)
    "mail_off": 501,  # an address left on a server that sends no e-mail (no --smtp-host)
    "too_large": 413,  # the message is over the size limit
    "storage_unavailable": 503,  # the database failed; the move was not accepted, try again
    "presence_unknown": 503,  # who is connected cannot be known (Redis away): no hand-over
    # -- the server's limits (docs/protocol.md, Limits)
    "not_found": 404,  # no such address
    "method_not_allowed": 405,  # the address exists, not with that method
    "table_closed": 410,  # closed after long without a move; the record stays
    "rate_limited": 429,  # too many requests from one address: wait (Retry-After)
    "busy": 503,  # the long computations' queue is full: try again shortly (Retry-After)
    "internal": 500,  # a bug of ours; the message says nothing more
}


# Every code has its status (a test cannot forget one: this runs at import).
if set(STATUS) != set(get_args(ErrorCode)):
    raise RuntimeError("protocol/errors.py: STATUS and ErrorCode name different codes")


class ServiceError(Exception):
    """A refusal with its stable code (the type checker holds every `ServiceError("…")` to
    `ErrorCode`) and a message for people that says what was expected."""

    def __init__(
        self, code: ErrorCode, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.headers = headers or {}  # e.g. Retry-After

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
