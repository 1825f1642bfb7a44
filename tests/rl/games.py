"""Complete games played by the engine alone (no RL library), to compare the interfaces with."""

from __future__ import annotations

import json
import random
from pathlib import Path

from robinson.bots import make_bot
from robinson.engine import Action, GameRecord, Phase, Roll, Ruleset, apply, new_game

GOLDEN = sorted((Path(__file__).parents[1] / "engine" / "golden").glob("*.json"))


def engine_game(
    players: int, edition: str, seed: int, first: int = 0, bots: tuple[str, ...] = ("random",)
) -> GameRecord:
    """A whole game: `random.Random(seed)` dice, seat s decided by bots[s % len(bots)]."""
    rng = random.Random(seed)
    seats = [make_bot(bots[s % len(bots)], seed + s) for s in range(players)]
    ruleset = Ruleset(edition)
    state = new_game(players, ruleset, first)
    actions: list[Action] = []
    while not state.over:
        if state.phase is Phase.ROLL:
            action: Action = Roll(rng.randint(1, 6))
        else:
            assert state.to_move is not None
            action = seats[state.to_move].choose(state)
        state, _ = apply(state, action)
        actions.append(action)
    names = tuple(f"player_{i}" for i in range(players))
    return GameRecord(ruleset, names, first, tuple(actions))


def golden_games() -> list[GameRecord]:
    """The reviewed golden playthroughs of the engine tests, as records."""
    records = []
    for path in GOLDEN:
        data = json.loads(path.read_text(encoding="utf-8"))
        actions = [step["action"] for step in data["steps"][1:]]
        names = [f"player_{i}" for i in range(len(data["players"]))]
        record = GameRecord.from_json(
            {
                "ruleset": data["ruleset"],
                "players": names,
                "first": data["first"],
                "actions": actions,
            }
        )
        records.append(record)
    return records


def dice_of(record: GameRecord) -> list[int]:
    return [a.face for a in record.actions if isinstance(a, Roll)]


def choices_of(record: GameRecord) -> list[str]:
    return [a.option for a in record.actions if not isinstance(a, Roll)]


def options_of(record: GameRecord) -> dict[str, object]:
    """The ruleset's money options, as keyword arguments of the environments."""
    return {k: v for k, v in record.ruleset.to_json().items() if k != "edition"}
