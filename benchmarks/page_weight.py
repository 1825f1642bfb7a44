"""What a browser downloads to open a table: first visit (empty cache) and a repeat visit (same
browser), in bytes as received (headers included, compressed as sent) plus WebSocket frames, and
the time until the roll button is there. Real `robinson serve`, real Chromium (Debian's).

    python benchmarks/page_weight.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from playwright.sync_api import Page, sync_playwright


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as r:
        data: dict[str, Any] = json.load(r)
        return data


def visit(page: Page, url: str) -> tuple[int, int, float]:
    """Bytes over HTTP, bytes of WebSocket frames, seconds until a move can be made."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    http, frames = [0], [0]
    cdp.on(
        "Network.loadingFinished", lambda e: http.__setitem__(0, http[0] + e["encodedDataLength"])
    )
    cdp.on(
        "Network.webSocketFrameReceived",
        lambda e: frames.__setitem__(0, frames[0] + len(e["response"]["payloadData"])),
    )
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("[data-move='roll']")
    ready = time.perf_counter() - start
    page.wait_for_timeout(500)  # the last answers (the odds) arrive
    cdp.detach()
    return http[0], frames[0], ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", "import sys, robinson.cli as c; sys.exit(c.main())", "serve"]
        cmd += ["--port", str(port), "--database", f"sqlite:///{tmp}/w.sqlite3"]
        server = subprocess.Popen(cmd, env={**os.environ}, stdout=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/meta", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox"]
                )
                for run in range(args.runs):
                    seats = [{"name": "Anna"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}]
                    made = post(base + "/api/tables", {"seats": seats})
                    context = browser.new_context()
                    page = context.new_page()
                    first = visit(page, base + made["seats"][0]["link"])
                    again = visit(page, page.url)
                    context.close()
                    for name, (http, ws, ready) in (("first", first), ("repeat", again)):
                        print(
                            f"run {run + 1} {name:6} visit: {http / 1000:6.1f} kB HTTP"
                            f" + {ws / 1000:4.1f} kB WebSocket, ready in {ready:.2f} s"
                        )
                browser.close()
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
