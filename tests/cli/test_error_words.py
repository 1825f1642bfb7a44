"""Issue 20: `robinson replay`, `verify` and `odds` say what is wrong with a record in the
language asked for (catalogued `error.*` messages, not the engine's English), and every key the
engine, the dice check and the odds raise with has a message in every catalog."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from robinson.cli import main
from robinson.i18n import LANGUAGES
from robinson.i18n.catalogs import message_keys

SRC = Path(__file__).resolve().parents[2] / "src" / "robinson"
BASE = {"ruleset": {"edition": "standard"}, "players": ["Anna", "Bruno"]}

ROLL_OF_7 = {
    "lv": "darbība 0: metiens ir vesels skaitlis no 1 līdz 6, nevis 7",
    "cs": "akce 0: hod je celé číslo od 1 do 6, ne 7",
    "ca": "acció 0: una tirada és un nombre enter de l’1 al 6, no 7",
    "en": "action 0: a roll is a whole number from 1 to 6, got 7",
}
CHOICE_BEFORE_ANY_ROLL = {
    "lv": "darbība 0 (izvēle “Mest vēlreiz”): tajā brīdī nebija atļauta "
    "(gaidīja: metiens no 1 līdz 6)",
    "cs": "akce 0 (volba „Hodit znovu“): v tu chvíli nebyla povolená (čekalo se: hod od 1 do 6)",
    "ca": "acció 0 (l’elecció «Torna a tirar»): en aquell moment no estava permesa "
    "(s’esperava: una tirada de l’1 al 6)",
    "en": "action 0 (the choice “Roll again”): not allowed at that point "
    "(expected: a roll from 1 to 6)",
}
NO_SUCH_FILE = {
    "lv": "nevar nolasīt: tāda faila nav",
    "cs": "nelze přečíst: takový soubor neexistuje",
    "ca": "no es pot llegir: aquest fitxer no existeix",
    "en": "cannot read: no such file",
}
UNKNOWN_EDITION = {
    "lv": "nezināms izdevums “xx”: der standard, lv, cs, ca, classic",
    "cs": "neznámé vydání „xx“: platí standard, lv, cs, ca, classic",
    "ca": "edició desconeguda «xx»: les vàlides són standard, lv, cs, ca, classic",
    "en": "unknown edition “xx”: expected one of standard, lv, cs, ca, classic",
}


def _write(tmp_path: Path, name: str, record: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_says_a_bad_roll_in_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad.json", {**BASE, "actions": [{"roll": 7}]})
    assert main(["replay", "--lang", lang, path]) == 1
    assert capsys.readouterr().err == f"robinson replay: {path}: {ROLL_OF_7[lang]}\n"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_says_an_illegal_action_and_what_was_expected(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "illegal.json", {**BASE, "actions": [{"choose": "again"}]})
    assert main(["replay", "--lang", lang, path]) == 1
    assert capsys.readouterr().err.endswith(f": {CHOICE_BEFORE_ANY_ROLL[lang]}\n")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_replay_says_an_unknown_edition_in_the_languages_quotes(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "edition.json", {**BASE, "ruleset": {"edition": "xx"}})
    assert main(["replay", "--lang", lang, path]) == 1
    assert capsys.readouterr().err.endswith(f": {UNKNOWN_EDITION[lang]}\n")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_verify_and_odds_say_a_missing_file_in_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing.json")
    for command in ("verify", "odds", "replay"):
        assert main([command, "--lang", lang, missing]) == 2
        assert capsys.readouterr().err == f"robinson {command}: {missing}: {NO_SUCH_FILE[lang]}\n"


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_verify_failure_has_no_english(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad.json", {**BASE, "actions": [{"roll": 7}]})
    assert main(["verify", "--lang", lang, path]) == 1
    err = capsys.readouterr().err
    assert ROLL_OF_7[lang] in err
    assert not re.search(r"\b(FAILED|action|roll|got|expected)\b", err.split(": ", 1)[1])


def _raised_keys() -> set[str]:
    """Every `key="…"` an error is raised with in the source; f-string keys by their variants."""
    keys: set[str] = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'\bkey="([a-z_.]+)"', text))
        for stem, tail in re.findall(r'\bkey=f"([a-z_.]+)\{field\}([a-z_.]*)"', text):
            keys |= {f"{stem}{field}{tail}" for field in ("start_tokens", "stake")}
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_key_has_a_message(lang: str) -> None:
    keys = _raised_keys()
    assert {"roll", "record.illegal", "dice.roll", "ruleset.stake.whole", "policy"} <= keys
    missing = sorted(k for k in keys if f"error.{k}" not in message_keys(lang))
    assert missing == []
