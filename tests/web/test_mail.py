"""The e-mail channel (web/notify/mail.py, docs/notifications.md "E-mail") against a real SMTP
server (aiosmtpd on 127.0.0.1) and a real store, in process on the fake clock: the
confirmation first and nothing before it, notices to a confirmed address in its language with
both parts, one turn e-mail per absence, the daily digest, and the one-click removal. The tests
hand the channel its notices as the notifier does (test_mail_turns.py: the notifier itself)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from email.message import EmailMessage
from typing import Any

import pytest

from robinson.i18n import Translator
from robinson.web.notify.mail import (
    ADDRESS_WINDOW,
    CONFIRM_EVERY,
    CONFIRMS_PER_ADDRESS,
    DIGEST_CHECK,
    DIGEST_EVERY,
    MailChannel,
)
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import SeatSpec
from robinson.web.service.notices import Notice, NoticeKind
from robinson.web.settings import Mail
from tests.web.fakes import FakeClock, until
from tests.web.inprocess import Served
from tests.web.smtp import Inbox, link, parts, smtp_server, unsubscribe_path

pytestmark = pytest.mark.anyio

PUBLIC = "https://robinson.example"
ANNA = "anna@example.test"
DAY_MS = DIGEST_EVERY * 1000


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Shifted:
    """The served clock moved by `shift` ms: a channel can act a day earlier or later than the
    tables without their clocks running out meanwhile."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.shift = 0

    def now_ms(self) -> int:
        return self.clock.now_ms() + self.shift

    async def sleep(self, seconds: float) -> None:
        await self.clock.sleep(seconds)


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[Served]:
    """The in-process service (inprocess.py) on SQLite and on PostgreSQL (`system`): the
    send-once rules are the databases' conditional updates."""
    from robinson.web.settings import Settings

    srv = Served(database_url, FakeClock(), Settings(bot_delay=0.0))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as running:
        yield running


@pytest.fixture
async def mail(served: Served, smtp: tuple[Inbox, int]) -> AsyncIterator[tuple[MailChannel, Inbox]]:
    inbox, port = smtp
    settings = Mail("127.0.0.1", "robinson@example.test", PUBLIC, port, security="none")
    channel = MailChannel(settings, served.service.store, Shifted(served.clock), None)
    yield channel, inbox
    await channel.close()


async def _table(served: Served, first: int = 0, move_seconds: int | None = None) -> Any:
    return await served.service.create_table(
        [SeatSpec("Anna"), SeatSpec("Bruno")],
        {"edition": "standard"},
        first=first,
        move_seconds=move_seconds,
    )


def _notice(table: Any, kind: NoticeKind = "turn", seat: int = 0, version: int = 0,
            **facts: str | int) -> Notice:  # fmt: skip
    return Notice(kind, table["table"], table["game"], seat, version, facts)


def _code(path: str) -> str:
    """The code of a link's path: after its last slash, before its query."""
    return path.rsplit("/", 1)[1].split("?", 1)[0]


async def _confirmed(
    channel: MailChannel, inbox: Inbox, table: Any, seat: int = 0, lang: str = "en",
    address: str = ANNA,
) -> EmailMessage:  # fmt: skip
    """Leave an address for the seat and open its confirmation link; the confirmation e-mail."""
    before = inbox.count()
    await channel.leave(table["table"], seat, "Anna", address, lang, True)
    await channel.drain()
    letter = inbox.wait_for(before + 1)[-1]
    assert await channel.confirm(_code(link(letter, "confirm"))) is not None
    return letter


