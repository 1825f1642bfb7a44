"""Golden playthroughs: the position after every action must match the reviewed files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robinson.engine import Ruleset, action_from_json, apply, new_game, to_text

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_games() -> None:
    assert len(GOLDEN) >= 4


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_playthrough(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    steps = data["steps"]
    state = new_game(len(data["players"]), Ruleset.from_json(data["ruleset"]), data["first"])
    assert to_text(state) == steps[0]["position"]
    for index, step in enumerate(steps[1:], start=1):
        state, _ = apply(state, action_from_json(step["action"]))
        assert to_text(state) == step["position"], f"{path.name}: step {index}"
    assert state.over
