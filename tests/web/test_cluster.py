"""Many servers, one table: three `robinson serve --redis` processes on one PostgreSQL database
and one Redis, nginx in front (deploy/nginx/robinson.conf), all real (tests/web/cluster.py).

Skipped, with the reason, when redis-server, nginx or PostgreSQL is not installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.web.cluster import START, Cluster, missing
from tests.web.conftest import Server, forward, launched_browser, watch
from tests.web.postgres import PostgresCluster

REASON = missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
BOT_DELAY = 0.2  # seconds per bot move: slow enough to kill a process in the middle of a game
TIMEOUT = 120  # no test waits longer than this for a game


@pytest.fixture(scope="module")
def cluster(
    postgres: PostgresCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster"), postgres.new_database(), bot_delay=BOT_DELAY)
    yield c
    c.stop()


class Viewer:
    """One WebSocket of a table, as the page holds it: it reconnects (with backoff) when its
    process goes away and resyncs with `hello`; it records every update it is given, in order."""

    def __init__(self, ws_base: str, table: str, tokens: tuple[str, ...] = ()) -> None:
        self.url = f"{ws_base}/ws/tables/{table}"
        self.tokens = list(tokens)
        self.state: dict[str, Any] | None = None
        self.versions: list[int] = []  # the version of each update, in arrival order
        self.gaps = 0  # updates that did not follow the one before (the viewer resynced)
        self.reconnects = 0
        self.reactions: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self._ws: Any = None
        self._replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._resync: asyncio.Future[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await self.wait(lambda s: True)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        pause = 0.1
        while True:
            try:
                async with websockets.connect(self.url, open_timeout=5) as ws:
                    self._ws = ws
                    hello = {"type": "hello", "lang": "en", "tokens": self.tokens}
                    await ws.send(json.dumps(hello))
                    pause = 0.1
                    async for raw in ws:
                        self._receive(json.loads(raw))
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
                pass
            self._ws = None
            self.reconnects += 1
            await self._replies.put({"type": "error", "code": "disconnected"})
            await asyncio.sleep(pause)
            pause = min(pause * 2, 1.0)

    def _receive(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "snapshot":
            self.state = msg["game"]
        elif msg["type"] == "update":
            assert self.state is not None
            if msg["game"] != self.state["id"] or msg["version"] != self.state["version"] + 1:
                self.gaps += 1
                self._resync = asyncio.ensure_future(
                    self._send({"type": "hello", "lang": "en", "tokens": self.tokens})
                )
                return
            self.versions.append(msg["version"])
            self.state = msg["state"]
        elif msg["type"] == "state":
            self.state = msg["state"]
        elif msg["type"] == "reaction":
            self.reactions.append(msg)
        elif msg["type"] in ("ack", "error") and msg.get("id") is not None:
            self._replies.put_nowait(msg)
        self.changed.set()

    async def _send(self, msg: dict[str, Any]) -> None:
        if self._ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._ws.send(json.dumps(msg))

    async def wait(self, ready: Any, timeout: float = 30) -> dict[str, Any]:
        """Until the state satisfies `ready`; returns it."""
        deadline = time.monotonic() + timeout
        while self.state is None or not ready(self.state):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.url}: state not reached in {timeout} s: {self.state}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return self.state

    async def act(self, move: str, token: str) -> dict[str, Any]:
        """Send a move at the current version; the ack, the error, or 'disconnected'."""
        assert self.state is not None
        while not self._replies.empty():
            self._replies.get_nowait()
        msg = {"type": "act", "id": 1, "game": self.state["id"], "version": self.state["version"]}
        await self._send({**msg, "move": move, "token": token})
        try:
            return await asyncio.wait_for(self._replies.get(), 10)
        except TimeoutError:
            return {"type": "error", "code": "no_answer"}


async def play_seat(
    viewer: Viewer, tokens: dict[int, str], acked: list[int], pace: list[float] | None = None
) -> None:
    """Play the seats of `tokens` forward until the game is over; note each acked version."""
    while True:
        state = await viewer.wait(lambda s: s["over"] or s["to_move"] in tokens, TIMEOUT)
        if state["over"]:
            return
        await asyncio.sleep(pace[0] if pace else 0)  # a list: the test may change it
        reply = await viewer.act(forward(state["legal"]), tokens[state["to_move"]])
        if reply["type"] == "ack":
            acked.append(reply["version"])
        elif reply["code"] in ("disconnected", "no_answer"):
            await viewer.wait(lambda s: viewer._ws is not None, TIMEOUT)
        else:
            assert reply["code"] in ("stale_version", "not_your_turn"), reply
            await asyncio.sleep(0.05)


def record(server: Server, game: str) -> dict[str, Any]:
    data: dict[str, Any] = server.get(f"/api/games/{game}/record").json()
    return data


def over(rec: dict[str, Any]) -> bool:
    """Whether a record is of a finished game (its dice seed is revealed at the end)."""
    return "seed" in rec["meta"]["dice"]


# -- every viewer on every process -----------------------------------------------------------


def test_seats_on_different_processes_and_every_viewer_gets_every_update_in_order(
    cluster: Cluster,
) -> None:
    t = cluster.servers[0].create([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    tokens = [s["token"] for s in t["seats"]]

    async def run() -> tuple[list[Viewer], list[Viewer], int]:
        # seat i plays through process i; one spectator more on each process
        seats = [
            Viewer(srv.ws_base, t["table"], (tokens[i],)) for i, srv in enumerate(cluster.servers)
        ]
        watchers = [Viewer(srv.ws_base, t["table"]) for srv in cluster.servers]
        for v in seats + watchers:
            await v.start()
        acked: list[int] = []
        await asyncio.wait_for(
            asyncio.gather(*(play_seat(v, {i: tokens[i]}, acked) for i, v in enumerate(seats))),
            TIMEOUT,
        )
        final = len(acked)
        for v in seats + watchers:
            await v.wait(lambda s: s["version"] == final)
            await v.stop()
        return seats, watchers, final

    seats, watchers, final = asyncio.run(run())
    assert final == len(record(cluster.servers[1], t["game"])["actions"])
    for v in seats + watchers:
        assert v.versions == list(range(1, final + 1)), v.url  # all of them, in order
        assert v.gaps == 0 and v.reconnects == 0


# -- the same move at two processes at once ---------------------------------------------------


def test_the_same_move_sent_to_two_processes_at_once_is_applied_exactly_once(
    cluster: Cluster,
) -> None:
    t = cluster.servers[0].create([{"name": "A"}, {"name": "B"}])
    game, token = t["game"], t["seats"][0]["token"]
    a, b = cluster.servers[1], cluster.servers[2]
    for srv in (a, b):  # both hold the table in memory already
        assert srv.get(f"/api/tables/{t['table']}").is_success
    body = {"token": token, "version": 0, "move": "roll"}
    barrier = threading.Barrier(2)
    answers: list[httpx.Response] = []

    def send(srv: Server) -> None:
        with httpx.Client(timeout=10) as client:
            barrier.wait()
            answers.append(client.post(f"{srv.base}/api/games/{game}/actions", json=body))

    threads = [threading.Thread(target=send, args=(srv,)) for srv in (a, b)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409], [r.text for r in answers]
    refused = next(r for r in answers if r.status_code == 409)
    assert refused.json()["error"]["code"] == "stale_version"
    assert len(record(a, game)["actions"]) == 1


# -- kill -9 -------------------------------------------------------------------------------------


def lease_holder(cluster: Cluster, table: str) -> str | None:
    import redis

    r = redis.Redis.from_url(cluster.redis.url)
    try:
        value = r.get(f"robinson:lease:{table}")
    finally:
        r.close()
    return value.decode() if value else None


def viewers_process(cluster: Cluster, table: str) -> str | None:
    """The process holding the table's sockets (nginx sends them all to one): read off the
    cluster's presence counts, "{process}:{seat}" -> connections."""
    import redis

    r = redis.Redis.from_url(cluster.redis.url)
    try:
        fields = r.hgetall(f"robinson:presence:{table}")
    finally:
        r.close()
    held = {f.decode().rsplit(":", 1)[0] for f, n in fields.items() if int(n) > 0}
    return held.pop() if len(held) == 1 else None


