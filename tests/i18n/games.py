"""Shared helpers for the language tests: real games played with seeded dice."""

from __future__ import annotations

import random
from collections.abc import Iterator

from robinson.bots import make_bot
from robinson.engine import Phase, Roll, Ruleset, State, apply, from_text, new_game
from robinson.engine.events import Event

NAMES = ("Anna", "Bruno", "Ēriks", "Helena", "Oto")


def play(
    ruleset: Ruleset, players: int, seed: int, bot: str = "random"
) -> Iterator[tuple[State, Event]]:
    """Every (state before the action, event) of one whole game with seeded dice and bots."""
    rng = random.Random(seed)
    chooser = make_bot(bot, seed)
    state = new_game(players, ruleset)
    while not state.over:
        action = Roll(rng.randint(1, 6)) if state.phase is Phase.ROLL else chooser.choose(state)
        before = state
        state, events = apply(state, action)
        for event in events:
            yield before, event


def from_position(text: str, *faces: int) -> list[Event]:
    """The events of rolling `faces` from a position given in the one-line text form."""
    state = from_text(text)
    out: list[Event] = []
    for face in faces:
        state, events = apply(state, Roll(face))
        out.extend(events)
    return out
