"""The server's limits against a real server process: body size whatever the transfer encoding,
JSON nesting and number length over REST and WebSocket, every error in the envelope, and the
security headers on every answer (docs/protocol.md, Limits)."""

from __future__ import annotations

import json
import socket
import threading
from html.parser import HTMLParser
from importlib import resources
from typing import Any

import httpx

from robinson.web.api.guard import CSP
from robinson.web.protocol.limits import MAX_DEPTH, MAX_MESSAGE
from tests.web.conftest import Server, assert_security_headers


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _envelope(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    return message


def test_a_20_mb_chunked_body_is_refused_at_the_limit_and_costs_no_memory(server: Server) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    before = _rss_kb(pid)
    total = 20 * 1024 * 1024
    chunk = b"[" * 65536
    sent = 0
    answer = bytearray()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:

        def read() -> None:
            try:
                while data := s.recv(65536):
                    answer.extend(data)
            except OSError:
                pass

        reader = threading.Thread(target=read)
        reader.start()
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        try:
            while sent < total:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server stopped reading and closed: what is wanted
        reader.join(20)
    head, _, body = bytes(answer).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    assert json.loads(body)["error"]["code"] == "too_large"
    assert sent < total, "the server read the whole 20 MB body"
    assert _rss_kb(pid) - before < 50 * 1024
    assert server.get("/api/meta").status_code == 200  # and it serves on


def test_a_content_length_over_the_limit_is_refused_before_reading(server: Server) -> None:
    r = server.post("/api/tables", {"seats": [{"name": "x" * MAX_MESSAGE}]})
    assert "at most 8192 bytes" in _envelope(r, 413, "too_large")


def test_deep_nesting_and_huge_numbers_are_malformed_over_rest(server: Server) -> None:
    deep = '{"seats": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "}"
    huge = '{"seats": [{"name": "A"}, {"name": "B"}], "start_tokens": 1' + "0" * 5000 + "}"
    headers = {"content-type": "application/json"}
    for body, words in [(deep, "nested at most"), (huge, "a number has at most")]:
        r = server.post_raw("/api/tables", body.encode(), headers)
        assert words in _envelope(r, 400, "malformed")
    # Brackets and digits inside a string are text, not structure.
    name = "[" * 30 + "9" * 30
    fine = {"seats": [{"name": name[:40]}, {"name": "B"}]}
    assert server.post("/api/tables", fine).status_code == 201


def test_deep_nesting_huge_numbers_and_multibyte_text_over_websocket_keep_it_open(
    server: Server,
) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}])
    with server.ws(t["table"]) as ws:
        ws.send(json.dumps({"type": "hello"}))
        server.receive(ws, "snapshot")
        cases = [
            ('{"type": "ping", "id": ' + "[" * 100 + "]" * 100 + "}", "malformed"),
            ('{"type": "ping", "id": 1' + "0" * 5000 + "}", "malformed"),
            # 5000 characters, 10000 bytes: over the limit in bytes, not in characters
            (json.dumps({"type": "ping", "id": "é" * 5000}, ensure_ascii=False), "too_large"),
        ]
        for text, code in cases:
            ws.send(text)
            error = server.receive(ws, "error")
            assert error["code"] == code, error
            ws.send(json.dumps({"type": "ping", "id": 7}))
            assert server.receive(ws, "pong")["id"] == 7  # the socket stayed open


def test_the_frameworks_own_errors_are_in_the_envelope(server: Server) -> None:
    _envelope(server.get("/api/no/such/thing"), 404, "not_found")
    _envelope(server.get("/static/no-such-file.js"), 404, "not_found")
    _envelope(server.get("/api/tables/nope"), 404, "unknown_game")
    _envelope(server.client().delete("/api/meta"), 405, "method_not_allowed")
    _envelope(server.post("/api/tables", {"seats": "two"}), 400, "malformed")
    not_json = server.post_raw("/api/tables", b"{oops", {"content-type": "application/json"})
    _envelope(not_json, 400, "malformed")


