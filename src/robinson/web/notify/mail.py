"""The e-mail channel (docs/notifications.md "E-mail"): addresses left for seats, confirmed by a
link in a first e-mail, notices to the confirmed ones, and a daily digest.

- A player leaves an address for his seat (`leave`); it gets one e-mail, the confirmation, and
  nothing else until its link is opened (`confirm`). Each seat has one address at most.
- `deliver(notice)`: an e-mail to the seat's confirmed address in its language. A `turn` goes
  out once per absence (none again until the seat has connected since), a `reminder` once per
  absence and move, `ended`, `claimed` and `handed` each time (they come once per game or
  seat). Sending runs on a task of its own: the move that caused it never waits for SMTP, and
  a failure is logged, never raised.
- The digest: every `DIGEST_CHECK` seconds of the service's clock, each confirmed address that
  wants one and had none for a day gets the tables where it is its seat's move, the least time
  left first (no clock last); none if there are none. Every process runs this chore: the
  store's conditional update picks one sender per address (store/addresses.py), so a cluster
  sends each digest once without a Redis lock.
- Every e-mail carries a one-click unsubscribe link (RFC 8058) that removes the address from
  every seat it was left for. Its code is derived (HMAC of the server's key over the seat and
  the time the address was left), so each e-mail can carry it while the database keeps only
  its SHA-256, like the invites' (service/invites.py).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from robinson.web.notify import letters
from robinson.web.protocol.errors import ServiceError
from robinson.web.service.notices import Notice

if TYPE_CHECKING:
    from email.message import EmailMessage

    from robinson.web.settings import Mail
    from robinson.web.store import Store
    from robinson.web.store.addresses import Address

log = logging.getLogger("robinson.web.mail")

CONFIRM_EVERY = 60  # seconds: a seat's next confirmation e-mail, at the soonest
# An address gets at most this many confirmation e-mails (unconfirmed) in ADDRESS_WINDOW
# seconds, from every seat: a stranger's mailbox is not filled from many tables.
CONFIRMS_PER_ADDRESS = 3
ADDRESS_WINDOW = 3600
DIGEST_EVERY = 86400  # seconds between two digests to one address
DIGEST_CHECK = 3600  # seconds between two looks for digests due
SMTP_TIMEOUT = 30.0  # seconds for one e-mail's whole conversation with the SMTP server
CLOSE_WAIT = 10.0  # seconds given to e-mails under way when the server stops


class Clock(Protocol):
    """The service's clock (service/clock.py), as far as e-mail needs it."""

    def now_ms(self) -> int: ...

    async def sleep(self, seconds: float) -> None: ...


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


