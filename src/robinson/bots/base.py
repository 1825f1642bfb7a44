"""The bot interface and its registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from robinson.engine import Choose, RobinsonError, State


class Bot(Protocol):
    name: str

    def choose(self, state: State) -> Choose:
        """The option to take at the decision pending in `state` (for `state.to_move`)."""
        ...


BotFactory = Callable[[int | None], Bot]  # seed -> bot
_REGISTRY: dict[str, BotFactory] = {}
BOT_NAMES: list[str] = []


def register(name: str, factory: BotFactory) -> None:
    if name not in _REGISTRY:
        BOT_NAMES.append(name)
    _REGISTRY[name] = factory


def make_bot(name: str, seed: int | None = None) -> Bot:
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise RobinsonError(
            f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}"
        ) from None
    return factory(seed)
