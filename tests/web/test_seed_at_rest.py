"""The dice seed at rest (issue 22): stored encrypted with a key kept outside the database, so a
copy of the database predicts no roll; the rolls, the records and `robinson verify` are as
before. In process, on the fake clock (the server's own wiring: test_restart's system test)."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from robinson import fairdice
from robinson.engine import GameRecord
from robinson.web.service import SeatSpec
from robinson.web.settings import Settings
from robinson.web.store import Store
from robinson.web.store.seeds import SeedBox, SeedKeyError, key_path, load_key
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served

pytestmark = pytest.mark.anyio

SEED = bytes(range(32))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_the_key_is_made_once_beside_the_database_readable_by_its_owner_alone(
    tmp_path: Path,
) -> None:
    path = key_path(str(tmp_path / "r.sqlite3"), None)
    assert path == tmp_path / "robinson-seed.key"
    key = load_key(path)
    assert len(key) == 32 and load_key(path) == key
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert key_path(str(tmp_path / "r.sqlite3"), str(tmp_path / "k")) == tmp_path / "k"
    (tmp_path / "bad").write_text("not hex")
    with pytest.raises(SeedKeyError, match="cannot read"):
        load_key(tmp_path / "bad")


def test_a_sealed_seed_opens_with_its_key_only() -> None:
    box = SeedBox(bytes(32))
    digest = fairdice.commitment(SEED)
    sealed = box.seal("g1", SEED.hex())
    assert sealed.startswith("k1:") and SEED.hex() not in sealed
    assert box.seal("g2", SEED.hex()) != sealed  # one keystream per game
    assert box.open("g1", sealed, digest) == SEED.hex()
    assert box.open("g1", SEED.hex(), digest) == SEED.hex()  # stored in the clear: as it is
    with pytest.raises(SeedKeyError, match="does not open"):
        SeedBox(b"\1" * 32).open("g1", sealed, digest)
    with pytest.raises(SeedKeyError, match="no seed key"):
        SeedBox(None).open("g1", sealed, digest)


async def test_a_copy_of_the_database_predicts_nothing_and_the_game_plays_as_before(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    box = SeedBox(load_key(key_path(str(tmp_path / "r.sqlite3"), None)))
    srv = Served(url, FakeClock(), Settings(bot_delay=0.0), seeds=box)
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Robot", "bot", "eager"), SeatSpec("Bot", "bot", "eager")],
            {"edition": "standard"},
        )
        with sqlite3.connect(tmp_path / "r.sqlite3") as db:
            [(stored, digest)] = db.execute("SELECT seed, seed_sha256 FROM games").fetchall()
        assert stored.startswith("k1:") and SEED.hex() not in stored
        assert digest == fairdice.commitment(SEED)
        # a copy of the database without the key: the seed cannot be read, only refused
        copy = Store(url)
        try:
            with pytest.raises(SeedKeyError):
                copy.load_game(t["game"])
        finally:
            copy.close()
        # restarted halfway (the seed read back through the key), the bots finish the game
        for _ in range(400):
            await srv.clock.advance(0.1)
            if (await srv.game(t["table"]))["version"] >= 6:
                break
        await srv.stop()
        service = await srv.start()
        for _ in range(4000):
            if (await srv.game(t["table"]))["over"]:
                break
            await srv.clock.advance(0.1)
        record = await service.record(t["game"])
        assert record.meta["dice"]["seed"] == SEED.hex()  # revealed at the end, in the clear
        assert fairdice.verify_record(GameRecord.from_json(record.to_json())) > 0
    finally:
        await srv.stop()


def test_the_server_seals_its_seeds_with_a_key_beside_its_database(
    fresh_server: Any, tmp_path: Path
) -> None:
    srv = fresh_server()
    srv.start()
    t = srv.create([{"name": "A"}, {"name": "B"}])
    assert (tmp_path / "robinson-seed.key").exists()
    with sqlite3.connect(tmp_path / "robinson.sqlite3") as db:
        [(stored,)] = db.execute("SELECT seed FROM games WHERE id = ?", (t["game"],)).fetchall()
    assert stored.startswith("k1:")
    game = srv.get(f"/api/tables/{t['table']}").json()["game"]
    assert game["seed"] is None and game["seed_sha256"]
    # a key file that is not one stops the server at once, saying so
    (tmp_path / "bad.key").write_text("xyz")
    bad = fresh_server(name="other.sqlite3", options=("--seed-key", str(tmp_path / "bad.key")))
    with pytest.raises(RuntimeError, match="seed key"):
        bad.start()
