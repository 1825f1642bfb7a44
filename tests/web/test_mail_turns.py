"""Issue 19 end to end: a move makes the notifier tell the seat to move, away from the table,
through the e-mail channel the service is given, against a real SMTP server (aiosmtpd on
127.0.0.1): one e-mail for its turn, in its address's language, with a link to the table;
none while it is connected; none before its address is confirmed. In process, fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from robinson.i18n import Translator
from robinson.web.notify.mail import MailChannel
from robinson.web.service import SeatSpec
from robinson.web.settings import Mail, Settings
from robinson.web.store import Store
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served
from tests.web.smtp import Inbox, link, parts, smtp_server

pytestmark = pytest.mark.anyio
PUBLIC = "https://robinson.example"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as running:
        yield running


@pytest.fixture
async def served(tmp_path: Path, smtp: tuple[Inbox, int]) -> AsyncIterator[Served]:
    _, port = smtp
    made: list[MailChannel] = []
    clock = FakeClock()

    def channels(store: Store) -> list[MailChannel]:
        settings = Mail("127.0.0.1", "robinson@example.test", PUBLIC, port, security="none")
        made.append(MailChannel(settings, store, clock, None))
        return made[-1:]

    srv = Served(
        f"sqlite:///{tmp_path / 'r.sqlite3'}", clock, Settings(bot_delay=0.0), channels=channels
    )
    srv.made = made  # type: ignore[attr-defined]
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()
        for channel in made:
            await channel.close()


async def test_a_move_e_mails_the_seat_to_move_when_it_is_away(
    served: Served, smtp: tuple[Inbox, int]
) -> None:
    inbox, _ = smtp
    channel: MailChannel = served.made[-1]  # type: ignore[attr-defined]
    service = served.service
    made = await service.create_table([SeatSpec("Anna"), SeatSpec("Bruno")], {"edition": "cs"})
    tokens = [s["token"] for s in made["seats"]]
    table = await service.table(made["table"])
    await channel.leave(table.id, 1, "Bruno", "bruno@example.test", "cs", True)
    await channel.drain()
    confirmation = inbox.wait_for(1)[-1]
    code = link(confirmation, "confirm").rsplit("/", 1)[1].split("?", 1)[0]
    await served.hello(table.id, (tokens[0],))  # Anna is at the table, Bruno is not

    async def to(seat: int) -> None:
        for _ in range(100):
            if table.game.state.to_move == seat:
                return
            game = await served.game(table.id)
            token = tokens[game["to_move"]]
            await service.act(game["id"], token, game["version"], forward(game["legal"]))
        raise AssertionError("the turn did not come")

    await to(1)  # his turn, address not confirmed yet: nothing
    await served.clock.settle()
    await channel.drain()
    assert inbox.count() == 1
    assert await channel.confirm(code) is not None
    await to(0)
    await to(1)  # his turn again, now confirmed and still away: one e-mail
    await served.clock.settle()
    await channel.drain()
    letter = inbox.wait_for(2)[-1]
    assert letter["To"] == "bruno@example.test"
    plain, page = parts(letter)
    assert f"{PUBLIC}/t/{table.id}" in plain and f'href="{PUBLIC}/t/{table.id}"' in page
    cs = Translator("cs")
    subjects = {cs.gettext(k) for k in ("web.mail.turn.subject", "web.notify.turn.title")}
    assert letter["Subject"] in subjects, letter["Subject"]
    bruno = await served.hello(table.id, (tokens[1],))  # he comes back and plays ...
    await to(0)
    await to(1)  # ... his turn while he is connected: no e-mail
    await served.clock.settle()
    await channel.drain()
    assert inbox.count() == 2
    service.unsubscribe(table, bruno)
