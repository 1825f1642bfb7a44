"""What the server sends over a table's WebSocket: each message's model, their union, and the
encoder every outgoing message goes through (the REST answers are in server.py)."""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal

import orjson
from pydantic import Field, TypeAdapter

from robinson.web.protocol.server import GameView, MessageId, Out, _Move


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
    log_you: list[str] = Field(
        default_factory=list,
        description="each line of `log` told to the seat it is about (its `log_kinds` seat) in "
        'the second person ("You roll 6."), or "" where the language has no such line',
    )


class _Moved(Out):
    type: Literal["update"]
    game: str
    version: int
    seat: int


class Update(_Move, _Moved):  # the header, the move, then the state after it
    narration_you: list[str] = Field(
        default_factory=list,
        description="each line of `narration` told to the seat it is about in the second "
        'person, or "" (as `log_you`)',
    )
    state: GameView


class StateChanged(Out):
    type: Literal["state"]
    state: GameView
    narration: list[str] = Field(default_factory=list, description="who did what to a seat")


class Ack(Out):
    type: Literal["ack"]
    id: MessageId = None
    version: int | None = None
    game: str | None = None


class Pong(Out):
    type: Literal["pong"]
    id: MessageId = None


class Reacted(Out):
    """A seated player's canned reaction (not stored: only those following the table see it)."""

    type: Literal["reaction"]
    seat: int
    reaction: str


class ErrorMessage(Out):
    type: Literal["error"]
    code: str
    message: str
    id: MessageId = None


ServerMessage = Annotated[
    Snapshot | Update | StateChanged | Reacted | Ack | Pong | ErrorMessage,
    Field(discriminator="type"),
]
server_message: TypeAdapter[Any] = TypeAdapter(ServerMessage)


# Checking every outgoing message against its model costs as much as encoding it: done where
# ROBINSON_CHECK_MESSAGES=1 (the test suite sets it, so a field a builder adds and the models do
# not describe fails there), not in production.
CHECK = os.environ.get("ROBINSON_CHECK_MESSAGES") == "1"


def encode(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (the bytes of the dict; checked against its model
    when CHECK is on, which raises pydantic's ValidationError for a message it does not
    describe)."""
    if CHECK:
        server_message.validate_python(message)
    # orjson: 3 µs for an update where the standard json takes 21 (the same compact UTF-8 text;
    # integer keys become strings as json.dumps makes them)
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