class MailChannel:
    """A `Channel` (service/notices.py) by SMTP; `app.py` makes one when `Settings.mail` is set."""

    def __init__(self, settings: Mail, store: Store, clock: Clock, key: bytes | None) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        # The unsubscribe codes' key: the seeds' key (every process of a cluster reads the same
        # file); a store without one (tests) gets one of this process's.
        self.key = key or secrets.token_bytes(32)
        self._sending: set[asyncio.Task[None]] = set()
        self._chore: asyncio.Task[None] | None = None

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        self._chore = asyncio.create_task(self._digests_forever())

    async def close(self) -> None:
        if self._chore is not None:
            self._chore.cancel()
            await asyncio.gather(self._chore, return_exceptions=True)
        if self._sending:  # let e-mails under way finish, a little while
            _, late = await asyncio.wait(set(self._sending), timeout=CLOSE_WAIT)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def drain(self) -> None:
        """Until every e-mail begun so far is sent or given up (tests wait on it)."""
        while self._sending:
            await asyncio.gather(*set(self._sending), return_exceptions=True)

    def _background(self, work: Coroutine[Any, Any, None], what: str) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:  # never raised to the caller: logged
                log.exception("e-mail %s failed", what)

        task = asyncio.create_task(run())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    # -- links ---------------------------------------------------------------------------------

    def _url(self, path: str) -> str:
        return self.settings.public_url + path

    def unsubscribe_code(self, table_id: str, seat: int, created: int) -> str:
        message = f"robinson unsubscribe:{table_id}:{seat}:{created}".encode()
        digest = hmac.new(self.key, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode("ascii")

    def _unsubscribe_url(self, row: Address) -> str:
        code = self.unsubscribe_code(row.table_id, row.seat, row.created)
        return self._url(f"/email/unsubscribe/{code}?lang={row.language}")

    # -- addresses -----------------------------------------------------------------------------

    async def leave(
        self, table_id: str, seat: int, name: str, address: object, language: str, digest: bool
    ) -> None:
        """Put an address on a seat (the API has checked the seat's token) and send its
        confirmation; `bad_address`, or `rate_limited` for a second one within a minute."""
        checked = letters.check_address(address)
        if checked is None:
            raise ServiceError(
                "bad_address",
                "address must be an e-mail address like name@example.org (ASCII, at most "
                f"{letters.MAX_ADDRESS} characters)",
            )
        now = self.clock.now_ms()
        confirm = secrets.token_urlsafe(18)
        unsubscribe = self.unsubscribe_code(table_id, seat, now)
        codes = (code_hash(confirm), code_hash(unsubscribe))
        limits = (CONFIRM_EVERY * 1000, ADDRESS_WINDOW * 1000, CONFIRMS_PER_ADDRESS)
        args = (table_id, seat, checked, language, now, codes, digest, limits)
        next_chance = await asyncio.to_thread(self.store.leave_address, *args)
        if next_chance is not None:
            wait = max(1, (next_chance - now + 999) // 1000)
            raise ServiceError(
                "rate_limited",
                f"one confirmation e-mail a minute per seat, {CONFIRMS_PER_ADDRESS} an hour per "
                f"address; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        # The pages' language is the address's; `lang` says it once the code is spent.
        confirm_url = self._url(f"/email/confirm/{confirm}?lang={language}")
        letter = letters.confirmation(language, name, confirm_url)
        leave = self._url(f"/email/unsubscribe/{unsubscribe}?lang={language}")
        msg = letters.message(letter, language, self.settings.sender, checked, leave)
        self._background(self._send(msg), "confirmation")

    async def confirm(self, code: str) -> Address | None:
        """Confirm the address of a confirmation code; None: not (or no longer) a code."""
        return await asyncio.to_thread(self.store.confirm_address, code_hash(code), self._now())

    async def address_of(self, unsubscribe_code: str) -> Address | None:
        return await asyncio.to_thread(self.store.address_of_code, code_hash(unsubscribe_code))

    async def unsubscribe(self, code: str) -> Address | None:
        """Remove the address of an unsubscribe code everywhere; None: no such code."""
        return await asyncio.to_thread(self.store.remove_address, code_hash(code))

    def _now(self) -> int:
        return self.clock.now_ms()

    # -- notices -------------------------------------------------------------------------------

    async def deliver(self, notice: Notice) -> None:
        """`Channel.deliver`: returns at once; the e-mail, if any, goes on a task of its own."""
        self._background(self._notice(notice), f"{notice.kind} {notice.key}")

    async def _notice(self, notice: Notice) -> None:
        store, table, seat = self.store, notice.table_id, notice.seat
        row = await asyncio.to_thread(store.mail_target, table, seat)
        if row is None:
            return
        at = self._now()
        if notice.kind == "turn":
            if not await asyncio.to_thread(store.claim_turn_mail, table, seat, at):
                return  # mailed already during this absence
        elif notice.kind == "reminder":
            move = f"{notice.game_id}:{notice.version}"
            if not await asyncio.to_thread(store.claim_reminder, table, seat, move, at):
                return
        letter = letters.notice_letter(
            row.language, notice.kind, row.name, notice.facts, self._url(notice.path)
        )
        msg = letters.message(
            letter, row.language, self.settings.sender, row.address, self._unsubscribe_url(row)
        )
        try:
            await self._send(msg)
        except Exception:
            if notice.kind == "turn":  # not told: the next turn of this absence may try again
                await asyncio.to_thread(store.release_turn_mail, table, seat, at)
            raise

    # -- the digest ----------------------------------------------------------------------------

    async def _digests_forever(self) -> None:
        while True:
            try:
                await self.send_digests()
            except Exception:  # the database away, a bug: the next look tries again
                log.exception("the e-mail digests failed")
            await self.clock.sleep(DIGEST_CHECK)

    async def send_digests(self) -> int:
        """Send the digests due now (one per address, by one process); returns how many."""
        now = self._now()
        before = now - DIGEST_EVERY * 1000
        sent = 0
        for address in await asyncio.to_thread(self.store.digests_due, before):
            if not await asyncio.to_thread(self.store.claim_digest, address, before, now):
                continue  # another process sends it
            waiting, row = await asyncio.to_thread(self.store.waiting_for, address)
            if not waiting or row is None:
                continue  # nothing waits for this address's moves: no e-mail
            waiting.sort(key=lambda w: (w.deadline is None, w.deadline or 0))
            items = [
                (
                    w.name,
                    None if w.deadline is None else max(0, (w.deadline - now) // 1000),
                    self._url(f"/t/{w.table_id}"),
                )
                for w in waiting
            ]
            letter = letters.digest(row.language, items)
            leave = self._unsubscribe_url(row)
            msg = letters.message(letter, row.language, self.settings.sender, address, leave)
            self._background(self._send(msg), "digest")
            sent += 1
        return sent

    # -- SMTP ----------------------------------------------------------------------------------

    async def _send(self, msg: EmailMessage) -> None:
        import aiosmtplib  # only a server that sends e-mail loads it

        s = self.settings
        await aiosmtplib.send(
            msg,
            hostname=s.host,
            port=s.smtp_port(),
            username=s.user,
            password=s.password if s.user else None,
            use_tls=s.security == "tls",
            start_tls=s.security == "starttls",
            timeout=SMTP_TIMEOUT,
        )
