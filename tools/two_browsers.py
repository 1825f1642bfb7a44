"""A whole online game played in two browsers, as two friends would, with pictures on the way.

    .venv/bin/python tools/two_browsers.py --out /tmp/game --lang cs --guest-lang en

The host opens the home page, gives his name, presses "Play with friends" (two seats: his and
a friend's, a bot in the third); the guest opens the invite link in another browser (its own
language), takes the seat, and both play to the end by pressing what their page offers when it
is their turn (the first option at a decision, or the second with `--stay`), with motion on
(the die tumbles, pawns walk, the words come after). Every `--every` moves both pages are
photographed; the end too, and the rematch. It prints what each page's console and the server
complained of. Not a test: it is for looking (issue 18 asks for a whole game played by hand).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.web.conftest's Server

from tests.web.conftest import BROWSER_ARGS, Server
from tools.screenshots import NAMES, open_invite, play_with_friends


def context(browser: Any, lang: str, phone: bool) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1440, "height": 900}
    ctx = browser.new_context(
        viewport=size, locale=lang, reduced_motion="no-preference", is_mobile=phone, has_touch=phone
    )
    ctx.add_init_script(f"localStorage.setItem('robinson.lang', '{lang}')")
    return ctx


def my_turn(page: Any) -> bool:
    return bool(page.locator("#actions button:not([disabled])").count())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lang", default="en", help="the host's language")
    ap.add_argument("--guest-lang", default="cs", help="the guest's language")
    ap.add_argument("--guest-phone", action="store_true", help="the guest on a phone")
    ap.add_argument("--every", type=int, default=8, help="photograph every N moves (8)")
    ap.add_argument("--stay", action="store_true", help="take the second option at decisions")
    ap.add_argument("--minutes", type=float, default=15, help="give up after (15)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs Chromium: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    complaints: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "game.sqlite3", bot_delay=0.5)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
                host_ctx = context(browser, args.lang, False)
                guest_ctx = context(browser, args.guest_lang, args.guest_phone)
                host, guest = host_ctx.new_page(), guest_ctx.new_page()
                for who, page in (("host", host), ("guest", guest)):
                    page.on(
                        "console",
                        lambda m, who=who: (
                            complaints.append(f"{who}: {m.text}")
                            if m.type in ("error", "warning")
                            else None
                        ),
                    )
                    page.on("pageerror", lambda e, who=who: complaints.append(f"{who}: {e}"))
                invite, _ = play_with_friends(server, host, NAMES[args.lang])
                host.screenshot(path=str(args.out / "00-host-waiting.png"))
                open_invite(guest, invite)
                guest.screenshot(path=str(args.out / "01-guest-offer.png"))
                guest.click("[data-take-seat]")
                guest.wait_for_selector("#waiting-room", state="hidden")
                host.wait_for_selector("#waiting-room", state="hidden")
                moves, shots = 0, 2
                deadline = time.monotonic() + args.minutes * 60
                while time.monotonic() < deadline:
                    if host.locator("#end:not([hidden])").count():
                        break
                    acted = False
                    for page in (host, guest):
                        if not my_turn(page):
                            continue
                        buttons = page.locator("#actions button:not([disabled])")
                        pick = 1 if args.stay and buttons.count() > 1 else 0
                        try:
                            buttons.nth(pick).click(timeout=2000)
                        except Exception:  # the page redrew its buttons meanwhile
                            continue
                        acted, moves = True, moves + 1
                        if moves % args.every == 0:
                            for who, shown in (("host", host), ("guest", guest)):
                                name = f"{shots:02d}-{who}-move{moves}.png"
                                shown.screenshot(path=str(args.out / name))
                            shots += 1
                    if not acted:
                        time.sleep(0.3)
                guest.wait_for_selector("#end:not([hidden])", timeout=30_000)
                time.sleep(2)  # the end's drama: the crown, the tokens
                host.screenshot(path=str(args.out / f"{shots:02d}-host-end.png"))
                guest.screenshot(path=str(args.out / f"{shots:02d}-guest-end.png"), full_page=True)
                print(f"{moves} moves by the two players; pictures in {args.out}")
                browser.close()
        finally:
            server.stop()
    print("complaints:", *complaints or ["none"], sep="\n  ")


if __name__ == "__main__":
    main()
