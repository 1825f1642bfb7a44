"""`robinson play` end to end through `robinson.cli.main`, with stdin piped in."""

from __future__ import annotations

import argparse
import io
import json
import random
from pathlib import Path

import pytest

from robinson.bots import make_bot
from robinson.cli import main
from robinson.cli.play import setup
from robinson.engine import (
    DECISIONS,
    Choose,
    GameRecord,
    Phase,
    Roll,
    Ruleset,
    State,
    apply,
    new_game,
)
from robinson.tui.game import Quit


def run_play(
    args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["play", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_all_bot_game_without_a_terminal_completes_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    code, out, _ = run_play(
        ["--seed", "11", "--lang", "en", "--save", str(save)], "", monkeypatch, capsys
    )
    assert code == 0, out
    assert "Final standings:" in out and f"Game record saved to {save}." in out
    record = GameRecord.loads(save.read_text(encoding="utf-8"))
    assert record.meta["seed"] == 11
    final = record.replay()
    assert final.over
    # The standings printed are those of the replayed state.
    for name, player in zip(record.players, final.players, strict=True):
        assert f"{name}: Purse {player.purse}, Square {player.position}" in out
    # And `robinson replay` narrates the same record to the same end.
    assert main(["replay", str(save), "--lang", "en"]) == 0
    assert "Final standings:" in capsys.readouterr().out


def test_same_seed_same_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outs = []
    for name in ("a.json", "b.json"):
        run_play(["--seed", "5", "--save", str(tmp_path / name)], "", monkeypatch, capsys)
        outs.append(json.loads((tmp_path / name).read_text(encoding="utf-8"))["actions"])
    assert outs[0] == outs[1]


def _script(seed: int) -> tuple[str, list[dict[str, object]]] | None:
    """Answers for Anna (human, seat 0) against Bruno (heuristic, seat 1, younger, so he starts)
    with the play command's dice: Enter for each roll; at each decision first a bad answer, then
    "2" (the second option). None if Anna never decides in this game."""
    dice, bot = random.Random(seed), make_bot("heuristic", seed + 1)
    state: State = new_game(2, Ruleset("standard"), first=1)
    lines, actions, decided = [], [], False
    while not state.over:
        if state.phase is Phase.ROLL:
            if state.to_move == 0:
                lines.append("")
            action = Roll(dice.randint(1, 6))
        elif state.to_move == 1:
            action = bot.choose(state)
        else:
            lines += ["maybe", "2"]
            decided = True
            action = Choose(DECISIONS[state.phase][1])
        state, _ = apply(state, action)
        actions.append(action.to_json())
    return ("\n".join(lines) + "\n", actions) if decided else None


def test_scripted_human_game_with_a_bad_answer_reprompted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seed, script = next((s, x) for s in range(200) if (x := _script(s)) is not None)
    stdin, actions = script
    save = tmp_path / "human.json"
    args = ["--players", "Anna:human:9,Bruno:heuristic:7", "--edition", "standard"]
    args += ["--seed", str(seed), "--lang", "en", "--save", str(save)]
    code, out, _ = run_play(args, stdin, monkeypatch, capsys)
    assert code == 0, out
    assert "Bruno is the youngest and starts as the cashier." in out
    assert "Please answer 1 or 2." in out
    assert "Anna, press Enter to roll (h = help, q = quit): " in out
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["first"] == 1 and record["actions"] == actions


def test_quit_and_end_of_input_still_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "partial.json"
    args = ["--human", "Anna", "--bot", "random:Robo", "--seed", "1", "--lang", "lv"]
    code, out, _ = run_play([*args, "--save", str(save)], "\n\nq\n", monkeypatch, capsys)
    assert code == 1
    assert "Spēle tika pārtraukta." in out
    partial = GameRecord.loads(save.read_text(encoding="utf-8"))
    assert len([a for a in partial.actions if isinstance(a, Roll)]) >= 2
    partial.replay()  # a legal record
    code, out, _ = run_play([*args, "--save", str(save)], "\n", monkeypatch, capsys)
    assert code == 1 and "Spēles ieraksts saglabāts" in out
    code, out, _ = run_play(args, "", monkeypatch, capsys)
    assert code == 1 and "Spēles ieraksts nav saglabāts." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "Anna"], "NAME:KIND[:AGE]"),
        (["--players", "Anna:wizard,Bruno:random"], "unknown player kind 'wizard'"),
        (["--players", "Anna:human"], "2 to 8 players"),
        (["--players", "Anna:human:old,Bruno:random"], "whole number of years"),
        (["--players", "Anna:human,Anna:random"], "names must differ"),
        (["--players", "A:random,B:random", "--human", "C"], "either with --players"),
        (["--stake", "40"], "stake must be between 0 and the tokens at the start"),
    ],
)
def test_bad_setup_is_explained(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run_play(args, "", monkeypatch, capsys)
    assert code == 2 and message in err


def test_bad_bot_flag_is_an_argument_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run_play(["--bot", "wizard"], "", monkeypatch, capsys)
    assert exit_info.value.code == 2


def _namespace(**overrides: object) -> argparse.Namespace:
    base: dict[str, object] = dict(
        players=None,
        seats=None,
        edition=None,
        start_tokens=30,
        stake=10,
        share="half",
        lang=None,
        seed=3,
        save=None,
        pace=0.0,
    )
    return argparse.Namespace(**{**base, **overrides})


def test_interactive_setup_asks_and_reasks(capsys: pytest.CaptureFixture[str]) -> None:
    # language (bad, then Catalan), name (empty, then Anna), age, other players (bad, then two),
    # edition (Enter: the edition of the language)
    answers = iter(["de", "ca", "", "Anna", "8", "Bruno", "Bruno:random:9,Cila:robot", ""])
    questions: list[str] = []

    def ask(question: str) -> str:
        questions.append(question)
        return next(answers)

    game = setup(_namespace(), True, ask)
    assert game.t.lang == "ca"
    assert game.record.ruleset.edition == "ca"  # the edition of the language by default
    assert game.names == ("Anna", "Bruno", "Cila") and game.record.first == 0
    assert [s.kind for s in game.seats] == ["human", "random", "heuristic"]
    assert len(questions) == 8
    assert questions[2] == questions[3] == "El teu nom: "  # the empty name re-asked
    assert questions[5] == questions[6]  # the bad players re-asked
    out = capsys.readouterr().out
    assert "No ho entenc" in out and "Escriu un nom, si us plau." in out


def test_interactive_setup_end_of_input_quits() -> None:
    def ask(question: str) -> str:
        raise Quit

    with pytest.raises(Quit):
        setup(_namespace(), True, ask)
