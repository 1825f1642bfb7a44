"""Screenshots of every view of the web page, in every language, at a desk's and a phone's size.

Issue 18 asks to look at each view before calling the table done; this makes the pictures to
look at, and a contact sheet per view (the four languages side by side) to look at first:

    .venv/bin/python tools/screenshots.py --out /tmp/shots            # all, ~4 minutes
    .venv/bin/python tools/screenshots.py --out /tmp/shots --langs en --sizes phone

It starts its own `robinson serve` (a temp SQLite file, 127.0.0.1) and Chromium (/usr/bin/chromium
through Playwright, as the browser tests), plays through the page like a person: the home page,
the rules, "Play now" against bots (a few rolls, then until a decision is offered), "Play with
friends" with a second browser taking the invited seat (the waiting room, the offer, both
tables), a spectator, a finished game, its replay and the dice check. Motion is reduced (the
pictures show settled states). Not a test: it asserts nothing, it shows.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.web.conftest's Server

from tests.web.conftest import BROWSER_ARGS, Server

SIZES = {"desk": (1440, 900), "phone": (390, 844)}
NAMES = {"en": "Olga", "lv": "Līga", "cs": "Jana", "ca": "Núria"}  # the viewer's


def shot(page: Any, out: Path, name: str) -> None:
    page.wait_for_timeout(300)  # fonts, a last render
    page.screenshot(path=str(out / f"{name}.png"))


def roll(page: Any, times: int) -> None:
    """Press the table's first action `times` (the roll, or moving on) as its player would."""
    for _ in range(times):
        button = page.locator("#actions button:not([disabled])").first
        try:
            button.wait_for(timeout=15_000)
            button.click()
        except Exception:  # the game ended, or the bots are slow: enough for a picture
            return
        page.wait_for_timeout(400)


def until_decision(page: Any, tries: int = 80) -> bool:
    for _ in range(tries):
        buttons = page.locator("#actions button:not([disabled])")
        with contextlib.suppress(Exception):
            buttons.first.wait_for(timeout=15_000)
        if buttons.count() >= 2:
            return True
        if page.locator("#end:not([hidden])").count():
            return False
        with contextlib.suppress(Exception):
            buttons.first.click()
        page.wait_for_timeout(300)
    return False


def play_with_friends(server: Server, page: Any, name: str) -> tuple[str, str]:
    """The host's "Play with friends" from the home page under `name`, until the waiting room
    shows; returns the invite link of the seat it waits for and the spectators' link (absolute),
    as the host's panel gives them (`POST …/invites` with the host's secret the page keeps)."""
    page.goto(server.base + "/")
    page.fill("#my-name", name)
    page.click("#play-friends")
    page.wait_for_selector("#waiting-room:not([hidden])")
    table = page.url.split("/t/")[1].split("#")[0]
    secret = page.evaluate(f"localStorage.getItem('robinson.host.{table}')")
    links = server.post(
        f"/api/tables/{table}/invites", {"host": secret, "origin": server.base}
    ).json()
    awaited = server.get(f"/api/tables/{table}").json()["game"]["awaited"]
    invite = next(s["link"] for s in links["seats"] if s["seat"] in awaited)

    def absolute(link: str) -> str:
        return link if link.startswith("http") else server.base + link

    return absolute(invite), absolute(links["spectator"])


def open_invite(page: Any, invite: str) -> None:
    """The guest opens the invite: the seat's offer, its "Take this seat" button shown."""
    page.goto(invite)
    page.wait_for_selector("[data-take-seat]")


def finished_game(server: Server) -> tuple[str, str, str]:
    """A finished table (the human seat handed to a bot, bots playing it out): its id, the
    human's secret and the game's id."""
    made = server.create(
        [{"name": "Olga"}, {"name": "Pavel", "kind": "bot", "bot": "eager"}], language="en"
    )
    table, token = made["table"], made["seats"][0]["token"]
    server.post(f"/api/tables/{table}/seats/0/bot", {"token": token, "bot": "eager"})
    deadline = time.monotonic() + 120
    while not server.get(f"/api/tables/{table}").json()["game"]["over"]:
        if time.monotonic() > deadline:
            raise RuntimeError("the bots did not finish a game in 2 minutes")
        time.sleep(0.2)
    return table, token, made["game"]


