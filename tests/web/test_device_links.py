""" "Continue on another device" is a one-time code like the invites (issue 22): the link holds no
secret of the seat; opening it claims nothing; taking it gives that device a new secret (the
first device's stops working, as an invite's claim); used, replaced or expired it is
`link_expired`. A seat's owner can revoke his other devices: a new secret for him, the old one
`bad_token`. In process, on the fake clock."""

from __future__ import annotations

from typing import Any

import pytest

from robinson.web.protocol.errors import STATUS, ServiceError
from robinson.web.service import GameService, SeatSpec
from robinson.web.service.invites import DEVICE_SECONDS
from tests.web.inprocess import Served

pytestmark = pytest.mark.anyio

ORIGIN = "https://robinson.example"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _table(service: GameService) -> dict[str, Any]:
    return await service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "standard"}
    )


async def _refused(call: Any, code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        await call
    assert refused.value.code == code, refused.value.message
    assert refused.value.message


def _code(link: str) -> str:
    assert "#i:" in link
    return link.split("#i:", 1)[1]


async def test_the_device_link_is_a_one_time_code_not_the_seats_secret(served: Served) -> None:
    service = served.service
    t = await _table(service)
    table_id, anna = t["table"], t["seats"][0]["token"]
    table = await service.table(table_id)
    invite = table.seats[0].invite_sha256
    phone = await service.device_link(table_id, anna, 0, ORIGIN)
    assert anna not in phone["link"] and phone["qr"].startswith("<svg")
    code = _code(phone["link"])
    assert await service.offer(table_id, code) == {"seat": 0, "name": "Anna"}  # spends nothing
    assert table.seat_of(anna) == 0
    laptop = await served.hello(table_id, (anna,))
    taken = await service.claim(table_id, code)
    assert taken["seat"] == 0 and taken["token"] != anna
    assert table.seat_of(taken["token"]) == 0
    assert table.seat_of(anna) is None  # the first device's secret stops working
    assert laptop.seats == set()  # and its connection holds the seat no more
    await _refused(service.claim(table_id, code), "link_expired")  # once only
    await _refused(service.offer(table_id, code), "link_expired")
    await _refused(service.device_link(table_id, anna, 0, ORIGIN), "bad_token")
    assert table.seats[0].invite_sha256 == invite  # for the host, the seat is as it was


async def test_a_device_code_expires_and_a_forged_one_is_refused(served: Served) -> None:
    service = served.service
    t = await _table(service)
    table_id, anna = t["table"], t["seats"][0]["token"]
    code = _code((await service.device_link(table_id, anna, 0, ORIGIN))["link"])
    seat, issued, mac = code.split(".")
    await _refused(service.offer(table_id, f"1.{issued}.{mac}"), "link_expired")  # other seat
    await _refused(service.offer(table_id, f"{seat}.{int(issued) + 1}.{mac}"), "link_expired")
    await _refused(service.offer(table_id, "9.1.abcdefgh"), "bad_invite")  # no such seat
    await served.clock.advance(DEVICE_SECONDS + 1)
    await _refused(service.claim(table_id, code), "link_expired")
    assert (await service.table(table_id)).seat_of(anna) == 0


async def test_the_owner_revokes_his_other_devices(served: Served) -> None:
    service = served.service
    t = await _table(service)
    table_id, anna = t["table"], t["seats"][0]["token"]
    table = await service.table(table_id)
    code = _code((await service.device_link(table_id, anna, 0, ORIGIN))["link"])
    other = await served.hello(table_id, (anna,))  # another device with the old secret
    await _refused(service.revoke(table_id, t["seats"][1]["token"], 0), "bad_token")
    fresh = await service.revoke(table_id, anna, 0)
    assert fresh["seat"] == 0 and fresh["token"] != anna
    assert fresh["link"] == f"/t/{table_id}#{fresh['token']}"
    assert table.seat_of(fresh["token"]) == 0 and table.seat_of(anna) is None
    assert other.seats == set()
    await _refused(service.act(table.game.id, anna, 0, "roll"), "bad_token")
    await _refused(service.claim(table_id, code), "link_expired")  # its codes die with it
    stored = service.store.load_table(table_id)
    assert stored is not None and stored.seats[0].token_sha256 == table.seats[0].token_sha256


def test_link_expired_is_an_error_code() -> None:
    assert STATUS["link_expired"] == 410
