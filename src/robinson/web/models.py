"""What the server answers: every REST response and every WebSocket message from server to client
(pydantic). The incoming shapes are in protocol.py; docs/protocol.md explains both.

The service and the live table build plain dicts; the REST routes declare these models as their
`response_model` and the WebSocket sender validates each message against `ServerMessage`, so a
field added in one place and not here fails loudly (`extra="forbid"`) instead of drifting.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from robinson.web.protocol import Move

Kind = Literal["human", "bot"]
MessageId = int | str | None


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- REST -----------------------------------------------------------------------------------------


class Edition(Out):
    name: str
    fever: str = Field(description="what square 12 does: skip_turn or extra_roll")
    choices: str = Field(description="optional or compulsory decisions")


class Limits(Out):
    name: int = Field(description="most characters in a seat's name")
    min_seats: int
    max_seats: int
    message: int = Field(description="most bytes in a request body or WebSocket message")


class Decision(Out):
    """A row of the engine's decisions table (`robinson.engine.DECISION_TABLE`)."""

    phase: str = Field(description="what the game waits for while the decision is pending")
    square: int = Field(description="the square that offers it, on the standard board")
    offered: str = Field(description="roll_in_view (before moving, roll seen) or on_landing")
    options: list[Move] = Field(description="the two options, in the order to show them")
    forward: Move = Field(description="the forward ('eager') option")


class Meta(Out):
    editions: list[Edition]
    bots: list[str]
    languages: list[str]
    limits: Limits
    decisions: list[Decision]


class SeatCreated(Out):
    seat: int
    name: str
    kind: Kind
    bot: str | None
    token: str = Field(description="the seat's secret: shown once, never stored in clear")
    link: str = Field(description="the invite link, /t/{table}#{token}")


class TableCreated(Out):
    table: str
    game: str
    spectator: str = Field(description="the spectator link")
    seats: list[SeatCreated]


class PlayerView(Out):
    seat: int
    kind: Kind
    bot: str | None
    name: str
    position: int
    purse: int
    alive: bool
    friday: int | None
    skips: int
    shipwrecked: bool


class PayoutStep(BaseModel):
    """One step of the end: the engine's `won` or `transfer` event as JSON, plus its narration."""

    model_config = ConfigDict(extra="allow")
    kind: Literal["won", "transfer"]
    text: str


class GameView(Out):
    id: str
    number: int = Field(description="1 for a table's first game, 2 for the rematch, ...")
    ruleset: dict[str, Any]
    rules: str = Field(description="the ruleset in the viewer's language")
    first: int
    version: int = Field(description="the number of actions in the log")
    phase: str
    to_move: int | None
    pending_roll: int | None
    last_roll: int | None
    bank: int
    over: bool
    winner: int | None
    legal: list[Move]
    prompt: str
    seed_sha256: str
    seed: str | None = Field(description="revealed once the game is over")
    payout: list[PayoutStep]
    players: list[PlayerView]


class TableView(Out):
    table: str
    language: str = Field(description="the table's default language")
    game: GameView


class Seat(Out):
    seat: int


class Version(Out):
    version: int


class Ok(Out):
    ok: Literal[True]


class NewGame(Out):
    game: str


class PlayerState(Out):
    position: int
    purse: int
    alive: bool
    friday: int | None
    skips: int
    shipwrecked: bool


class StateJson(Out):
    """The engine's state as JSON, without names (the replay's names are in its record)."""

    over: bool
    winner: int | None
    to_move: int | None
    phase: str
    pending_roll: int | None
    bank: int
    players: list[PlayerState]


class ReplaySeat(Out):
    kind: Kind
    bot: str | None


class ReplayStep(Out):
    action: dict[str, Any]
    events: list[dict[str, Any]]
    narration: list[str]
    told: list[int] = Field(
        default_factory=list,
        description="for each line of `narration`, the index in `events` of the event it tells",
    )
    state: StateJson