def test_kill_9_of_processes_mid_game_loses_nothing_and_bot_tables_go_on(
    cluster: Cluster,
) -> None:
    front = cluster.front
    human = front.create([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    tokens = {i: s["token"] for i, s in enumerate(human["seats"])}
    takeovers: list[float] = []
    pace = [0.3]  # slow while processes are killed, then the game is played out

    def bot_table() -> dict[str, Any]:
        return front.create(
            [{"name": f"B{i}", "kind": "bot", "bot": "heuristic"} for i in range(4)]
        )

    bots: list[dict[str, Any]] = []
    took_viewers = [False]  # the first kill found and took the viewers' process

    async def run() -> list[int]:
        # one viewer per seat through nginx, which sends every socket of a table to one process
        # (a consistent hash of the table id): the first kill takes that process away, so the
        # viewers must come back through nginx to another; the other kills take a bot table's
        viewers = [Viewer(front.ws_base, human["table"], (tokens[i],)) for i in tokens]
        for v in viewers:
            await v.start()
        acked: list[int] = []
        players = asyncio.gather(
            *(play_seat(v, {i: tokens[i]}, acked, pace) for i, v in enumerate(viewers))
        )
        for kill in range(3):
            bots.extend([await asyncio.to_thread(bot_table), await asyncio.to_thread(bot_table)])
            await asyncio.sleep(1.0)
            going = [b for b in bots if not over(record(front, b["game"]))]
            holder = None
            if kill == 0:  # the viewers' process (and whatever bot tables it drives)
                for _ in range(20):  # its presence counts, once written
                    holder = await asyncio.to_thread(viewers_process, cluster, human["table"])
                    if holder is not None:
                        break
                    await asyncio.sleep(0.1)
                took_viewers[0] = holder is not None
            if holder is None:  # the process driving a bot table still going, else any
                holder = lease_holder(cluster, going[0]["table"]) if going else None
            victim = cluster.server_of(holder) if holder else cluster.servers[0]
            led = [b for b in going if lease_holder(cluster, b["table"]) == holder]
            before = {b["table"]: len(record(front, b["game"])["actions"]) for b in led}
            killed_at = time.monotonic()
            await asyncio.to_thread(victim.kill)
            # each bot table it drove goes on (another process took its lease over)
            for b in led:
                while True:
                    assert time.monotonic() - killed_at < 30, "a bot table stopped for good"
                    rec = await asyncio.to_thread(record, front, b["game"])
                    if len(rec["actions"]) > before[b["table"]] or over(rec):
                        takeovers.append(time.monotonic() - killed_at)
                        break
                    await asyncio.sleep(0.1)
            await asyncio.to_thread(victim.start, START)
        pace[0] = 0
        await asyncio.wait_for(players, TIMEOUT)
        for v in viewers:
            await v.stop()
        # viewers of killed processes came back through nginx (to the others) and went on
        if took_viewers[0]:
            assert sum(v.reconnects for v in viewers) >= 1
        return acked

    acked = asyncio.run(run())
    rec = record(front, human["game"])
    # every acknowledged move is in the log, at its place, and the log has nothing else twice
    assert over(rec)
    assert sorted(acked) == list(range(1, len(rec["actions"]) + 1))
    print(f"bot tables went on {', '.join(f'{t:.1f}' for t in takeovers)} s after a kill -9")
    for b in bots:  # every bot game ends (each move once: the store's key)
        deadline = time.monotonic() + TIMEOUT
        while not over(record(front, b["game"])):
            assert time.monotonic() < deadline, "a bot game did not end"
            time.sleep(0.5)


def _view(server: Server, table: str) -> dict[str, Any]:
    view: dict[str, Any] = server.get(f"/api/tables/{table}").json()["game"]
    return view


def test_a_clock_is_driven_by_the_lease_holder_and_taken_over_when_it_is_killed(
    cluster: Cluster,
) -> None:
    """Nobody acts at a table with a 5 s clock: its driver (the lease holder) makes each
    timeout move; killed, another process makes the next one within the lease's time, and no
    timeout is made twice."""
    front = cluster.front
    t = front.create([{"name": "Ann"}, {"name": "Bo"}], move_seconds=5)
    table = t["table"]
    deadline = time.monotonic() + 30
    while _view(front, table)["version"] < 1:  # the first timeout, by the holder
        assert time.monotonic() < deadline, "no timeout move in 30 s"
        time.sleep(0.2)
    holder = lease_holder(cluster, table)
    assert holder is not None, "a table with a clock has a driver"
    victim = cluster.server_of(holder)
    view = _view(front, table)
    due = view["clock"]["deadline"]
    victim.kill()
    try:
        from datetime import datetime

        due_at = datetime.fromisoformat(due.replace("Z", "+00:00")).timestamp()
        while _view(front, table)["version"] < view["version"] + 1:
            # the lease runs out 3 s after the kill at most, the sweep finds it within 0.5 s
            assert time.time() < due_at + 15, "the clock stopped with the killed process"
            time.sleep(0.2)
        late = time.time() - due_at
        new_holder = lease_holder(cluster, table)
        assert new_holder is not None and new_holder != holder
    finally:
        victim.start(START)
    print(f"the timeout after the kill came {late:.1f} s after its deadline")
    assert late < 5
    with front.ws(table) as ws:
        ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": []}))
        snapshot = front.receive(ws, "snapshot")
    timeouts = [line for line in snapshot["log"] if line.startswith("Time ran out")]
    game = snapshot["game"]
    if all(p["kind"] == "human" for p in game["players"]):  # no seat handed to a bot yet
        assert len(timeouts) == game["version"]  # one narrated timeout per move, none twice


def test_presence_shows_on_every_process(cluster: Cluster) -> None:
    """Ann's connection to one process lights her dot for a spectator on another; when she
    leaves, it goes out there too."""
    a, b = cluster.servers[0], cluster.servers[1]
    t = a.create([{"name": "Ann"}, {"name": "Bo"}])

    async def run() -> None:
        spectator = Viewer(b.ws_base, t["table"])
        await spectator.start()
        ann = Viewer(a.ws_base, t["table"], (t["seats"][0]["token"],))
        await ann.start()
        state = await spectator.wait(lambda s: s["players"][0]["present"])
        assert not state["players"][1]["present"]
        await ann.stop()
        await spectator.wait(lambda s: not s["players"][0]["present"])
        await spectator.stop()

    asyncio.run(run())


def redis_calls(cluster: Cluster, command: str) -> int:
    """How many times Redis has run `command` (INFO commandstats; within scripts too)."""
    import redis

    r = redis.Redis.from_url(cluster.redis.url)
    try:
        stats = r.info("commandstats")
    finally:
        r.close()
    return int(stats.get(f"cmdstat_{command}", {}).get("calls", 0))


def test_a_process_that_sees_the_players_elsewhere_asks_redis_nothing_per_move(
    cluster: Cluster,
) -> None:
    """Issue 17's budget of Redis commands per move: the players' socket on one process, a
    spectator on another. The spectator's process follows every move and its notifier looks
    at each new turn; it knows the players are connected elsewhere (the bus told it), so it
    asks Redis nothing. Before, it asked for the seat's presence (`RedisPresence.seat`: a
    script that begins with a GET of `robinson:presence:since`) at almost every move. The few
    other GETs are the shared rate limits' (the table and the sockets made: they count in
    Redis) and the leases' claims (for tables with a bot or a clock: none here)."""
    a, b = cluster.servers[0], cluster.servers[1]
    t = a.create([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    tokens = {i: s["token"] for i, s in enumerate(t["seats"])}

    async def run() -> int:
        spectator = Viewer(b.ws_base, t["table"])
        await spectator.start()
        players = Viewer(a.ws_base, t["table"], tuple(tokens.values()))
        await players.start()
        await spectator.wait(lambda s: all(p["present"] for p in s["players"]))
        moves = 0
        while moves < 40:
            state = await players.wait(lambda s: s["over"] or s["to_move"] is not None)
            if state["over"]:
                break
            reply = await players.act(forward(state["legal"]), tokens[state["to_move"]])
            assert reply["type"] == "ack", reply
            moves += 1
            await spectator.wait(lambda s, v=reply["version"]: s["version"] >= v)
        await players.stop()
        await spectator.stop()
        return moves

    before = redis_calls(cluster, "get")
    moves = asyncio.run(run())
    asked = redis_calls(cluster, "get") - before
    assert moves >= 20
    # A few at the edges (the rate limits of the table and sockets made), not one a move.
    assert asked <= moves // 5, f"{asked} questions of a seat's presence in {moves} moves"


def test_a_table_played_on_one_process_publishes_nothing_and_a_later_viewer_misses_nothing(
    cluster: Cluster,
) -> None:
    """The common case behind nginx (issue 17): every socket of a table on one process. Its
    moves reach no other process, so none is published (Redis's PUBLISH count stays put); a
    spectator who then comes to another process gets the table as it is and every move after
    it, in order (cluster/bus.py: announcements, and a `Reload` of what was not published)."""
    a, b = cluster.servers[0], cluster.servers[1]
    t = a.create([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    tokens = {i: s["token"] for i, s in enumerate(t["seats"])}

    async def moves(players: Viewer, count: int, *watching: Viewer) -> None:
        for _ in range(count):
            state = await players.wait(lambda s: s["over"] or s["to_move"] is not None)
            assert not state["over"], "the game ended too soon for this test"
            reply = await players.act(forward(state["legal"]), tokens[state["to_move"]])
            assert reply["type"] == "ack", reply
            for v in watching:
                await v.wait(lambda s, at=reply["version"]: s["version"] >= at)

    async def run() -> tuple[int, int, Viewer, int]:
        players = Viewer(a.ws_base, t["table"], tuple(tokens.values()))
        await players.start()
        before = redis_calls(cluster, "publish")
        await moves(players, 12)
        published = redis_calls(cluster, "publish") - before
        spectator = Viewer(b.ws_base, t["table"])
        await spectator.start()
        assert spectator.state is not None
        joined = spectator.state["version"]
        # The players' arrival was not published either: it sees them there all the same.
        await spectator.wait(lambda s: all(p["present"] for p in s["players"]))
        await moves(players, 12, spectator)
        await spectator.wait(lambda s: s["version"] == players.state["version"])  # type: ignore[index]
        await players.stop()
        await spectator.stop()
        return published, joined, spectator, players.versions[-1]

    published, joined, spectator, final = asyncio.run(run())
    assert published == 0, f"{published} PUBLISH while nobody else followed the table"
    assert joined >= 12  # it read the table as it was
    assert spectator.versions[-12:] == list(range(final - 11, final + 1))
    assert spectator.versions == list(range(joined + 1, final + 1))  # none missed, in order
    assert spectator.gaps == 0


def test_a_copy_kept_only_by_moves_made_elsewhere_goes_and_they_are_published_no_more(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    """nginx may send the request that creates a table to one process and the table's sockets
    to another (the one its id hashes to). The creator's copy, which nobody uses there, goes at
    its next sweep (here `--unload-after 2`: a look every second) although the moves made
    elsewhere keep reaching it; from then on those moves are published no more."""
    c = Cluster(tmp_path, postgres.new_database(), size=2, extra=("--unload-after", "2"))
    try:
        a, b = c.servers
        t = a.create([{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
        tokens = {i: s["token"] for i, s in enumerate(t["seats"])}

        async def move(players: Viewer) -> None:
            state = await players.wait(lambda s: s["over"] or s["to_move"] is not None)
            assert not state["over"], "the game ended too soon for this test"
            reply = await players.act(forward(state["legal"]), tokens[state["to_move"]])
            assert reply["type"] == "ack", reply

        async def run() -> int:
            players = Viewer(b.ws_base, t["table"], tuple(tokens.values()))
            await players.start()
            for _ in range(12):  # 3 s of moves reaching the creator's copy while it is there
                await move(players)
                await asyncio.sleep(0.25)
            before = redis_calls(c, "publish")
            for _ in range(10):
                await move(players)
            published = redis_calls(c, "publish") - before
            await players.stop()
            return published

        published = asyncio.run(run())
        assert published == 0, f"{published} PUBLISH after the creator's sweep"
    finally:
        c.stop()


def test_a_bot_table_made_on_one_process_is_driven_where_it_is_played_after_the_creators_sweep(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    """The same with a bot seat: the creator takes the table's lease and plays the bot's first
    moves, but the moves its bot makes there are no use of its copy, so its copy goes at its
    next sweep (with the lease) all the same; the process its players are on then drives the
    bot, and the moves are published no more."""
    c = Cluster(tmp_path, postgres.new_database(), size=2, extra=("--unload-after", "2"))
    try:
        a, b = c.servers
        bot = {"name": "Rob", "kind": "bot", "bot": "heuristic"}
        t = a.create([{"name": "Ann"}, bot, {"name": "Cy"}])
        tokens = {0: t["seats"][0]["token"], 2: t["seats"][2]["token"]}

        async def move(players: Viewer) -> int:
            state = await players.wait(lambda s: s["over"] or s["to_move"] in tokens)
            assert not state["over"], "the game ended too soon for this test"
            reply = await players.act(forward(state["legal"]), tokens[state["to_move"]])
            assert reply["type"] == "ack", reply
            return int(reply["version"])

        async def run() -> tuple[int, int]:
            players = Viewer(b.ws_base, t["table"], tuple(tokens.values()))
            await players.start()
            for _ in range(12):  # 3 s of moves while the creator's copy is there
                await move(players)
                await asyncio.sleep(0.25)
            before, first = redis_calls(c, "publish"), await move(players)
            last = first
            for _ in range(10):
                last = await move(players)
            published = redis_calls(c, "publish") - before
            await players.stop()
            return published, last - first

        published, played = asyncio.run(run())
        assert played > 10, "the bot made no move between the players' moves"
        assert published == 0, f"{published} PUBLISH after the creator's sweep"
    finally:
        c.stop()


def test_a_dead_drivers_tables_go_on_where_they_are_watched(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    """Three processes. Six bot tables driven by A (made and watched there) are played on B;
    A is killed with -9. B, which holds the tables (its players are there), claims their leases
    as soon as they run out; C, which holds none, leaves them to B (it would claim them only
    after a grace, and load them only if it got them): every table goes on on B, none is
    driven from C across Redis."""
    c = Cluster(tmp_path, postgres.new_database(), size=3)
    try:
        a, b, _ = c.servers
        bot = {"name": "Rob", "kind": "bot", "bot": "heuristic"}
        made = [a.create([{"name": "Ann"}, bot, {"name": "Cy"}]) for _ in range(6)]

        async def run() -> dict[str, str | None]:
            watchers = [Viewer(a.ws_base, t["table"]) for t in made]  # A's copies are used
            players = [
                Viewer(b.ws_base, t["table"], (t["seats"][0]["token"], t["seats"][2]["token"]))
                for t in made
            ]
            for v in [*watchers, *players]:
                await v.start()
            holders = {t["table"]: lease_holder(c, t["table"]) for t in made}
            assert all(h is not None and c.server_of(h) is a for h in holders.values()), holders
            a.kill()
            deadline = time.monotonic() + 20
            while any(lease_holder(c, t["table"]) in (None, holders[t["table"]]) for t in made):
                assert time.monotonic() < deadline, "the dead driver's leases were not taken"
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.5)  # C's grace is over: had it claimed one, it would show
            after = {t["table"]: lease_holder(c, t["table"]) for t in made}
            for v in [*watchers, *players]:  # A's watchers lost their process: stopped too
                await v.stop()
            return after

        after = asyncio.run(run())
        drivers = {t: c.server_of(h) if h else None for t, h in after.items()}
        assert all(d is b for d in drivers.values()), after
    finally:
        c.stop()


def test_a_reaction_reaches_a_spectator_on_another_process(cluster: Cluster) -> None:
    """Issue 18: a reaction is not stored; it crosses to the other processes on the bus."""
    a, b = cluster.servers[0], cluster.servers[1]
    t = a.create([{"name": "Ann"}, {"name": "Bo"}])

    async def run() -> None:
        spectator = Viewer(b.ws_base, t["table"])
        await spectator.start()
        ann = Viewer(a.ws_base, t["table"], (t["seats"][0]["token"],))
        await ann.start()
        await ann._send({"type": "react", "id": 3, "seat": 0, "reaction": "good_luck"})
        await spectator.wait(lambda s: bool(spectator.reactions))
        assert spectator.reactions == [{"type": "reaction", "seat": 0, "reaction": "good_luck"}]
        await ann.stop()
        await spectator.stop()

    asyncio.run(run())


def test_rate_limits_count_over_every_process(cluster: Cluster) -> None:
    """Two more processes on the cluster's database and Redis, each allowing 5 tables a minute
    from one address: 5 in all, not 5 each (they share their windows in Redis). Requests name
    their client as nginx does (X-Forwarded-For from a trusted proxy), so the address is the
    test's own."""
    strict = ("--rate-tables", "5/minute", *Server.GENEROUS[2:])
    pair = [Server(cluster.front.url_db, extra=("--redis", cluster.redis.url), options=strict)]
    pair.append(Server(cluster.front.url_db, extra=("--redis", cluster.redis.url), options=strict))
    address = f"10.{time.time_ns() % 200}.0.1"
    body = {"seats": [{"name": "A"}, {"name": "B"}]}
    try:
        for srv in pair:
            srv.start(START)
        answers = []
        for i in range(6):
            r = httpx.post(
                f"{pair[i % 2].base}/api/tables", json=body, headers={"X-Forwarded-For": address}
            )
            answers.append(r.status_code)
        assert answers == [201] * 5 + [429], answers
        assert r.json()["error"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) > 0
        other = httpx.post(f"{pair[1].base}/api/tables", json=body)
        assert other.status_code == 201  # another address has its own window
    finally:
        for srv in pair:
            srv.stop()


def test_a_connected_seat_is_not_handed_over_while_presence_is_unknown_nor_before_absence(
    cluster: Cluster,
) -> None:
    """Issue 22, presence fails closed: two more processes (absent after 8 s) on the cluster's
    database and Redis; Ann is connected to A. With Redis killed, B refuses Bo's hand-over and
    the host's re-invite (`presence_unknown`); Redis back, her seat is still hers
    (`seat_connected`); A killed, the hand-over waits until she counts as gone and then
    `absent_after` more, counted from A's last sign of life, not from her arrival."""
    away = 8.0  # longer than a dead process's presence lasts (PRESENCE_TTL, 6 s)
    extra = ("--redis", cluster.redis.url, "--absent-after", str(away))
    a, b = (Server(cluster.front.url_db, extra=extra) for _ in range(2))

    def code(r: httpx.Response) -> str:
        return "ok" if r.is_success else str(r.json()["error"]["code"])

    try:
        a.start(START)
        b.start(START)
        t = a.create([{"name": "Ann"}, {"name": "Bo"}])
        table, host, bo = t["table"], t["host"], t["seats"][1]["token"]
        ann = a.post(
            f"/api/tables/{table}/claim", {"invite": t["seats"][0]["invite"].split("#i:")[1]}
        )
        assert ann.status_code == 200, ann.text
        hand = f"/api/tables/{table}/seats/0/bot"
        reinvite = f"/api/tables/{table}/seats/0/invite"
        with a.ws(table) as ws:
            ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": [ann.json()["token"]]}))
            a.receive(ws, "snapshot")
            time.sleep(away + 0.5)
            assert code(b.post(hand, {"token": bo, "bot": "eager"})) == "seat_connected"
            cluster.redis.kill()
            try:
                r = b.post(hand, {"token": bo, "bot": "eager"})
                assert (r.status_code, code(r)) == (503, "presence_unknown")
                assert code(b.post(reinvite, {"host": host})) == "presence_unknown"
            finally:
                cluster.redis.start()
            seen: list[str] = []
            deadline = time.monotonic() + 30
            while (c := code(b.post(hand, {"token": bo, "bot": "eager"}))) != "seat_connected":
                seen.append(c)
                assert time.monotonic() < deadline, seen
                time.sleep(0.2)
            assert set(seen) <= {"presence_unknown"}, seen  # never allowed meanwhile
            assert code(b.post(reinvite, {"host": host})) == "seat_connected"
            a.kill()  # Ann's process dies with her socket
            killed = time.monotonic()
            seen = []
            while (c := code(b.post(hand, {"token": bo, "bot": "eager"}))) != "ok":
                seen.append(c)
                assert time.monotonic() < killed + 60, seen
                time.sleep(0.2)
            allowed = time.monotonic() - killed
        # The module's other servers share this Redis: each rewrites its counts when its own
        # refresh finds the restarted Redis empty, and presence is unknown for a TTL after that
        # (a refusal, never a hand-over too early), which may fall after A's death.
        assert set(seen) <= {"seat_connected", "seat_present", "presence_unknown"}, seen
        assert {"seat_present", "presence_unknown"} & set(seen), seen  # not yet absent_after
        assert allowed >= away - 2.0  # A's last beat is at most 2 s before its death
        log = b.get(f"/api/tables/{table}").json()
        assert log["game"]["players"][0]["kind"] == "bot"
    finally:
        for srv in (a, b):
            if srv.proc is not None:
                srv.stop()


# -- Redis restarted ------------------------------------------------------------------------------


def test_redis_restarted_mid_game_play_goes_on_after_a_resync(cluster: Cluster) -> None:
    t = cluster.servers[0].create(
        [{"name": "Ann"}, {"name": "Bo"}, {"name": "Bot", "kind": "bot", "bot": "heuristic"}]
    )
    tokens = [s["token"] for s in t["seats"]]

    async def run() -> tuple[list[Viewer], list[int]]:
        seats = [
            Viewer(cluster.servers[0].ws_base, t["table"], (tokens[0],)),
            Viewer(cluster.servers[1].ws_base, t["table"], (tokens[1],)),
        ]
        watcher = Viewer(cluster.servers[2].ws_base, t["table"])
        for v in [*seats, watcher]:
            await v.start()
        acked: list[int] = []
        players = [
            asyncio.create_task(play_seat(v, {i: tokens[i]}, acked)) for i, v in enumerate(seats)
        ]
        await watcher.wait(lambda s: s["version"] >= 6 or s["over"])
        await asyncio.to_thread(cluster.redis.restart)
        await asyncio.wait_for(asyncio.gather(*players), TIMEOUT)
        final = (await seats[0].wait(lambda s: s["over"]))["version"]
        for v in [*seats, watcher]:
            await v.wait(lambda s: s["version"] == final)
            await v.stop()
        return [*seats, watcher], acked

    viewers, acked = asyncio.run(run())
    rec = record(cluster.servers[2], t["game"])
    assert over(rec)  # the bot (driven by one process, its lease lost with Redis) went on too
    assert len(set(acked)) == len(acked)
    assert set(acked) <= set(range(1, len(rec["actions"]) + 1))
    for v in viewers:
        assert v.state is not None and v.state["version"] == len(rec["actions"])


# -- the browser, through nginx -------------------------------------------------------------------


@pytest.mark.browser
def test_the_browser_plays_a_full_game_through_nginx(cluster: Cluster, tmp_path: Path) -> None:
    from tests.web import test_browser

    with launched_browser() as browser:
        test_browser.test_two_browsers_join_by_invite_links_and_play_a_full_game_with_a_bot(
            cluster.front, browser
        )


@pytest.mark.browser
def test_the_page_reconnects_through_nginx_when_its_process_is_killed(cluster: Cluster) -> None:
    """Every process is killed in turn (so the page's own is among them) and started again; the
    page comes back by itself through nginx and shows a move made meanwhile."""
    front = cluster.front
    t = front.create([{"name": "Ann"}, {"name": "Bo"}])
    with launched_browser() as browser:
        page = browser.new_page()
        problems = watch(page)
        page.goto(front.base + t["seats"][0]["link"])
        page.wait_for_selector("#actions button[data-move='roll']:not([disabled])")
        for srv in cluster.servers:
            srv.kill()
            srv.start(START)
        # the move is made elsewhere (another device of the same seat) while the page is
        # reconnecting or back: it must show it either way. nginx answers 502 itself while
        # every process was refused within its fail_timeout (all were just killed): the
        # request reached none, and a client tries again, as this one does
        give_up = time.monotonic() + 10
        while True:
            r = front.post(
                f"/api/games/{t['game']}/actions",
                {"token": t["seats"][0]["token"], "version": 0, "move": "roll"},
            )
            if r.status_code != 502 or time.monotonic() > give_up:
                break
            time.sleep(0.2)
        assert r.is_success, r.text
        page.wait_for_function("document.querySelectorAll('#log li').length > 0", timeout=30_000)
        # the narration of the roll is in the page's log: it came back and caught up
        face = record(front, t["game"])["actions"][0]["roll"]
        assert str(face) in page.locator("#log").inner_text()
        assert problems == []
