"""The rules engine: pure, typed, standard library only. Nothing here imports the rest of the
project, does I/O, reads a clock or draws a random number: whoever drives a game supplies the die.

    state = new_game(3, Ruleset("standard"))
    state, events = apply(state, Roll(4))
"""

from robinson.engine.actions import FACES, OPTIONS, Action, Choose, Roll, action_from_json
from robinson.engine.board import HOME, SQUARES, Effect, Square
from robinson.engine.errors import (
    BadPosition,
    BadRuleset,
    IllegalAction,
    MalformedInput,
    RobinsonError,
)
from robinson.engine.events import Event, Reason
from robinson.engine.notation import from_text, to_text
from robinson.engine.record import GameRecord, state_to_json
from robinson.engine.rules import apply, chance_outcomes, expected, legal_actions, new_game
from robinson.engine.ruleset import (
    EDITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Choices,
    Edition,
    Fever,
    Ruleset,
    find_edition,
)
from robinson.engine.state import DECISIONS, Phase, Player, State

__all__ = [
    "DECISIONS",
    "EDITIONS",
    "FACES",
    "HOME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTIONS",
    "SQUARES",
    "Action",
    "BadPosition",
    "BadRuleset",
    "Choices",
    "Choose",
    "Edition",
    "Effect",
    "Event",
    "Fever",
    "GameRecord",
    "IllegalAction",
    "MalformedInput",
    "Phase",
    "Player",
    "Reason",
    "RobinsonError",
    "Roll",
    "Ruleset",
    "Square",
    "State",
    "action_from_json",
    "apply",
    "chance_outcomes",
    "expected",
    "find_edition",
    "from_text",
    "legal_actions",
    "new_game",
    "state_to_json",
    "to_text",
]
