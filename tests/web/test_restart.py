"""A server killed with SIGKILL mid-game loses nothing: restarted on the same database, every
game resumes where it was and can be finished."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import forward


def _table(srv: Any, t: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = srv.get(f"/api/tables/{t['table']}").json()["game"]
    return game


def _move(srv: Any, t: dict[str, Any], game: dict[str, Any]) -> None:
    seat = game["to_move"]
    body = {
        "token": t["seats"][seat]["token"],
        "version": game["version"],
        "move": forward(game["legal"]),
    }
    r = srv.post(f"/api/games/{game['id']}/actions", body)
    assert r.status_code == 200, r.text


def test_kill_9_mid_game_then_restart_and_finish(fresh_server: Any) -> None:
    srv = fresh_server()
    srv.start()
    t = srv.create([{"name": "A"}, {"name": "B"}, {"name": "C"}])
    for _ in range(12):
        _move(srv, t, _table(srv, t))
    before = _table(srv, t)
    record_before = srv.get(f"/api/games/{t['game']}/record").json()
    assert before["version"] == 12

    srv.kill()
    srv.start()

    assert _table(srv, t) == before  # same positions, purses, bank, version, seed hash
    assert srv.get(f"/api/games/{t['game']}/record").json() == record_before
    for _ in range(5000):
        game = _table(srv, t)
        if game["over"]:
            break
        _move(srv, t, game)
    else:
        pytest.fail("the game did not end")
    record = srv.get(f"/api/games/{t['game']}/record").json()
    assert record["actions"][:12] == record_before["actions"]
    assert record["meta"]["dice"]["seed_sha256"] == before["seed_sha256"]


def test_a_bot_game_resumes_by_itself_after_kill_9(fresh_server: Any) -> None:
    srv = fresh_server(bot_delay=0.01)
    srv.start()
    bots = [{"name": f"Bot{i}", "kind": "bot", "bot": "heuristic"} for i in range(3)]
    t = srv.create(bots)
    while _table(srv, t)["version"] < 5:
        time.sleep(0.01)
    srv.kill()
    srv.start()
    version = _table(srv, t)["version"]
    assert version >= 5
    for _ in range(3000):
        game = _table(srv, t)
        if game["over"]:
            break
        time.sleep(0.01)
    else:
        pytest.fail("the bots did not finish after the restart")
    assert game["version"] > version
