"""Simulated chances of a position with five to eight living players (the fast simulator started
from the position itself). Not yet: the simulator cannot start from a position yet."""

from __future__ import annotations

from typing import Any

from robinson.engine import RobinsonError, State


def simulated_odds(state: State, policy: str, games: int, seed: int) -> dict[str, Any]:
    raise RobinsonError(
        f"odds of positions with {len(state.living)} living players need the simulator started"
        " from a position, which is not built yet; up to 4 living players are exact"
    )
