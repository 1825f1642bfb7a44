"""The chances in the terminal: `robinson play --odds`, `robinson replay --odds` and
`robinson analyze --record`, each agreeing with `robinson.analysis.odds`."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from robinson.analysis.odds import position_odds
from robinson.analysis.odds.history import biggest_swings, chances_over_game
from robinson.cli import main
from robinson.engine import GameRecord, Phase
from robinson.engine.events import TurnBegan

RECORD = {
    "ruleset": {"edition": "standard"},
    "players": ["Anna", "Bruno", "Cila"],
    "actions": [{"roll": r} for r in (3, 4, 6, 4, 2)]
    + [{"choose": "move"}, {"roll": 1}, {"roll": 5}],
}


def _chances(record: GameRecord, state_odds: dict[str, object]) -> str:
    p_win = state_odds["p_win"]
    assert isinstance(p_win, list)
    listed = " · ".join(f"{n} {100 * p:.1f}%" for n, p in zip(record.players, p_win, strict=True))
    return f"Chances: {listed}"


def test_play_odds_prints_the_chances_after_every_turn_and_at_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    args = ["play", "--seed", "5", "--lang", "en", "--odds", "--save", str(save)]
    assert main([*args, "--edition", "standard"]) == 0
    out = capsys.readouterr().out
    record = GameRecord.loads(save.read_text(encoding="utf-8"))
    expected = [_chances(record, position_odds(record.initial_state()))]
    decisions = 0
    for _, state, events in record.steps():
        if state.over or any(isinstance(e, TurnBegan) for e in events):
            expected.append(_chances(record, position_odds(state)))
        elif state.phase is not Phase.ROLL:
            expected.append(_chances(record, position_odds(state)))
            decisions += 1
    printed = [line.strip() for line in out.splitlines() if line.strip().startswith("Chances:")]
    assert printed == expected
    options = [line for line in out.splitlines() if "chance after each option" in line]
    assert len(options) == decisions > 0


def test_replay_odds_adds_the_chances_and_the_swings_in_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    assert main(["replay", str(path), "--lang", "ca", "--odds"]) == 0
    out = capsys.readouterr().out
    record = GameRecord.from_json(RECORD)
    last = position_odds(record.replay())
    assert "Probabilitats: Anna " in out
    # the pending tree: each option's chance for Anna (a decimal comma in Catalan)
    stay = f"{100 * last['options']['stay']:.1f}".replace(".", ",")
    assert re.search(rf"Queda’t: {stay}\s?%", out), out
    swings = biggest_swings(chances_over_game(record))
    assert "Els canvis més grans:" in out
    assert out.count("casella") >= len(swings)


def test_analyze_record_gives_the_positions_chances(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    assert main(["analyze", "--record", str(path), "--json", "--policy", "optimal"]) == 0
    out = json.loads(capsys.readouterr().out)
    state = GameRecord.from_json(RECORD).replay()
    assert out == {
        "edition": "standard",
        "players": 3,
        "version": 8,
        "to_move": 0,
        **position_odds(state, "optimal"),
    }
    assert main(["analyze", "--record", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
