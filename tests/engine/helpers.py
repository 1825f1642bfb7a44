"""Small helpers for rule tests: positions as text, actions as short strings."""

from __future__ import annotations

from robinson.engine import Choose, Event, Roll, State, apply, from_text, to_text
from robinson.engine.events import Transfer


def act(token: str | int) -> Roll | Choose:
    """3 -> Roll(3); "stay" -> Choose("stay")."""
    if isinstance(token, int):
        return Roll(token)
    return Choose(token)


def play(position: str | State, *moves: str | int) -> tuple[State, list[Event]]:
    """Apply `moves` from a position; return the final state and all events in order."""
    state = from_text(position) if isinstance(position, str) else position
    events: list[Event] = []
    for move in moves:
        state, produced = apply(state, act(move))
        events.extend(produced)
    return state, events


def text_after(position: str, *moves: str | int) -> str:
    return to_text(play(position, *moves)[0])


def transfers(events: list[Event]) -> list[tuple[int | None, int | None, int, int, str]]:
    """(payer, payee, amount, owed, reason) of each transfer, None meaning the bank."""
    return [
        (e.payer, e.payee, e.amount, e.owed, e.reason.value)
        for e in events
        if isinstance(e, Transfer)
    ]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
