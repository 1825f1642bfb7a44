"""Web Push (issue 19, docs/notifications.md), in process with the fake clock, on a temporary
SQLite store, against a push service of the test's own (pushendpoint.py: a real HTTP server on
127.0.0.1 that decrypts each push with the subscription's keys, as a browser does).

It becomes an absent seat's turn: he is pushed, in his language; a connected seat is not (and
is told once if he leaves during his turn and stays away). A push service answering 410 has the
subscription removed. Reminders come at 80 % of a long move's time and an hour before its end,
from the stored deadline (so after a restart too), never to a seat at the table.
"""

from __future__ import annotations

import asyncio
import base64
import os
import stat
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from robinson.engine import Choose, Phase, legal_actions
from robinson.web.notify.push import TTL, PushChannel, topic
from robinson.web.notify.vapid import VapidKeyError, key_path, load_key, public_key
from robinson.web.service import GameService, SeatSpec
from robinson.web.service.live import LiveTable, token_hash
from robinson.web.service.notifier import reminder_stage
from robinson.web.settings import Settings
from robinson.web.store import Store
from robinson.web.store.schema_tables import notices_sent
from tests.web.conftest import forward
from tests.web.fakes import FakeClock, SeededDice, until
from tests.web.inprocess import Served
from tests.web.pushendpoint import PushEndpoint

pytestmark = pytest.mark.anyio

TEN_HOURS = 36000
RULES = {"edition": "standard"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    ep = PushEndpoint().start()
    yield ep
    ep.stop()


@pytest.fixture
async def served(tmp_path: Path, endpoint: PushEndpoint) -> AsyncIterator[Served]:
    vapid = load_key(tmp_path / "vapid.pem")
    made: list[PushChannel] = []

    def channels(store: Store) -> list[PushChannel]:
        made.append(PushChannel(store, vapid, "mailto:test@example.org", (endpoint.origin,)))
        return made[-1:]

    srv = Served(
        f"sqlite:///{tmp_path / 'r.sqlite3'}",
        FakeClock(),
        Settings(bot_delay=0.0),
        SeededDice(bytes(range(32))),
        channels=channels,
    )
    srv.made = made  # type: ignore[attr-defined]
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()
        for channel in made:
            await channel.close()


def pusher(served: Served) -> PushChannel:
    channel: PushChannel = served.made[-1]  # type: ignore[attr-defined]
    return channel


async def subscribe(
    served: Served, endpoint: PushEndpoint, table: LiveTable, token: str, name: str, lang: str
) -> None:
    seat = table.seat_of(token)
    assert seat is not None
    channel = pusher(served)
    row = channel.check(table.id, seat, endpoint.subscription(name), lang)
    await channel.subscribe(row, token_hash(token), served.clock.now_ms())


async def play_until(service: GameService, table: LiveTable, tokens: list[str], seat: int) -> None:
    """Make the moves that keep the game going until it is `seat`'s turn."""
    for _ in range(200):
        st = table.game.state
        if st.to_move == seat or st.over:
            return
        assert st.to_move is not None
        options = [a.option for a in legal_actions(st) if isinstance(a, Choose)]
        move = "roll" if st.phase is Phase.ROLL else forward(options)
        await service.act(table.game.id, tokens[st.to_move], table.game.version, move)
    raise AssertionError("the turn did not come")


async def test_a_turn_is_pushed_to_the_absent_seat_in_his_language_never_while_connected(
    served: Served, endpoint: PushEndpoint
) -> None:
    service = served.service
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], RULES, language="en")
    table = await service.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    await subscribe(served, endpoint, table, tokens[0], "anna", "en")
    await subscribe(served, endpoint, table, tokens[1], "bruno", "lv")
    anna = await served.hello(table.id, (tokens[0],))
    await play_until(service, table, tokens, 1)  # Anna plays; Bruno is away
    face = table.game.last_roll()
    square = table.game.state.players[1].position

    (push,) = await asyncio.to_thread(endpoint.wait, 1, "bruno")
    assert push.payload["title"] == "Tavs gājiens Robinsonā"
    if square > 0:
        assert push.payload["body"] == f"Anna uzmet {face}, tu esi uz {square}. lauciņa."
    else:
        assert push.payload["body"] == f"Anna uzmet {face}; tagad tavs gājiens."
    assert push.payload["url"] == f"/t/{table.id}"
    assert push.payload["tag"] == f"robinson-{table.id}"
    assert push.headers["ttl"] == str(TTL) == "43200"
    assert push.headers["topic"] == topic(table.id)
    assert push.headers["urgency"] == "normal"
    assert push.headers["content-encoding"] == "aes128gcm"
    assert f"k={public_key(pusher(served).vapid)}" in push.headers["authorization"]

    # Bruno comes and plays: it is Anna's turn while she is connected. She is told nothing.
    bruno = await served.hello(table.id, (tokens[1],))
    await play_until(service, table, tokens, 0)
    await served.clock.settle()
    assert endpoint.of("anna") == []
    # She closes the tab during her turn: told once she has stayed away `absent_after`.
    service.unsubscribe(table, anna)
    await served.clock.advance(served.settings.absent_after - 1)
    assert endpoint.of("anna") == []
    await served.clock.advance(2)
    (push,) = await asyncio.to_thread(endpoint.wait, 1, "anna")
    assert push.payload == {
        "title": "Your turn at Robinson",
        "body": "The table is waiting for your move.",
        "url": f"/t/{table.id}",
        "tag": f"robinson-{table.id}",
        "kind": "turn",
        "lang": "en",
    }
    # Her notice was claimed once: coming and going again in the same turn tells her nothing.
    anna = await served.hello(table.id, (tokens[0],))
    service.unsubscribe(table, anna)
    await served.clock.advance(served.settings.absent_after + 1)
    assert len(await asyncio.to_thread(endpoint.wait, 1, "anna")) == 1
    turns = [k for k in sent_keys(service, table.game.id) if k.endswith(":0:turn")]
    assert len(turns) == 1  # this one (a new table's first turn is told nobody)
    service.unsubscribe(table, bruno)


