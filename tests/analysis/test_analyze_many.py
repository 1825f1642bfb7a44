"""`robinson analyze` for 5 to 8 players: simulated win chances, exact one-player figures."""

from __future__ import annotations

import json

import pytest

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import single_figures
from robinson.analysis.many import analyze_many
from robinson.cli import main
from robinson.engine import BadRuleset, Ruleset


def test_five_players_simulated_with_intervals_and_exact_single_figures() -> None:
    f = analyze_many(Ruleset("lv"), 5, "eager", games=20_000, seed=3)
    assert f["method"] == "simulation" and f["players"] == 5 and len(f["p_win"]) == 5
    assert sum(f["p_win"]) + f["p_no_winner"] == pytest.approx(1.0)
    for p, (low, high) in zip(f["p_win"], f["p_win_ci95"], strict=True):
        assert low <= p <= high
    # Seat 0 moves first: in a race of five it is clearly favoured over the last seat.
    assert f["p_win_ci95"][0][0] > f["p_win_ci95"][4][1]
    exact = single_figures(solve_game(Ruleset("lv"), 1, "eager")).to_json()
    assert f["single"] == exact


def test_optimal_beyond_the_exact_chain_says_it_played_eager() -> None:
    f = analyze_many(Ruleset("standard"), 6, "optimal", games=2_000)
    assert f["policy"] == "optimal" and f["policy_played"] == "eager"


def test_nine_players_is_a_clear_error() -> None:
    with pytest.raises(BadRuleset, match="players must be 1 to 8"):
        analyze_many(Ruleset("standard"), 9, "eager", games=10)


def test_cli_json_for_seven_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--players", "7", "--games", "5000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"edition", "players", "policy", "p_win", "p_no_winner", "single"} <= set(out)
    assert set(out["single"]) >= {"p_finish", "p_death", "mean_turns", "median_turns", "p90_turns"}
    assert len(out["p_win"]) == 7


def test_cli_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--players", "5", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
