"""What the server answers over REST (pydantic); the WebSocket messages are in messages.py, the
incoming shapes in client.py; docs/protocol.md explains them all.

The service's views build plain dicts; the REST routes declare these models as their
`response_model`, and every WebSocket message is checked against `messages.ServerMessage`
where CHECK is on (every test run), so a field added in one place and not here fails loudly
(`extra="forbid"`) instead of drifting.

Fields shared by two answers are declared once, in a base class. A model's fields come in the
order of its bases read from the last to the first, then its own (pydantic follows the reversed
method resolution order), and that is the order of the keys in the JSON: `PlayerView(_Presence,
PlayerState, _Who)` is who, then the pawn, then the presence.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from robinson.web.protocol.client import Move

Kind = Literal["human", "bot"]
MessageId = int | str | None
MoveSeconds = Annotated[int | None, Field(description="the clock; null: none")]


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
    mail: bool = Field(description="whether this server sends e-mail (docs/notifications.md)")


class SeatCreated(Out):
    seat: int
    name: str
    kind: Kind
    bot: str | None
    token: str = Field(description="the seat's secret: shown once, never stored in clear")
    link: str = Field(description="the seat's own link, /t/{table}#{token}")
    invite: str | None = Field(
        description="a human seat's one-time invite link, /t/{table}#i:{code}; null for a bot"
    )


class TableCreated(Out):
    table: str
    game: str
    spectator: str = Field(description="the spectator link")
    host: str = Field(description="the host's secret: shows the invites, re-invites seats")
    host_link: str = Field(description="/t/{table}#h:{host}")
    move_seconds: MoveSeconds
    vacation_days: int = Field(description="days each seat may pause its clock in a game")
    seats: list[SeatCreated]


class PlayerState(Out):  # a pawn's place and purse (no docstring: the schema has none)
    position: int
    purse: int
    alive: bool
    friday: int | None
    skips: int
    shipwrecked: bool


class _Who(Out):
    seat: int
    kind: Kind
    bot: str | None
    name: str


class _Presence(Out):
    present: bool = Field(description="a live connection holds the seat")
    away_since: str | None = Field(description="UTC time it was last connected (else made)")
    absent: bool = Field(description="away long enough for others to hand it to a bot")
    timeouts: int = Field(description="timed-out moves in a row")
    claimed: bool = Field(description="its invite was used (or it never had one: a bot)")
    vacation_until: str | None = Field(
        description="UTC time the seat's vacation ends, while it is on one (its clock waits)"
    )
    vacation_left: int = Field(description="days of vacation the seat may still take this game")
    wins: int = Field(
        description="games of this table won by the seat so far, this one once it is over"
    )


class PlayerView(_Presence, PlayerState, _Who):  # who, the pawn, the presence
    pass


class Clock(Out):
    seat: int = Field(description="the seat to move")
    deadline: str = Field(description="UTC time its move is made for it")
    now: str = Field(description="the server's UTC time when this view was made")


class PayoutStep(BaseModel):
    """One step of the end: the engine's `won` or `transfer` event as JSON, plus its narration."""

    model_config = ConfigDict(extra="allow")
    kind: Literal["won", "transfer"]
    text: str


class Lead(Out):
    """Where an option of the pending decision takes the mover's pawn (the terminal's "Move on →
    10: The goat"), read off the engine's board and rules."""

    option: Move
    square: int | None = Field(description="the square the pawn goes to; null: it stays")


class DiceSeed(Out):
    seat: int
    seed: str = Field(description="16 to 32 bytes, hex")
    by: Literal["player", "server"] = Field(description="given by the seat's browser, or not")


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
    leads: list[Lead] = Field(description="at a decision, where each option leads; else empty")
    prompt: str
    prompt_you: str = Field(
        default="",
        description="`prompt` asked of the seat to move in the second person, for the page "
        'that holds that seat ("Roll the die."); empty when the game is over',
    )
    seed_sha256: str
    seed: str | None = Field(description="revealed once the game is over")
    dice_scheme: str = Field(description="hmac-sha256-seeds-v2, or -bytes-v1 (older games)")
    dice_seeds: list[DiceSeed] = Field(
        description="the seats' seeds as they arrive; every seat's once the first roll is made"
    )
    payout: list[PayoutStep]
    move_seconds: MoveSeconds
    vacation_days: int = Field(description="days each seat may pause its clock in a game")
    absent_after: float = Field(description="seconds without a connection to be absent")
    clock: Clock | None
    watching: int = Field(description="spectators following the table (sockets with no seat)")
    awaited: list[int] = Field(
        description="a waiting room: the invited seats the first move waits for (else empty)"
    )
    players: list[PlayerView]


class TableView(Out):
    table: str
    language: str = Field(description="the table's default language")
    game: GameView


class Seat(Out):
    seat: int


# -- seats: invites, the host's panel, another device (docs/protocol.md "Seats") ----------------


class Claimed(Out):
    seat: int
    token: str = Field(description="the seat's new secret, for this browser alone")
    link: str = Field(description="/t/{table}#{token}")


class Offer(Out):
    seat: int
    name: str = Field(description="the seat's name: the page shows it with a Take button")


class SeatLink(Out):
    seat: int
    link: str
    qr: str = Field(description="the absolute link as a QR code, an inline SVG element")


class InviteSeat(Out):
    seat: int
    name: str
    kind: Kind
    claimed: bool
    present: bool
    link: str | None = Field(description="the one-time invite while unclaimed")
    qr: str | None


class Invites(Out):
    table: str
    spectator: str
    spectator_qr: str
    seats: list[InviteSeat]


class Version(Out):
    version: int


class Ok(Out):
    ok: Literal[True]


class Vacation(Ok):
    until: str = Field(description="UTC time the seat's vacation ends (its clock waits till then)")


class PushKey(Out):
    key: str = Field(description="the server's VAPID public key: applicationServerKey")


class NewGame(Out):
    game: str


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


class _Move(Out):
    """A move and what it did: a step of the replay, and the update that tells it live."""

    action: dict[str, Any]
    events: list[dict[str, Any]]
    narration: list[str]
    told: list[int] = Field(
        default_factory=list,
        description="for each line of `narration`, the index in `events` of the event it tells",
    )
    notes: list[str] = Field(
        default_factory=list, description="the seat lines that go with the move (a timeout's)"
    )


class ReplayStep(_Move):
    state: StateJson


class ReplaySeatChange(Out):
    version: int = Field(description="the actions played when it happened")
    seat: int
    kind: Kind = Field(description="who plays the seat from then on")


class Replay(Out):
    game: str
    record: dict[str, Any] = Field(description="the engine's record JSON")
    seats: list[ReplaySeat] = Field(description="who played each seat when the game began")
    seat_changes: list[ReplaySeatChange] = Field(description="hand-overs to a bot and take-backs")
    initial: StateJson
    total: int = Field(description="how many steps the game has")
    start: int = Field(description="the index of the first step given")
    steps: list[ReplayStep] = Field(description="the steps asked for, from `start`")


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