async def test_a_waiting_room_tells_the_host_away_when_the_game_starts(
    served: Served, endpoint: PushEndpoint
) -> None:
    """The host made a table for a friend and left: when the friend takes the seat the game
    starts, and the host's first turn is pushed (while it waited, nobody's turn was)."""
    service = served.service
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], RULES, language="en", wait_for=[1]
    )
    table = await service.table(made["table"])
    await subscribe(served, endpoint, table, made["seats"][0]["token"], "anna", "en")
    await served.clock.advance(served.settings.absent_after + 1)
    assert endpoint.of("anna") == []  # nobody's turn while the table waits
    code = str(made["seats"][1]["invite"]).split("#i:", 1)[1]
    await service.claim(table.id, code)
    # told that it is her turn (that Bruno came is no news of its own: the game starts)
    await asyncio.to_thread(endpoint.wait, 1, "anna")
    await served.clock.settle()
    assert [p.payload["kind"] for p in endpoint.of("anna")] == ["turn"]


def sent_keys(service: GameService, game_id: str) -> list[str]:
    with service.store.engine.connect() as conn:
        keys = conn.execute(select(notices_sent.c.key)).scalars().all()
    return [k for k in keys if k.startswith(game_id + ":")]


async def test_a_subscription_the_push_service_says_is_gone_is_removed(
    served: Served, endpoint: PushEndpoint
) -> None:
    service = served.service
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], RULES)
    table = await service.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    await subscribe(served, endpoint, table, tokens[1], "bruno", "cs")
    subscriptions = pusher(served).subscriptions
    assert len(subscriptions.of_seat(table.id, 1)) == 1
    endpoint.subscribers["bruno"].status = 410  # he unsubscribed in his browser
    await served.hello(table.id, (tokens[0],))
    await play_until(service, table, tokens, 1)
    await asyncio.to_thread(endpoint.wait_refused, "bruno")
    await until(lambda: subscriptions.of_seat(table.id, 1) == [], 30)
    assert endpoint.of("bruno") == []


async def test_reminders_at_80_percent_and_an_hour_before_to_the_absent_seat_through_restarts(
    served: Served, endpoint: PushEndpoint
) -> None:
    service = served.service
    clock = served.clock
    # Bruno moves first on a ten-hour clock and is away; Cila, on another such table, is there.
    away = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], RULES, first=1, move_seconds=TEN_HOURS
    )
    there = await service.create_table(
        [SeatSpec("Cila"), SeatSpec("Dace")], RULES, first=0, move_seconds=TEN_HOURS
    )
    await clock.settle()  # the first turns were told before anyone subscribed
    t_away, t_there = await service.table(away["table"]), await service.table(there["table"])
    bruno, cila = away["seats"][1]["token"], there["seats"][0]["token"]
    await subscribe(served, endpoint, t_away, bruno, "bruno", "ca")
    await subscribe(served, endpoint, t_there, cila, "cila", "en")
    game_away, game_there = t_away.game.id, t_there.game.id

    async def down_until(seconds_left: int) -> None:
        """The server is down until `seconds_left` before the deadline, then starts again
        (its clock loop would take a second a poll to run through the hours); Cila comes back
        at once, within `absent_after` (after a start everyone gets that long)."""
        await served.stop()
        deadline = t_away.game.deadline
        assert deadline is not None
        await clock.advance((deadline - clock.now_ms()) / 1000 - seconds_left)
        await served.start()
        await served.hello(t_there.id, (cila,))

    await down_until(2 * 3600 + 60)  # a minute before 80 % of the move
    await clock.advance(59)
    assert endpoint.of("bruno") == []
    await clock.advance(2)
    (share,) = await asyncio.to_thread(endpoint.wait, 1, "bruno")
    assert share.payload["kind"] == "reminder"
    assert share.payload["title"] == "Robinson: se t’acaba el temps"
    assert share.payload["body"] == "Et queden 2 hores per a la jugada."
    assert share.headers["urgency"] == "high"

    # The next reminder comes from the stored deadline; the first is not told again.
    await down_until(3600 + 60)  # a minute before the last hour
    await clock.advance(59)
    assert len(endpoint.of("bruno")) == 1
    await clock.advance(2)
    pushes = await asyncio.to_thread(endpoint.wait, 2, "bruno")
    assert pushes[1].payload["body"] == "Et queden 60 minuts per a la jugada."
    keys = sent_keys(served.service, game_away)
    assert len([k for k in keys if ":reminder:" in k]) == 2
    # Cila was at her table all along: no reminder was ever claimed for her, let alone pushed.
    assert [k for k in sent_keys(served.service, game_there) if ":reminder:" in k] == []
    assert endpoint.of("cila") == []


