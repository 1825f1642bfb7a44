"""Web Push against real servers (issue 19, docs/notifications.md): `robinson serve` processes
push to a push service of the test's own (pushendpoint.py: a real HTTP server on 127.0.0.1
that decrypts each push with the subscription's keys, as a browser does).

One server: its public key, a seat's subscription through the API (and every refusal, with
its code), the push of an absent seat's turn in his language, and the way out (DELETE). Two
processes sharing Redis and PostgreSQL, both following the table: a turn change sends exactly
one push.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tiers import SYSTEM
from tests.web.cluster import Cluster, missing
from tests.web.conftest import Server, forward
from tests.web.postgres import PostgresCluster
from tests.web.pushendpoint import PushEndpoint

pytestmark = SYSTEM


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    ep = PushEndpoint().start()
    yield ep
    ep.stop()


def play_until(srv: Server, table: str, game: str, tokens: list[str], seat: int) -> None:
    """Make the moves that keep the game going (over REST) until it is `seat`'s turn."""
    for _ in range(200):
        view = srv.get(f"/api/tables/{table}").json()["game"]
        if view["to_move"] == seat or view["over"]:
            return
        move = forward(view["legal"])
        body = {"token": tokens[view["to_move"]], "version": view["version"], "move": move}
        r = srv.post(f"/api/games/{game}/actions", body)
        assert r.status_code == 200, r.text
    raise AssertionError("the turn did not come")


def test_a_seat_subscribes_through_the_api_and_is_pushed_its_turn_in_its_language(
    tmp_path: Path, endpoint: PushEndpoint
) -> None:
    srv = Server(tmp_path / "robinson.sqlite3", extra=("--push-service", endpoint.origin))
    srv.start()
    try:
        assert (tmp_path / "robinson-vapid.pem").exists()  # made on first start, beside the db
        key = srv.get("/api/push/key").json()["key"]
        assert len(base64.urlsafe_b64decode(key + "=")) == 65  # a P-256 point, uncompressed
        t = srv.create([{"name": "Anna"}, {"name": "Bruno"}])
        tokens = [s["token"] for s in t["seats"]]
        url = f"/api/tables/{t['table']}/seats/1/push"
        sub = endpoint.subscription("bruno")

        def refused(body: dict[str, Any], code: str, status: int) -> None:
            r = srv.post(url, body)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), r.text

        good = {"token": tokens[1], "subscription": sub, "language": "cs"}
        refused({**good, "token": tokens[0]}, "bad_token", 403)  # Anna's token, Bruno's seat
        elsewhere = {**sub, "endpoint": "https://push.example.com/x/1"}
        refused({**good, "subscription": elsewhere}, "bad_subscription", 400)
        short = {**sub, "keys": {**sub["keys"], "auth": "AAAA"}}
        refused({**good, "subscription": short}, "bad_subscription", 400)
        refused({**good, "language": "de"}, "bad_subscription", 400)
        refused({"token": tokens[1], "language": "cs"}, "malformed", 400)
        assert srv.post(url, good).json() == {"ok": True}

        play_until(srv, t["table"], t["game"], tokens, 1)
        (push,) = endpoint.wait(1, "bruno")
        assert push.payload["title"] == "Robinson: jsi na tahu"
        said = push.payload["body"]  # Bruno's first turn: his pawn is still at the start
        assert re.fullmatch(r"Anna hodí \d; teď jsi na tahu ty\.", said), said
        assert push.payload["url"] == f"/t/{t['table']}"
        assert push.headers["ttl"] == "43200"
        assert f"k={key}" in push.headers["authorization"]  # signed with the served key

        # Unsubscribed (DELETE with the seat's token): the next turn of his is not pushed.
        out = {"token": tokens[1], "endpoint": sub["endpoint"]}
        r = srv.client().request("DELETE", url, json={**out, "token": tokens[0]})
        assert r.json()["error"]["code"] == "bad_token"
        assert srv.client().request("DELETE", url, json=out).json() == {"ok": True}
        # Anna subscribes and Bruno plays: her turn is pushed, and nothing more to him.
        sub_anna = endpoint.subscription("anna")
        body = {"token": tokens[0], "subscription": sub_anna, "language": "en"}
        assert srv.post(f"/api/tables/{t['table']}/seats/0/push", body).json() == {"ok": True}
        play_until(srv, t["table"], t["game"], tokens, 0)
        endpoint.wait(1, "anna")
        play_until(srv, t["table"], t["game"], tokens, 1)
        play_until(srv, t["table"], t["game"], tokens, 0)
        endpoint.wait(2, "anna")  # Bruno's turn came in between: not pushed to him
        assert len(endpoint.of("bruno")) == 1
        r = srv.get("/sw.js")
        assert r.status_code == 200 and "showNotification" in r.text
        assert r.headers["content-type"].startswith("text/javascript")
    finally:
        srv.stop()


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_in_a_two_process_cluster_a_turn_change_sends_exactly_one_push(
    postgres: PostgresCluster, tmp_path: Path, endpoint: PushEndpoint
) -> None:
    options = ("--push-service", endpoint.origin, "--vapid-key", str(tmp_path / "vapid.pem"))
    cluster = Cluster(tmp_path, postgres.new_database(), size=2, extra=options)
    try:
        first, second = cluster.servers
        t = first.create([{"name": "Ann"}, {"name": "Bo"}])
        tokens = [s["token"] for s in t["seats"]]
        body = {"token": tokens[1], "subscription": endpoint.subscription("bo"), "language": "en"}
        # Bo subscribes through the second process (which takes the table up and follows
        # it); Ann plays through the first. Both see every turn change; Bo is nowhere.
        assert second.post(f"/api/tables/{t['table']}/seats/1/push", body).json() == {"ok": True}
        turns = 3
        for n in range(1, turns + 1):
            play_until(first, t["table"], t["game"], tokens, 1)
            endpoint.wait(n, "bo")
            play_until(second, t["table"], t["game"], tokens, 0)
    finally:
        cluster.stop()
    told = re.findall(r"told (\S+:1:turn)", "".join(s.output for s in cluster.servers))
    assert len(told) == len(set(told)) == turns, told  # each turn told once, by one process
    assert len(endpoint.of("bo")) == turns


def test_a_vapid_key_file_that_is_not_one_stops_the_server_saying_so(tmp_path: Path) -> None:
    (tmp_path / "bad.pem").write_text("not a key")
    srv = Server(tmp_path / "robinson.sqlite3", extra=("--vapid-key", str(tmp_path / "bad.pem")))
    with pytest.raises(RuntimeError, match="cannot read the VAPID key"):
        srv.start()