def test_an_unknown_page_is_the_page_with_status_404_and_api_paths_keep_the_envelope(
    server: Server,
) -> None:
    """A person who opens a wrong address gets the page, which says so in their language
    (tests/web/test_table_view.py); a program asking the API gets the JSON envelope."""
    for path in ("/no/such/page", "/nothing-here", "/t/", "/replay/a/b"):
        r = server.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert '<script type="module" src="/static/app.js">' in r.text
    for path in ("/api/no/such/thing", "/static/nope.js", "/ws/nope"):
        _envelope(server.get(path), 404, "not_found")


def test_every_answer_carries_the_security_headers(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}])
    answers = [
        server.get("/"),
        server.get(f"/t/{t['table']}"),
        server.get("/static/app.js"),
        server.get("/api/meta"),
        server.get("/openapi.json"),
        server.get("/nothing-here"),
        server.post("/api/tables", {"seats": [{"name": "x" * MAX_MESSAGE}]}),
    ]
    for r in answers:
        assert_security_headers(r.headers, r.url)
    # a revalidation (304) carries its ETag alone: the stored answer keeps its headers
    again = httpx.get(
        server.base + "/static/app.js", headers={"if-none-match": answers[2].headers["etag"]}
    )
    assert again.status_code == 304 and again.headers["etag"] == answers[2].headers["etag"]
    assert "content-security-policy" not in again.headers
    assert "script-src 'self';" in CSP and "unsafe-inline" not in CSP
    assert "frame-ancestors 'none'" in CSP


def test_the_websocket_handshake_answer_carries_the_security_headers(server: Server) -> None:
    t = server.create([{"name": "A"}, {"name": "B"}])
    with server.ws(t["table"]) as ws:
        assert ws.response is not None and ws.response.status_code == 101
        # (websockets' Headers.get raises MultipleValuesError on a header sent twice.)
        assert_security_headers(ws.response.headers, "the 101 answer")
        ws.send(json.dumps({"type": "hello"}))
        assert server.receive(ws, "snapshot")["table"] == t["table"]  # and the socket works


class _InlineScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self.found.append("<script> without src")
        if tag == "script":
            self._in_script = True
        self.found += [f"{tag} {n}=" for n in names if n.startswith("on")]
        self.found += [f"{tag} {n}=javascript:" for n, v in attrs if (v or "").startswith("java")]
        if tag == "style" or "style" in names:
            self.found.append(f"inline style on {tag}")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append("script text")


def test_the_static_pages_have_no_inline_script_or_style() -> None:
    static = resources.files("robinson.web") / "static"
    pages = [p for p in static.iterdir() if p.name.endswith(".html")]
    assert pages
    for page in pages:
        parser = _InlineScripts()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.found == [], (page.name, parser.found)


def test_names_with_bidi_controls_or_nothing_visible_or_a_neighbours_name_are_refused(
    server: Server,
) -> None:
    refused = [
        (["Anna\u202eannA", "B"], "text-direction controls"),  # right-to-left override
        (["\u2067Anna\u2069", "B"], "text-direction controls"),  # an isolate
        (["\u200b\u200b", "B"], "a visible character"),  # zero-width spaces only
        (["\u3164", "B"], "a visible character"),  # the Hangul filler, a blank "letter"
        (["\u0301\u0301", "B"], "a visible character"),  # combining accents on nothing
        (["Anna", "anna"], "taken by seat 0"),
        (["Anna", "B", "ＡＮＮＡ"], "taken by seat 0"),  # fullwidth: NFKC makes it ANNA
        (["Ｂ", "b"], "taken by seat 0"),
    ]
    for names, words in refused:
        r = server.post("/api/tables", {"seats": [{"name": n} for n in names]})
        assert words in _envelope(r, 400, "bad_request"), names
    accepted = ["Ånna", "Anna-Līze", "Zoë", "李雷", "עדי", "🙂", "Anna ", " anna2"]
    for names in (accepted[:4], accepted[4:]):
        r = server.post("/api/tables", {"seats": [{"name": n} for n in names]})
        assert r.status_code == 201, (names, r.text)


def test_a_bug_of_ours_is_a_500_in_the_envelope_with_the_security_headers(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from robinson.web.app import create_app
    from robinson.web.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}"))

    @app.get("/api/broken")
    async def broken() -> None:
        raise ZeroDivisionError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/broken")
    assert "bug of ours" in _envelope(r, 500, "internal")
    assert_security_headers(r.headers)