def test_the_reminders_stages_follow_the_length_of_the_move() -> None:
    end = 100 * 3_600_000
    assert reminder_stage(end - 1000, end, 3599) is None  # under an hour: none
    assert reminder_stage(end - 721_000, end, 3600) is None  # 80 % of an hour is 12 min left
    assert reminder_stage(end - 720_000, end, 3600) == "share"
    assert reminder_stage(end - 60_000, end, 35999) == "share"  # no last hour under ten
    assert reminder_stage(end - 3_600_000, end, 36000) == "hour"
    assert reminder_stage(end - 3_600_001, end, 36000) == "share"
    assert reminder_stage(end, end, 36000) is None  # out of time: the clock plays


async def test_a_seat_handed_to_a_bot_by_the_clock_is_told_and_then_told_the_end(
    served: Served, endpoint: PushEndpoint
) -> None:
    service, clock = served.service, served.clock
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], RULES, first=1, move_seconds=5
    )
    await clock.settle()
    table = await service.table(made["table"])
    tokens = [s["token"] for s in made["seats"]]
    await subscribe(served, endpoint, table, tokens[1], "bruno", "en")
    await served.hello(table.id, (tokens[0],))  # Anna is there and plays; Bruno never comes
    for _ in range(3000):
        st = table.game.state
        if st.over:
            break
        if st.to_move == 0:
            options = [a.option for a in legal_actions(st) if isinstance(a, Choose)]
            move = "roll" if st.phase is Phase.ROLL else forward(options)
            await service.act(table.game.id, tokens[0], table.game.version, move)
        else:
            await clock.advance(5.1)  # Bruno's time runs out (then the bot plays his seat)
    assert table.game.state.over and table.seats[1].kind == "bot"
    pushes = await asyncio.to_thread(endpoint.wait, 1, "bruno")
    while not any(p.payload["kind"] == "ended" for p in pushes):
        pushes = await asyncio.to_thread(endpoint.wait, len(pushes) + 1, "bruno")
    kinds = [p.payload["kind"] for p in pushes]
    assert kinds.count("handed") == 1 and kinds.count("ended") == 1
    handed = next(p for p in pushes if p.payload["kind"] == "handed")
    assert handed.payload["title"] == "Robinson: a bot plays your seat"
    ended = next(p for p in pushes if p.payload["kind"] == "ended")
    winner = table.game.state.winner
    if winner is not None:
        assert ended.payload["body"] == f"{table.seats[winner].name} won."
    assert set(kinds) <= {"turn", "handed", "ended"}  # his turns before the hand-over


async def test_the_seats_away_are_told_an_invite_was_taken_and_a_new_secret_ends_a_subscription(
    served: Served, endpoint: PushEndpoint
) -> None:
    service = served.service
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], RULES)
    table = await service.table(made["table"])
    anna = made["seats"][0]["token"]
    await subscribe(served, endpoint, table, anna, "anna", "lv")
    await subscribe(served, endpoint, table, made["seats"][1]["token"], "bruno", "en")
    # Bruno's invite is taken (by Bruno, on his own device): Anna, the host, away, is told.
    await service.claim(table.id, made["seats"][1]["invite"].split("#i:")[1])
    (push,) = await asyncio.to_thread(endpoint.wait, 1, "anna")
    assert push.payload["kind"] == "claimed"
    assert push.payload["body"] == "Bruno ieņem savu vietu pie galda."
    # The browser that subscribed with the seat's old secret is not the seat's any more.
    assert pusher(served).subscriptions.of_seat(table.id, 1) == []
    assert len(pusher(served).subscriptions.of_seat(table.id, 0)) == 1


def test_the_vapid_key_is_made_once_beside_the_database_readable_by_its_owner_alone(
    tmp_path: Path,
) -> None:
    path = key_path(str(tmp_path / "r.sqlite3"), None)
    assert path == tmp_path / "robinson-vapid.pem"
    key = load_key(path)
    assert public_key(load_key(path)) == public_key(key)
    assert len(base64.urlsafe_b64decode(public_key(key) + "=")) == 65
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert key_path(str(tmp_path / "r.sqlite3"), str(tmp_path / "k")) == tmp_path / "k"
    (tmp_path / "bad").write_text("not a key")
    with pytest.raises(VapidKeyError, match="cannot read"):
        load_key(tmp_path / "bad")
