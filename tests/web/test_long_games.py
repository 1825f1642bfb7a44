"""Requests whose cost would grow with a game (issue 22): a game both players keep going on the
tree runs to thousands of actions. Its record and replay are built once on the heavy lane and
kept (a replay of a finished game never changes), the replay comes in pages, the chart of its
chances grows with it instead of being made again, and reads are rate limited. In process, on
a temporary SQLite file; benchmarks/long_game.py measures the same against a real server with
20,000 actions."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from robinson import fairdice
from robinson.analysis.odds.history import Chart, chances_over_game
from robinson.bots import make_bot
from robinson.engine import (
    Choose,
    GameRecord,
    Phase,
    Roll,
    Ruleset,
    apply,
    legal_actions,
    new_game,
)
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.server import OddsHistory, Replay
from robinson.web.service import SeatSpec, records
from robinson.web.service.lane import Lane
from robinson.web.service.odds import Computing, OddsService
from robinson.web.settings import Settings
from tests.web.conftest import forward
from tests.web.fakes import FakeClock, SeededDice
from tests.web.inprocess import Served, Viewer

STAYING = 300  # actions played staying on the tree before both move on to the end


def _staying_seed(staying: int) -> bytes:
    """The first of the server seeds 0, 1, ... whose two-player game (second dice scheme, no
    seat giving a seed of its own) puts a pawn on the tree (7), where staying keeps the game
    going for `staying` actions (benchmarks/long_game.py searches the same way)."""
    for k in range(10_000):
        seed = k.to_bytes(32, "big")
        given = fairdice.all_contributions(seed, 2, {})
        key = fairdice.seeds_key(seed, [e.seed for e in given])
        state, played, rolls = new_game(2, Ruleset(), 0), 0, 0
        while not state.over and played < staying:
            if state.phase is Phase.ROLL:
                action: Any = Roll(fairdice.face(key, rolls))
                rolls += 1
            else:
                legal = legal_actions(state)
                stay = [a for a in legal if isinstance(a, Choose) and a.option == "stay"]
                action = stay[0] if stay else legal[-1]
            state, _ = apply(state, action)
            played += 1
        if played >= staying:
            return seed
    raise AssertionError("no seed keeps a pawn on the tree")


LONG_SEED = _staying_seed(STAYING)


async def _long_game(srv: Served, staying: int = STAYING) -> tuple[dict[str, Any], str]:
    """A finished two-player game of more than `staying` actions: stay on the tree while
    fewer have been played, then always forward. Returns the table and the game's id."""
    service = srv.service
    t = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"})
    tokens = [s["token"] for s in t["seats"]]
    for _ in range(100_000):
        game = await srv.game(t["table"])
        if game["over"]:
            return t, game["id"]
        legal = game["legal"]
        move = "stay" if "stay" in legal and game["version"] < staying else forward(legal)
        await service.act(game["id"], tokens[game["to_move"]], game["version"], move)
    raise AssertionError("the game did not end")


@pytest.fixture
def served(tmp_path: Path) -> Served:
    url = f"sqlite:///{tmp_path / 'long.sqlite3'}"
    return Served(url, FakeClock(), Settings(bot_delay=0.0), SeededDice(LONG_SEED))


