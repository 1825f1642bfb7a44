"""QR codes (issue 22): each link's code is made once (a cache), on the heavy lane, never on the
event loop; the host's panel asked again makes none. In process, on the fake clock."""

from __future__ import annotations

import threading
from unittest import mock

import pytest

from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec, invites
from tests.web.inprocess import Served

pytestmark = pytest.mark.anyio

ORIGIN = "https://robinson.example"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_the_host_panel_makes_each_links_code_once_and_off_the_loop(served: Served) -> None:
    service = served.service
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno"), SeatSpec("Cy", kind="bot", bot="random")],
        {"edition": "standard"},
    )
    threads: list[str] = []
    make = invites.segno.make

    def counted(*args: object, **kw: object) -> object:
        threads.append(threading.current_thread().name)
        return make(*args, **kw)  # type: ignore[arg-type]

    with mock.patch.object(invites.segno, "make", counted):
        first = await service.invites(made["table"], made["host"], ORIGIN, "10.0.0.1")
        assert len(threads) == 3  # two invites and the spectator's link
        assert all(name.startswith("robinson-heavy") for name in threads), threads
        again = await service.invites(made["table"], made["host"], ORIGIN, "10.0.0.1")
        assert len(threads) == 3  # all from the cache
    assert again == first
    assert first["spectator_qr"].startswith("<svg")
    assert [s["qr"] is not None for s in first["seats"]] == [True, True, False]


async def test_codes_not_made_yet_count_against_the_address_on_the_lane(served: Served) -> None:
    service = served.service
    made = await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
    )
    lane = service.lane
    lane._jobs["10.0.0.2"] = lane.per_client  # that address has its share running already
    with pytest.raises(ServiceError) as refused:
        await service.invites(made["table"], made["host"], ORIGIN, "10.0.0.2")
    assert refused.value.code == "rate_limited"
    del lane._jobs["10.0.0.2"]
    await service.invites(made["table"], made["host"], ORIGIN, "10.0.0.2")
    lane._jobs["10.0.0.2"] = lane.per_client
    await service.invites(made["table"], made["host"], ORIGIN, "10.0.0.2")  # cached: no job
    del lane._jobs["10.0.0.2"]
