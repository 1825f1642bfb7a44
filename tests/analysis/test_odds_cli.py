"""`robinson odds RECORD`: the chances after a record's last action, as text or JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from robinson.analysis.odds import position_odds
from robinson.cli import main
from robinson.engine import GameRecord

# RULES.md section 10's record without its last choice: Anna rolled 5 on the tree (7).
RECORD = {
    "ruleset": {"edition": "standard"},
    "players": ["Anna", "Bruno", "Cila"],
    "actions": [{"roll": r} for r in (3, 4, 6, 4, 2)]
    + [{"choose": "move"}, {"roll": 1}, {"roll": 5}],
}


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_json_gives_the_chances_and_the_options_of_the_pending_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", str(_write(tmp_path, RECORD)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    state = GameRecord.from_json(RECORD).replay()
    assert out == position_odds(state, "eager")
    assert set(out) == {"p_win", "p_no_winner", "method", "policy", "options"}
    assert out["method"] == "exact" and list(out["options"]) == ["stay", "move"]
    assert out["p_win"][0] == out["options"]["move"]  # eager moves on
    assert sum(out["p_win"]) + out["p_no_winner"] == pytest.approx(1.0)


def test_text_names_every_seat_and_the_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", str(_write(tmp_path, RECORD)), "--policy", "optimal"]) == 0
    text = capsys.readouterr().out
    for name in ("Anna", "Bruno", "Cila", "No winner", "Anna's chance after each option: Stay:"):
        assert name in text
    assert text.startswith("Chances (exact; optimal play):")


def test_text_is_in_the_language_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20: the chances in Czech words and numbers ("Bez vítěze", "40,30 %")."""
    assert main(["odds", "--lang", "cs", str(_write(tmp_path, RECORD))]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Šance (přesně; dychtivá hra):")
    assert "Bez vítěze" in text and "Šance po každé volbě (Anna): Zůstat: " in text
    assert re.search(r"\d+,\d\d\u00a0%", text) and "Chances" not in text


def test_bad_records_and_policies_are_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {**RECORD, "actions": [{"roll": 7}]}
    assert main(["odds", str(_write(tmp_path, bad))]) == 1
    assert "roll" in capsys.readouterr().err
    assert main(["odds", str(_write(tmp_path, RECORD)), "--policy", "lazy"]) == 1
    assert "unknown policy “lazy”: expected one of eager, optimal" in capsys.readouterr().err
    assert main(["odds", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
