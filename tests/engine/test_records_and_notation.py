"""Game records (RULES.md 10) and the one-line position text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robinson.engine import (
    BadPosition,
    BadRuleset,
    GameRecord,
    IllegalAction,
    MalformedInput,
    from_text,
    state_to_json,
    to_text,
)

EXAMPLE = {
    "ruleset": {"edition": "standard", "start_tokens": 30, "stake": 10, "share": "half"},
    "players": ["Anna", "Bruno", "Cila"],
    "first": 0,
    "actions": [{"roll": 3}, {"roll": 4}, {"roll": 6}, {"choose": "stay"}],
}


def test_an_illegal_action_names_its_index_and_what_was_expected() -> None:
    # RULES.md's format example: after rolls 3, 4, 6 Anna must roll, so "stay" is refused.
    record = GameRecord.from_json(EXAMPLE)
    with pytest.raises(IllegalAction, match=r"action 3 \(choose stay\).*expected a roll"):
        record.replay()


def test_a_valid_record_gives_the_replay_json() -> None:
    data = dict(EXAMPLE, actions=[{"roll": 3}, {"roll": 4}, {"roll": 6}, {"roll": 4}])
    record = GameRecord.from_json(data)
    out = state_to_json(record.replay(), record.players)
    assert out["over"] is False and out["winner"] is None and out["to_move"] == 1
    assert out["bank"] == 29
    assert [(p["name"], p["position"], p["purse"]) for p in out["players"]] == [
        ("Anna", 7, 21),
        ("Bruno", 4, 20),
        ("Cila", 6, 20),
    ]
    assert out["players"][1]["shipwrecked"] is True
    assert set(out["players"][0]) >= {"name", "position", "purse", "alive", "friday", "skips"}


def test_defaults_for_omitted_options_and_first() -> None:
    record = GameRecord.from_json({"ruleset": {"edition": "ca"}, "players": ["a", "b"]})
    assert record.first == 0 and record.actions == ()
    assert record.ruleset.stake == 10


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        ([], MalformedInput, "a record is a JSON object"),
        ({"players": ["a", "b"]}, MalformedInput, "needs 'ruleset'"),
        ({"ruleset": {"edition": "x"}, "players": ["a", "b"]}, BadRuleset, "unknown edition"),
        ({"ruleset": {"edition": "lv"}, "players": ["a"]}, BadRuleset, "2 to 8 players"),
        ({"ruleset": {"edition": "lv"}, "players": "ab"}, MalformedInput, "list of names"),
        (
            {"ruleset": {"edition": "lv"}, "players": ["a", "b"], "first": 2},
            MalformedInput,
            "first",
        ),
        (
            {"ruleset": {"edition": "lv"}, "players": ["a", "b"], "actions": [{"roll": 7}]},
            MalformedInput,
            "action 0: a roll is a whole number from 1 to 6",
        ),
        (
            {"ruleset": {"edition": "lv"}, "players": ["a", "b"], "actions": [{"move": 1}]},
            MalformedInput,
            "action 0: an action is",
        ),
        (
            {"ruleset": {"edition": "lv"}, "players": ["a", "b"], "extra": 1},
            MalformedInput,
            "unknown",
        ),
    ],
)
def test_malformed_records_are_refused_clearly(
    data: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        GameRecord.from_json(data)


def test_not_json_is_a_clear_error() -> None:
    with pytest.raises(MalformedInput, match="a record is JSON"):
        GameRecord.loads("{not json")


def test_actions_after_the_end_are_refused() -> None:
    golden = json.loads((Path(__file__).parent / "golden" / "standard_3p.json").read_text())
    actions = [step["action"] for step in golden["steps"][1:]]
    data = {k: golden[k] for k in ("ruleset", "players", "first")}
    assert GameRecord.from_json({**data, "actions": actions}).replay().over
    late = GameRecord.from_json({**data, "actions": [*actions, {"roll": 1}]})
    with pytest.raises(IllegalAction, match=f"action {len(actions)} .*the game is over"):
        late.replay()


def test_meta_is_carried_through_and_ignored_by_replay() -> None:
    data = dict(EXAMPLE, actions=[{"roll": 3}], meta={"seed_sha256": "ab"})
    record = GameRecord.from_json(data)
    assert record.meta == {"seed_sha256": "ab"}
    assert json.loads(record.dumps())["meta"] == {"seed_sha256": "ab"}


@pytest.mark.parametrize(
    "text",
    [
        "standard,30,10,half 30 0r 0/20 0/20 0/20",
        "lv,20,5,third 7 1w3 4/20/m 12/13/f0/s1 42/0/x",
        "classic,30,10,half 0 #2 40/1 30/2 45/3",
        "ca,30,10,half 30 #- 42/20/x 42/20/x",
        "cs,30,10,half 1 0b 20/20 0/0/f0",
    ],
)
def test_position_text_round_trips(text: str) -> None:
    assert to_text(from_text(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("standard 30 0r 0/20", "expected 'ruleset bank status"),
        ("dutch,30,10,half 30 0r 0/20 0/20", "bad ruleset part"),
        ("standard,30,10,half x 0r 0/20 0/20", "the bank is a whole number"),
        ("standard,30,10,half 30 0q 0/20 0/20", "bad status"),
        ("standard,30,10,half 30 5r 0/20 0/20", "not a living seat"),
        ("standard,30,10,half 30 0r 0/20/z 0/20", "bad flag"),
        ("standard,30,10,half 30 0r 46/20 0/20", "a position is 0 to 45"),
    ],
)
def test_bad_position_text_names_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        from_text(text)
