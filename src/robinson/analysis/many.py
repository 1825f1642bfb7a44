"""`robinson analyze` for 5 to 8 players: the joint chain is out of reach there (47**5 states
and more), so the win chances come from the fast simulator, with 95% intervals, while the
one-player figures stay exact. The output has the same keys as the exact analysis, plus
`method`, the intervals and what was played.
"""

from __future__ import annotations

from typing import Any

from robinson.analysis.exact.game import EXACT_MAX_PLAYERS, solve_game
from robinson.analysis.exact.single import single_figures
from robinson.analysis.policy import POLICIES
from robinson.analysis.sim import Setup, simulate
from robinson.engine import MAX_PLAYERS, BadRuleset, RobinsonError, Ruleset

DEFAULT_GAMES = 1_000_000


def analyze_many(
    ruleset: Ruleset,
    players: int,
    policy: str,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    progress: bool | None = None,
) -> dict[str, Any]:
    if type(players) is not int or not EXACT_MAX_PLAYERS < players <= MAX_PLAYERS:
        raise BadRuleset(
            f"players must be 1 to {MAX_PLAYERS} (exact up to {EXACT_MAX_PLAYERS}, simulated"
            f" from {EXACT_MAX_PLAYERS + 1}), got {players!r}"
        )
    if policy not in POLICIES:
        raise RobinsonError(f"unknown policy {policy!r}: expected one of {', '.join(POLICIES)}")
    # Beyond the exact chain there is no optimal solution to play; the optimal bot plays eager
    # there (robinson.bots.optimal), and so does this analysis — and it says so.
    played = "eager" if policy == "optimal" else policy
    result = simulate(Setup(ruleset, players, seed=seed), games, policy=played, progress=progress)
    figures = result.summary.to_json()
    single = single_figures(solve_game(ruleset, 1, policy))
    return {
        "edition": ruleset.edition,
        "players": players,
        "policy": policy,
        "ruleset": ruleset.to_json(),
        "method": "simulation",
        "policy_played": played,
        "games": games,
        "seed": seed,
        "p_win": [e["value"] for e in figures["p_win"]],
        "p_win_ci95": [e["ci95"] for e in figures["p_win"]],
        "p_no_winner": figures["p_no_winner"]["value"],
        "p_no_winner_ci95": figures["p_no_winner"]["ci95"],
        "single": single.to_json(),
        "games_per_second": result.games_per_second,
    }
