"""The real server on PostgreSQL: the pipeline's refusals, the same-turn race, full games, kill -9.

The tests imported below are the SQLite suite's own, run here a second time: this module's
`server` and `fresh_server` fixtures give them a `robinson serve` on a fresh PostgreSQL database
of the session's throwaway cluster (all skipped, with the reason, when PostgreSQL is absent).
The in-process tests that take the `database_url` fixture (the clock through a restart in
test_seats.py, the stores' tests) run on PostgreSQL by its parameter instead.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import Server
from tests.web.postgres import PostgresCluster, _free_port
from tests.web.test_api import (
    test_a_move_is_applied_and_the_version_advances,
    test_a_seat_is_handed_to_a_bot_by_its_owner_not_by_a_neighbour_while_it_has_time,
    test_each_refusal_has_its_code_and_leaves_the_game_unharmed,
    test_rematch_starts_a_new_game_with_the_same_seats,
)
from tests.web.test_restart import test_kill_9_mid_game_then_restart_and_finish
from tests.web.test_seats import (
    test_a_present_players_seat_is_refused_to_others_until_he_is_away_then_he_takes_it_back,
    test_an_invite_gives_its_seat_once_and_the_host_reinvites_an_absent_seat,
)
from tests.web.test_ws import (
    test_a_full_game_of_two_humans_and_a_bot_over_websockets,
    test_each_refusal_is_an_error_and_the_connection_and_game_survive,
    test_two_clients_sending_the_same_turn_at_once_apply_exactly_one,
)

# The SQLite suite's tests that run here again (named so the imports are visibly used).
RERUN = (
    test_a_move_is_applied_and_the_version_advances,
    test_each_refusal_has_its_code_and_leaves_the_game_unharmed,
    test_rematch_starts_a_new_game_with_the_same_seats,
    test_a_seat_is_handed_to_a_bot_by_its_owner_not_by_a_neighbour_while_it_has_time,
    test_each_refusal_is_an_error_and_the_connection_and_game_survive,
    test_two_clients_sending_the_same_turn_at_once_apply_exactly_one,
    test_a_full_game_of_two_humans_and_a_bot_over_websockets,
    test_kill_9_mid_game_then_restart_and_finish,
    test_a_present_players_seat_is_refused_to_others_until_he_is_away_then_he_takes_it_back,
    test_an_invite_gives_its_seat_once_and_the_host_reinvites_an_absent_seat,
)


@pytest.fixture(scope="module")
def server(postgres: PostgresCluster) -> Iterator[Server]:
    srv = Server(postgres.new_database())
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_server(postgres: PostgresCluster) -> Iterator[Callable[..., Server]]:
    """Servers on PostgreSQL databases of their own (the name is a SQLite file's: unused)."""
    made: list[Server] = []

    def make(name: str = "", bot_delay: float = 0.0, options: tuple[str, ...] = ()) -> Server:
        srv = Server(postgres.new_database(), bot_delay, options)
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()


def test_the_server_really_stores_in_postgresql(server: Server, postgres: PostgresCluster) -> None:
    """Not a SQLite file by mistake: the moves are rows in the cluster's database."""
    import psycopg

    assert server.url_db.startswith("postgresql+psycopg://")
    t = server.create([{"name": "A"}, {"name": "B"}])
    assert server.post(
        f"/api/games/{t['game']}/actions",
        {"token": t["seats"][0]["token"], "version": 0, "move": "roll"},
    ).is_success
    roll = server.get(f"/api/games/{t['game']}/record").json()["actions"][0]["roll"]
    dbname = server.url_db.rsplit("/", 1)[1]
    with psycopg.connect(host="127.0.0.1", port=postgres.port, user="robinson", dbname=dbname) as c:
        rows = c.execute("SELECT seq, action FROM actions WHERE game_id = %s", (t["game"],))
        assert rows.fetchall() == [(0, json.dumps({"roll": roll}))]


def _race(servers: list[Server], t: dict[str, Any], version: int) -> list[int]:
    """Both servers are sent the same move at the same moment; their status codes."""
    barrier = threading.Barrier(len(servers))
    codes: list[int] = []
    body = {"token": t["seats"][0]["token"], "version": version, "move": "roll"}

    def post(srv: Server) -> None:
        barrier.wait()
        codes.append(srv.post(f"/api/games/{t['game']}/actions", body).status_code)

    threads = [threading.Thread(target=post, args=(srv,)) for srv in servers]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return sorted(codes)


def test_two_server_processes_on_one_database_apply_a_raced_turn_once(
    postgres: PostgresCluster,
) -> None:
    """Across processes no lock is shared: the store's (game, seq) key alone decides (what lets
    several servers share one PostgreSQL; the same race on SQLite is in test_postgres_store)."""
    url = postgres.new_database()
    one, two = Server(url), Server(url)
    try:
        one.start()
        two.start()
        for _ in range(5):
            t = one.create([{"name": "A"}, {"name": "B"}])
            assert two.get(f"/api/tables/{t['table']}").status_code == 200  # both have it live
            assert _race([one, two], t, 0) == [200, 409]
            for srv in (one, two):
                record = srv.get(f"/api/games/{t['game']}/record").json()
                assert len(record["actions"]) == 1
    finally:
        one.stop()
        two.stop()


def test_serve_on_an_unreachable_postgresql_is_one_clear_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from robinson.cli import main

    url = f"postgresql://robinson:sesame@127.0.0.1:{_free_port()}/robinson"
    assert main(["serve", "--port", str(_free_port()), "--database", url]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("robinson serve: cannot open the database postgresql+psycopg://")
    assert "Connection refused" in err and len(err.splitlines()) == 1
    assert "sesame" not in out + err


def test_names_postgresql_cannot_store_are_refused_not_a_server_error(server: Server) -> None:
    for name in ("A\x00B", "A\x07B"):
        r = server.post("/api/tables", {"seats": [{"name": name}, {"name": "B"}]})
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "bad_request" and "name" in r.json()["error"]["message"]
    r = httpx.post(
        f"{server.base}/api/tables",
        content=b'{"seats": [{"name": "\\ud800"}, {"name": "B"}]}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400, r.text
    t = server.create([{"name": "Jānis 🦜 Dvořák"}, {"name": "<b>Núria</b>"}])
    game = server.get(f"/api/tables/{t['table']}").json()["game"]
    assert [p["name"] for p in game["players"]] == ["Jānis 🦜 Dvořák", "<b>Núria</b>"]
