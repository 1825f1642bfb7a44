"""A seat stays with a connected player (issue 22): his seat is handed to a bot by someone else
only after his third timeout in a row, never re-invited while he is connected, and the log says
why when it is allowed. In process, on the fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from robinson.web.cluster.presence import LocalPresence, PresenceUnknown
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import GameService, SeatSpec
from robinson.web.settings import Settings
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served

CLOCK = 5  # seconds per move

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    srv = Served(
        f"sqlite:///{tmp_path / 'r.sqlite3'}",
        FakeClock(),
        Settings(bot_delay=0.0, absent_after=2.0),
    )
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


async def _table(service: GameService) -> dict[str, Any]:
    return await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}, move_seconds=CLOCK
    )


async def _refused(call: Any, code: str) -> str:
    with pytest.raises(ServiceError) as refused:
        await call
    assert refused.value.code == code, refused.value.message
    return refused.value.message


async def _until_anna_timed_out(srv: Served, t: dict[str, Any], times: int) -> None:
    """Bruno plays his turns; Anna lets her clock run out until she has `times` in a row."""
    service, bruno = srv.service, t["seats"][1]["token"]
    table = await service.table(t["table"])
    for _ in range(200):
        if table.seats[0].timeouts >= times:
            return
        game = await srv.game(t["table"])
        assert not game["over"]
        if game["to_move"] == 1:
            await service.act(game["id"], bruno, game["version"], forward(game["legal"]))
            await srv.clock.settle()
        else:
            await srv.clock.advance(CLOCK + 0.1)
    raise AssertionError(f"Anna did not time out {times} times")


async def test_one_timeout_of_a_connected_player_keeps_his_seat(served: Served) -> None:
    service = served.service
    t = await _table(service)
    table_id, host = t["table"], t["host"]
    anna, bruno = t["seats"][0]["token"], t["seats"][1]["token"]
    await served.hello(table_id, (anna,))  # Anna's page is open
    await served.hello(table_id, (bruno,))
    await _until_anna_timed_out(served, t, 1)
    message = await _refused(service.hand_to_bot(table_id, bruno, 0, "random"), "seat_connected")
    assert "3" in message and "Anna" in message
    await _refused(service.reinvite(table_id, host, 0, "http://x"), "seat_connected")
    await _until_anna_timed_out(served, t, 2)
    await _refused(service.hand_to_bot(table_id, bruno, 0, "random"), "seat_connected")
    table = await service.table(table_id)
    assert table.seats[0].kind == "human"
    # a move of hers wipes the count: two more timeouts are not three in a row
    game = await served.game(table_id)
    while game["to_move"] != 0:
        await service.act(game["id"], bruno, game["version"], forward(game["legal"]))
        game = await served.game(table_id)
    await service.act(game["id"], anna, game["version"], forward(game["legal"]))
    assert table.seats[0].timeouts == 0
    await _refused(service.hand_to_bot(table_id, bruno, 0, "random"), "seat_connected")


async def test_after_three_timeouts_in_a_row_a_bot_may_be_chosen_and_the_log_says_why(
    served: Served,
) -> None:
    service = served.service
    t = await _table(service)
    table_id, host = t["table"], t["host"]
    anna, bruno = t["seats"][0]["token"], t["seats"][1]["token"]
    await served.hello(table_id, (anna,))
    watcher = await served.hello(table_id, (bruno,))
    await _until_anna_timed_out(served, t, 3)
    table = await service.table(table_id)
    assert (table.seats[0].kind, table.seats[0].bot) == ("bot", "eager")  # the clock's bot
    await service.hand_to_bot(table_id, bruno, 0, "heuristic")
    await served.clock.settle()
    assert (table.seats[0].kind, table.seats[0].bot) == ("bot", "heuristic")
    line = "Bruno let a bot play for Anna, who ran out of time 3 times in a row."
    assert any(line in m["narration"] for m in watcher.of("state"))
    assert line in await served.log(table_id)
    # never re-invited while she is connected, however many timeouts
    await _refused(service.reinvite(table_id, host, 0, "http://x"), "seat_connected")
    # her seat is still hers: acting again takes it back
    game = await served.game(table_id)
    with pytest.raises(ServiceError):
        await service.act(game["id"], anna, game["version"], "roll")
    await served.clock.settle()
    assert table.seats[0].kind == "human" and table.seats[0].timeouts == 0


async def test_a_player_who_left_is_handed_over_and_reinvited_as_before_with_the_reason(
    served: Served,
) -> None:
    service = served.service
    t = await _table(service)
    table_id, host = t["table"], t["host"]
    bruno = t["seats"][1]["token"]
    claimed = await service.claim(table_id, t["seats"][0]["invite"].split("#i:")[1])
    page = await served.hello(table_id, (claimed["token"],))
    await served.hello(table_id, (bruno,))
    table = await service.table(table_id)
    service.unsubscribe(table, page)  # Anna closes her page
    await served.clock.settle()
    await _refused(service.reinvite(table_id, host, 0, "http://x"), "seat_present")
    await served.clock.advance(2.1)  # absent_after
    await service.reinvite(table_id, host, 0, "http://x")
    await served.clock.settle()
    assert "The host sent a new invitation for the seat of Anna, away for 2 seconds." in (
        await served.log(table_id)
    )
    # out of time and not connected: handed over after one timeout, as before
    t = await _table(service)
    bruno = t["seats"][1]["token"]
    await served.hello(t["table"], (bruno,))
    await _until_anna_timed_out(served, t, 1)
    await service.reinvite(t["table"], t["host"], 0, "http://x")
    await service.hand_to_bot(t["table"], bruno, 0, "random")
    await served.clock.settle()
    log = await served.log(t["table"])
    assert "The host sent a new invitation for the seat of Anna, who ran out of time." in log
    assert "Bruno let a bot play for Anna, who ran out of time." in log


class _Elsewhere(LocalPresence):
    """The cluster's presence as another process left it: `seat` raises while Redis is away,
    else tells that the seat's process died at `left`."""

    def __init__(self) -> None:
        super().__init__()
        self.away = True
        self.left: int | None = None

    async def seat(self, table_id: str, seat: int) -> tuple[int, int | None]:
        if self.away:
            raise PresenceUnknown("Redis does not answer")
        return 0, self.left


