"""The protocol's message shapes (pydantic), shared by REST, WebSocket and the OpenAPI schema.
docs/protocol.md explains them with examples."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from robinson.engine import OPTIONS
from robinson.web.protocol.limits import MAX_NAME, MAX_SEATS, MAX_TOKENS, MIN_SEATS, REACTIONS

MOVES = ("roll", *OPTIONS)  # the die, then the engine's decision options
if TYPE_CHECKING:
    Move = str
    Reaction = str
else:  # an enum in the schema, from the engine's table
    Move = Literal[MOVES]
    Reaction = Literal[REACTIONS]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatIn(Strict):
    name: str = Field(min_length=1, max_length=MAX_NAME, examples=["Anna"])
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, description="bot name when kind is 'bot'")


class TableIn(Strict):
    edition: str = "standard"
    start_tokens: StrictInt = 30
    stake: StrictInt = 10
    share: Literal["half", "third"] = "half"
    first: StrictInt = 0
    language: str = Field(default="en", description="the table's default language")
    move_seconds: StrictInt | None = Field(
        default=None, description="the clock: seconds per move (5 to 604800); null: no clock"
    )
    seats: list[SeatIn] = Field(min_length=MIN_SEATS, max_length=MAX_SEATS)
    vacation_days: StrictInt | None = Field(
        default=None,
        description="days each seat may pause its own clock in a game, 0 to 30 (default: 3 for "
        "a clock of a day or more a move, else 0)",
    )
    wait_for: list[StrictInt] = Field(
        default_factory=list,
        max_length=MAX_SEATS,
        description="human seats whose invites go to friends: no move is made until each is "
        "claimed or the host starts the game (a waiting room); empty: play at once",
    )


class VacationIn(Strict):
    token: str
    days: StrictInt = Field(description="whole days to pause the seat's clock")


class ActIn(Strict):
    token: str
    version: StrictInt = Field(description="the game version the move was made at")
    move: Move


class TokenIn(Strict):
    token: str


class ClaimIn(Strict):
    invite: str = Field(description="the code after '#i:' in an invite link")


class HostIn(Strict):
    host: str = Field(description="the host's secret (after '#h:' in the host's link)")
    origin: str | None = Field(default=None, description="the page's origin, for QR codes")


class DeviceIn(Strict):
    token: str
    origin: str | None = None


class PushIn(Strict):
    token: str
    subscription: dict[str, Any] = Field(
        description="the browser's PushSubscription as JSON: endpoint and keys (p256dh, auth)"
    )
    language: str = Field(description="the language the player chose for what is pushed")


class PushOutIn(Strict):
    token: str
    endpoint: str = Field(description="the endpoint of the subscription to forget")


class EmailIn(Strict):
    token: str = Field(description="the seat's secret")
    address: str = Field(description="an e-mail address (docs/notifications.md, E-mail)")
    language: str = Field(default="en", description="of the e-mails: lv, cs, ca or en")
    digest: bool = Field(default=True, description="also a daily digest of the tables waiting")


class BotIn(Strict):
    token: str
    bot: str


# -- WebSocket, client to server ----------------------------------------------------------------


class Hello(Strict):
    type: Literal["hello"]
    id: StrictInt | str | None = None
    lang: str = "en"
    tokens: list[str] = Field(default_factory=list, max_length=MAX_TOKENS)
    # What the page shows already (a reconnect, a resync): it is sent only what it missed when
    # that is a few moves of the same game, else a snapshot.
    game: str | None = None
    version: StrictInt | None = None


class Lang(Strict):
    type: Literal["lang"]
    id: StrictInt | str | None = None
    lang: str


class Act(Strict):
    type: Literal["act"]
    id: StrictInt | str | None = None
    game: str
    version: StrictInt
    move: Move
    token: str


class HandToBot(Strict):
    type: Literal["bot"]
    id: StrictInt | str | None = None
    seat: StrictInt
    bot: str
    token: str


class TakeBack(Strict):
    type: Literal["take_back"]
    id: StrictInt | str | None = None
    seat: StrictInt
    token: str


class Rematch(Strict):
    type: Literal["rematch"]
    id: StrictInt | str | None = None
    token: str


class GiveSeed(Strict):
    """A seat's seed for the game's dice (docs/fair-dice.md): sent by the seat's browser when it
    claims or first joins the seat, before the game's first roll."""

    type: Literal["seed"]
    id: StrictInt | str | None = None
    game: str
    seat: StrictInt
    seed: str = Field(description="16 to 32 random bytes, hex (crypto.getRandomValues)")
    token: str


class React(Strict):
    """A canned reaction of a seat this connection holds, shown to everyone at the table."""

    type: Literal["react"]
    id: StrictInt | str | None = None
    seat: StrictInt
    reaction: Reaction


class Ping(Strict):
    type: Literal["ping"]
    id: StrictInt | str | None = None


ClientMessage = Annotated[
    Hello | Lang | Act | HandToBot | TakeBack | Rematch | GiveSeed | React | Ping,
    Field(discriminator="type"),
]
client_message = TypeAdapter(ClientMessage)


def explain(error: ValidationError) -> str:
    """The first problem of a validation error, in one line."""
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "message"
    if first["type"] == "union_tag_invalid" or first["type"] == "union_tag_not_found":
        return "'type' must be one of hello, lang, act, bot, take_back, rematch, seed, react, ping"
    return f"{where}: {first['msg']}"