class Replay(Out):
    game: str
    record: dict[str, Any] = Field(description="the engine's record JSON")
    seats: list[ReplaySeat]
    initial: StateJson
    steps: list[ReplayStep]


class SquareText(Out):
    number: int
    kind: str
    title: str
    story: str
    effect: str | None = Field(description="the rule in force; null for a story square")


class Texts(Out):
    lang: str
    ui: dict[str, str]
    plurals: dict[str, list[str]]
    plural_index: list[int]
    options: dict[str, str]
    squares: list[SquareText]
    rules: str


# -- The chances (routes/odds.py) ----------------------------------------------------------------


class Odds(Out):
    """The JSON of `robinson odds` for the position after `version` actions."""

    version: int = Field(description="the position after this many actions")
    p_win: list[float] = Field(description="each seat's chance of winning; 0 for the dead")
    p_no_winner: float = Field(description="the chance that everybody dies")
    method: Literal["exact", "simulation"]
    policy: str = Field(description="how decisions are taken: eager or optimal")
    options: dict[str, float] | None = Field(
        None, description="at a pending decision: the chooser's chance after each option"
    )
    ci95: list[list[float]] | None = Field(None, description="simulation: 95% interval per seat")
    games: int | None = Field(None, description="simulation: games played from the position")
    policy_played: str | None = Field(None, description="simulation: the policy played")
    seed: int | None = Field(None, description="simulation: the dice seed")


class OddsPoint(Out):
    turn: int
    version: int = Field(description="actions played before this turn: where to jump to")
    seat: int | None = Field(description="who moves in this turn; null once the game is over")
    square: int | None = Field(description="where he stands at its start")
    roll: int | None = Field(description="his first roll in this turn")
    p_win: list[float]


class OddsSwing(Out):
    turn: int
    version: int
    seat: int
    roll: int
    square: int = Field(description="where he rolled from")
    delta: float = Field(description="the change of his own chance over the turn, -1..1")


class OddsHistory(Out):
    version: int
    policy: str
    points: list[OddsPoint] = Field(description="the start of every turn, and the end")
    swings: list[OddsSwing] = Field(description="the turns that swung their mover most")


class Computing(Out):
    status: Literal["computing"]
    version: int | None = None


class ErrorBody(Out):
    code: str = Field(description="stable: clients switch on it (docs/protocol.md, Errors)")
    message: str = Field(description="for people: what was expected")


class Error(Out):
    error: ErrorBody


# -- WebSocket, server to client ----------------------------------------------------------------


class Snapshot(Out):
    type: Literal["snapshot"]
    table: str
    language: str
    lang: str
    you: list[int] = Field(description="the seats this connection holds")
    game: GameView
    log: list[str]
    log_kinds: list[tuple[str, int | None]] = Field(
        default_factory=list,
        description="the event kind and the seat it is about of each line of `log`, in order "
        "(the page groups the log by turn and colours it by seat)",
    )
    log_turn: int = Field(default=1, description="the turn number of the first line of `log`")


class Update(Out):
    type: Literal["update"]
    game: str
    version: int
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    narration: list[str]
    told: list[int] = Field(
        default_factory=list,
        description="for each line of `narration`, the index in `events` of the event it tells",
    )
    state: GameView


class StateChanged(Out):
    type: Literal["state"]
    state: GameView


class Ack(Out):
    type: Literal["ack"]
    id: MessageId = None
    version: int | None = None
    game: str | None = None


class Pong(Out):
    type: Literal["pong"]
    id: MessageId = None


class ErrorMessage(Out):
    type: Literal["error"]
    code: str
    message: str
    id: MessageId = None


ServerMessage = Annotated[
    Snapshot | Update | StateChanged | Ack | Pong | ErrorMessage, Field(discriminator="type")
]
server_message: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def encode(message: dict[str, Any]) -> str:
    """A server message as JSON text, checked against its model. Keys the builder left out stay
    out (`exclude_unset`), so the bytes are those of the dict."""
    checked = server_message.validate_python(message)
    text: str = checked.model_dump_json(exclude_unset=True)
    return text
