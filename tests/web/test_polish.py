"""The page's texts (translated labels, plural forms) and the end-of-game views, over HTTP."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from robinson.engine import GameRecord
from robinson.i18n import LANGUAGES, Translator
from tests.web.test_api import _play_to_the_end

if TYPE_CHECKING:
    from tests.web.conftest import Server

PAYOUT_REASONS = ("bank", "friday_share", "nearest_share")
PAGE_KEYS = ("web.new_table", "web.create", "web.narration", "web.fair_dice", "web.payout")


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_the_page_labels_are_translated(server: Server, lang: str) -> None:
    ui = server.get(f"/api/i18n/{lang}").json()["ui"]
    english = server.get("/api/i18n/en").json()["ui"]
    for key in PAGE_KEYS:
        assert ui[key] and ui[key] != english[key], key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counted_labels_come_with_every_plural_form_and_the_rule(server: Server, lang: str) -> None:
    data = server.get(f"/api/i18n/{lang}").json()
    t = Translator(lang)
    index, forms = data["plural_index"], data["plurals"]["web.tokens"]
    assert len(forms) == {"lv": 3, "cs": 3}.get(lang, 2) and len(index) == 200
    for n in (0, 1, 2, 3, 4, 5, 11, 21, 22, 25, 101, 111, 121, 1000, 1001, 1002, 1011, 1021):
        # what the page computes (counts from 200 up taken as 100 + n % 100) ...
        page = forms[index[n if n < 200 else 100 + n % 100]].replace("{n}", str(n))
        # ... is what gettext says with the catalog's own rule
        assert page == t.ngettext("web.tokens", "web.tokens.plural", n).format(n=n), n


def test_the_end_shows_the_payout_as_steps_from_the_engine_events(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}, {"name": "C"}], edition="classic")
    game = _play_to_the_end(server, t)
    record = GameRecord.loads(server.get(f"/api/games/{t['game']}/record").text)
    last_events = list(record.steps())[-1][2]
    lines = Translator("en").narrate_each(last_events, record.players)  # a step is a line
    expected = [
        e.to_json()
        for e, line in zip(last_events, lines, strict=True)
        if line
        and (e.kind == "won" or (e.kind == "transfer" and e.to_json()["reason"] in PAYOUT_REASONS))
    ]
    steps = game["payout"]
    assert [{k: v for k, v in s.items() if k != "text"} for s in steps] == expected
    if game["winner"] is not None:
        assert steps[0]["kind"] == "won" and steps[1]["reason"] == "bank"
        assert len(steps) >= 2
    assert all(s["text"] for s in steps)
    # in another language the same steps are told in that language
    lv = server.get(f"/api/tables/{t['table']}?lang=lv").json()["game"]["payout"]
    assert [s["kind"] for s in lv] == [s["kind"] for s in steps]
    assert [s["text"] for s in lv] != [s["text"] for s in steps] or not steps


def test_the_replay_carries_the_start_and_the_seats(server: Server) -> None:
    t = server.create(
        [{"name": "A"}, {"name": "B"}, {"name": "C", "kind": "bot", "bot": "eager"}],
        edition="classic",
    )
    _play_to_the_end(server, t)
    replay = server.get(f"/api/games/{t['game']}/replay?lang=cs").json()
    assert replay["initial"]["bank"] == 30 and replay["initial"]["players"][0]["purse"] == 20
    assert [s["kind"] for s in replay["seats"]] == ["human", "human", "bot"]
    first = replay["steps"][0]["state"]["players"][0]
    assert {"purse", "friday", "skips", "shipwrecked"} <= set(first)
