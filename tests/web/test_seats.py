"""Seats that stay yours (issue 8): who may hand a seat to a bot, one-time invites, the host's
invites, presence (against a real server), and the clock that moves for the absent (in process,
on the fake clock, through a restart)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

    from tests.web.conftest import Server

AWAY = 2  # the test server's --absent-after (the default is 60)


def _error(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    assert r.json()["error"]["message"]
    return code


def _hello(srv: Server, ws: ClientConnection, tokens: list[str]) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
    return srv.receive(ws, "snapshot")


def _game(srv: Server, table: str) -> dict[str, Any]:
    game: dict[str, Any] = srv.get(f"/api/tables/{table}").json()["game"]
    return game


def _until(check: Callable[[], Any], what: str, seconds: float = 60) -> Any:
    """Poll `check` until it gives something true (bounded: a test never hangs)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {what}")


def _state_with(srv: Server, ws: ClientConnection, text: str) -> dict[str, Any]:
    """The next `state` message whose narration has a line containing `text`."""
    while True:
        msg = srv.receive(ws, "state", timeout=30)
        if any(text in line for line in msg["narration"]):
            return msg


def test_a_present_players_seat_is_refused_to_others_until_he_is_away_then_he_takes_it_back(
    fresh_server: Any,
) -> None:
    srv = fresh_server(options=("--absent-after", str(AWAY)))
    srv.start()
    t = srv.create([{"name": "Anna"}, {"name": "Bruno"}])
    anna, bruno = t["seats"][0]["token"], t["seats"][1]["token"]
    hand = f"/api/tables/{t['table']}/seats/0/bot"
    with srv.ws(t["table"]) as watcher:
        _hello(srv, watcher, [bruno])
        with srv.ws(t["table"]) as anna_ws:
            snap = _hello(srv, anna_ws, [anna])
            assert snap["game"]["to_move"] == 0  # Anna's turn, and she is connected
            assert _game(srv, t["table"])["players"][0]["present"] is True
            r = srv.post(hand, {"token": bruno, "bot": "eager"})
            assert (r.status_code, _error(r)) == (409, "seat_connected")
        # Anna's page is closed: the others see it at once, but must wait AWAY seconds
        left = srv.receive(watcher, "state")
        while left["state"]["players"][0]["present"]:  # a state sent before she left
            left = srv.receive(watcher, "state")
        assert left["state"]["players"][0]["away_since"].endswith("Z")
        _until(
            lambda: srv.post(hand, {"token": bruno, "bot": "eager"}).status_code == 200,
            "Bruno may hand Anna's seat to a bot",
        )
        handed = _state_with(srv, watcher, "Bruno let a bot play for Anna, away for")
        assert handed["state"]["players"][0]["kind"] == "bot"
        assert _game(srv, t["table"])["players"][0]["kind"] == "bot"
        # Anna comes back and takes her seat back; the log says who did what
        r = srv.post(f"/api/tables/{t['table']}/seats/0/human", {"token": anna})
        assert r.status_code == 200
        back = _state_with(srv, watcher, "Anna took their seat back from the bot.")
        assert back["state"]["players"][0]["kind"] == "human"
        log = _hello(srv, watcher, [bruno])["log"]
        assert any(line.startswith("Bruno let a bot play for Anna, away for") for line in log)
        assert "Anna took their seat back from the bot." in log
    # the owner may always: Bruno hands his own seat to a bot while connected
    with srv.ws(t["table"]) as ws:
        _hello(srv, ws, [bruno])
        r = srv.post(f"/api/tables/{t['table']}/seats/1/bot", {"token": bruno, "bot": "eager"})
        assert r.status_code == 200
        _state_with(srv, ws, "Bruno let a bot play for them.")


