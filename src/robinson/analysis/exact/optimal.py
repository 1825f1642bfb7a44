"""The optimal policy: play the exact solution (`game.solve_game(..., "optimal")`).

Its decision tables follow the layout documented in `robinson.analysis.policy`. They are kept on
disk (`store.py`): the first use on a machine solves, later ones load.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS, EAGER_OPTION, OTHER_OPTION, check_decision
from robinson.analysis.exact import codes, store
from robinson.analysis.exact.game import solve_game
from robinson.engine import Choose, RobinsonError, Ruleset, State


class OptimalPolicy:
    """Each player maximises his own probability of winning (see `game.py`)."""

    name = "optimal"
    codes = codes

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        ruleset = store.pawn_rules(ruleset)
        self.ruleset = ruleset
        self.players = players
        stored = store.load_tables(ruleset, players)
        if stored is None:
            game = solve_game(ruleset, players, "optimal")
            tables = [game.decision_table(m) for m in range(1, players + 1)]
            stored = store.StoredTables(tables, game.converged)
            store.save_tables(ruleset, players, stored)
        self.converged = stored.converged
        # tables[m]: m living players (tables[0] is unused).
        self.tables: list[npt.NDArray[np.uint8]] = [
            np.zeros(0, dtype=np.uint8),
            *stored.tables,
        ]

    @classmethod
    def solve(cls, ruleset: Ruleset, players: int) -> OptimalPolicy:
        """One solution per edition and player count, whatever the money options."""
        return cls._solved(store.pawn_rules(ruleset), players)

    @classmethod
    @functools.lru_cache(maxsize=16)
    def _solved(cls, ruleset: Ruleset, players: int) -> OptimalPolicy:
        return cls(ruleset, players)

    @staticmethod
    def others_index(state: State) -> int:
        """The mixed-radix index of the other living pawns, in turn order after the mover."""
        mover = state.to_move
        n = len(state.players)
        if mover is None:
            raise RobinsonError("the game is over: nobody is to move")
        index = 0
        for k in range(1, n):  # the first player after the mover is the most significant
            p = state.players[(mover + k) % n]
            if p.alive:
                index = index * codes.K + codes.code(p.position, p.skips)
        return index

    def decide(self, state: State) -> Choose:
        phase = check_decision(state)
        if len(state.players) != self.players or store.pawn_rules(state.ruleset) != self.ruleset:
            raise RobinsonError(
                f"this optimal policy was solved for {self.players} players under "
                f"{self.ruleset.edition!r}; got {len(state.players)} under "
                f"{state.ruleset.edition!r}"
            )
        m = len(state.living)
        take_eager = self.tables[m][
            DECISION_KINDS.index(phase), state.pending_roll or 0, self.others_index(state)
        ]
        return Choose(EAGER_OPTION[phase] if take_eager else OTHER_OPTION[phase])
