"""The seat's seed over a real server's WebSocket (docs/protocol.md): accepted once before the
first roll and shown to every viewer; bad input gets its catalogued error code."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.web.conftest import Server


def test_a_seed_over_the_socket_is_shown_to_all_and_bad_ones_get_their_codes(
    server: Server,
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Bruno"}])
    anna, bruno = (s["token"] for s in t["seats"])
    with server.ws(t["table"]) as ws, server.ws(t["table"]) as watcher:
        ws.send(json.dumps({"type": "hello", "tokens": [anna]}))
        server.receive(ws, "snapshot")
        watcher.send(json.dumps({"type": "hello"}))
        server.receive(watcher, "snapshot")

        def seed(seat: int, value: object, token: str = anna, mid: int = 1) -> None:
            msg = {"type": "seed", "id": mid, "game": t["game"], "seat": seat, "seed": value}
            ws.send(json.dumps({**msg, "token": token}))

        seed(0, "ab" * 32)
        assert server.receive(ws, "ack")["id"] == 1
        shown: list[Any] = []
        for _ in range(5):  # a presence state (who is watching) may come first
            shown = server.receive(watcher, "state")["state"]["dice_seeds"]
            if shown:
                break
        assert shown == [{"seat": 0, "seed": "ab" * 32, "by": "player"}]
        for mid, (seat, value, token, code) in enumerate(
            [
                (0, "cd" * 32, anna, "seeds_fixed"),  # once per seat
                (1, "cd" * 32, anna, "bad_token"),  # only the seat's own token
                (1, "cd" * 8, bruno, "bad_seed"),  # too short
                (1, "xy" * 16, bruno, "bad_seed"),  # not hex
            ],
            start=2,
        ):
            seed(seat, value, token, mid)
            error = server.receive(ws, "error")
            assert (error["code"], error["id"]) == (code, mid), error
        ws.send(json.dumps({"type": "seed", "seat": 0, "seed": "ab" * 32, "token": anna}))
        assert server.receive(ws, "error")["code"] == "malformed"  # no game
        game = server.get(f"/api/tables/{t['table']}").json()["game"]
        assert [s["seat"] for s in game["dice_seeds"]] == [0]
