"""Seats that stay their players' (docs/protocol.md "Seats"): who may hand a seat to a bot, how
it comes back, invites claimed once, the host's view of them, and a seat's link for another
device. Every change is stored and told through moves.py `change_seats`.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from robinson import fairdice
from robinson.bots import BOT_NAMES
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import invites, vacation, waiting
from robinson.web.service.clock import Clock
from robinson.web.service.lane import Lane
from robinson.web.service.live import TIMEOUT_LIMIT, LiveTable, token_hash
from robinson.web.service.moves import Moves
from robinson.web.service.presence import Presence
from robinson.web.service.tables import Tables
from robinson.web.store.rows import KEEP, Keep, Note

if TYPE_CHECKING:
    from robinson.web.store import Store


class Seats:
    def __init__(
        self,
        moves: Moves,
        tables: Tables,
        presence: Presence,
        store: Store,
        clock: Clock,
        lane: Lane,
    ) -> None:
        self.lane = lane
        # The key of device codes: the seeds' key (every process of a cluster reads the same
        # file); a store without one (tests) gets one of this process's.
        self.key = store.seeds.key or secrets.token_bytes(32)
        self.moves = moves
        self.tables = tables
        self.presence = presence
        self.store = store
        self.clock = clock

    async def qr_codes(self, texts: list[str], client: str | None) -> dict[str, str]:
        """The QR code of each of `texts`: those not made yet are made on the heavy lane (175
        ms for nine), counted against `client`; each is made once (invites.py keeps them)."""
        kept = {text: invites.qr_kept(text) for text in texts}
        if all(svg is not None for svg in kept.values()):
            return {text: svg for text, svg in kept.items() if svg is not None}
        return await self.lane.run(lambda: {text: invites.qr_svg(text) for text in texts}, client)

    def seat_index(self, table: LiveTable, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < len(table.seats):
            raise ServiceError("bad_request", f"seat must be 0 to {len(table.seats) - 1}")
        return seat

    # -- bots and owners -----------------------------------------------------------------------

    async def hand_to_bot(self, table_id: str, token: object, seat: object, bot: object) -> None:
        """The owner may always. Anyone else seated: a connected player's seat only after his
        TIMEOUT_LIMIT-th timeout in a row (`seat_connected` before); another's when it is out
        of time or absent (no connection for `absent_after` seconds), else `seat_present`."""
        table = await self.tables.get(table_id)
        actor = self.tables.authenticate(table, token)
        target = self.seat_index(table, seat)
        if bot not in BOT_NAMES:
            raise ServiceError("bad_request", f"bot must be one of {', '.join(BOT_NAMES)}")
        async with table.lock:
            row, now = table.seats[target], self.clock.now_ms()
            timed_out = row.timeouts >= TIMEOUT_LIMIT  # the clock gave it to a bot already
            if row.kind == "bot" and actor != target and not timed_out:
                raise ServiceError("seat_is_bot", "a bot plays this seat already")
            data: dict[str, Any] = {"seat": target, "actor": actor, "bot": str(bot)}
            if actor != target:
                if await self.presence.connected_anywhere(table, target):
                    if not timed_out:
                        raise ServiceError(
                            "seat_connected",
                            f"{row.name} is connected: a bot may take the seat only after "
                            f"{TIMEOUT_LIMIT} timeouts in a row ({row.timeouts} so far)",
                        )
                    data["timeouts"] = row.timeouts
                elif table.out_of_time(target):
                    data["out_of_time"] = True
                elif (away := self.away(table, target, now)) is not None:
                    data["away"] = away
                else:
                    raise ServiceError(
                        "seat_present",
                        f"{row.name} left only now; a bot may take the seat after "
                        f"{table.absent_after:g} s without a connection, or when out of time",
                    )
            note = Note(table.game.version, "bot", data)
            new_row = replace(row, kind="bot", bot=str(bot))
            await self.moves.change_seats(table, (new_row,), (note,))

    @staticmethod
    def away(table: LiveTable, seat: int, now: int) -> int | None:
        """Seconds the seat (connected nowhere) has been away, if that counts as absent."""
        since = max(table.away_since(seat), table.loaded_at)
        if now - since < table.absent_after * 1000:
            return None
        return (now - table.away_since(seat)) // 1000

    async def take_back(self, table_id: str, token: object, seat: object) -> None:
        """A seat handed to a bot returns to its human: only that seat's own token can do it."""
        table = await self.tables.get(table_id)
        own = self.tables.authenticate(table, token)
        target = self.seat_index(table, seat)
        if own != target:
            raise ServiceError("bad_token", "only the seat's own link can take it back")
        async with table.lock:
            if table.seats[target].kind == "bot":
                await self.moves.seat_to_human(table, target, "back")

    async def give_seed(
        self, table_id: str, token: object, game: object, seat: object, seed: object
    ) -> None:
        """A seat's own browser adds its seed to the game's dice (docs/fair-dice.md)."""
        table = await self.tables.get(table_id)
        own = self.tables.authenticate(table, token)
        target = self.seat_index(table, seat)
        if own != target:
            raise ServiceError("bad_token", "only the seat's own link gives the seat's seed")
        raw = fairdice.contribution(seed)
        if raw is None:
            raise ServiceError(
                "bad_seed", "a seat's seed is 16 to 32 bytes in hex (32 to 64 digits)"
            )
        async with table.lock:
            await self.moves.give_seed(table, str(game), target, raw)

    # -- invites -------------------------------------------------------------------------------

    def invited(self, table: LiveTable, invite: object) -> int:
        """The seat `invite` offers now; `seat_taken` for an invite used or replaced already
        (this game's notes keep their hashes), `bad_invite` for a code that never was one; a
        device code (invites.py `device_code`): `link_expired` once used, replaced or old."""
        if not isinstance(invite, str) or not 8 <= len(invite) <= 200:
            raise ServiceError("bad_request", "invite is the code after '#i:' in the link")
        device = invites.device_parts(invite)
        if device is not None:
            return self.device_seat(table, invite, *device)
        digest = token_hash(invite)
        seat = next((s.seat for s in table.seats if s.invite_sha256 == digest), None)
        if seat is not None:
            return seat
        spent = any(
            digest in (n.data.get("invite"), n.data.get("replaced")) for n in table.game.notes
        )
        if spent:
            raise ServiceError(
                "seat_taken",
                "this invite was used already: the seat is taken (ask the host for a new link "
                "if it was meant for you)",
            )
        raise ServiceError(
            "bad_invite", "that is not an invite of this table: check the code after '#i:'"
        )

    def device_seat(self, table: LiveTable, code: str, seat: int, issued: int) -> int:
        if not 0 <= seat < len(table.seats):
            raise ServiceError(
                "bad_invite", "that is not an invite of this table: check the code after '#i:'"
            )
        row, now = table.seats[seat], self.clock.now_ms() // 1000
        made = invites.device_code(self.key, table.id, seat, row.token_sha256, issued)
        fresh = 0 <= now - issued <= invites.DEVICE_SECONDS
        if not (fresh and hmac.compare_digest(made, code)):
            raise ServiceError(
                "link_expired",
                "this link to continue on another device was used, replaced or is more than "
                f"{invites.DEVICE_SECONDS // 60} minutes old: ask for a new one on the device "
                "that has the seat",
            )
        return seat

    async def offer(self, table_id: str, invite: object) -> dict[str, Any]:
        """What an invite offers, spending nothing: the page shows it with a "Take this seat"
        button (a link checker that opens the page takes no seat)."""
        table = await self.tables.get(table_id)
        seat = self.invited(table, invite)
        return {"seat": seat, "name": table.seats[seat].name}

    async def claim(self, table_id: str, invite: object) -> dict[str, Any]:
        """Take an invite's seat (the click): the seat gets a new secret, given to this
        browser alone; the invite is spent (`seat_taken` for anyone who tries it again) and
        older secrets stop working."""
        table = await self.tables.get(table_id)
        async with table.lock:
            seat = self.invited(table, invite)
            assert isinstance(invite, str)
            device = invites.device_parts(invite) is not None
            digest = None if device else token_hash(invite)
            token, old = secrets.token_urlsafe(24), table.seats[seat].token_sha256
            if not await asyncio.to_thread(
                self.store.claim, table.id, seat, digest, token_hash(token), old
            ):
                if device:
                    raise ServiceError("link_expired", "this link was used just now")
                raise ServiceError(
                    "seat_taken",
                    "this invite was used already: the seat is taken (ask the "
                    "host for a new link if it was meant for you)",
                )
            # Spent in the store already (compare and set, against any other process); the
            # change below tells everyone, with the same row.
            row = table.seats[seat]
            notes: tuple[Note, ...] = ()
            deadline: int | Keep | None = KEEP
            if device:  # the same player on another device: no note, his timeouts stay
                claimed = replace(row, token_sha256=token_hash(token))
            else:
                claimed = replace(
                    row, token_sha256=token_hash(token), invite_sha256=None, timeouts=0
                )
                notes = (Note(table.game.version, "claimed", {"seat": seat, "invite": digest}),)
                begins = waiting.started(table, seat, self.clock.now_ms())
                if begins is not None:  # the last one the table waited for: the game starts
                    notes, deadline = (*notes, begins[0]), begins[1]
            await self.moves.change_seats(table, (claimed,), notes, deadline)
            self.presence.drop_holders(table, seat)
            return {"seat": seat, "token": token, "link": f"/t/{table.id}#{token}"}

    async def start(self, table_id: str, host: object) -> None:
        """The host starts a waiting table's game without the seats still awaited (their
        invites stay good: they may come later). Nothing to do when it does not wait."""
        table = await self.tables.get(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "only the table's host may start the game")
        async with table.lock:
            if not table.awaited():
                return
            note = Note(table.game.version, "started", {"host": True})
            deadline = waiting.first_deadline(table, self.clock.now_ms())
            await self.moves.change_seats(table, (), (note,), deadline)

    async def vacation(self, table_id: str, token: object, seat: object, days: object) -> int:
        """The seat's own token pauses its clock for `days` (vacation.py); returns when the
        vacation ends (Unix ms)."""
        table = await self.tables.get(table_id)
        index = self.seat_index(table, seat)
        if self.tables.authenticate(table, token) != index:
            raise ServiceError("bad_token", "only the seat's own secret may take its vacation")
        async with table.lock:
            note, deadline = vacation.taking(table, index, days, self.clock.now_ms())
            await self.moves.change_seats(table, (), (note,), deadline)
            return int(note.data["until"])

    async def invites(
        self, table_id: str, host: object, origin: str, client: str | None = None
    ) -> dict[str, Any]:
        """The host's view: each human seat, its invite link and QR code while unclaimed."""
        table = await self.tables.get(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "that is not the host's secret of this table")
        assert isinstance(host, str)
        present = table.present_anywhere()
        out: list[dict[str, Any]] = []
        for row in table.seats:
            link = None
            if row.invite_sha256 is not None:
                code = invites.invite_code(host, table.id, row.seat, row.token_sha256)
                if token_hash(code) == row.invite_sha256:
                    link = invites.invite_link(table.id, code)
            out.append(
                {
                    "seat": row.seat,
                    "name": row.name,
                    "kind": row.kind,
                    "claimed": row.invite_sha256 is None,
                    "present": row.seat in present,
                    "link": link,
                }
            )
        spectator = f"/t/{table.id}"
        links = [origin + s["link"] for s in out if s["link"]]
        qr = await self.qr_codes([*links, origin + spectator], client)
        for s in out:
            s["qr"] = None if s["link"] is None else qr[origin + s["link"]]
        return {
            "table": table.id,
            "spectator": spectator,
            "spectator_qr": qr[origin + spectator],
            "seats": out,
        }

    async def reinvite(
        self, table_id: str, host: object, seat: object, origin: str, client: str | None = None
    ) -> dict[str, Any]:
        """The host gives an absent (or out of time, or never claimed) seat a new invite: the
        old secret and the old link stop working."""
        table = await self.tables.get(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "that is not the host's secret of this table")
        assert isinstance(host, str)
        target = self.seat_index(table, seat)
        async with table.lock:
            row, now = table.seats[target], self.clock.now_ms()
            if await self.presence.connected_anywhere(table, target):
                raise ServiceError(
                    "seat_connected",
                    f"{row.name} is connected: a seat is never re-invited while its player "
                    "is at the table",
                )
            data: dict[str, Any] = {"seat": target}
            if row.invite_sha256 is not None:  # its old invite is spent: `seat_taken` after
                data["replaced"] = row.invite_sha256
            if table.out_of_time(target):
                data["out_of_time"] = True
            elif row.invite_sha256 is not None:
                data["unclaimed"] = True
            elif (away := self.away(table, target, now)) is not None:
                data["away"] = away
            else:
                raise ServiceError(
                    "seat_present",
                    f"{row.name} left only now; a new invite is for a seat left empty for "
                    f"{table.absent_after:g} s or out of time",
                )
            token_sha = token_hash(secrets.token_urlsafe(24))  # nobody's: the invite gives one
            code = invites.invite_code(host, table.id, target, token_sha)
            new_row = replace(row, token_sha256=token_sha, invite_sha256=token_hash(code))
            note = Note(table.game.version, "reinvited", data)
            await self.moves.change_seats(table, (new_row,), (note,))
            self.presence.drop_holders(table, target)
            link = invites.invite_link(table.id, code)
        qr = await self.qr_codes([origin + link], client)
        return {"seat": target, "link": link, "qr": qr[origin + link]}

    async def device_link(
        self, table_id: str, token: object, seat: object, origin: str, client: str | None = None
    ) -> dict[str, Any]:
        """A one-time link to continue on another device (invites.py `device_code`): it holds
        no secret of the seat; taking it gives that device a new one (this one's stops)."""
        table = await self.tables.get(table_id)
        own = self.tables.authenticate(table, token)
        if own != self.seat_index(table, seat):
            raise ServiceError("bad_token", "only the seat's own secret gives its link")
        issued = self.clock.now_ms() // 1000
        code = invites.device_code(self.key, table.id, own, table.seats[own].token_sha256, issued)
        link = invites.invite_link(table.id, code)
        qr = await self.qr_codes([origin + link], client)
        return {"seat": own, "link": link, "qr": qr[origin + link]}

    async def revoke(self, table_id: str, token: object, seat: object) -> dict[str, Any]:
        """The seat's owner ends his other devices: a new secret for him alone; the old one
        (every other device's, and its device links) answers `bad_token` from now on."""
        table = await self.tables.get(table_id)
        own = self.tables.authenticate(table, token)
        if own != self.seat_index(table, seat):
            raise ServiceError("bad_token", "only the seat's own secret can revoke its devices")
        async with table.lock:
            row, fresh = table.seats[own], secrets.token_urlsafe(24)
            if not await asyncio.to_thread(
                self.store.claim, table.id, own, None, token_hash(fresh), row.token_sha256
            ):
                raise ServiceError("bad_token", "the seat's secret changed meanwhile")
            new_row = replace(row, token_sha256=token_hash(fresh))
            await self.moves.change_seats(table, (new_row,), ())
            self.presence.drop_holders(table, own)
        return {"seat": own, "token": fresh, "link": f"/t/{table.id}#{fresh}"}
