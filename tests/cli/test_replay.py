"""`robinson replay`: the narration in each language, the JSON contract, and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robinson.cli import main
from robinson.i18n import Translator

RECORD = {
    "ruleset": {"edition": "standard"},
    "players": ["Anna", "Bruno"],
    "first": 0,
    # Anna 3 (storm, +1), Bruno 4 (shipwreck), Anna 4 -> 7 (tree), Bruno 1: restart -> 1
    # (travel money for all), Anna 6 in the tree: move -> 13, Bruno 6 -> 7, Anna 4 -> 17
    # (the parrot); Bruno is left in the tree with a roll due.
    "actions": [
        {"roll": 3},
        {"roll": 4},
        {"roll": 4},
        {"roll": 1},
        {"choose": "restart"},
        {"roll": 6},
        {"choose": "move"},
        {"roll": 6},
        {"roll": 4},
    ],
}

EXPECTED = {
    "en": [
        "Anna rolls 3.",
        "Bruno chooses to start again from the beginning.",
        "Everyone: “Poor Robinson!”",
        "Anna pays 1 token into the bank as travel money.",
    ],
    "lv": [
        "Anna uzmet 3.",
        "Bruno izvēlas sākt no sākuma.",
        "Visi: “Nabaga Robinsons!”",
        "Anna iemaksā bankā 1 žetonu kā ceļa naudu.",
    ],
    "cs": [
        "Anna hodí 3.",
        "Bruno se rozhodne začít znovu od začátku.",
        "Všichni: „Ubohý Robinson!“",
        "Anna platí do banku 1 žeton jako cestovné.",
    ],
    "ca": [
        "Anna treu un 3.",
        "Bruno tria tornar a començar des del principi.",
        "Tots: «Pobre Robinson!»",
        "Anna paga 1 fitxa al pot com a diners de viatge.",
    ],
}


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_narration_in_each_language(
    lang: str, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record), "--lang", lang]) == 0
    out = capsys.readouterr().out
    for sentence in EXPECTED[lang]:
        assert sentence in out
    # Each action is numbered, and the game is left with Bruno to roll.
    assert "   9. " in out and "  10. " not in out


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_every_turn_heading_is_indented_alike(
    lang: str, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20, found by reading replays: the first turn's heading stood at the margin, every
    later one under the action numbers."""
    assert main(["replay", str(record), "--lang", lang]) == 0
    out = capsys.readouterr().out.splitlines()
    heading = Translator(lang).format("event.turn_began", name="Anna")
    indents = {len(line) - len(line.lstrip()) for line in out if line.strip() == heading}
    assert indents == {6}


def test_default_language_comes_from_the_locale(
    record: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    assert main(["replay", str(record)]) == 0
    assert "Anna hodí 3." in capsys.readouterr().out


def test_json_contract_one_object_per_file(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**RECORD, "actions": RECORD["actions"][:1]}), encoding="utf-8")
    assert main(["replay", str(record), str(other), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["players"][0]["position"] == 17 and second["players"][0]["position"] == 3


def test_bad_action_names_its_index_after_narrating_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    bad = {**RECORD, "actions": [{"roll": 3}, {"roll": 4}, {"choose": "jump"}]}
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["replay", str(path), "--lang", "en"]) == 1
    captured = capsys.readouterr()
    assert "Bruno rolls 4." in captured.out
    assert "action 2" in captured.err and "expected" in captured.err


def test_unknown_language_is_refused(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(record), "--lang", "de"])
    assert exit_info.value.code == 2
    assert "lv" in capsys.readouterr().err
