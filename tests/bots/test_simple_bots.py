"""The simple bots answer every decision legally, and the heuristic one sensibly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from robinson.bots import BOT_NAMES, make_bot
from robinson.engine import Phase, RobinsonError, apply, from_text, legal_actions, new_game
from robinson.engine.actions import Roll


@pytest.mark.parametrize("name", ["random", "eager", "heuristic"])
def test_bot_plays_whole_games_legally(name: str) -> None:
    bot = make_bot(name, seed=1)
    faces = iter([3, 1, 4, 1, 5, 2, 6, 5, 3, 5, 6, 2, 1, 4] * 200)
    state = new_game(3)
    while not state.over:
        action = Roll(next(faces)) if state.phase is Phase.ROLL else bot.choose(state)
        assert action in legal_actions(state)
        state, _ = apply(state, action)


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(RobinsonError, match="expected one of random, eager, heuristic"):
        make_bot("genius")
    assert BOT_NAMES[:3] == ["random", "eager", "heuristic"]


@pytest.mark.parametrize(
    ("position", "option"),
    [
        ("standard,30,10,half 20 0w6 4/20/m 0/20", "move"),  # 10 beats 6
        ("standard,30,10,half 20 0t3 7/20 0/20", "move"),  # 10 is still progress
        ("standard,30,10,half 20 0b 20/20 0/20", "again"),
        ("standard,30,10,half 20 0c 23/20 0/20", "jump"),
    ],
)
def test_heuristic_choices(position: str, option: str) -> None:
    assert make_bot("heuristic").choose(from_text(position)).option == option


def test_eager_never_holds_back() -> None:
    bot = make_bot("eager")
    assert bot.choose(from_text("standard,30,10,half 20 0w1 4/20/m 0/20")).option == "move"
    assert bot.choose(from_text("standard,30,10,half 20 0t1 7/20 0/20")).option == "move"


def test_the_optimal_bot_is_registered_without_importing_the_analysis() -> None:
    # In a fresh interpreter: this test process has long imported the analysis.
    code = (
        "import sys, robinson.bots\n"
        "assert 'optimal' in robinson.bots.BOT_NAMES\n"
        "sys.exit(1 if 'robinson.analysis' in sys.modules else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
    assert "optimal" in BOT_NAMES
    state = from_text("standard,30,10,half 20 0c 23/20 0/20")
    assert make_bot("optimal").choose(state).option in ("jump", "stay")
    assert make_bot("optimal").choose(state) in legal_actions(state)