def test_an_invite_gives_its_seat_once_and_the_host_reinvites_an_absent_seat(
    fresh_server: Any,
) -> None:
    srv = fresh_server(options=("--absent-after", str(AWAY)))
    srv.start()
    t = srv.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cy", "kind": "bot", "bot": "eager"}]
    )
    table, host = t["table"], t["host"]
    invite = t["seats"][1]["invite"]
    assert invite.startswith(f"/t/{table}#i:") and t["seats"][2]["invite"] is None
    code = invite.split("#i:")[1]
    r = srv.post(f"/api/tables/{table}/claim", {"invite": code})
    assert r.status_code == 200 and r.json()["seat"] == 1
    token = r.json()["token"]
    # the link stops working for anyone else, and the creator's copy of the secret too
    r = srv.post(f"/api/tables/{table}/claim", {"invite": code})
    assert (r.status_code, _error(r)) == (409, "seat_taken")
    r = srv.post(f"/api/tables/{table}/whoami", {"token": t["seats"][1]["token"]})
    assert _error(r) == "bad_token"
    assert srv.post(f"/api/tables/{table}/whoami", {"token": token}).json() == {"seat": 1}
    # the host's panel: the unclaimed seat's link and QR code, the spectator link
    r = srv.post(f"/api/tables/{table}/invites", {"host": "x" * 32})
    assert _error(r) == "bad_token"
    r = srv.post(f"/api/tables/{table}/invites", {"host": host, "origin": "http://example.org"})
    panel = r.json()
    seats = {s["seat"]: s for s in panel["seats"]}
    assert seats[0]["link"] == t["seats"][0]["invite"] and not seats[0]["claimed"]
    assert seats[1]["claimed"] and seats[1]["link"] is None
    assert seats[0]["qr"].startswith("<svg") and "script" not in seats[0]["qr"]
    assert panel["spectator"] == f"/t/{table}"
    # a re-invite while Bruno is there is refused; once he is away, his secret stops working
    reinvite = f"/api/tables/{table}/seats/1/invite"
    with srv.ws(table) as ws:
        assert _hello(srv, ws, [token])["you"] == [1]
        r = srv.post(reinvite, {"host": host})
        assert (r.status_code, _error(r)) == (409, "seat_connected")
    fresh = _until(
        lambda: (r := srv.post(reinvite, {"host": host})).status_code == 200 and r,
        "the host may re-invite Bruno's seat",
    )
    assert fresh.status_code == 200
    r = srv.post(f"/api/tables/{table}/whoami", {"token": token})
    assert _error(r) == "bad_token"
    new_code = fresh.json()["link"].split("#i:")[1]
    r = srv.post(f"/api/tables/{table}/claim", {"invite": new_code})
    assert r.status_code == 200 and r.json()["seat"] == 1
    log = srv.ws(table)
    with log:
        lines = _hello(srv, log, [])["log"]
    assert "Bruno took their seat at the table." in lines
    assert any(
        line.startswith("The host sent a new invitation for the seat of Bruno, away for ")
        for line in lines
    )


