"""The page's texts over HTTP, in process (the app on a temporary SQLite, no server started):
the home page's board asks for the edition its form has chosen and gets that edition's effect
lines; an unknown edition is a `bad_request` naming the known ones."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from robinson.engine import Ruleset
from robinson.web.app import create_app
from robinson.web.service import texts
from robinson.web.settings import Settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}"))
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("edition", ["lv", "cs", "ca", "classic"])
def test_the_board_of_an_edition_has_its_own_effect_lines(client: TestClient, edition: str) -> None:
    r = client.get(f"/api/i18n/lv?edition={edition}")
    assert r.status_code == 200, r.text
    effects = [s["effect"] for s in r.json()["squares"]]
    assert effects == [s["effect"] for s in texts.squares("lv", Ruleset(edition))]
    standard = [s["effect"] for s in client.get("/api/i18n/lv").json()["squares"]]
    if edition != "ca":  # the Catalan edition's rules read as the standard ones on the board
        assert effects != standard


def test_an_unknown_edition_is_a_bad_request_naming_the_editions(client: TestClient) -> None:
    r = client.get("/api/i18n/en?edition=atlantis")
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "bad_request" and "standard" in error["message"]