def views(browser: Any, server: Server, lang: str, size: str, out: Path) -> None:
    width, height = SIZES[size]
    me = NAMES[lang]

    @contextlib.contextmanager
    def context() -> Iterator[Any]:
        ctx = browser.new_context(
            viewport={"width": width, "height": height},
            locale=lang,
            reduced_motion="reduce",
            bypass_csp=True,
            is_mobile=size == "phone",
            has_touch=size == "phone",
        )
        ctx.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
        try:
            yield ctx
        finally:
            ctx.close()

    tag = f"{lang}-{size}"
    with context() as ctx:
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#bot-kinds dd", state="attached")
        shot(page, out, f"home-{tag}")
        page.goto(server.base + "/rules")
        page.wait_for_selector("#rules-page:not([hidden])")
        shot(page, out, f"rules-{tag}")
        page.goto(server.base + "/")
        page.fill("#my-name", me)
        page.click("#play-now")
        page.wait_for_selector("#actions button")
        shot(page, out, f"table-start-{tag}")
        roll(page, 6)
        shot(page, out, f"table-mid-{tag}")
        if until_decision(page):
            shot(page, out, f"table-decision-{tag}")
            page.locator("#actions button").nth(1).focus()
            shot(page, out, f"table-decision-focus-{tag}")

    with context() as host, context() as guest:
        page = host.new_page()
        invite, spectator = play_with_friends(server, page, me)
        shot(page, out, f"friends-waiting-{tag}")
        other = guest.new_page()
        open_invite(other, invite)
        shot(other, out, f"friends-offer-{tag}")
        other.click("[data-take-seat]")
        # the claim starts the game: the waiting room goes on both pages
        other.wait_for_selector("#waiting-room", state="hidden")
        page.wait_for_selector("#waiting-room", state="hidden")
        shot(page, out, f"friends-host-{tag}")
        shot(other, out, f"friends-guest-{tag}")
        watcher = guest.new_page()
        watcher.goto(spectator)
        watcher.wait_for_selector("#turn")
        shot(watcher, out, f"spectator-{tag}")

    finished, token, game = finished_game(server)
    with context() as ctx:
        page = ctx.new_page()
        page.goto(f"{server.base}/t/{finished}#{token}")
        page.wait_for_selector("#end:not([hidden])")
        shot(page, out, f"end-{tag}")
        page.goto(f"{server.base}/replay/{game}")
        page.wait_for_selector("#scrub")
        page.wait_for_timeout(1500)
        shot(page, out, f"replay-{tag}")
        page.goto(f"{server.base}/static/verify.html?lang={lang}")
        shot(page, out, f"verify-{tag}")


def sheets(out: Path, langs: list[str], sizes: list[str]) -> None:
    """A contact sheet per view and size: the languages side by side, at half size."""
    from PIL import Image

    names = sorted({p.stem.rsplit("-", 2)[0] for p in out.glob("*.png") if "sheet" not in p.stem})
    for view in names:
        for size in sizes:
            images = [out / f"{view}-{lang}-{size}.png" for lang in langs]
            found = [Image.open(p) for p in images if p.exists()]
            if not found:
                continue
            w, h = found[0].size
            sheet = Image.new("RGB", (w * len(found) // 2, h // 2), "white")
            for i, image in enumerate(found):
                sheet.paste(image.resize((w // 2, h // 2)), (i * w // 2, 0))
            sheet.save(out / f"sheet-{view}-{size}.png")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    ap.add_argument("--langs", default="en,lv,cs,ca", help="comma-separated (en,lv,cs,ca)")
    ap.add_argument("--sizes", default="desk,phone", help="comma-separated (desk,phone)")
    args = ap.parse_args()
    langs, sizes = args.langs.split(","), args.sizes.split(",")
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs Chromium: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "shots.sqlite3", bot_delay=0.2)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
                for lang in langs:
                    for size in sizes:
                        print(f"{lang} {size}", flush=True)
                        views(browser, server, lang, size, args.out)
                browser.close()
        finally:
            server.stop()
    sheets(args.out, langs, sizes)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
