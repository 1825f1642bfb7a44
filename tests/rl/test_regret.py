"""`score(..., regret=True)`: where a policy loses, decision by decision and placing by placing,
checked against the exact solution's own option values."""

from __future__ import annotations

import numpy as np
import pytest

from robinson.analysis.decisions import DECISION_KINDS
from robinson.analysis.exact.game import solve_game
from robinson.engine import DECISION_OF, Phase, RobinsonError, Ruleset
from robinson.rl import score
from robinson.rl.scoring import PawnPosition


def eager(position: PawnPosition) -> str:
    return DECISION_OF[Phase(position.decision)].forward


def coin(position: PawnPosition) -> dict[str, float]:
    return dict.fromkeys(position.options, 0.5)


@pytest.mark.parametrize("players", [2, 3])
def test_option_values_are_the_equilibriums_and_eager_loses_only_alone(players: int) -> None:
    """Against optimal players the learner's best response is the equilibrium's play, so each
    option's value is the optimal solution's own (`joint.option_values`)."""
    s = score(eager, players, opponents="optimal", regret=True)
    assert s.regret is not None and [t.living for t in s.regret] == list(range(1, players + 1))
    game = solve_game(Ruleset("standard"), players, "optimal")
    for table in s.regret:
        m = table.living
        index = [sum(c * 47 ** (m - 2 - k) for k, c in enumerate(p)) for p in table.placings]
        for d, (decision, roll) in enumerate(table.keys):
            kind = DECISION_KINDS.index(Phase(decision))
            solved = game.options[m - 1][(kind, roll or 0)][index, :, 0]
            assert table.values[:, d, :] == pytest.approx(solved, abs=1e-12), (m, decision, roll)
    alone, *others = s.regret
    assert all((t.regret == 0).all() for t in others)  # with an opponent alive eager is best
    lost = {(row["decision"], row["roll"]) for row in alone.worst(50) if row["regret"] > 1e-12}
    assert ("tree", 1) in lost and ("canoe", None) in lost  # the lone player's deviations
    assert alone.worst(1)[0]["regret"] == pytest.approx(float(alone.regret.max()))


def test_a_coin_loses_at_every_decision_where_the_options_differ() -> None:
    s = score(coin, 2, regret=True)
    assert s.regret is not None
    two = s.regret[1]
    gap = np.abs(two.values[:, :, 1] - two.values[:, :, 0])
    # Half the gap where the options differ: the coin plays the worse one half the time.
    assert two.regret == pytest.approx(gap / 2, abs=1e-12)
    assert (two.eager_share == 0.5).all()
    worst = two.worst(3)
    assert worst[0]["regret"] >= worst[1]["regret"] >= worst[2]["regret"] > 0
    assert set(worst[0]["values"]) == set(DECISION_OF[Phase(worst[0]["decision"])].options)


def test_regret_needs_the_best_response() -> None:
    with pytest.raises(RobinsonError, match="regret=True needs the best response"):
        score(eager, 2, best=False, regret=True)
