"""A presence flood (issue 22): one socket alternating `hello` with and without its seat's token
reaches every other viewer as a few `state` messages a second, the last one right, and writes
the seat's last-seen time a few times, not once a flip. In process, on the fake clock, through
the socket's own handler of `hello`."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from robinson.web.api import socket
from robinson.web.protocol.client import Hello
from robinson.web.service import SeatSpec
from robinson.web.service.presence import BURST, RATE
from tests.web.inprocess import Served, Viewer

pytestmark = pytest.mark.anyio

FLIPS = 10_000
PER_TICK = 100  # flips between two moves of the fake clock
TICK = 0.1  # seconds: 10,000 flips in 10 s, 1,000 a second


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Socket(Viewer):
    """What the socket's `_handle` needs of a connection (api/socket.py `Connection`)."""

    subscribed = False


def _present(message: dict[str, Any], seat: int) -> bool:
    present: bool = message["state"]["players"][seat]["present"]
    return present


async def test_ten_thousand_hello_flips_reach_a_viewer_as_a_few_states_a_second(
    served: Served,
) -> None:
    service, clock = served.service, served.clock
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
    )
    table = await service.table(made["table"])
    anna = made["seats"][0]["token"]
    bruno = await served.hello(made["table"], (made["seats"][1]["token"],))
    spectator = await served.hello(made["table"])
    flipper = Socket()
    await socket._handle(service, table, flipper, Hello(type="hello", tokens=[anna]))
    await clock.advance(5)
    watched = (bruno, spectator)
    told = [len(v.of("state")) for v in watched]
    writes = mock.patch.object(served.service.store, "set_seen", wraps=service.store.set_seen)
    with writes as set_seen:
        began = clock.monotonic()
        for flip in range(FLIPS):
            tokens = [] if flip % 2 == 0 else [anna]  # without, with, ..., ending with
            await socket._handle(service, table, flipper, Hello(type="hello", tokens=tokens))
            if flip % PER_TICK == PER_TICK - 1:
                await clock.advance(TICK)
        seconds = clock.monotonic() - began
        await clock.advance(1)  # the last broadcast, due within 1/RATE s
    at_most = BURST + RATE * seconds + 1
    for viewer, before in zip(watched, told, strict=True):
        states = viewer.of("state")[before:]
        assert 1 <= len(states) <= at_most, (len(states), at_most)
        assert _present(states[-1], 0)  # the last flip held the seat: shown present
        assert _present(states[-1], 1)  # Bruno never left
    assert table.present_seats() == {0, 1}
    assert set_seen.call_count <= at_most, set_seen.call_count
    stored = service.store.load_table(made["table"])
    assert stored is not None and stored.seats[0].seen_at == table.seats[0].seen_at


async def test_a_change_alone_is_shown_at_once_and_a_flood_ends_with_the_truth(
    served: Served,
) -> None:
    """Below the budget nothing waits; a burst past it ends with one `state` carrying the last
    change, also when that change is a departure."""
    service, clock = served.service, served.clock
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
    )
    table = await service.table(made["table"])
    anna = made["seats"][0]["token"]
    spectator = await served.hello(made["table"])
    await clock.advance(5)
    flipper = await served.hello(made["table"], (anna,))
    assert _present(spectator.of("state")[-1], 0)  # at once: no time passed
    await clock.advance(5)
    before = len(spectator.of("state"))
    for flip in range(50):  # ends without the token: Anna left
        service.hold(table, flipper, set() if flip % 2 else {0})
    await clock.settle()
    assert len(spectator.of("state")) - before <= BURST
    await clock.advance(1)
    states = spectator.of("state")[before:]
    assert len(states) <= BURST + RATE + 1
    assert not _present(states[-1], 0)
    assert table.seats[0].seen_at == clock.now_ms() - 1000  # the moment she left
