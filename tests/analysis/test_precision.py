"""Simulated figures are printed to the precision their interval supports, and `simulate` has a
default number of games (issue 21)."""

from __future__ import annotations

import json
import re

import pytest

from robinson.analysis.precision import decimals, estimate_text
from robinson.analysis.sim.stats import proportion
from robinson.cli import main
from robinson.cli.simulate import DEFAULT_GAMES


def test_the_decimals_follow_the_half_width_of_the_interval() -> None:
    assert decimals(0.2810, 0.2834) == 4  # half-width 0.0012: two significant digits of it
    assert decimals(30.2, 30.8) == 2
    assert decimals(12.0, 52.0) == 0
    assert estimate_text(0.28245, 0.28157, 0.28333) == "0.28245 [0.28157, 0.28333]"
    assert estimate_text(2.49, 2.2, 2.8) == "2.49 [2.20, 2.80]"


def test_a_rare_event_is_not_printed_as_zeros() -> None:
    """4 in a million: a fixed four decimals said `0.0000 [0.0000, 0.0000]`."""
    text = str(proportion(4, 1_000_000))
    assert "0.0000 [" not in text
    value, low, high = (float(x) for x in re.findall(r"[0-9.e+-]+", text))
    assert value == pytest.approx(4e-6, rel=0.01) and 0 < low < value < high < 2e-5


def test_a_figure_without_spread_keeps_four_decimals() -> None:
    assert estimate_text(0.0, 0.0, 0.0) == "0.0000 [0.0000, 0.0000]"


def test_simulate_defaults_the_games_and_prints_each_figure_to_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--players", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == DEFAULT_GAMES["fast"]
    assert main(["simulate", "--players", "4"]) == 0
    text = capsys.readouterr().out
    assert f"{DEFAULT_GAMES['fast']:,} games" in text
    no_winner = data["p_no_winner"]
    shown = re.search(r"P\(no winner\)\s+(\S+) \[", text)
    assert shown is not None
    places = decimals(*no_winner["ci95"])
    assert places is not None and places > 4  # about 4 in 10,000 games: more than 4 decimals
    assert shown.group(1) == f"{no_winner['value']:.{places}f}"


def test_analyze_beyond_four_prints_the_rare_no_winner_to_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """6 players: about 4 games in a million have no winner; `0.0004 %` said nothing of it."""
    assert main(["analyze", "--players", "6", "--games", "300000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["analyze", "--players", "6", "--games", "300000"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "no winner" in x)
    low, high = data["p_no_winner_ci95"]
    assert line == f"  no winner: {estimate_text(data['p_no_winner'], low, high, 100)} %"
    assert float(line.split(", ")[1].rstrip("] %")) > 0  # the upper bound, not rounded away
