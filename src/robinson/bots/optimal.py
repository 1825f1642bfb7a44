"""The `optimal` bot: plays the exact solution of `robinson.analysis.exact` (each player
maximises his own probability of winning). Importing this module registers it; it changes
nothing in the engine.

The solution depends on the ruleset and the number of players, which a bot learns only from the
state it is asked about: the bot solves on first sight of each (ruleset, players) and caches.
Exact solutions cover up to 4 players; in larger games the bot plays eager.
"""

from __future__ import annotations

from robinson.analysis.exact.game import EXACT_MAX_PLAYERS
from robinson.analysis.policy import EagerPolicy, make_policy
from robinson.bots.base import register
from robinson.engine import Choose, State


class OptimalBot:
    name = "optimal"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # the optimal bot is deterministic

    def choose(self, state: State) -> Choose:
        if len(state.players) > EXACT_MAX_PLAYERS:
            return EagerPolicy().decide(state)
        return make_policy("optimal", state.ruleset, len(state.players)).decide(state)


register("optimal", OptimalBot)