def test_a_seat_gets_a_one_time_link_for_another_device_and_revokes_the_others(
    server: Server,
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    table, anna = t["table"], t["seats"][0]["token"]
    r = server.post(f"/api/tables/{table}/seats/0/device", {"token": anna})
    assert r.status_code == 200 and anna not in r.json()["link"]
    code = r.json()["link"].split("#i:")[1]
    r = server.post(f"/api/tables/{table}/seats/1/device", {"token": anna})
    assert _error(r) == "bad_token"
    phone = server.post(f"/api/tables/{table}/claim", {"invite": code})
    assert phone.status_code == 200 and phone.json()["seat"] == 0
    r = server.post(f"/api/tables/{table}/claim", {"invite": code})
    assert r.status_code == 410 and _error(r) == "link_expired"
    assert _error(server.post(f"/api/tables/{table}/whoami", {"token": anna})) == "bad_token"
    r = server.post(f"/api/tables/{table}/seats/0/revoke", {"token": phone.json()["token"]})
    assert r.status_code == 200 and r.json()["seat"] == 0
    old = server.post(f"/api/tables/{table}/whoami", {"token": phone.json()["token"]})
    assert _error(old) == "bad_token"
    assert server.post(f"/api/tables/{table}/whoami", {"token": r.json()["token"]}).is_success


def test_the_clock_option_is_checked(server: Server) -> None:
    seats = [{"name": "A"}, {"name": "B"}]
    for bad in (4, 604801, "5", 5.5):
        r = server.post("/api/tables", {"seats": seats, "move_seconds": bad})
        assert r.status_code == 400, bad
        assert "move_seconds" in r.json()["error"]["message"]
    t = server.create(seats)
    assert _game(server, t["table"])["clock"] is None


CLOCK = 5  # seconds per move


@pytest.mark.anyio
async def test_a_table_where_nobody_acts_moves_on_by_itself_through_a_restart(
    database_url: str,
) -> None:
    """In process, on the fake clock: each timeout is one `advance` past the deadline, and the
    restart a new service on the same database while a move falls due."""
    clock = FakeClock()
    srv = Served(database_url, clock)
    service = await srv.start()
    try:
        t = await service.create_table(
            [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=CLOCK
        )
        table, anna, bruno = t["table"], t["seats"][0]["token"], t["seats"][1]["token"]
        game = await srv.game(table)
        assert game["move_seconds"] == CLOCK and game["clock"]["seat"] == 0
        assert game["clock"]["deadline"].endswith("Z")
        # the first timeout: the server moves for Anna, and says so
        ws = await srv.hello(table)
        await clock.advance(CLOCK - 0.5)
        assert ws.of("update") == []  # not yet
        await clock.advance(0.6)
        update = ws.of("update")[0]
        assert update["seat"] == 0
        assert update["notes"] == ["Time ran out for Anna: a bot made the move."]
        # a late click after the timeout move is stale
        with pytest.raises(ServiceError) as refused:
            await service.act(t["game"], anna, 0, "roll")
        assert refused.value.code == "stale_version"
        before = await srv.game(table)
        await srv.stop()
        # the deadline was stored with the game: the move that fell due while no server ran is
        # made by the new one once the restart's grace is over (issue 22), narrated as a
        # timeout of that seat
        await clock.advance(CLOCK + 1)
        service = await srv.start()
        assert (await srv.game(table))["version"] == before["version"]
        waiting = before["players"][before["clock"]["seat"]]["name"]
        grace = srv.settings.restart_grace
        restarted = f"The server was restarted: {waiting} has {grace:g} seconds to make this move."
        assert restarted in await srv.log(table)
        await clock.advance(grace + 0.1)
        assert (await srv.game(table))["version"] > before["version"]
        log = await srv.log(table)
        assert log.count(f"Time ran out for {waiting}: a bot made the move.") == 1 + (
            waiting == "Anna"
        )
        # from now on Bruno plays his turns; Anna still never acts: after three timeouts in a
        # row her seat is played by a bot
        for _ in range(200):
            game = await srv.game(table)
            if game["players"][0]["kind"] == "bot":
                break
            if game["to_move"] == 1:
                await service.act(game["id"], bruno, game["version"], forward(game["legal"]))
                await clock.settle()
            else:
                await clock.advance(CLOCK + 0.1)
        else:
            raise AssertionError("Anna's seat was not handed to a bot after three timeouts")
        assert not game["over"]
        assert game["players"][0]["timeouts"] == 3 and game["players"][0]["bot"] == "eager"
        log = await srv.log(table)
        assert log.count("Time ran out for Anna: a bot made the move.") == 3
        assert any(line.startswith("Time ran out for Bruno") for line in log)
        assert (
            "Anna ran out of time 3 times in a row: a bot plays for them until they come back."
            in log
        )
        # the bot plays Anna's turns at once, so Bruno's seat is the one that waits
        await clock.advance(CLOCK + 0.1)
        assert (await srv.game(table))["version"] > game["version"]
        # Anna acts again: her seat is hers (her click itself may be late: the bot was quick)
        game = await srv.game(table)
        try:
            await service.act(game["id"], anna, game["version"], "roll")
        except ServiceError as e:
            assert e.code in ("not_your_turn", "stale_version")
        await clock.settle()
        game = await srv.game(table)
        assert game["players"][0]["kind"] == "human" and game["players"][0]["timeouts"] == 0
        assert "Anna is back and plays again." in await srv.log(table)
    finally:
        await srv.stop()
