"""The headline result, checked from the solved values: while an opponent is alive the forward
option is never worse, in every edition, for 2 to 4 players (4 outside `standard` in `make test`
only); only a lone player deviates; and the solitaires product is what it says it is."""

from __future__ import annotations

import json
from functools import partial

import numpy as np
import pytest
from tests.shared import all_of, analyzed_p_win
from tests.tiers import SLOW

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import single_figures
from robinson.analysis.headline import headline, placings, sentence, solitaires, stored_game
from robinson.cli import main
from robinson.engine import EDITIONS, Ruleset

POLICIES = ("eager", "optimal")
# 4 players in the other editions cost an exact 4-player solve each (of the optimal policy, and
# of eager when no other test has solved it): only in `make test` (tests/tiers.py, `slow`).
SIZES = [
    *((e, n) for e in EDITIONS for n in (2, 3)),
    ("standard", 4),
    *(pytest.param(e, 4, marks=SLOW) for e in EDITIONS if e != "standard"),
]


@pytest.mark.parametrize(("edition", "players"), SIZES)
def test_the_forward_option_is_never_worse_while_an_opponent_lives(
    edition: str, players: int
) -> None:
    ruleset = Ruleset(edition)
    if players == 4:
        # The chains the odds keep on disk, which `headline` below reads too: solved once per
        # run by solve_game (through `analyze`, tests/shared.py), the option values computed
        # from them here.
        all_of([partial(analyzed_p_win, edition, players, p, wait=False) for p in POLICIES])
    # The solved values the odds keep on disk (one solve per game: ca plays standard's, cs lv's).
    game = stored_game(ruleset, players, "optimal")
    for m in range(2, players + 1):
        ok = placings(game, m)
        for (kind, roll), values in game.options[m - 1].items():
            forward, other = values[ok, 0, 0], values[ok, 1, 0]
            assert (other <= forward + 1e-12).all(), (m, kind, roll, (other - forward).max())
        # And so the optimal policy's own table is the eager one there.
        assert game.decision_table(m).all()
    found = headline(ruleset, players)
    assert not found["differs_with_opponents"]
    assert [d["deviations"] for d in found["by_living"][1:]] == [[]] * (players - 1)


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_a_lone_player_deviates_where_the_solved_values_say(edition: str) -> None:
    """The counterpart that shows the check above can fail: alone, the other option is better
    at some decisions of every edition that has decisions, and `headline` lists exactly those."""
    ruleset = Ruleset(edition)
    alone = solve_game(ruleset, 1, "optimal")
    better = {
        key for key, values in alone.options[0].items() if values[0, 1, 0] > values[0, 0, 0] + 1e-12
    }
    found = headline(ruleset, 2)
    listed = found["by_living"][0]["deviations"]
    assert len(listed) == len(better)
    assert found["differs"] == bool(better)
    if ruleset.optional_choices:
        assert (
            better and found["alone"]["p_finish"]["optimal"] > found["alone"]["p_finish"]["eager"]
        )
    else:
        assert not alone.options[0] and "no decisions" in sentence(found)


def test_the_solitaires_product_on_a_race_worked_by_hand() -> None:
    """Each pawn finishes on turn 1 or 2, half and half: the first seat wins on turn 1 (1/2) or
    on turn 2 when the second has not finished on his turn 1 (1/4)."""
    assert solitaires(np.array([0.0, 0.5, 0.5]), 2) == pytest.approx([0.75, 0.25])
    assert solitaires(np.array([0.0, 0.5, 0.5]), 3) == pytest.approx([0.625, 0.25, 0.125])


@pytest.mark.parametrize("edition", ["standard", "classic"])
def test_the_solitaires_are_the_exact_game_but_for_the_swap(edition: str) -> None:
    ruleset = Ruleset(edition)
    alone = single_figures(solve_game(ruleset, 1, "eager"))
    assert solitaires(alone.turns, 1) == pytest.approx([alone.p_finish], abs=1e-12)
    for players in (2, 3):
        found = headline(ruleset, players)
        product, exact = found["solitaires"]["p_win"], found["solitaires"]["exact"]
        # Apart, nobody wins only when every pawn dies on its own (the swap moves deaths too).
        assert sum(product) == pytest.approx(1 - alone.p_death**players, abs=1e-12)
        assert sum(exact) == pytest.approx(sum(product), abs=1e-4)
        # The swap helps the later seats a little: it is a real, small effect.
        assert 1e-4 < product[0] - exact[0] < 5e-3


def test_analyze_states_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--players", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    held = figures["headline"]["by_living"][1]["placings"]
    assert held == 45  # the codes a pawn can hold in standard: 0..44 but 25, and 12 with a skip
    assert main(["analyze", "--players", "3"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # the sentence is wrapped
    assert f"0 of {held} / {held**2:,} placings" in text
    assert "A lone player deviates from eager: restart on 4" in text
    gain = max(abs(g) for g in figures["headline"]["gain"])
    assert f"at most {100 * gain:.2g} points" in text
