"""The REST API against a real server: every step of the pipeline and each refusal."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import httpx

from tests.web.conftest import forward

if TYPE_CHECKING:
    from tests.web.conftest import Server


def _error(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    assert r.json()["error"]["message"]
    return code


def _humans(server: Server, n: int = 2) -> dict[str, Any]:
    return server.create([{"name": f"P{i}"} for i in range(n)])


def _act(server: Server, t: dict[str, Any], seat: int, version: int, move: str) -> httpx.Response:
    body = {"token": t["seats"][seat]["token"], "version": version, "move": move}
    return server.post(f"/api/games/{t['game']}/actions", body)


def _version(server: Server, t: dict[str, Any]) -> int:
    version: int = server.get(f"/api/tables/{t['table']}").json()["game"]["version"]
    return version


def test_meta_lists_editions_bots_and_languages(server: Server) -> None:
    meta = server.get("/api/meta").json()
    assert {e["name"] for e in meta["editions"]} >= {"standard", "lv", "cs", "ca", "classic"}
    assert "heuristic" in meta["bots"]
    assert meta["languages"] == ["lv", "cs", "ca", "en"]


def test_create_table_gives_each_seat_a_distinct_secret_link(server: Server) -> None:
    t = server.create(
        [{"name": "Anna"}, {"name": "Bot", "kind": "bot", "bot": "random"}],
        edition="classic",
        stake=5,
        language="lv",
    )
    tokens = [s["token"] for s in t["seats"]]
    assert len(set(tokens)) == 2 and all(len(tok) >= 24 for tok in tokens)
    assert t["seats"][0]["link"] == f"/t/{t['table']}#{tokens[0]}"
    game = server.get(f"/api/tables/{t['table']}").json()["game"]
    assert game["ruleset"]["edition"] == "classic" and game["bank"] == 10
    assert len(game["seed_sha256"]) == 64 and game["seed"] is None
    assert all("token" not in p for p in game["players"])


def test_bad_tables_are_refused_with_what_was_expected(server: Server) -> None:
    cases = [
        ({"seats": [{"name": "A"}, {"name": "B"}], "edition": "nope"}, "bad_request", "edition"),
        ({"seats": [{"name": "A"}, {"name": "B"}], "stake": 99}, "bad_request", "stake"),
        (
            {"seats": [{"name": "A"}, {"name": "B", "kind": "bot", "bot": "x"}]},
            "bad_request",
            "bot",
        ),
        ({"seats": [{"name": "A"}]}, "malformed", "seats"),
        ({"seats": [{"name": "A"}, {"name": "   "}]}, "bad_request", "name"),
        ({"seats": [{"name": "A"}, {"name": "B"}], "language": "de"}, "bad_request", "language"),
        ({"seats": [{"name": "A"}, {"name": "B"}], "first": 2}, "bad_request", "first"),
    ]
    for body, code, word in cases:
        r = server.post("/api/tables", body)
        assert r.status_code == (400 if code in ("bad_request", "malformed") else 0), body
        assert _error(r) == code
        assert word in r.json()["error"]["message"], r.json()


def test_a_move_is_applied_and_the_version_advances(server: Server) -> None:
    t = _humans(server)
    r = _act(server, t, 0, 0, "roll")
    assert r.status_code == 200 and r.json() == {"version": 1}
    game = server.get(f"/api/tables/{t['table']}").json()["game"]
    assert game["version"] == 1 and game["players"][0]["position"] > 0


def test_each_refusal_has_its_code_and_leaves_the_game_unharmed(server: Server) -> None:
    t = _humans(server)
    gid = t["game"]
    wrong_token = {"token": "x" * 32, "version": 0, "move": "roll"}
    r = server.post(f"/api/games/{gid}/actions", wrong_token)
    assert (r.status_code, _error(r)) == (403, "bad_token")
    other = _humans(server)  # a token of another table is no key to this one
    r = server.post(
        f"/api/games/{gid}/actions", {**wrong_token, "token": other["seats"][0]["token"]}
    )
    assert (r.status_code, _error(r)) == (403, "bad_token")
    r = _act(server, t, 1, 0, "roll")
    assert (r.status_code, _error(r)) == (409, "not_your_turn")
    r = _act(server, t, 0, 5, "roll")
    assert (r.status_code, _error(r)) == (409, "stale_version")
    r = _act(server, t, 0, 0, "stay")
    assert (r.status_code, _error(r)) == (422, "illegal_action")
    assert "expected a roll" in r.json()["error"]["message"]
    r = _act(server, t, 0, 0, "fly")
    assert (r.status_code, _error(r)) == (400, "malformed")
    r = httpx.post(
        f"{server.base}/api/games/{gid}/actions",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert (r.status_code, _error(r)) == (400, "malformed")
    r = httpx.post(
        f"{server.base}/api/games/{gid}/actions",
        content=json.dumps({"token": "a" * 20000, "version": 0, "move": "roll"}),
        headers={"content-type": "application/json"},
    )
    assert (r.status_code, _error(r)) == (413, "too_large")
    r = server.post(
        "/api/games/no-such-game/actions", {"token": "x" * 32, "version": 0, "move": "roll"}
    )
    assert (r.status_code, _error(r)) == (404, "unknown_game")
    assert server.get("/api/tables/no-such-table").status_code == 404
    # after all that, nothing happened and the right move still works
    assert _version(server, t) == 0
    assert _act(server, t, 0, 0, "roll").status_code == 200
    r = _act(server, t, 0, 0, "roll")  # the same click again
    assert (r.status_code, _error(r)) == (409, "stale_version")
    assert _version(server, t) == 1


def _play_to_the_end(server: Server, t: dict[str, Any]) -> dict[str, Any]:
    """Play every human seat with the forward move until the game is over."""
    for _ in range(5000):
        game: dict[str, Any] = server.get(f"/api/tables/{t['table']}").json()["game"]
        if game["over"]:
            return game
        seat = game["to_move"]
        r = _act(server, t, seat, game["version"], forward(game["legal"]))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def test_a_finished_game_has_a_record_with_the_seed_that_verifies(
    server: Server, tmp_path: Any
) -> None:
    from robinson.cli import main
    from robinson.engine import GameRecord

    t = server.create([{"name": "A"}, {"name": "B"}], edition="classic")
    assert "seed" not in server.get(f"/api/games/{t['game']}/record").json()["meta"]["dice"]
    game = _play_to_the_end(server, t)
    assert game["seed"] and game["winner"] in (0, 1, None)
    r = server.get(f"/api/games/{t['game']}/record")
    assert "attachment" in r.headers["content-disposition"]
    record = GameRecord.loads(r.text)
    assert record.replay().winner == game["winner"]
    path = tmp_path / "game.json"
    path.write_text(r.text)
    assert main(["verify", str(path)]) == 0
    r = _act(server, t, 0, game["version"], "roll")
    assert (r.status_code, _error(r)) == (409, "game_over")
    replay = server.get(f"/api/games/{t['game']}/replay?lang=en").json()
    assert len(replay["steps"]) == len(record.actions)
    assert replay["steps"][-1]["state"]["over"] is True


def test_rematch_starts_a_new_game_with_the_same_seats(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}], edition="classic")
    token = t["seats"][1]["token"]
    r = server.post(f"/api/tables/{t['table']}/rematch", {"token": token})
    assert (r.status_code, _error(r)) == (409, "not_over")
    _play_to_the_end(server, t)
    r = server.post(f"/api/tables/{t['table']}/rematch", {"token": token})
    assert r.status_code == 200
    game = server.get(f"/api/tables/{t['table']}").json()["game"]
    assert game["id"] == r.json()["game"] != t["game"]
    assert game["number"] == 2 and game["version"] == 0 and game["first"] == 1
    assert [p["name"] for p in game["players"]] == ["A", "B"]
    # the old links still act in the new game
    r = _act(server, {**t, "game": game["id"]}, 1, 0, "roll")
    assert r.status_code == 200


def test_a_seat_is_handed_to_a_bot_by_its_owner_not_by_a_neighbour_while_it_has_time(
    server: Server,
) -> None:
    t = _humans(server)
    table = t["table"]
    r = server.post(f"/api/tables/{table}/seats/0/bot", {"token": "z" * 30, "bot": "eager"})
    assert _error(r) == "bad_token"
    r = server.post(
        f"/api/tables/{table}/seats/0/bot", {"token": t["seats"][1]["token"], "bot": "?"}
    )
    assert _error(r) == "bad_request"
    # seat 0 was never away for the server's 60 s: its neighbour may not take it (issue 8)
    r = server.post(
        f"/api/tables/{table}/seats/0/bot", {"token": t["seats"][1]["token"], "bot": "eager"}
    )
    assert (r.status_code, _error(r)) == (409, "seat_present")
    r = server.post(
        f"/api/tables/{table}/seats/0/bot", {"token": t["seats"][0]["token"], "bot": "eager"}
    )
    assert r.status_code == 200
    # the bot (no delay in tests) plays seat 0's turn at once; now seat 1 is to move
    game = server.get(f"/api/tables/{table}").json()["game"]
    assert game["players"][0]["kind"] == "bot"
    assert game["version"] >= 1 and game["to_move"] == 1
    r = _act(server, t, 0, game["version"], "roll")
    assert _error(r) in ("not_your_turn", "seat_is_bot")
    r = server.post(f"/api/tables/{table}/seats/0/human", {"token": t["seats"][1]["token"]})
    assert _error(r) == "bad_token"
    r = server.post(f"/api/tables/{table}/seats/0/human", {"token": t["seats"][0]["token"]})
    assert r.status_code == 200
    assert server.get(f"/api/tables/{table}").json()["game"]["players"][0]["kind"] == "human"


def test_the_i18n_endpoint_follows_the_game_ruleset(server: Server) -> None:
    data = server.get("/api/i18n/en").json()
    assert len(data["squares"]) == 45 and data["squares"][0]["number"] == 1
    assert server.get("/api/i18n/xx").status_code == 400
    t = server.create([{"name": "A"}, {"name": "B"}], edition="lv")
    data = server.get(f"/api/i18n/lv?game={t['game']}").json()
    assert data["lang"] == "lv" and data["squares"][11]["kind"] == "fever"


def test_the_openapi_schema_documents_the_endpoints(server: Server) -> None:
    paths = server.get("/openapi.json").json()["paths"]
    assert "/api/tables" in paths and "/api/games/{game_id}/actions" in paths
