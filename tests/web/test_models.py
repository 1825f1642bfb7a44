"""The server's answers are typed: /openapi.json describes the table and game views, every
WebSocket message of a whole game matches models.ServerMessage, and the limits the page reads
from /api/meta are the ones the server enforces."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import pytest

from robinson.engine import MAX_PLAYERS, MIN_PLAYERS
from robinson.web.protocol import limits
from robinson.web.protocol.messages import server_message
from tests.web.conftest import Server, forward

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _answer(spec: dict[str, Any], path: str, method: str, status: str) -> dict[str, Any]:
    content = spec["paths"][path][method]["responses"][status]["content"]
    return _resolve(spec, content["application/json"]["schema"])


def test_openapi_has_response_schemas_for_the_table_view_and_the_game_view(server: Server) -> None:
    spec = server.get("/openapi.json").json()
    table = _answer(spec, "/api/tables/{table_id}", "get", "200")
    assert set(table["required"]) == {"table", "language", "game"}
    game = _resolve(spec, table["properties"]["game"])
    for field in ("id", "version", "to_move", "legal", "players", "payout", "seed_sha256"):
        assert field in game["properties"], field
    player = _resolve(spec, game["properties"]["players"]["items"])
    assert {"seat", "name", "position", "purse", "kind"} <= set(player["properties"])
    # The other answers are described too, errors in the documented envelope.
    for path, method, status in [
        ("/api/meta", "get", "200"),
        ("/api/tables", "post", "201"),
        ("/api/games/{game_id}/actions", "post", "200"),
        ("/api/games/{game_id}/replay", "get", "200"),
        ("/api/i18n/{lang}", "get", "200"),
        ("/api/tables/{table_id}/rematch", "post", "200"),
    ]:
        assert _answer(spec, path, method, status)["properties"], path
    error = _answer(spec, "/api/games/{game_id}/actions", "post", "409")
    assert set(_resolve(spec, error["properties"]["error"])["required"]) == {"code", "message"}


def test_meta_gives_the_limits_the_server_enforces(server: Server) -> None:
    got = server.get("/api/meta").json()["limits"]
    assert got == {
        "name": limits.MAX_NAME,
        "min_seats": MIN_PLAYERS,
        "max_seats": MAX_PLAYERS,
        "message": limits.MAX_MESSAGE,
    }
    longest = "N" * got["name"]
    assert (
        server.post("/api/tables", {"seats": [{"name": longest}, {"name": "B"}]}).status_code == 201
    )
    too_long = {"seats": [{"name": longest + "N"}, {"name": "B"}]}
    assert server.post("/api/tables", too_long).status_code == 400
    too_many = {"seats": [{"name": f"P{i}"} for i in range(got["max_seats"] + 1)]}
    assert server.post("/api/tables", too_many).status_code == 400
    too_few = {"seats": [{"name": "P"}] * (got["min_seats"] - 1)}
    assert server.post("/api/tables", too_few).status_code == 400


def test_every_websocket_message_of_a_whole_game_matches_its_model(server: Server) -> None:
    t = server.create(
        [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Cila", "kind": "bot", "bot": "heuristic"}]
    )
    tokens = [s["token"] for s in t["seats"]]
    seen: dict[str, int] = {}
    with server.ws(t["table"]) as ws:

        def receive() -> dict[str, Any]:
            msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
            server_message.validate_python(msg)
            seen[msg["type"]] = seen.get(msg["type"], 0) + 1
            return msg

        ws.send(
            json.dumps({"type": "hello", "lang": "cs", "tokens": [*tokens[:2], "nobody-at-all"]})
        )
        state = None
        while state is None:
            msg = receive()
            state = msg["game"] if msg["type"] == "snapshot" else None
        ws.send(json.dumps({"type": "ping", "id": 1}))
        wrong_game = {"type": "act", "id": "x", "game": "nope", "version": 0, "move": "roll"}
        ws.send(json.dumps({**wrong_game, "token": tokens[0]}))
        ws.send(json.dumps({"type": "bot", "id": 2, "seat": 1, "bot": "eager", "token": tokens[0]}))
        ws.send(json.dumps({"type": "take_back", "id": 3, "seat": 1, "token": tokens[1]}))
        deadline = time.monotonic() + 120
        while not state["over"]:
            assert time.monotonic() < deadline, "the game did not end"
            if state["to_move"] in (0, 1) and state["legal"]:
                seat = state["to_move"]
                move = {"game": state["id"], "version": state["version"], "token": tokens[seat]}
                ws.send(json.dumps({"type": "act", "move": forward(state["legal"]), **move}))
            msg = receive()
            while msg["type"] not in ("update", "state") or (
                msg["type"] == "update" and msg["version"] < state["version"]
            ):
                msg = receive()
            state = msg["state"]
        ws.send(json.dumps({"type": "rematch", "id": 4, "token": tokens[0]}))
        while seen.get("snapshot", 0) < 2:
            receive()
    for kind in ("snapshot", "update", "state", "ack", "pong", "error"):
        assert seen.get(kind), f"no {kind} message was seen: {seen}"


@pytest.mark.browser
def test_the_page_takes_the_name_limit_from_meta(server: Server, browser: Browser) -> None:
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        page.wait_for_selector("#seats .seat input")
        lengths = page.eval_on_selector_all(
            "#seats .seat input[name=name]", "els => els.map(e => e.maxLength)"
        )
    finally:
        page.close()
    assert lengths and set(lengths) == {limits.MAX_NAME}
