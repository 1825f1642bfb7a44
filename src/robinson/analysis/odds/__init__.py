"""The chances of any position: every seat's probability of winning from there.

    from robinson.analysis.odds import position_odds
    position_odds(record.replay(), policy="eager")
    # {"p_win": [...], "p_no_winner": x, "method": "exact", "policy": "eager", ...}

Exact (`exact.py`, a lookup in the solved chain on disk, `tables.py`) for at most four living
players; simulated from the position itself (`simulated.py`, the fast simulator) for five to
eight. Dead seats have 0; a finished game gives 1 to its winner. At a pending decision,
`options` gives the chooser's chance after each option.
"""

from __future__ import annotations

from typing import Any

from robinson.analysis.odds.tables import EXACT_LIVING, ODDS_POLICIES, check_policy
from robinson.engine import Phase, RobinsonError, State

DEFAULT_GAMES = 200_000


def position_odds(
    state: State, policy: str = "eager", games: int = DEFAULT_GAMES, seed: int = 0
) -> dict[str, Any]:
    """The chances of every seat from `state` (see the module docstring for the keys)."""
    from robinson.analysis.odds.exact import option_chances
    from robinson.analysis.odds.exact import p_win as exact_p_win

    check_policy(policy)
    if state.over or len(state.living) <= EXACT_LIVING:
        p_win = exact_p_win(state, policy)
        out: dict[str, Any] = {
            "p_win": p_win,
            "p_no_winner": _no_winner(p_win),
            "method": "exact",
            "policy": policy,
        }
        if not state.over and state.phase is not Phase.ROLL:
            out["options"] = option_chances(state, policy)
        return out
    from robinson.analysis.odds.simulated import simulated_odds

    if type(games) is not int or games < 1:
        raise RobinsonError(f"games must be a whole number of at least 1, got {games!r}")
    return simulated_odds(state, policy, games, seed)


def _no_winner(p_win: list[float]) -> float:
    return max(0.0, 1.0 - sum(p_win))


__all__ = ["DEFAULT_GAMES", "EXACT_LIVING", "ODDS_POLICIES", "check_policy", "position_odds"]
