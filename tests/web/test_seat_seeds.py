"""Dice nobody can bias (docs/fair-dice.md, `hmac-sha256-seeds-v2`): each seat's browser adds a
seed after the server has committed to its own; the server adds one, marked, for the others at
the first roll; the game view shows them as they arrive and the record carries them. In process
on the fake clock; the page's part is test_seat_seeds_browser.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from robinson import fairdice
from robinson.engine import GameRecord, Roll
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _play_to_the_end(srv: Served, table_id: str, tokens: list[str | None]) -> None:
    for _ in range(5000):
        game = await srv.game(table_id)
        if game["over"]:
            return
        token = tokens[game["to_move"]]
        if token is None:  # a bot's turn
            await srv.clock.advance(0.1)
            continue
        await srv.service.act(game["id"], token, game["version"], forward(game["legal"]))
        await srv.clock.settle()
    pytest.fail("the game did not end")


async def test_seats_give_seeds_before_the_first_roll_and_every_roll_follows_from_them(
    tmp_path: Path,
) -> None:
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", FakeClock())
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno"), SeatSpec("Robot", "bot", "eager")],
            {"edition": "standard"},
        )
        table, game_id = t["table"], t["game"]
        tokens = [s["token"] for s in t["seats"]]
        watcher = await srv.hello(table)
        game = await srv.game(table)
        assert game["dice_scheme"] == fairdice.SCHEME_V2 and game["dice_seeds"] == []

        mine = "a1" * 24
        await service.give_seed(table, tokens[0], game_id, 0, mine)
        await srv.clock.settle()
        shown = [{"seat": 0, "seed": mine, "by": "player"}]
        assert (await srv.game(table))["dice_seeds"] == shown
        assert watcher.of("state")[-1]["state"]["dice_seeds"] == shown  # told as it arrives

        async def refused(code: str, token: str, seat: object, seed: object) -> None:
            with pytest.raises(ServiceError) as e:
                await service.give_seed(table, token, game_id, seat, seed)
            assert e.value.code == code

        await refused("seeds_fixed", tokens[0], 0, "b2" * 16)  # once per seat
        await refused("bad_token", tokens[0], 1, "b2" * 16)  # only the seat's own link
        await refused("bad_token", "x" * 32, 1, "b2" * 16)
        for bad in ("b2" * 15, "b2" * 33, "zz" * 16, 7, None):
            await refused("bad_seed", tokens[1], 1, bad)

        # the record says which seeds count, and survives a restart
        await srv.stop()
        service = await srv.start()
        record = await service.record(game_id)
        assert record.meta["dice"]["scheme"] == fairdice.SCHEME_V2
        assert record.meta["dice"]["seeds"] == shown
        assert "seed" not in record.meta["dice"]

        await service.act(game_id, tokens[0], 0, "roll")  # Anna starts: the dice are fixed
        await srv.clock.settle()
        await refused("seeds_fixed", tokens[1], 1, "b2" * 16)  # Bruno comes too late
        game = await srv.game(table)
        seeds = [(s["seat"], s["by"]) for s in game["dice_seeds"]]
        assert seeds == [(0, "player"), (1, "server"), (2, "server")]
        server_seed = bytes.fromhex(game["dice_seeds"][1]["seed"])
        assert len(server_seed) == 32

        await _play_to_the_end(srv, table, [tokens[0], tokens[1], None])
        record = GameRecord.from_json((await service.record(game_id)).to_json())
        seed = bytes.fromhex(record.meta["dice"]["seed"])
        assert server_seed == fairdice.server_contribution(seed, 1)
        assert fairdice.verify_record(record) == sum(isinstance(a, Roll) for a in record.actions)
        # every roll follows from the seats' seeds too: without Anna's, they differ
        alone = fairdice.faces(seed, 30)
        key = fairdice.seeds_key(
            seed, [bytes.fromhex(mine), server_seed, fairdice.server_contribution(seed, 2)]
        )
        assert fairdice.faces(key, 30) != alone
    finally:
        await srv.stop()


async def test_a_rematch_takes_new_seeds_and_old_games_keep_the_first_scheme(
    tmp_path: Path,
) -> None:
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", FakeClock())
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Robot", "bot", "eager")], {"edition": "standard"}
        )
        table, tokens = t["table"], [t["seats"][0]["token"], None]
        await service.give_seed(table, tokens[0], t["game"], 0, "c3" * 16)
        await _play_to_the_end(srv, table, tokens)
        new = await service.rematch(table, tokens[0])
        await srv.clock.settle()
        # a seed for the old game is refused; the new game takes one
        with pytest.raises(ServiceError) as e:
            await service.give_seed(table, tokens[0], t["game"], 0, "d4" * 16)
        assert e.value.code == "seeds_fixed"
        game = await srv.game(table)
        if game["version"] == 0:  # the bot starts the rematch: it may have rolled already
            await service.give_seed(table, tokens[0], new, 0, "d4" * 16)
        old = GameRecord.from_json((await service.record(t["game"])).to_json())
        assert fairdice.verify_record(old) > 0
    finally:
        await srv.stop()


async def test_the_first_roll_uses_the_stored_seeds_whichever_process_took_them(
    tmp_path: Path,
) -> None:
    """Two services on one database and no bus between them (as two processes whose messages
    are late): a seed stored through one counts in the roll made by the other, and once that
    roll has fixed the dice, neither takes a seed any more."""
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    one, two = Served(url, FakeClock()), Served(url, FakeClock())
    a = await one.start()
    try:
        t = await a.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"})
        table, game_id = t["table"], t["game"]
        tokens = [s["token"] for s in t["seats"]]
        b = await two.start()
        await two.game(table)  # process two has the table before the seed is given
        await a.give_seed(table, tokens[1], game_id, 1, "e5" * 32)
        assert (await two.game(table))["dice_seeds"] == []  # not told: no bus
        await b.act(game_id, tokens[0], 0, "roll")
        with pytest.raises(ServiceError) as e:
            await a.give_seed(table, tokens[0], game_id, 0, "f6" * 32)
        assert e.value.code == "seeds_fixed"
        seeds = (await two.game(table))["dice_seeds"]
        assert seeds[1] == {"seat": 1, "seed": "e5" * 32, "by": "player"}
        await _play_to_the_end(two, table, tokens)
        record = GameRecord.from_json((await b.record(game_id)).to_json())
        assert fairdice.verify_record(record) > 0
        assert record.meta["dice"]["seeds"][1]["by"] == "player"
    finally:
        await two.stop()
        await one.stop()
