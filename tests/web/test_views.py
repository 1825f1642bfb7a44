"""What viewers are sent, in process: a snapshot's log kept as the moves come equals the log
narrated afresh from the record (notes, seat changes, trimming included), and each message is
encoded once per language and handed as the same text to every viewer of that language."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from robinson.engine import Event, Roll, apply, from_text
from robinson.i18n import Translator
from robinson.web.service import GameService, SeatSpec, texts, views
from robinson.web.service.live import LiveTable, Narration
from robinson.web.settings import Settings
from robinson.web.store import Store
from tests.web.conftest import forward
from tests.web.fakes import FakeClock, SeededDice, until

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Viewer:
    """A listener that keeps what it is sent."""

    def __init__(self, lang: str, seats: set[int] | None = None) -> None:
        self.lang = lang
        self.seats = seats or set()
        self.got: list[dict[str, Any] | str] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.got.append(message)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    clock = FakeClock()
    service = GameService(store, Settings(bot_delay=0), clock=clock, dice=SeededDice(b"\7" * 32))
    await service.start()
    try:
        yield service
    finally:
        await service.stop()
        store.close()


def replayed_log(table: LiveTable, lang: str, keep: int) -> tuple[list[str], list[Any], int]:
    """The log as snapshots made it before it was kept: the whole game replayed and narrated,
    the notes in between, the newest `keep` lines, the turns before them counted."""
    lines: list[str] = []
    kinds: list[Any] = []
    notes = sorted(table.game.notes, key=lambda n: n.version)
    at = 0

    def events_lines(events: list[Event]) -> None:
        for e, line in zip(events, texts.narrate_each(lang, events, table.names), strict=True):
            if line:
                lines.append(line)
                kinds.append([e.kind, views._actor(e)])

    for version, (_, _, events) in enumerate(table.game.record().steps()):
        while at < len(notes) and notes[at].version <= version:
            lines.append(texts.note(lang, notes[at], table.names))
            kinds.append(["note", notes[at].data.get("seat")])
            at += 1
        events_lines(list(events))
    for n in notes[at:]:
        lines.append(texts.note(lang, n, table.names))
        kinds.append(["note", n.data.get("seat")])
    dropped = kinds[:-keep]
    return lines[-keep:], kinds[-keep:], 1 + sum(k[0] == "turn_began" for k in dropped)


async def test_the_kept_log_is_the_replayed_log_after_every_change(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small limits, so that the kept log is trimmed many times within one game.
    monkeypatch.setattr(views, "LOG_LINES", 12)
    monkeypatch.setattr(Narration, "KEEP", 30)
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno"), SeatSpec("Cilda")],
        {"edition": "standard"},
        move_seconds=5,
    )
    table = await service.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    lv, ca = Viewer("lv", {0}), Viewer("ca")
    service.subscribe(table, lv)
    service.subscribe(table, ca)
    moves = 0
    while not table.game.state.over and moves < 400:
        seat = table.game.state.to_move
        assert seat is not None
        if moves == 7:  # Cilda's seat goes to a bot and comes back: notes between moves
            await service.hand_to_bot(table.id, tokens[2], 2, "eager")
            await service.take_back(table.id, tokens[2], 2)
        if moves in (3, 4, 11):  # out of time: the clock's move, with its notes (a step's own)
            version = table.game.version
            assert isinstance(service.clock, FakeClock)
            await service.clock.advance(6)
            await until(lambda v=version: table.game.version > v)
        else:
            legal = views.game_view(table, "en")["legal"]
            await service.act(table.game.id, tokens[seat], table.game.version, forward(legal))
        moves += 1
        for viewer in (lv, ca):
            shot = views.snapshot(table, viewer)
            lines, kinds, turn = replayed_log(table, viewer.lang, 12)
            assert (shot["log"], shot["log_kinds"], shot["log_turn"]) == (lines, kinds, turn)
    assert table.game.state.over
    assert [n.kind for n in table.game.notes].count("timeout") == 3


async def test_an_update_is_encoded_once_per_language_and_shared(service: GameService) -> None:
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "lv"})
    table = await service.table(made["table"])
    viewers = [Viewer("lv"), Viewer("lv"), Viewer("cs"), Viewer("en")]
    for viewer in viewers:
        service.subscribe(table, viewer)
    await service.act(table.game.id, made["seats"][0]["token"], 0, "roll")
    updates = [[m for m in v.got if isinstance(m, str)][-1] for v in viewers]
    assert updates[0] is updates[1]  # one text for both Latvian viewers, not two equal ones
    assert updates[2] is not updates[0] and updates[3] is not updates[2]
    decoded = [json.loads(text) for text in updates]
    assert {d["type"] for d in decoded} == {"update"}
    assert decoded[0]["narration"] != decoded[3]["narration"]  # each in its language
    assert decoded[2]["state"]["version"] == 1


async def test_a_viewer_back_after_a_few_moves_is_sent_just_those_then_the_state(
    service: GameService,
) -> None:
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "cs"})
    table = await service.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    stays, leaves = Viewer("cs"), Viewer("cs")
    service.subscribe(table, stays)
    service.subscribe(table, leaves)
    await service.act(table.game.id, tokens[0], 0, "roll")
    seen = table.game.version
    service.unsubscribe(table, leaves)
    for _ in range(3):
        seat = table.game.state.to_move
        assert seat is not None
        legal = views.game_view(table, "en")["legal"]
        await service.act(table.game.id, tokens[seat], table.game.version, forward(legal))
    back = Viewer("cs")
    service.subscribe(table, back, table.game.id, seen)
    *updates, last = back.got
    sent = [m for m in stays.got if isinstance(m, str) and json.loads(m)["type"] == "update"]
    assert updates == sent[-3:]  # the very texts the viewer who stayed was sent, in order
    assert [json.loads(u)["version"] for u in updates] == [seen + 1, seen + 2, seen + 3]
    assert isinstance(last, str) and json.loads(last)["type"] == "state"
    assert json.loads(last)["state"]["version"] == table.game.version


@pytest.mark.parametrize(
    "case", ["no version", "another game", "another language", "too far behind"]
)
async def test_otherwise_a_viewer_back_is_sent_a_snapshot(
    service: GameService, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "RESUME", 2)
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "cs"})
    table = await service.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    service.subscribe(table, Viewer("cs"))
    for _ in range(3):
        seat = table.game.state.to_move
        assert seat is not None
        legal = views.game_view(table, "en")["legal"]
        await service.act(table.game.id, tokens[seat], table.game.version, forward(legal))
    game, version, lang = table.game.id, table.game.version - 1, "cs"
    if case == "no version":
        version = None  # type: ignore[assignment]
    elif case == "another game":
        game = "elsewhere"
    elif case == "another language":
        lang = "lv"  # nobody spoke it: its updates were never built
    else:
        version = 0
    back = Viewer(lang)
    service.subscribe(table, back, game, version)
    first, *then = back.got
    assert isinstance(first, dict) and first["type"] == "snapshot"
    # then at most the presence news of its own arrival (one more watching), no update
    assert all(json.loads(m)["type"] == "state" for m in then) and len(then) <= 1, then


@pytest.mark.parametrize("lang", ["lv", "cs", "ca", "en"])
def test_a_half_shared_by_two_equally_near_is_one_payout_step(lang: str) -> None:
    """Issue 20, found by reading a web game's end panel: "gives 7 tokens to Dāvis, the nearest
    player" and "… to Bruno, the nearest player" were two steps; now one, as the log says it."""
    names = ["Anna", "Bruno", "Dāvis"]
    _, events = apply(from_text("standard,30,10,half 30 0r 43/20 40/20 40/20"), Roll(2))
    steps = views.payout_steps(lang, events, names)
    assert [s["kind"] for s in steps] == ["won", "transfer", "transfer"]  # won, bank, the shares
    assert [s["reason"] for s in steps[1:]] == ["bank", "nearest_share"]
    t = Translator(lang)
    tied = t.format("event.transfer.nearest_share.tied", payer="Anna", amount=t.tokens(7),
                    payees=t.join_names(["Bruno", "Dāvis"]))  # fmt: skip
    assert steps[-1]["text"] == tied
