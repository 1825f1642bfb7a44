"""GET /api/games/{game}/odds and /odds/history against a real server with an empty solution
cache: 202 while the chances are solved in a worker process, then the same JSON as the
`robinson odds` command for any version."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from robinson.analysis.odds import position_odds
from robinson.analysis.odds.history import turn_starts
from robinson.engine import GameRecord
from tests.web.conftest import Server, forward


@pytest.fixture(scope="module")
def odds_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose solution cache starts empty (the tests solve in their own directory)."""
    cache = tmp_path_factory.mktemp("odds-cache")
    srv = Server(tmp_path_factory.mktemp("db") / "robinson.sqlite3")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROBINSON_CACHE_DIR", str(cache))
        srv.start()  # the server process inherits the variable
    yield srv
    srv.stop()


def _until_ready(server: Server, path: str, seconds: float = 120) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r = server.get(path)
        if r.status_code != 202:
            return r
        assert r.json()["status"] == "computing"
        time.sleep(0.2)
    raise AssertionError(f"{path} still computing after {seconds} s")


def _play(server: Server, t: dict[str, Any], moves: int) -> dict[str, Any]:
    for _ in range(moves):
        game: dict[str, Any] = server.get(f"/api/tables/{t['table']}").json()["game"]
        if game["over"]:
            break
        body = {
            "token": t["seats"][game["to_move"]]["token"],
            "version": game["version"],
            "move": forward(game["legal"]),
        }
        assert server.post(f"/api/games/{t['game']}/actions", body).status_code == 200
    return server.get(f"/api/tables/{t['table']}").json()["game"]  # type: ignore[no-any-return]


def test_the_first_ask_is_computing_then_every_version_has_the_commands_json(
    odds_server: Server,
) -> None:
    t = odds_server.create([{"name": "A"}, {"name": "B"}, {"name": "C"}], edition="classic")
    first = odds_server.get(f"/api/games/{t['game']}/odds")
    assert first.status_code == 202 and first.json()["status"] == "computing"
    # Moves are not held up by the solve.
    game = _play(odds_server, t, 25)
    r = _until_ready(odds_server, f"/api/games/{t['game']}/odds")
    assert r.status_code == 200, r.text
    record = GameRecord.loads(odds_server.get(f"/api/games/{t['game']}/record").text)
    assert r.json() == {"version": game["version"], **position_odds(record.replay())}
    for version in (0, 7, game["version"]):
        prefix = GameRecord(record.ruleset, record.players, record.first, record.actions[:version])
        r = odds_server.get(f"/api/games/{t['game']}/odds?version={version}")
        assert r.json() == {"version": version, **position_odds(prefix.replay())}
    optimal = odds_server.get(f"/api/games/{t['game']}/odds?version=0&policy=optimal")
    assert optimal.status_code in (200, 202)


def test_a_pending_decision_has_each_options_chance(odds_server: Server) -> None:
    t = odds_server.create([{"name": "A"}, {"name": "B"}], edition="standard")
    _until_ready(odds_server, f"/api/games/{t['game']}/odds")
    for _ in range(400):  # play until a decision is pending
        game = odds_server.get(f"/api/tables/{t['table']}").json()["game"]
        if game["over"] or game["legal"] != ["roll"]:
            break
        game = _play(odds_server, t, 1)
    if game["over"]:
        pytest.skip("this game ended without a decision")  # pragma: no cover
    odds = odds_server.get(f"/api/games/{t['game']}/odds").json()
    assert set(odds["options"]) == set(game["legal"])
    assert odds["p_win"][game["to_move"]] == pytest.approx(max(odds["options"].values()))


def test_bad_versions_and_policies_are_refused(odds_server: Server) -> None:
    t = odds_server.create([{"name": "A"}, {"name": "B"}], edition="classic")
    for query, says in (
        ("version=5", "version must be a whole number from 0 to 0"),
        ("version=-1", "version must be"),
        ("policy=lazy", "unknown policy 'lazy'"),
    ):
        r = odds_server.get(f"/api/games/{t['game']}/odds?{query}")
        assert r.status_code == 400 and says in r.json()["error"]["message"], r.text
    assert odds_server.get("/api/games/nope/odds").status_code == 404


def test_the_history_has_a_point_per_turn_and_names_the_swings(odds_server: Server) -> None:
    t = odds_server.create([{"name": "A"}, {"name": "B"}, {"name": "C"}], edition="classic")
    _play(odds_server, t, 4000)
    r = _until_ready(odds_server, f"/api/games/{t['game']}/odds/history")
    assert r.status_code == 200, r.text
    data = r.json()
    record = GameRecord.loads(odds_server.get(f"/api/games/{t['game']}/record").text)
    starts = turn_starts(record)
    assert [p["version"] for p in data["points"]] == [v for v, _ in starts]
    for point, (_, state) in zip(data["points"], starts, strict=True):
        assert point["p_win"] == position_odds(state)["p_win"]
    assert 1 <= len(data["swings"]) <= 3
    deltas = [abs(s["delta"]) for s in data["swings"]]
    assert deltas == sorted(deltas, reverse=True)
    s = data["swings"][0]
    before = next(p for p in data["points"] if p["turn"] == s["turn"])
    after = next(p for p in data["points"] if p["turn"] == s["turn"] + 1)
    assert s["delta"] == pytest.approx(after["p_win"][s["seat"]] - before["p_win"][s["seat"]])
    assert (s["roll"], s["square"]) == (before["roll"], before["square"])


def test_an_eight_player_table_gets_simulated_odds_with_intervals(odds_server: Server) -> None:
    """Five to eight living players: the fast simulator from the position itself, at least
    200,000 games, 95% intervals; the same JSON as `robinson odds` for every version."""
    t = odds_server.create([{"name": f"P{k}"} for k in range(8)], edition="standard")
    game = _play(odds_server, t, 30)
    record = GameRecord.loads(odds_server.get(f"/api/games/{t['game']}/record").text)
    for version in (0, 9, game["version"]):
        r = odds_server.get(f"/api/games/{t['game']}/odds?version={version}")
        assert r.status_code == 200, r.text
        odds = r.json()
        assert odds["method"] == "simulation" and odds["games"] >= 200_000
        assert len(odds["p_win"]) == len(odds["ci95"]) == 8
        for p, (low, high) in zip(odds["p_win"], odds["ci95"], strict=True):
            assert 0 < low <= p <= high < 1
        prefix = GameRecord(record.ruleset, record.players, record.first, record.actions[:version])
        assert odds == {"version": version, **position_odds(prefix.replay())}
