"""Dice nobody can bias, in Chromium (docs/fair-dice.md): a seat's page gives its seed before the
first roll and shows every seat's; the game's record passes the table's "Check every roll" and
the offline verifier page (verify.html, opened from disk with no network), which rejects the
record with one roll or one seed altered, in both schemes."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from robinson import fairdice
from tests.web.conftest import play_until_over, watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

    from tests.web.conftest import Server

pytestmark = pytest.mark.browser

STATIC = resources.files("robinson.web") / "static"


def _verdict(page: Page, path: Path) -> tuple[str, str]:
    page.evaluate("document.getElementById('result').removeAttribute('data-ok')")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#result[data-ok]")
    result = page.locator("#result")
    return str(result.get_attribute("data-ok")), result.inner_text()


def _altered(record: dict[str, Any], change: str) -> dict[str, Any]:
    data = json.loads(json.dumps(record))
    if change == "roll":
        roll = next(a for i, a in enumerate(data["actions"]) if "roll" in a and i > 3)
        roll["roll"] = roll["roll"] % 6 + 1
    elif change == "seed":
        seeds = data["meta"]["dice"]["seeds"]
        mine = next(s for s in seeds if s["by"] == "player")
        mine["seed"] = ("0" if mine["seed"][0] != "0" else "1") + mine["seed"][1:]
    return data


def test_a_seat_gives_its_seed_and_the_record_passes_the_offline_verifier(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    t = server.create([{"name": "Anna"}, {"name": "Cila", "kind": "bot", "bot": "heuristic"}])
    context = browser.new_context()
    page = context.new_page()
    problems = watch(page)
    try:
        page.goto(server.base + t["seats"][0]["link"])
        page.wait_for_selector("[data-square='45']")
        page.click("#fair summary")
        page.wait_for_selector("#dice-seeds li[data-seat='0'][data-by='player']")
        game = server.get(f"/api/tables/{t['table']}").json()["game"]
        [given] = game["dice_seeds"]
        assert given["seat"] == 0 and len(given["seed"]) == 64  # 32 random bytes, hex
        assert "this browser" in page.locator("#dice-seeds li[data-seat='0']").inner_text()
        play_until_over([page])
        page.wait_for_selector("#dice-seeds li[data-seat='1'][data-by='server']")
        # The end's chart is a long computation: let it finish before asking for the record.
        page.wait_for_load_state("networkidle")
        page.click("#verify")
        page.wait_for_selector("#verify-result[data-ok='true']")
        # (The end's chart asks for its history once per render until it has it, so a few
        # renders at the end can pass the two long computations an address may run at once;
        # the refused one is a script error of the chart's, not of the dice: not counted here.)
        assert [p for p in problems if "long computations at once" not in p] == []
    finally:
        context.close()

    record = server.get(f"/api/games/{t['game']}/record").json()
    assert record["meta"]["dice"]["scheme"] == fairdice.SCHEME_V2
    assert record["meta"]["dice"]["seeds"][0] == given | {"by": "player"}
    # the verifier saved to disk: the page and its script, nothing else; no network at all
    folder = tmp_path / "saved"
    folder.mkdir()
    for name in ("verify.html", "verify.js"):
        shutil.copyfile(str(STATIC / name), folder / name)
    assert sum((folder / n).stat().st_size for n in ("verify.html", "verify.js")) <= 20_000
    seed = fairdice.new_seed()
    v1 = {
        "ruleset": {"edition": "standard"},
        "players": ["A", "B"],
        "first": 0,
        "actions": [{"roll": f} for f in fairdice.faces(seed, 1)],
        "meta": {"dice": {"scheme": fairdice.SCHEME, "seed_sha256": fairdice.commitment(seed),
                          "seed": seed.hex()}},
    }  # fmt: skip
    files = {
        "real.json": record,
        "roll.json": _altered(record, "roll"),
        "seed.json": _altered(record, "seed"),
        "v1.json": v1,
        "v1-roll.json": {**v1, "actions": [{"roll": v1["actions"][0]["roll"] % 6 + 1}]},
    }
    for name, data in files.items():
        (folder / name).write_text(json.dumps(data))
    offline = browser.new_context(offline=True)
    asked: list[str] = []
    offline.on("request", lambda r: asked.append(r.url))
    page = offline.new_page()
    problems = watch(page)
    try:
        page.goto((folder / "verify.html").as_uri())
        assert _verdict(page, folder / "real.json")[0] == "true"
        ok, text = _verdict(page, folder / "roll.json")
        assert ok == "false" and "but the server's seed and the seats' seeds give" in text
        ok, text = _verdict(page, folder / "seed.json")
        assert ok == "false" and "the server's seed and the seats' seeds give" in text
        assert _verdict(page, folder / "v1.json")[0] == "true"
        ok, text = _verdict(page, folder / "v1-roll.json")
        assert ok == "false" and "roll 0 was" in text and "the seed gives" in text
        assert all(u.startswith("file://") for u in asked), asked
        # in the language asked (or the browser's): the page and every reason
        page.goto((folder / "verify.html").as_uri() + "?lang=cs")
        assert page.locator("h1").inner_text() == "Ověř kostku hry Robinson"
        ok, text = _verdict(page, folder / "v1-roll.json")
        assert ok == "false" and "hod 0 byl" in text and "ale semínko dává" in text
        ok, text = _verdict(page, folder / "real.json")
        assert ok == "true" and "real.json: v pořádku: všech" in text
        assert problems == []
    finally:
        offline.close()
    latvian = browser.new_context(offline=True, locale="lv-LV")
    try:
        page = latvian.new_page()
        page.goto((folder / "verify.html").as_uri())
        assert page.locator("html").get_attribute("lang") == "lv"
        ok, text = _verdict(page, folder / "seed.json")
        assert ok == "false" and "servera sēkla un vietu sēklas dod" in text
    finally:
        latvian.close()
