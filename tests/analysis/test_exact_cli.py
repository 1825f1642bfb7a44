"""`robinson analyze`, the optimal policy's table and the optimal bot, end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from robinson.analysis.exact import codes, store
from robinson.analysis.policy import make_policy
from robinson.bots import BOT_NAMES, make_bot
from robinson.cli import main
from robinson.engine import Phase, Roll, Ruleset, apply, from_text, legal_actions, new_game


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The optimal policy's disk cache (exact/store.py) goes to a fresh directory."""
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path))


def test_analyze_json_has_the_issue_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--edition", "standard", "--players", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"edition", "players", "policy", "p_win", "p_no_winner", "single"} <= set(out)
    assert set(out["single"]) == {"p_finish", "p_death", "mean_turns", "median_turns", "p90_turns"}
    assert (out["edition"], out["players"], out["policy"]) == ("standard", 2, "eager")
    assert out["length"]["turns"] == pytest.approx(29.153190013666, rel=1e-11)  # every seat's
    assert all(row["arises_per_game"] > 0 and "weighted_gain" in row for row in out["choices"])
    assert sum(out["p_win"]) + out["p_no_winner"] == pytest.approx(1)
    # The question of the issue: one player in seven dies on 42.
    assert out["single"]["p_death"] == pytest.approx(1 / 7, abs=1e-3)
    squares = {(row["square"], row["roll"]) for row in out["choices"]}
    assert squares == {(4, r) for r in range(1, 7)} | {(7, r) for r in range(1, 7)} | {
        (20, None),
        (23, None),
    }


def test_analyze_text_for_optimal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--players", "2", "--policy", "optimal"]) == 0
    text = capsys.readouterr().out
    assert "seat 0:" in text and "dies on 42" in text and "square 23" in text
    assert "Expected length (exact, everybody eager): 29.153 turns" in text
    assert "Weighted by where the game goes" in text and "arises 0.7747 per game" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "players must be 1 to 8"),
        (["--players", "0"], "players must be 1 to"),
        (["--policy", "lazy"], "expected one of eager, optimal"),
        (["--edition", "xx"], "unknown edition"),
    ],
)
def test_analyze_rejects_bad_input(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", *args]) == 2
    assert message in capsys.readouterr().err


def test_optimal_table_layout_and_a_known_choice() -> None:
    policy = make_policy("optimal", Ruleset("standard"), 2)
    table = policy.tables[2]  # type: ignore[attr-defined]
    assert table.shape == (4, 7, codes.K) and table.dtype.name == "uint8"
    # Alone there is no race, and from 23 the pawn is a little less likely to meet the 6 on 42:
    state = from_text("standard,30,10,half 20 0c 23/10 0/10/x")
    assert policy.decide(state).option == "stay"
    # Racing a living opponent, jump.
    state = from_text("standard,30,10,half 20 0c 23/10 30/10")
    assert policy.decide(state).option == "jump"


def test_optimal_bot_is_registered_and_plays_legal_games() -> None:
    import robinson.bots.optimal  # noqa: F401  (registers the bot)

    assert "optimal" in BOT_NAMES
    bot = make_bot("optimal")
    rng = random.Random(5)
    for _ in range(20):
        state = new_game(2, Ruleset("standard"))
        while not state.over:
            if state.phase is Phase.ROLL:
                state, _ = apply(state, Roll(rng.randint(1, 6)))
            else:
                choice = bot.choose(state)
                assert choice in legal_actions(state)
                state, _ = apply(state, choice)
