"""The table WebSocket against a real server: snapshot, moves, refusals, races, bots."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

    from tests.web.conftest import Server


def _send(ws: ClientConnection, **msg: Any) -> None:
    ws.send(json.dumps(msg))


def _hello(server: Server, ws: ClientConnection, tokens: list[str], lang: str = "en") -> Any:
    _send(ws, type="hello", lang=lang, tokens=tokens)
    return server.receive(ws, "snapshot")


def _usable(server: Server, ws: ClientConnection) -> None:
    _send(ws, type="ping", id=99)
    assert server.receive(ws, "pong")["id"] == 99


def test_hello_gives_a_snapshot_with_the_seats_held(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}, {"name": "C"}])
    with server.ws(t["table"]) as ws:
        snap = _hello(server, ws, [t["seats"][0]["token"], t["seats"][2]["token"]])
        assert snap["you"] == [0, 2] and snap["game"]["id"] == t["game"]
        assert snap["game"]["legal"] == ["roll"] and snap["log"] == []
    with server.ws(t["table"]) as ws:  # a spectator holds nothing
        assert _hello(server, ws, [])["you"] == []


def test_a_move_is_acked_and_broadcast_to_every_viewer_in_their_language(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}])
    token = t["seats"][0]["token"]
    with server.ws(t["table"]) as player, server.ws(t["table"]) as watcher:
        _hello(server, player, [token])
        _hello(server, watcher, [], lang="lv")
        _send(player, type="act", id=1, game=t["game"], version=0, move="roll", token=token)
        update = server.receive(player, "update")
        assert update["version"] == 1 and update["seat"] == 0
        assert update["events"][0]["kind"] == "rolled" and update["narration"]
        assert server.receive(player, "ack") == {"type": "ack", "version": 1, "id": 1}
        seen = server.receive(watcher, "update")
        assert seen["events"] == update["events"] and seen["state"]["version"] == 1


def test_each_refusal_is_an_error_and_the_connection_and_game_survive(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}])
    gid, token = t["game"], t["seats"][0]["token"]
    with server.ws(t["table"]) as ws:
        _hello(server, ws, [token])
        cases: list[tuple[Any, str]] = [
            (
                {"type": "act", "game": gid, "version": 0, "move": "roll", "token": "q" * 30},
                "bad_token",
            ),
            (
                {
                    "type": "act",
                    "game": gid,
                    "version": 0,
                    "move": "roll",
                    "token": t["seats"][1]["token"],
                },
                "not_your_turn",
            ),
            (
                {"type": "act", "game": gid, "version": 3, "move": "roll", "token": token},
                "stale_version",
            ),
            (
                {"type": "act", "game": gid, "version": 0, "move": "jump", "token": token},
                "illegal_action",
            ),
            (
                {"type": "act", "game": "nope", "version": 0, "move": "roll", "token": token},
                "unknown_game",
            ),
            (
                {"type": "act", "game": gid, "version": "0", "move": "roll", "token": token},
                "malformed",
            ),
            ({"type": "dance"}, "malformed"),
            ({"type": "hello", "lang": "de"}, "bad_request"),
            ("{oops", "malformed"),
            ("[1, 2]", "malformed"),
            (json.dumps({"type": "ping", "pad": "x" * 20000}), "too_large"),
        ]
        for message, code in cases:
            ws.send(message if isinstance(message, str) else json.dumps(message))
            error = server.receive(ws, "error")
            assert error["code"] == code, (message, error)
            assert error["message"]
            _usable(server, ws)
        ws.send(b"\x00\x01binary")
        assert server.receive(ws, "error")["code"] == "malformed"
        _usable(server, ws)
        _send(ws, type="act", game=gid, version=0, move="roll", token=token)
        assert server.receive(ws, "ack")["version"] == 1


def test_an_unknown_table_is_an_error_then_the_socket_closes(server: Server) -> None:
    with server.ws("no-such-table") as ws:
        assert server.receive(ws, "error")["code"] == "unknown_game"
        try:
            ws.recv(timeout=5)
            raise AssertionError("the socket stayed open")
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4404


def _click(
    ws: ClientConnection, start: threading.Barrier, act: dict[str, Any], out: list[Any]
) -> None:
    start.wait()
    ws.send(json.dumps(act))
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] in ("ack", "error"):
            out.append(msg)
            return


def test_two_clients_sending_the_same_turn_at_once_apply_exactly_one(server: Server) -> None:
    for _ in range(5):
        t = server.create([{"name": "A"}, {"name": "B"}])
        token = t["seats"][0]["token"]
        act = {"type": "act", "game": t["game"], "version": 0, "move": "roll", "token": token}
        answers: list[dict[str, Any]] = []
        with server.ws(t["table"]) as one, server.ws(t["table"]) as two:
            _hello(server, one, [token])
            _hello(server, two, [token])
            start = threading.Barrier(2)
            threads = [
                threading.Thread(target=_click, args=(ws, start, act, answers)) for ws in (one, two)
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join(20)
        kinds = sorted(a["type"] for a in answers)
        assert kinds == ["ack", "error"], answers
        assert next(a for a in answers if a["type"] == "error")["code"] == "stale_version"
        record = server.get(f"/api/games/{t['game']}/record").json()
        assert len(record["actions"]) == 1


def test_a_full_game_of_two_humans_and_a_bot_over_websockets(server: Server) -> None:
    t = server.create(
        [{"name": "A"}, {"name": "B"}, {"name": "Cila", "kind": "bot", "bot": "heuristic"}]
    )
    tokens = {0: t["seats"][0]["token"], 1: t["seats"][1]["token"]}
    with server.ws(t["table"]) as ws:
        game = _hello(server, ws, list(tokens.values()))["game"]
        bot_moves = 0
        for _ in range(5000):
            if game["over"]:
                break
            seat = game["to_move"]
            if seat in tokens:
                move = game["legal"][-1]  # the second option where there is one
                _send(
                    ws,
                    type="act",
                    game=game["id"],
                    version=game["version"],
                    move=move,
                    token=tokens[seat],
                )
            update = server.receive(ws, "update")
            bot_moves += update["seat"] == 2
            game = update["state"]
        assert game["over"] and game["seed"] and bot_moves > 0
    record = server.get(f"/api/games/{t['game']}/record").json()
    assert len(record["actions"]) == game["version"]


def test_rematch_over_the_socket_sends_everyone_the_new_game(server: Server) -> None:
    t = server.create(
        [{"name": "Bot1", "kind": "bot", "bot": "eager"}, {"name": "B"}], edition="classic"
    )
    token = t["seats"][1]["token"]
    with server.ws(t["table"]) as ws:
        game = _hello(server, ws, [token])["game"]
        while not game["over"]:
            if game["to_move"] == 1:
                _send(
                    ws,
                    type="act",
                    game=game["id"],
                    version=game["version"],
                    move="roll",
                    token=token,
                )
            game = server.receive(ws, "update")["state"]
        _send(ws, type="rematch", id="r", token=token)
        snap = server.receive(ws, "snapshot")
        assert snap["game"]["number"] == 2 and snap["game"]["version"] == 0
        assert snap["you"] == [1]


def test_a_page_back_after_a_few_moves_is_sent_those_moves_not_a_snapshot(server: Server) -> None:
    """A reconnect that says which game and version it shows: the updates it missed, in order,
    then the state now; with a token no longer valid, a snapshot as before."""
    t = server.create([{"name": "A"}, {"name": "B"}])
    tokens = [s["token"] for s in t["seats"]]
    with server.ws(t["table"]) as stays:
        _hello(server, stays, [])
        with server.ws(t["table"]) as page:
            _hello(server, page, [tokens[0]])
        for version in range(3):  # the page is away: A rolls, B rolls, A rolls
            r = server.post(
                f"/api/games/{t['game']}/actions",
                {"token": tokens[version % 2], "version": version, "move": "roll"},
            )
            assert r.status_code == 200, r.text
            server.receive(stays, "update")
    with server.ws(t["table"]) as page:
        _send(page, type="hello", lang="en", tokens=[tokens[0]], game=t["game"], version=0)
        got = [json.loads(page.recv(timeout=10)) for _ in range(3)]
        assert [(m["type"], m["version"]) for m in got] == [("update", v) for v in (1, 2, 3)]
        state = server.receive(page, "state")
        assert state["state"]["version"] == 3 and state["state"]["players"][0]["present"]
    with server.ws(t["table"]) as page:  # a token that is not a seat: the whole snapshot
        _send(page, type="hello", lang="en", tokens=["x" * 32], game=t["game"], version=2)
        assert server.receive(page, "snapshot")["game"]["version"] == 3
