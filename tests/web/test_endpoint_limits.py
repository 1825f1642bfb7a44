"""Issue 22: every endpoint whose answer is built per table is under a rate limit per address.
A table's view is a read (`--rate-reads`); the seat POSTs (whoami, offer, claim, invites, a
re-invite, a device link, revoke) count with the moves (`--rate-actions`). In process, with
the real app and low limits."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from robinson.web.settings import Rates, Settings


def limited_soon(send: Callable[[], httpx.Response]) -> httpx.Response:
    """The first refusal of up to three tries past a limit (the sliding window counter may let
    one or two more through when a minute turns between the hits before)."""
    for _attempt in range(3):
        r = send()
        if r.status_code == 429:
            return r
        assert r.status_code < 500, r.text
    raise AssertionError(f"three requests past the limit were all answered: {r.text}")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from robinson.web.app import create_app

    rates = Rates(tables="100/minute", actions="4/minute", reads="3/minute")
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}", rates=rates)
    with TestClient(create_app(settings)) as c:
        yield c


def _refused(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1


def test_a_tables_view_is_a_read(client: TestClient) -> None:
    t = client.post("/api/tables", json={"seats": [{"name": "Anna"}, {"name": "Bo"}]}).json()
    for _ in range(3):
        assert client.get(f"/api/tables/{t['table']}").status_code == 200
    _refused(limited_soon(lambda: client.get(f"/api/tables/{t['table']}?lang=cs")))
    assert client.get("/api/meta").status_code == 200  # constants are not counted


@pytest.mark.parametrize(
    "path",
    ["whoami", "offer", "claim", "invites", "seats/1/invite", "seats/0/device", "seats/0/revoke"],
)
def test_seat_posts_count_with_the_moves(client: TestClient, path: str) -> None:
    t = client.post("/api/tables", json={"seats": [{"name": "Anna"}, {"name": "Bo"}]}).json()
    token, host = t["seats"][0]["token"], t.get("host", "")
    body = {"token": token, "host": host, "invite": "nope"}
    url = f"/api/tables/{t['table']}/{path}"
    for _ in range(4):  # answered, whatever the answer (a wrong invite is still a try)
        assert client.post(url, json=body).status_code != 429
    _refused(limited_soon(lambda: client.post(url, json=body)))
    move = {"token": token, "version": 0, "move": "roll"}
    _refused(client.post(f"/api/games/{t['game']}/actions", json=move))  # one count
