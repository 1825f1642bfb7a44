"""benchmarks/rl_baselines.py's MCTS rows in the tokens objective, run tiny (2 simulations a
decision, 3 paired games a seat): the table has them, with a paired gain over eager and its
interval, and refuses option values that would print nothing. Timings are never asserted."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel", reason="the optional extra 'rl' is not installed")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_baselines.py"
NUMBER = r"[+-]?\d+\.\d+"


def _baselines() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_baselines", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), *args])
    _baselines().main()
    return capsys.readouterr().out


def test_mcts_searching_tokens_is_scored_in_tokens_against_eager(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(monkeypatch, capsys, "--players", "2", "--agents", "", "--mcts", "2",
               "--mcts-objectives", "tokens", "--mcts-tokens-games", "3")  # fmt: skip
    rows = [line for line in out.splitlines() if "mcts-2" in line]
    assert len(rows) == 1, out
    assert re.match(
        rf"\s+2  mcts-2-tokens\s+-\s+-\s+{NUMBER}\s+{NUMBER} \(± {NUMBER} a seat\)\s+{NUMBER}"
        r", MCTS on 3 paired games a seat$",
        rows[0],
    ), rows[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--mcts-objectives", "money"], "--mcts-objectives: one or both of win, tokens"),
        (["--mcts-tokens-games", "1"], "--mcts-tokens-games: 0, or at least 2"),
        (["--mcts", "2", "--mcts-tokens-games", "0", "--mcts-objectives", "tokens"],
         "needs --mcts-tokens-games of at least 2"),
    ],
)  # fmt: skip
def test_bad_mcts_options_are_clear_errors(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    says: str,
) -> None:
    with pytest.raises(SystemExit) as exit_:
        _run(monkeypatch, capsys, "--agents", "", *args)
    assert exit_.value.code == 2 and says in capsys.readouterr().err
