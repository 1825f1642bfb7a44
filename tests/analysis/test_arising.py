"""How often each decision arises and the value of each choice weighted by it (exact): bread
arises as often as pawns land on 20 (the occupation measure itself is checked against the
expected length in test_length.py), and the whole-game cost of a choice, summed over the
seats, is what paired simulations measure (2 and 4 players)."""

from __future__ import annotations

import numpy as np
import pytest
from tests.shared import tables_of_analyze
from tests.tiers import SLOW

from robinson.analysis.arising import arising, occurrences
from robinson.analysis.sim import Setup, fast, simulate
from robinson.analysis.sim.policies import DECISION_ROWS, fast_tables
from robinson.analysis.sim.stats import Z95
from robinson.engine import DECISION_OF, Phase, Ruleset


# At 4 players: an occupation solve and 300,000 simulated games no fast test shares (`slow`).
@pytest.mark.parametrize("players", [2, pytest.param(4, marks=SLOW)])
def test_bread_arises_as_often_as_pawns_land_on_20(players: int) -> None:
    """Every landing on 20 with an opponent alive is a bread decision; alone there are few."""
    rows = {(a.square, a.roll): a for a in arising(Ruleset("standard"), players)}
    sim = simulate(Setup(Ruleset("standard"), players, seed=4), 300_000, progress=False).summary
    landed = sim.to_json()["landings_per_game"][20]
    assert rows[(20, None)].per_game == pytest.approx(landed, rel=0.02)
    if players == 2:  # minus the landings of a lone survivor (at 4 within the noise)
        assert rows[(20, None)].per_game < landed
    # The table behind it, per living count and placing of the others, sums to the same.
    by_living = occurrences(Ruleset("standard"), players)
    total = sum(float(w.sum()) for w in by_living)
    assert total == pytest.approx(sum(a.per_game for a in rows.values()), rel=1e-12)


@pytest.mark.parametrize(("players", "games"), [(2, 400_000), (4, 300_000)])
def test_a_choices_weighted_value_times_its_frequency_is_its_whole_game_cost(
    players: int, games: int
) -> None:
    """Each seat in turn staying on the tree after a 1 every time, the others eager (paired
    games): the seats' changes of their own chance of winning add up to about the arisings
    times the weighted value (to first order: a seat that stays meets the tree again)."""
    rules = Ruleset("standard")
    if players == 4:  # the chain `arising` reads, solved once per run with test_headline's
        tables_of_analyze("standard")
    exact = {(a.square, a.roll): a for a in arising(rules, players)}[(7, 1)]
    setup = Setup(rules, players, seed=0)
    eager = fast_tables("eager", rules, players)
    base = fast.run_batch(setup, eager, 0, games)
    row = DECISION_ROWS.index(Phase.TREE)
    assert DECISION_OF[Phase.TREE].square == 7
    total, variance = 0.0, 0.0
    for seat in range(players):
        tables = eager.copy()
        tables[seat, row, 1] = 1 - eager[seat, row, 1]
        tried = fast.run_batch(setup, tables, 0, games)
        diff = (tried.winner == seat).astype(np.float64) - (base.winner == seat)
        total += float(diff.mean())
        variance += float(diff.var(ddof=1)) / games
    predicted = exact.per_game * exact.gain
    half = Z95 * variance**0.5
    assert abs(total - predicted) < 2 * half + 0.1 * abs(predicted), (total, predicted, half)
    assert np.sign(predicted) == -1
