"""Fair dice: the derivation, its verification, and `robinson verify`."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path

import pytest

from robinson import fairdice as dice
from robinson.cli import main
from robinson.engine import GameRecord, Roll, Ruleset


def test_a_face_is_the_first_byte_below_252_of_the_hmac_mod_6_plus_1() -> None:
    seed = bytes(range(32))
    for index in range(50):
        digest = hmac.new(seed, str(index).encode(), hashlib.sha256).digest()
        byte = next(b for b in digest if b < 252)
        assert dice.face(seed, index) == byte % 6 + 1


def test_faces_are_deterministic_and_roughly_uniform() -> None:
    seed = b"\x07" * 32
    faces = dice.faces(seed, 6000)
    assert faces == dice.faces(seed, 6000)
    counts = Counter(faces)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts  # ~7 sigma


def test_verify_accepts_the_true_rolls_and_names_the_first_false_one() -> None:
    seed = dice.new_seed()
    rolls = dice.faces(seed, 20)
    assert dice.verify_rolls(seed.hex(), dice.commitment(seed), rolls) == 20
    bad = list(rolls)
    bad[7] = bad[7] % 6 + 1
    with pytest.raises(dice.DiceMismatch, match="roll 7 was"):
        dice.verify_rolls(seed.hex(), dice.commitment(seed), bad)
    with pytest.raises(dice.DiceMismatch, match="SHA-256 of the seed"):
        dice.verify_rolls(seed.hex(), "0" * 64, rolls)


def _record(seed: bytes, rolls: list[int], reveal: bool = True) -> GameRecord:
    meta = {"dice": {"scheme": dice.SCHEME, "seed_sha256": dice.commitment(seed)}}
    if reveal:
        meta["dice"]["seed"] = seed.hex()
    return GameRecord(Ruleset("classic"), ("A", "B"), 0, tuple(Roll(f) for f in rolls), meta)


def test_robinson_verify_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seed = dice.new_seed()
    good = tmp_path / "good.json"
    good.write_text(_record(seed, dice.faces(seed, 10)).dumps())
    assert main(["verify", str(good)]) == 0
    assert "OK: 10 rolls" in capsys.readouterr().out

    wrong = dice.faces(seed, 10)
    wrong[3] = wrong[3] % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(_record(seed, wrong).dumps())
    assert main(["verify", str(bad)]) == 1
    assert "roll 3 was" in capsys.readouterr().err

    hidden = tmp_path / "hidden.json"
    hidden.write_text(_record(seed, dice.faces(seed, 3), reveal=False).dumps())
    assert main(["verify", str(hidden)]) == 1
    assert "seed is missing" in capsys.readouterr().err

    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"ruleset": {"edition": "standard"}, "players": ["A", "B"]}))
    assert main(["verify", str(plain)]) == 1
    assert "no" in capsys.readouterr().err
