"""Fixtures: a real `robinson serve` process on a free loopback port with a temp SQLite file, a
throwaway PostgreSQL cluster (tests/web/postgres.py) for the same tests against PostgreSQL, and
the one Chromium set-up every browser test uses (`browser`, `launched_browser`, `watch`)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from robinson.web.api.guard import CSP
from tests.tiers import SYSTEM, require
from tests.web.postgres import SKIP_REASON, PostgresCluster, cluster

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

    from tests.web.inprocess import Served

# The moves that always make progress: a test that plays "whatever is offered first" can stay in
# the tree (7) for ever, and with every pawn there the game would never end.
FORWARD = ("roll", "move", "again", "jump")


def forward(legal: list[str]) -> str:
    """The move that keeps the game going (the eager option) among `legal`."""
    return next(m for m in FORWARD if m in legal)


def assert_security_headers(headers: Any, where: object = "") -> None:
    """The guard's security headers (web/api/guard.py) are in `headers` (httpx's or websockets',
    both read names in any case)."""
    assert headers.get("content-security-policy") == CSP, where
    assert headers.get("x-content-type-options") == "nosniff", where
    assert headers.get("x-frame-options") == "DENY", where
    assert headers.get("referrer-policy") == "no-referrer", where


FORWARD_BUTTON = ", ".join(f"#actions button:not([disabled])[data-move='{m}']" for m in FORWARD)
WAIT_MS = 60_000  # the longest a page may take to show the next state (a loaded machine)
# The page's version and whose turn it says it is ("yours", "bot", "waiting", "over"), read in
# one go: the page renders both at once (table.js `render`), so they belong to one state.
RENDERED = """() => [document.querySelector('#actions').dataset.version,
                     document.querySelector('#turn').dataset.state]"""


def forward_button(page: Page, version: str) -> Locator:
    """The offered move that keeps the game going, once `page` shows `version`, enabled."""
    offered = (f"#actions[data-version='{version}'] button:not([disabled])[data-move='{m}']"
               for m in FORWARD)  # fmt: skip
    return page.locator(", ".join(offered)).first


def play_until_over(pages: list[Page], limit: int = 3000) -> None:
    """Click the offered move in the page whose turn it is, until the game is over.

    Each step waits on rendered state with Playwright's auto-waiting: for a human's turn, until
    the page that holds the seat shows its buttons at that version (nobody else can move the
    game on meanwhile); after a click, until every page shows the next version; for a bot's
    turn, until the first page does. A click that fails, or a state that does not come,
    fails the test."""
    from playwright.sync_api import expect

    for page in pages:  # each has shown a state (its first snapshot)
        page.locator("#actions[data-version]").wait_for(state="attached", timeout=WAIT_MS)
    for _ in range(limit):
        version, turn = pages[0].evaluate(RENDERED)
        if turn == "over":
            return
        if turn == "bot":
            actions = pages[0].locator("#actions")
            expect(actions).not_to_have_attribute("data-version", version, timeout=WAIT_MS)
            continue
        for page in pages:  # a human's turn: every page comes to show this version
            expect(page.locator("#actions")).to_have_attribute("data-version", version,
                                                               timeout=WAIT_MS)  # fmt: skip
        actors = [p for p in pages if p.locator("#turn").get_attribute("data-state") == "yours"]
        assert actors, f"no page holds the seat to move at version {version}"
        forward_button(actors[0], version).click(timeout=WAIT_MS)
        for page in pages:
            expect(page.locator("#actions")).not_to_have_attribute("data-version", version,
                                                                   timeout=WAIT_MS)  # fmt: skip
    raise AssertionError(f"the game did not end in the browser within {limit} moves")


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


PROC_TCP = ("/proc/net/tcp", "/proc/net/tcp6")  # Linux's table of TCP sockets


def listening_port(pid: int) -> int | None:
    """The TCP port the process `pid` listens on (read from Linux's /proc), or None while it
    listens on none."""
    folder = f"/proc/{pid}/fd"
    mine = set()
    with contextlib.suppress(OSError):  # the process is gone
        for fd in os.listdir(folder):
            with contextlib.suppress(OSError):  # a descriptor closed meanwhile
                mine.add(os.readlink(f"{folder}/{fd}"))
    for table in PROC_TCP:
        with open(table) as f:
            for line in f.readlines()[1:]:
                local, state, inode = (line.split()[i] for i in (1, 3, 9))
                if state == "0A" and f"socket:[{inode}]" in mine:  # 0A: LISTEN
                    return int(local.rsplit(":", 1)[1], 16)
    return None


def _read_to_end(pipe: Any, seconds: float) -> str:
    """A stopped server's output: up to its end, or what came within `seconds` should a
    process it started still hold the pipe (web/service/orphans.py ends those; never hang)."""
    os.set_blocking(pipe.fileno(), False)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        chunk = pipe.read()
        if chunk == b"":
            break  # the end
        if chunk:
            chunks.append(chunk)
        else:
            time.sleep(0.05)  # nothing yet (None: it would block)
    return b"".join(chunks).decode(errors="replace")


class Server:
    """`robinson serve` in a child process, startable again on the same database."""

    # The tests make many tables and moves from one address: limits far above what they use
    # (test_limits.py sets low ones to test the limits themselves).
    GENEROUS = ("--rate-tables", "100000/minute", "--rate-actions", "1000000/minute")
    GENEROUS += ("--rate-sockets", "100000/minute", "--rate-reads", "1000000/minute")

    def __init__(
        self,
        database: Path | str,
        bot_delay: float = 0.0,
        extra: tuple[str, ...] = (),
        options: tuple[str, ...] = GENEROUS,
    ) -> None:
        """`database`: a SQLite file's path, or any database URL; `extra`: more options;
        `options`: the rate limits (generous unless a test sets its own)."""
        self.url_db = database if isinstance(database, str) else f"sqlite:///{database}"
        self.bot_delay = bot_delay
        self.extra = extra
        self.options = options
        self.output = ""  # what the last run printed, once stopped
        # 0: the server binds a port of the system's choosing, read off the process once it
        # listens (no port picked here and bound there later, which another suite could take
        # in between); a restart comes back on the same port. Without /proc: a free port.
        self.port = 0 if all(map(os.path.exists, PROC_TCP)) else free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> None:
        """Start and wait until it answers (`timeout`: a ceiling for a loaded machine)."""
        require("system", "a `robinson serve` process")
        cmd = [sys.executable, "-c", "import sys, robinson.cli as c; sys.exit(c.main())"]
        cmd += ["serve", "--port", str(self.port)]
        cmd += ["--database", self.url_db, "--bot-delay", str(self.bot_delay)]
        cmd += [*self.options, *self.extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{out}")
            if self.port == 0:
                self.port = listening_port(self.proc.pid) or 0
                if self.port == 0:
                    time.sleep(0.05)
                    continue
            try:
                if httpx.get(f"{self.base}/api/meta", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError(f"server did not answer within {timeout:g} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc)
            if self.proc.stdout is not None:
                self.output = _read_to_end(self.proc.stdout, 15.0)
            self.proc = None

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=10)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.base + path, timeout=10)

    def post_raw(self, path: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
        return httpx.post(self.base + path, content=body, headers=headers, timeout=10)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10)

    def create(self, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
        r = self.post("/api/tables", {"seats": seats, **options})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def ws(self, table: str) -> ClientConnection:
        return connect(f"{self.ws_base}/ws/tables/{table}", open_timeout=10)

    @staticmethod
    def receive(ws: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of type `kind`, skipping others (updates of other moves, acks)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind!r} message within {timeout} s")
            msg: dict[str, Any] = json.loads(ws.recv(timeout=left))
            if msg["type"] == kind:
                return msg


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("db") / "robinson.sqlite3")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Make servers on databases of one's own (stopped at the end of the test)."""
    made: list[Server] = []

    def make(
        name: str = "robinson.sqlite3", bot_delay: float = 0.0, options: tuple[str, ...] = ()
    ) -> Server:
        srv = Server(tmp_path / name, bot_delay, options)
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()


# -- the browser: Debian's Chromium driven by Playwright (never downloaded) -----------------------

CHROMIUM = shutil.which("chromium")
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def bypassing_csp(b: Browser) -> Browser:
    """`b`, whose contexts and pages bypass the page's Content-Security-Policy (and reduce
    motion unless asked otherwise).

    Playwright's string predicates (wait_for_function("...")) run through eval, which the page's
    CSP forbids: the browser tests' contexts bypass it. The CSP itself is checked, with no
    bypass, in test_error_texts.py."""
    new_context, new_page = b.new_context, b.new_page
    # A move is told in order with motion (the die lands, the pawn arrives, then the words): a
    # second or more a move. The tests that look at motion ask for it (reduced_motion=
    # "no-preference"); the others play at once, as a user's own reduced motion does.
    calm = {"bypass_csp": True, "reduced_motion": "reduce"}
    b.new_context = lambda **kw: new_context(**{**calm, **kw})  # type: ignore[method-assign]
    b.new_page = lambda **kw: new_page(**{**calm, **kw})  # type: ignore[method-assign]
    return b


@contextlib.contextmanager
def launched_browser(bypass_csp: bool = True) -> Iterator[Browser]:
    """A Chromium whose pages bypass the CSP (`bypassing_csp`; `bypass_csp=False` only for the
    test of the CSP itself); the test is skipped without one."""
    require("browser", "Chromium")
    if CHROMIUM is None:
        pytest.skip("Chromium not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        if bypass_csp:
            b = bypassing_csp(b)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One browser for a module's tests (`launched_browser`); each test opens its own pages."""
    with launched_browser() as b:
        yield b


def watch(page: Page) -> list[str]:
    """The page's script errors and dialogs (dismissed), as they happen: a test ends asserting
    the list is empty."""
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    return problems


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """One PostgreSQL cluster for the whole session; tests take databases of their own from it."""
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("psycopg not installed: pip install -e '.[dev]'")
    with cluster() as pg:
        if pg is None:
            pytest.skip(SKIP_REASON)
        yield pg


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=SYSTEM)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database of each kind (PostgreSQL skipped when it is not installed)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'robinson.sqlite3'}"
    pg: PostgresCluster = request.getfixturevalue("postgres")
    return pg.new_database()


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    """A started in-process service on a temporary SQLite file, with the fake clock and bots
    that move at once (tests/web/inprocess.py); a module may define its own."""
    from robinson.web.settings import Settings
    from tests.web.fakes import FakeClock
    from tests.web.inprocess import Served

    srv = Served(f"sqlite:///{tmp_path / 'r.sqlite3'}", FakeClock(), Settings(bot_delay=0.0))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()
