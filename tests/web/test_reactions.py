"""Issue 18 "Social": canned reactions and "2 watching".

A seated player's reaction reaches everyone following the table (players and spectators), only
for a seat his connection holds, at most three at once and then one every two seconds per
seat; it is never stored. The game view counts the spectators, and a spectator coming or going
is shown to the others. In process on the fake clock, and once over a real socket (TestClient).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served


@pytest.mark.anyio
async def test_a_reaction_reaches_everyone_at_the_table_within_its_budget(tmp_path: Path) -> None:
    clock = FakeClock()
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock)
    service = await srv.start()
    try:
        t = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "cs"})
        tokens = [s["token"] for s in t["seats"]]
        anna = await srv.hello(t["table"], (tokens[0],))
        bruno = await srv.hello(t["table"], (tokens[1],), lang="cs")
        watcher = await srv.hello(t["table"])
        table = await service.table(t["table"])
        service.reactions.react(table, anna, 0, "well_played")
        wanted = {"type": "reaction", "seat": 0, "reaction": "well_played"}
        for viewer in (anna, bruno, watcher):
            assert viewer.of("reaction") == [wanted]
        with pytest.raises(ServiceError) as other:  # Bruno's seat is not Anna's to speak for
            service.reactions.react(table, anna, 1, "oops")
        assert other.value.code == "bad_token"
        with pytest.raises(ServiceError) as nobody:  # a spectator holds no seat
            service.reactions.react(table, watcher, 0, "wow")
        assert nobody.value.code == "bad_token"
        service.reactions.react(table, anna, 0, "wow")
        service.reactions.react(table, anna, 0, "oops")  # three at once
        with pytest.raises(ServiceError) as flood:
            service.reactions.react(table, anna, 0, "hello")
        assert flood.value.code == "rate_limited" and "try again in 2 s" in flood.value.message
        service.reactions.react(table, bruno, 1, "hello")  # another seat has its own budget
        await clock.advance(2.0)  # one more after two seconds
        service.reactions.react(table, anna, 0, "good_game")
        assert [m["reaction"] for m in watcher.of("reaction")] == [
            "well_played", "wow", "oops", "hello", "good_game"
        ]  # fmt: skip
        assert len((await service.record(t["game"])).actions) == 0  # nothing stored
    finally:
        await srv.stop()


@pytest.mark.anyio
async def test_the_game_view_counts_who_is_watching(tmp_path: Path) -> None:
    clock = FakeClock()
    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock)
    service = await srv.start()
    try:
        t = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "cs"})
        anna = await srv.hello(t["table"], (t["seats"][0]["token"],))
        assert anna.of("snapshot")[0]["game"]["watching"] == 0  # a player is not watching
        first = await srv.hello(t["table"])
        await srv.hello(t["table"])
        assert (await srv.game(t["table"]))["watching"] == 2
        await clock.advance(1.0)  # presence news is coalesced: shown within a second
        assert anna.of("state")[-1]["state"]["watching"] == 2
        service.unsubscribe(await service.table(t["table"]), first)
        await clock.advance(1.0)
        assert anna.of("state")[-1]["state"]["watching"] == 1
    finally:
        await srv.stop()


def test_a_reaction_over_the_socket_and_a_wrong_one_refused(tmp_path: Path) -> None:
    from robinson.web.app import create_app
    from robinson.web.settings import Settings

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        t = client.post("/api/tables", json={"seats": [{"name": "Anna"}, {"name": "Bo"}]}).json()
        with (
            client.websocket_connect(f"/ws/tables/{t['table']}") as player,
            client.websocket_connect(f"/ws/tables/{t['table']}") as spectator,
        ):
            player.send_json({"type": "hello", "tokens": [t["seats"][0]["token"]]})
            assert player.receive_json()["type"] == "snapshot"
            spectator.send_json({"type": "hello"})
            assert spectator.receive_json()["type"] == "snapshot"
            player.send_json({"type": "react", "id": 7, "seat": 0, "reaction": "good_luck"})
            got = _next(spectator, "reaction")
            assert got == {"type": "reaction", "seat": 0, "reaction": "good_luck"}
            assert _next(player, "ack")["id"] == 7
            player.send_json({"type": "react", "id": 8, "seat": 0, "reaction": "boo"})
            refused = _next(player, "error")
            assert refused["code"] == "malformed" and refused["id"] == 8
            assert "reaction" in refused["message"] and "good_game" in refused["message"]


def _next(ws: object, kind: str) -> dict[str, object]:
    """The next message of type `kind` (presence states may come between)."""
    for _ in range(20):
        message: dict[str, object] = ws.receive_json()  # type: ignore[attr-defined]
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")