async def test_the_confirmation_comes_first_in_the_language_asked_and_nothing_before_it(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    t = await _table(served)
    await channel.leave(t["table"], 0, "Anna", " Anna@Example.TEST ", "lv", True)
    await channel.drain()
    [letter] = inbox.wait_for(1)
    lv = Translator("lv")
    assert letter["Subject"] == lv.gettext("web.mail.confirm.subject")
    assert letter["To"] == ANNA and inbox.recipients == [[ANNA]]
    assert letter["Content-Language"] == "lv"
    plain, page = parts(letter)
    assert lv.format("web.mail.confirm.body", name="Anna") in plain
    assert lv.gettext("web.mail.confirm.link") in page and "<p>" in page
    assert f"{PUBLIC}/email/confirm/" in plain and f"{PUBLIC}/email/confirm/" in page
    assert letter["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe_path(letter).startswith("/email/unsubscribe/")

    for kind in ("turn", "reminder", "ended", "claimed", "handed"):  # unconfirmed: nothing
        await channel.deliver(_notice(t, kind, seconds_left=60, name="Cila"))
    await channel.drain()
    assert inbox.count() == 1

    confirmed = await channel.confirm(_code(link(letter, "confirm")))
    assert confirmed is not None and confirmed.address == ANNA and confirmed.language == "lv"
    assert await channel.confirm(_code(link(letter, "confirm"))) is None  # once
    await channel.deliver(_notice(t, mover="Bruno", face=4, square=17))
    await channel.drain()
    turn = inbox.wait_for(2)[-1]
    assert turn["Subject"] == lv.gettext("web.mail.turn.subject")
    plain, page = parts(turn)
    assert lv.format("web.mail.turn.roll", mover="Bruno", face=4, square=17) in plain
    assert f"{PUBLIC}/t/{t['table']}" in plain and f'href="{PUBLIC}/t/{t["table"]}"' in page
    assert turn["List-Unsubscribe"] and turn["List-Unsubscribe-Post"]


async def test_the_html_part_escapes_what_players_typed(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    t = await served.service.create_table(
        [SeatSpec("<b>Anna</b>"), SeatSpec("Bruno")], {"edition": "standard"}
    )
    await channel.leave(t["table"], 0, "<b>Anna</b>", ANNA, "en", True)
    await channel.drain()
    plain, page = parts(inbox.wait_for(1)[-1])
    assert "<b>Anna</b>" in plain and "<b>" not in page and "&lt;b&gt;Anna&lt;/b&gt;" in page


async def test_one_turn_email_per_absence(served: Served, mail: tuple[MailChannel, Inbox]) -> None:
    channel, inbox = mail
    t = await _table(served)
    await _confirmed(channel, inbox, t)
    store = served.service.store
    for version in (0, 2, 4):  # three turns while away: one e-mail
        await channel.deliver(_notice(t, version=version))
        await channel.drain()
    assert inbox.count() == 2  # the confirmation and one turn

    await served.clock.advance(1)  # Anna comes back, then leaves again
    viewer = await served.hello(t["table"], (t["seats"][0]["token"],))
    await served.clock.advance(1)
    served.service.unsubscribe(await served.service.table(t["table"]), viewer)
    await served.clock.advance(1)
    left = served.clock.now_ms() - 1000

    def seen() -> int:
        row = store.load_table(t["table"])
        assert row is not None
        return row.seats[0].seen_at or 0

    await until(lambda: seen() >= left)
    for version in (6, 8):  # a new absence: one e-mail again
        await channel.deliver(_notice(t, version=version))
        await channel.drain()
    assert inbox.count() == 3
    assert inbox.messages[-1]["Subject"] == Translator("en").gettext("web.mail.turn.subject")


async def test_a_reminder_once_per_move_and_the_rare_notices_each_time(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    t = await _table(served, move_seconds=86400)
    await _confirmed(channel, inbox, t, lang="cs")
    cs = Translator("cs")
    await channel.deliver(_notice(t, "reminder", version=3, seconds_left=17280))  # 80 %
    await channel.drain()  # (they come hours apart)
    await channel.deliver(_notice(t, "reminder", version=3, seconds_left=3600))  # 1 h: same move
    await channel.drain()
    assert inbox.count() == 2
    reminder = inbox.messages[-1]
    assert reminder["Subject"] == cs.gettext("web.mail.reminder.subject")
    assert cs.nformat("seat.hours", 4) in parts(reminder)[0]  # 17280 s
    await channel.deliver(_notice(t, "reminder", version=5, seconds_left=3600))  # a new move
    await channel.drain()
    assert inbox.count() == 3

    await channel.deliver(_notice(t, "claimed", name="Cila", claimed_seat=1))
    await channel.deliver(_notice(t, "handed", bot="eager"))
    await channel.deliver(_notice(t, "ended", winner="Bruno"))
    await channel.drain()
    subjects = {m["Subject"] for m in inbox.wait_for(6)[3:]}
    assert subjects == {
        cs.format("web.mail.claimed.subject", name="Cila"),
        cs.gettext("web.mail.handed.subject"),
        cs.gettext("web.mail.ended.subject"),
    }
    ended = next(m for m in inbox.messages if m["Subject"] == cs.gettext("web.mail.ended.subject"))
    assert cs.format("web.mail.ended.won", winner="Bruno") in parts(ended)[0]


async def test_the_digest_lists_the_tables_waiting_for_the_seat_least_time_first(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    clock: Shifted = channel.clock  # type: ignore[assignment]
    no_clock = await _table(served)
    day = await _table(served, move_seconds=86400)
    hour = await _table(served, move_seconds=3600)
    bruno_to_move = await _table(served, first=1)
    unconfirmed = await _table(served)
    clock.shift = -2 * DAY_MS  # confirmed two days ago (the tables' clocks did not run)
    for t in (no_clock, day, hour, bruno_to_move):
        await _confirmed(channel, inbox, t, lang="ca")
    came = inbox.count()
    await channel.leave(unconfirmed["table"], 0, "Anna", ANNA, "ca", True)
    await channel.drain()
    inbox.wait_for(came + 1)  # its confirmation has come (the SMTP server may be a bit behind)
    await _confirmed(channel, inbox, day, seat=1, address="bruno@example.test")  # Anna's move
    await channel.drain()
    before = inbox.count()

    clock.shift = 0
    assert await channel.send_digests() == 1  # Bruno's address: nothing waits, no e-mail
    await channel.drain()
    [digest] = inbox.wait_for(before + 1)[before:]
    assert digest["To"] == ANNA
    ca = Translator("ca")
    assert digest["Subject"] == ca.nformat("web.mail.digest.subject", 3)
    plain, page = parts(digest)
    listed = re.findall(r"/t/([A-Za-z0-9_\-]+)", plain)
    assert listed == [hour["table"], day["table"], no_clock["table"]]
    assert re.findall(r'href="https://robinson.example/t/([A-Za-z0-9_\-]+)"', page) == listed
    assert ca.gettext("web.mail.digest.no_clock") in plain
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    assert await channel.send_digests() == 0  # once a day
    clock.shift = DAY_MS + 1000
    assert await channel.send_digests() == 1  # the next day
    await channel.drain()


async def test_the_digest_chore_runs_on_the_services_clock(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    """The channel on a clock of its own, two days behind the tables': its hours pass without
    the service's timers of every one of them."""
    _, inbox = mail
    own = FakeClock(served.clock.now_ms() - 2 * DAY_MS)
    channel = MailChannel(mail[0].settings, served.service.store, own, None)
    t = await _table(served)
    await _confirmed(channel, inbox, t)
    await own.advance(2 * DAY_MS)
    channel.start()  # the first look at once: due since yesterday
    try:
        await own.settle()
        await channel.drain()
        assert inbox.count() == 2
        for _ in range(DIGEST_EVERY // DIGEST_CHECK):  # a day, look by look
            assert inbox.count() == 2  # not again today
            await own.advance(DIGEST_CHECK)
            await channel.drain()
        subjects = [m["Subject"] for m in inbox.wait_for(3)]
        assert subjects[1:] == [Translator("en").nformat("web.mail.digest.subject", 1)] * 2
    finally:
        await channel.close()


async def test_one_click_removes_the_address_from_every_seat(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    first, second = await _table(served), await _table(served)
    await _confirmed(channel, inbox, first)
    letter = await _confirmed(channel, inbox, second)
    code = _code(unsubscribe_path(letter))
    assert await channel.address_of(code) is not None  # the page asks, removes nothing
    removed = await channel.unsubscribe(code)
    assert removed is not None and removed.address == ANNA
    assert await channel.unsubscribe(code) is None and await channel.address_of(code) is None
    for t in (first, second):
        await channel.deliver(_notice(t))
        await channel.drain()
    assert inbox.count() == 2  # the two confirmations, nothing since
    assert await channel.send_digests() == 0


async def test_bad_addresses_and_a_second_confirmation_too_soon_are_refused(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    t = await _table(served)
    bad = ["anna", "anna@", "@example.test", "anna@example", "an na@example.test",
           "anna@exa_mple.test", "<anna@example.test>", "ann\u00e4@example.test",
           "a" * 65 + "@example.test", "anna@" + "e" * 250 + ".test", 42]  # fmt: skip
    for address in bad:
        with pytest.raises(ServiceError) as refused:
            await channel.leave(t["table"], 0, "Anna", address, "en", True)
        assert refused.value.code == "bad_address", address
    await channel.leave(t["table"], 0, "Anna", ANNA, "en", True)
    with pytest.raises(ServiceError) as refused:
        await channel.leave(t["table"], 0, "Anna", "other@example.test", "en", True)
    assert refused.value.code == "rate_limited" and refused.value.headers["Retry-After"]
    await served.clock.advance(CONFIRM_EVERY + 1)
    await channel.leave(t["table"], 0, "Anna", "other@example.test", "en", True)  # replaces it
    await channel.drain()
    first, second = inbox.wait_for(2)
    assert second["To"] == "other@example.test"
    assert await channel.confirm(_code(link(first, "confirm"))) is None  # the old one is gone
    assert await channel.confirm(_code(link(second, "confirm"))) is not None


async def test_an_address_gets_few_confirmations_from_all_seats(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    tables = [await _table(served) for _ in range(CONFIRMS_PER_ADDRESS + 1)]
    for t in tables[:-1]:
        await channel.leave(t["table"], 0, "Anna", ANNA, "en", True)
    with pytest.raises(ServiceError) as refused:
        await channel.leave(tables[-1]["table"], 0, "Anna", ANNA, "en", True)
    assert refused.value.code == "rate_limited"
    assert int(refused.value.headers["Retry-After"]) == ADDRESS_WINDOW
    assert served.service.store.mail_target(tables[-1]["table"], 0) is None
    assert (
        await channel.unsubscribe(
            channel.unsubscribe_code(tables[-1]["table"], 0, served.clock.now_ms())
        )
        is None
    )  # not stored
    await channel.leave(tables[-1]["table"], 1, "Bruno", "bruno@example.test", "en", True)
    await served.clock.advance(ADDRESS_WINDOW)
    await channel.leave(tables[-1]["table"], 0, "Anna", ANNA, "en", True)  # an hour later
    await channel.drain()
    assert [m["To"] for m in inbox.wait_for(5)] == [ANNA] * 3 + ["bruno@example.test", ANNA]


async def test_two_addresses_left_at_once_for_a_seat_one_wins(
    served: Served, mail: tuple[MailChannel, Inbox]
) -> None:
    channel, inbox = mail
    t = await _table(served)
    tries = [channel.leave(t["table"], 0, "Anna", f"anna{i}@example.test", "en", True)
             for i in range(4)]  # fmt: skip
    done = await asyncio.gather(*tries, return_exceptions=True)
    refused = [d for d in done if isinstance(d, ServiceError)]
    assert len(refused) == 3 and all(e.code == "rate_limited" for e in refused), done
    await channel.drain()
    [letter] = inbox.wait_for(1)
    assert await channel.confirm(_code(link(letter, "confirm"))) is not None


async def test_a_failed_send_is_logged_not_raised_and_the_next_turn_tries_again(
    served: Served, mail: tuple[MailChannel, Inbox], caplog: pytest.LogCaptureFixture
) -> None:
    channel, inbox = mail
    t = await _table(served)
    await _confirmed(channel, inbox, t)
    working = channel.settings
    with smtp_server() as (_, port):  # a server that is gone by the time the e-mail is sent
        pass
    channel.settings = Mail(working.host, working.sender, PUBLIC, port, security="none")
    await channel.deliver(_notice(t))  # returns: the failure is the task's
    await channel.drain()
    assert "e-mail turn" in caplog.text
    channel.settings = working
    await channel.deliver(_notice(t, version=2))  # same absence: not told yet, so told now
    await channel.drain()
    assert inbox.count() == 2