async def test_presence_fails_closed_and_a_dead_process_counts_from_its_death(
    served: Served,
) -> None:
    service = served.service
    t = await _table(service)
    table_id, host, bruno = t["table"], t["host"], t["seats"][1]["token"]
    claimed = await service.claim(table_id, t["seats"][0]["invite"].split("#i:")[1])
    assert claimed["seat"] == 0  # Anna's page is on another process (never here)
    await served.hello(table_id, (bruno,))
    elsewhere = _Elsewhere()
    service.cluster.presence, service.cluster.redis = elsewhere, object()  # scaled out
    await served.clock.advance(3)  # long past absent_after since the table was made
    message = await _refused(service.hand_to_bot(table_id, bruno, 0, "random"), "presence_unknown")
    assert "try again" in message
    await _refused(service.reinvite(table_id, host, 0, "http://x"), "presence_unknown")
    # Redis answers: Anna's process died a moment ago. She left then, not when she came.
    elsewhere.away, elsewhere.left = False, served.clock.now_ms() - 500
    await _refused(service.hand_to_bot(table_id, bruno, 0, "random"), "seat_present")
    await _refused(service.reinvite(table_id, host, 0, "http://x"), "seat_present")
    await served.clock.advance(1.6)  # absent_after (2 s) after her process died
    await service.hand_to_bot(table_id, bruno, 0, "random")
    await served.clock.settle()
    assert "Bruno let a bot play for Anna, away for 2 seconds." in await served.log(table_id)
    stored = service.store.load_table(table_id)
    assert stored is not None and stored.seats[0].seen_at == elsewhere.left


async def test_an_invite_is_shown_without_being_spent_and_a_wrong_code_is_told_apart(
    served: Served,
) -> None:
    """Issue 22: looking at an invite (the page before its "Take this seat" click) spends
    nothing; a code that was never an invite of the table is `bad_invite`, one used or
    replaced already `seat_taken`."""
    service = served.service
    t = await _table(service)
    table_id, host = t["table"], t["host"]
    code = t["seats"][1]["invite"].split("#i:")[1]
    for _ in range(2):  # a link checker, then the invitee: nothing is spent
        assert await service.offer(table_id, code) == {"seat": 1, "name": "Bruno"}
    table = await service.table(table_id)
    assert table.seats[1].invite_sha256 is not None
    wrong = "x" * len(code)
    await _refused(service.offer(table_id, wrong), "bad_invite")
    await _refused(service.claim(table_id, wrong), "bad_invite")
    claimed = await service.claim(table_id, code)
    assert claimed["seat"] == 1
    await _refused(service.offer(table_id, code), "seat_taken")
    await _refused(service.claim(table_id, code), "seat_taken")
    # a re-invite of a never-claimed seat replaces its invite: the old one is "taken" too
    old = t["seats"][0]["invite"].split("#i:")[1]
    fresh = await service.reinvite(table_id, host, 0, "http://x")
    await _refused(service.claim(table_id, old), "seat_taken")
    new = fresh["link"].split("#i:")[1]
    assert await service.offer(table_id, new) == {"seat": 0, "name": "Anna"}
