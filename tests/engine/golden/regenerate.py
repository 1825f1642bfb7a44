"""Write the golden playthroughs: seeded games with the position after every action.

Run only after a deliberate rule change, then review the diff line by line:
    .venv/bin/python tests/engine/golden/regenerate.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from robinson.engine import Ruleset, apply, legal_actions, new_game, to_text

GAMES = {
    "standard_3p": (Ruleset("standard"), ["Anna", "Bruno", "Cila"], 0, 11),
    "lv_2p": (Ruleset("lv", start_tokens=20, stake=5), ["Jānis", "Līga"], 1, 5),
    "classic_4p": (Ruleset("classic", share="third"), ["A", "B", "C", "D"], 2, 7),
    "ca_5p": (Ruleset("ca"), ["Pere", "Núria", "Jordi", "Laia", "Marc"], 4, 3),
}


def playthrough(ruleset: Ruleset, players: list[str], first: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    state = new_game(len(players), ruleset, first)
    steps = [{"action": None, "position": to_text(state)}]
    while not state.over:
        action = rng.choice(legal_actions(state))
        state, _ = apply(state, action)
        steps.append({"action": action.to_json(), "position": to_text(state)})
    return {"ruleset": ruleset.to_json(), "players": players, "first": first, "steps": steps}


if __name__ == "__main__":
    here = Path(__file__).parent
    for name, (ruleset, players, first, seed) in GAMES.items():
        data = playthrough(ruleset, players, first, seed)
        (here / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        print(name, len(data["steps"]) - 1, "actions")  # type: ignore[arg-type]
