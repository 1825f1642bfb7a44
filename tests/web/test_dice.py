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


# -- the second scheme: a seed from every seat (docs/fair-dice.md) ------------------------------


def _seeded(seed: bytes, given: dict[int, bytes], count: int, players: int = 2) -> GameRecord:
    entries = dice.all_contributions(seed, players, given)
    key = dice.seeds_key(seed, [e.seed for e in entries])
    meta = {
        "dice": {
            "scheme": dice.SCHEME_V2,
            "seed_sha256": dice.commitment(seed),
            "seed": seed.hex(),
            "seeds": [e.to_json() for e in entries],
        }
    }
    rolls = tuple(Roll(f) for f in dice.faces(key, count))
    return GameRecord(Ruleset("classic"), tuple("ABCD"[:players]), 0, rolls, meta)


def test_the_key_is_sha256_of_the_server_seed_and_each_seats_seed_with_its_length() -> None:
    seed, a, b = b"\x01" * 32, b"\x02" * 16, b"\x03" * 32
    expected = hashlib.sha256(
        b"robinson dice v2\0" + seed + bytes([16]) + a + bytes([32]) + b
    ).digest()
    assert dice.seeds_key(seed, [a, b]) == expected
    # the server's seed for a seat that gave none is fixed by its own seed
    mine = hmac.new(seed, b"robinson seat seed/1", hashlib.sha256).digest()
    assert dice.server_contribution(seed, 1) == mine
    entries = dice.all_contributions(seed, 2, {0: a})
    assert [(e.seat, e.seed, e.by) for e in entries] == [(0, a, "player"), (1, mine, "server")]
    # every seat's seed changes the dice
    assert dice.faces(dice.seeds_key(seed, [a, b]), 20) != dice.faces(
        dice.seeds_key(seed, [a, b[:-1] + b"\x04"]), 20
    )


def test_a_seat_seed_is_16_to_32_bytes_of_hex() -> None:
    assert dice.contribution("ab" * 16) == b"\xab" * 16
    assert dice.contribution("AB" * 32) == b"\xab" * 32
    for bad in ("ab" * 15, "ab" * 33, "zz" * 16, "abc" * 11, 12, None, "ab " * 16):
        assert dice.contribution(bad) is None


def test_verify_checks_the_second_scheme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = dice.new_seed()
    record = _seeded(seed, {0: b"\x05" * 16}, 12, players=3)
    assert dice.verify_record(record) == 12
    good = tmp_path / "good.json"
    good.write_text(record.dumps())
    assert main(["verify", "--lang", "en", str(good)]) == 0
    out = capsys.readouterr().out
    assert "OK: 12 rolls" in out and "from the players’ browsers: 1; the server’s: 2" in out

    def altered(change: str) -> Path:
        data = json.loads(record.dumps())
        if change == "roll":
            rolls = [i for i, a in enumerate(data["actions"]) if "roll" in a]
            data["actions"][rolls[4]]["roll"] = data["actions"][rolls[4]]["roll"] % 6 + 1
        elif change == "player seed":
            data["meta"]["dice"]["seeds"][0]["seed"] = "06" * 16
        elif change == "server seed":
            data["meta"]["dice"]["seeds"][2]["seed"] = "07" * 32
        elif change == "missing":
            del data["meta"]["dice"]["seeds"][1]
        path = tmp_path / f"{change}.json"
        path.write_text(json.dumps(data))
        return path

    assert main(["verify", "--lang", "en", str(altered("roll"))]) == 1
    assert "roll 4 was" in capsys.readouterr().err
    assert main(["verify", "--lang", "en", str(altered("player seed"))]) == 1
    assert "the server’s seed and the seats’ seeds give" in capsys.readouterr().err
    assert main(["verify", "--lang", "en", str(altered("server seed"))]) == 1
    assert "seat 2 is marked as the server’s" in capsys.readouterr().err
    assert main(["verify", "--lang", "en", str(altered("missing"))]) == 1
    assert "one seed for each of the 3 seats" in capsys.readouterr().err
    # in the user's language
    assert main(["verify", "--lang", "lv", str(altered("player seed"))]) == 1
    assert "no servera sēklas un vietu sēklām iznāk" in capsys.readouterr().err


def test_the_first_scheme_stays_valid() -> None:
    seed = dice.new_seed()
    assert dice.verify_record(_record(seed, dice.faces(seed, 8))) == 8
    with pytest.raises(dice.DiceMismatch, match="unknown dice scheme"):
        rec = _record(seed, dice.faces(seed, 8))
        rec.meta["dice"]["scheme"] = "hmac-sha256-bytes-v9"
        dice.verify_record(rec)