@pytest.mark.anyio
async def test_a_replay_comes_in_pages_that_join_to_the_whole_and_is_built_once(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[str] = []
    encode = records.encode_replay

    def counted(game_id: str, *args: Any) -> records.ReplayText:
        builds.append(game_id)
        return encode(game_id, *args)

    monkeypatch.setattr(records, "encode_replay", counted)
    await served.start()
    try:
        _, game_id = await _long_game(served)
        service = served.service
        whole = Replay.model_validate_json(await service.replay(game_id, "en")).model_dump()
        record = await service.record(game_id)
        assert whole["total"] == len(record.actions) > STAYING
        assert len(whole["steps"]) == whole["total"] and whole["start"] == 0
        pages = []
        for start in range(0, whole["total"], 128):
            page = json.loads(await service.replay(game_id, "en", start, 128))
            assert page["start"] == start and page["total"] == whole["total"]
            pages += page["steps"]
        assert pages == json.loads(await service.replay(game_id, "en"))["steps"]
        assert builds == [game_id]  # every page above came from the one kept text
        await service.replay(game_id, "lv", 0, 10)
        assert builds == [game_id, game_id]  # another language is another text
        with pytest.raises(ServiceError) as beyond:
            await service.replay(game_id, "en", whole["total"] + 1, 10)
        assert beyond.value.code == "bad_request"
        assert "from 0 to" in beyond.value.message
        # the record's text is the engine's record, kept per version
        text = await service.record_text(game_id)
        assert GameRecord.loads(text) == record
    finally:
        await served.stop()


@pytest.mark.anyio
async def test_the_chart_of_a_growing_game_is_grown_and_equals_the_whole_chart(
    served: Served,
) -> None:
    await served.start()
    odds = OddsService(lane=served.service.lane)
    try:
        _, game_id = await _long_game(served, staying=60)
        record = await served.service.record(game_id)
        seen = []
        for version in sorted({0, 1, 7, 40, len(record.actions) // 2, len(record.actions)}):
            prefix = GameRecord(
                record.ruleset, record.players, record.first, record.actions[:version]
            )
            try:
                text = await odds.history(game_id, prefix, "eager")
            except Computing:  # the exact chains are solved on a machine's first use: wait
                await asyncio.to_thread(_solve, prefix)
                text = await odds.history(game_id, prefix, "eager")
            chart = OddsHistory.model_validate_json(text).model_dump()
            assert chart["version"] == version
            expected = chances_over_game(prefix, "eager")
            assert chart["points"] == [p.to_json() for p in expected]
            seen.append(len(chart["points"]))
        assert seen == sorted(seen)  # the chart only grew
    finally:
        odds.close()
        await served.stop()


def _random_game(players: int, seed: int) -> GameRecord:
    rng = random.Random(seed)
    bot = make_bot("random", seed)
    state = new_game(players, Ruleset())
    first, actions = state.to_move, []
    while not state.over:
        action = Roll(rng.randint(1, 6)) if state.phase is Phase.ROLL else bot.choose(state)
        state, _ = apply(state, action)
        actions.append(action)
    names = tuple(f"P{i}" for i in range(players))
    return GameRecord(Ruleset(), names, first or 0, tuple(actions))


def _solve(record: GameRecord) -> None:
    from robinson.analysis.odds import tables

    tables.ensure(tables.rules_ruleset(record.ruleset), "eager", len(record.players))


def test_a_chart_grown_step_by_step_is_the_chart_made_at_once() -> None:
    """Growing by a few actions and by single ones, mid-turn and at turns' starts, to the end."""
    for seed in (3, 4):  # five players: the chances are simulated
        record = _random_game(5, seed)
        chart = Chart.empty(record)
        n = len(record.actions)
        for version in sorted({*range(0, n, max(1, n // 6)), *range(n // 2, n // 2 + 4), n}):
            prefix = GameRecord(
                record.ruleset, record.players, record.first, record.actions[:version]
            )
            chart = chart.grown(prefix, games=200)
            assert chart.points() == chances_over_game(prefix, games=200)
        with pytest.raises(ValueError, match="cannot shrink"):
            chart.grown(GameRecord(record.ruleset, record.players, record.first, ()))


@pytest.mark.anyio
async def test_the_lane_holds_each_address_to_its_share_and_the_queue_to_its_bound() -> None:
    lane = Lane(workers=2, queue=3, per_client=2)
    gate = asyncio.Event()
    loop = asyncio.get_running_loop()

    def blocked() -> int:
        asyncio.run_coroutine_threadsafe(gate.wait(), loop).result()
        return 1

    try:
        a1 = asyncio.ensure_future(lane.run(blocked, "10.0.0.1"))
        a2 = asyncio.ensure_future(lane.run(blocked, "10.0.0.1"))
        await asyncio.sleep(0.05)  # both running, on the lane's two threads
        with pytest.raises(ServiceError) as mine:
            await lane.run(lambda: 1, "10.0.0.1")
        assert mine.value.code == "rate_limited" and mine.value.headers["Retry-After"] == "1"
        b1 = asyncio.ensure_future(lane.run(blocked, "10.0.0.2"))  # waits for a thread
        await asyncio.sleep(0)
        with pytest.raises(ServiceError) as full:
            await lane.run(lambda: 1, "10.0.0.3")
        assert full.value.code == "busy" and full.value.status == 503
        # a client who leaves while his job runs keeps his slot until it has run
        a2.cancel()
        await asyncio.sleep(0.05)
        with pytest.raises(ServiceError) as still:
            await lane.run(lambda: 1, "10.0.0.1")
        assert still.value.code == "rate_limited"
        gate.set()
        assert await a1 == 1 and await b1 == 1
        for _ in range(100):
            if lane._total == 0:
                break
            await asyncio.sleep(0.01)
        assert await lane.run(lambda: 2, "10.0.0.1") == 2
    finally:
        gate.set()
        lane.close()


def test_reads_are_rate_limited_per_address(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from robinson.web.app import create_app
    from robinson.web.settings import Rates
    from tests.web.test_endpoint_limits import limited_soon

    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}", rates=Rates(reads="3/minute")
    )
    with TestClient(create_app(settings)) as client:
        t = client.post("/api/tables", json={"seats": [{"name": "Anna"}, {"name": "Bo"}]}).json()
        for _ in range(3):
            assert client.get(f"/api/games/{t['game']}/record").status_code == 200
        refused = limited_soon(lambda: client.get(f"/api/games/{t['game']}/replay"))
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        # moves are another count
        move = {"token": t["seats"][0]["token"], "version": 0, "move": "roll"}
        assert client.post(f"/api/games/{t['game']}/actions", json=move).status_code == 200


@pytest.mark.anyio
async def test_a_long_games_log_narrated_off_the_loop_is_the_one_a_snapshot_narrates(
    served: Served,
) -> None:
    from robinson.web.service import views

    await served.start()
    try:
        t, _ = await _long_game(served)
        table = await served.service.table(t["table"])
        expected = views.narration(table, "cs").lines
        table.narration.clear()
        await views.narrated(table, "cs")
        assert table.narration["cs"].lines == expected
        assert (await served.log(t["table"]))[-1] == views.snapshot(table, Viewer())["log"][-1]
    finally:
        await served.stop()
