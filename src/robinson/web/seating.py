"""Seats that stay yours, presence and clocks (issue 8; docs/protocol.md "Seats" and "Clocks"):
the part of `GameService` that decides who may hand a seat to a bot, claims invites, shows the
host's invites, follows who is connected, and makes the move of a seat whose time ran out.

A mixin: `GameService` (service.py) has the tables, the pipeline (`_commit`) and the bus; these
methods use them, so every move still goes through the one pipeline.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from robinson.bots import BOT_NAMES
from robinson.web import seats as seating
from robinson.web.errors import ServiceError
from robinson.web.live import Listener, LiveTable, now_ms, token_hash
from robinson.web.parts import ServiceParts
from robinson.web.shared import PRESENCE_TTL
from robinson.web.store import KEEP, Note

log = logging.getLogger("robinson.web")


class Seating(ServiceParts):
    """Issue 8's part of `GameService`: seats, invites, presence (web/parts.py)."""

    # -- seats: bots, owners, invites (docs/protocol.md "Seats") -------------------------------

    async def hand_to_bot(self, table_id: str, token: object, seat: object, bot: object) -> None:
        """The owner may always; anyone else seated only when the seat is absent (no connection
        for `absent_after` seconds) or out of time, else `seat_present`."""
        table = await self.table(table_id)
        actor = self.authenticate(table, token)
        target = self._seat_index(table, seat)
        if bot not in BOT_NAMES:
            raise ServiceError("bad_request", f"bot must be one of {', '.join(BOT_NAMES)}")
        async with table.lock:
            row, now = table.seats[target], now_ms()
            if row.kind == "bot" and actor != target:
                raise ServiceError("seat_is_bot", "a bot plays this seat already")
            data: dict[str, Any] = {"seat": target, "actor": actor, "bot": str(bot)}
            if actor != target:
                if table.out_of_time(target):
                    data["out_of_time"] = True
                elif table.absent(target, now) and not await self._connected_anywhere(
                    table, target
                ):
                    data["away"] = (now - table.away_since(target)) // 1000
                else:
                    raise ServiceError(
                        "seat_present",
                        f"{row.name} is at the table; a bot may take the seat only after "
                        f"{table.absent_after:g} s without a connection, or when out of time",
                    )
            note = Note(table.game.version, "bot", data)
            changes = [(target, {"kind": "bot", "bot": str(bot)})]
            await self._change_seats(table, changes, [note])
            self._wake_bots(table)

    async def take_back(self, table_id: str, token: object, seat: object) -> None:
        """A seat handed to a bot returns to its human: only that seat's own token can do it."""
        table = await self.table(table_id)
        own = self.authenticate(table, token)
        target = self._seat_index(table, seat)
        if own != target:
            raise ServiceError("bad_token", "only the seat's own link can take it back")
        async with table.lock:
            if table.seats[target].kind == "bot":
                await self._seat_to_human(table, target, "back")

    async def _seat_to_human(self, table: LiveTable, seat: int, kind: str) -> None:
        """The seat's owner plays again (lock held): `kind` is the note, "back" or "returned"."""
        changes = [(seat, {"kind": "human", "bot": None, "timeouts": 0})]
        await self._change_seats(table, changes, [Note(table.game.version, kind, {"seat": seat})])

    async def _change_seats(
        self, table: LiveTable, changes: list[tuple[int, dict[str, Any]]], notes: list[Note]
    ) -> None:
        """Store seat changes between moves with their notes and the new deadline (the seat to
        move may have become a bot or a human), then tell everyone. Lock held."""
        game = table.game
        kinds = {s: v["kind"] for s, v in changes if "kind" in v}
        deadline: Any = KEEP
        to_move = game.state.to_move
        if to_move in kinds and table.move_seconds is not None and not game.state.over:
            deadline = now_ms() + table.move_seconds * 1000 if kinds[to_move] == "human" else None
        await asyncio.to_thread(
            self.store.change_seats,
            game.id,
            [(table.id, s, v) for s, v in changes],
            notes,
            deadline,
        )
        if deadline is not KEEP:
            game.deadline = deadline
            self._clock_changed(deadline)
        _apply_seat_changes(table, changes)
        game.notes.extend(notes)
        table.broadcast_state(notes)
        message: dict[str, Any] = {"k": "seats", "game": game.id, "notes": [vars(n) for n in notes]}
        if deadline is not KEEP:
            message["deadline"] = deadline
        self._publish(table, message)

    async def claim(self, table_id: str, invite: object) -> dict[str, Any]:
        """Open an invite: the seat gets a new secret, given to this browser alone; the invite
        is spent (`seat_taken` for anyone who tries it again) and older secrets stop working."""
        table = await self.table(table_id)
        if not isinstance(invite, str) or not 8 <= len(invite) <= 200:
            raise ServiceError("bad_request", "invite is the code after '#i:' in the link")
        digest = token_hash(invite)
        async with table.lock:
            seat = next((s.seat for s in table.seats if s.invite_sha256 == digest), None)
            token = secrets.token_urlsafe(24)
            if seat is None or not await asyncio.to_thread(
                self.store.claim, table.id, seat, digest, token_hash(token)
            ):
                raise ServiceError(
                    "seat_taken",
                    "this invite was used already: the seat is taken (ask the "
                    "host for a new link if it was meant for you)",
                )
            row = table.seats[seat]
            row.token_sha256, row.invite_sha256, row.timeouts = token_hash(token), None, 0
            await self._change_seats(
                table, [], [Note(table.game.version, "claimed", {"seat": seat})]
            )
            self._drop_holders(table, seat)
            return {"seat": seat, "token": token, "link": f"/t/{table.id}#{token}"}

    def _drop_holders(self, table: LiveTable, seat: int) -> None:
        """Connections that held `seat` with its old secret hold it no more."""
        before = table.present_seats()
        for listener in list(table.listeners):
            if seat in listener.seats:
                self._count(table, {seat}, set())
                listener.seats = listener.seats - {seat}
                listener.send(table.snapshot(listener))
        self._presence(table, before)

    async def invites(self, table_id: str, host: object, origin: str) -> dict[str, Any]:
        """The host's view: each human seat, its invite link and QR code while unclaimed."""
        table = await self.table(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "that is not the host's secret of this table")
        assert isinstance(host, str)
        present = table.present_anywhere()
        out = []
        for row in table.seats:
            link = None
            if row.invite_sha256 is not None:
                code = seating.invite_code(host, table.id, row.seat, row.token_sha256)
                if token_hash(code) == row.invite_sha256:
                    link = seating.invite_link(table.id, code)
            out.append(
                {
                    "seat": row.seat,
                    "name": row.name,
                    "kind": row.kind,
                    "claimed": row.invite_sha256 is None,
                    "present": row.seat in present,
                    "link": link,
                    "qr": None if link is None else seating.qr_svg(origin + link),
                }
            )
        spectator = f"/t/{table.id}"
        return {
            "table": table.id,
            "spectator": spectator,
            "spectator_qr": seating.qr_svg(origin + spectator),
            "seats": out,
        }

    async def reinvite(
        self, table_id: str, host: object, seat: object, origin: str
    ) -> dict[str, Any]:
        """The host gives an absent (or out of time, or never claimed) seat a new invite: the
        old secret and the old link stop working."""
        table = await self.table(table_id)
        if not table.is_host(host):
            raise ServiceError("bad_token", "that is not the host's secret of this table")
        assert isinstance(host, str)
        target = self._seat_index(table, seat)
        async with table.lock:
            row, now = table.seats[target], now_ms()
            unclaimed = row.invite_sha256 is not None and target not in table.present_seats()
            away = table.absent(target, now) and not await self._connected_anywhere(table, target)
            if not (unclaimed or away or table.out_of_time(target)):
                raise ServiceError(
                    "seat_present",
                    f"{row.name} is at the table; a new invite is for a seat left empty for "
                    f"{table.absent_after:g} s or out of time",
                )
            token_sha = token_hash(secrets.token_urlsafe(24))  # nobody's: the invite gives one
            code = seating.invite_code(host, table.id, target, token_sha)
            values = {"token_sha256": token_sha, "invite_sha256": token_hash(code)}
            note = Note(table.game.version, "reinvited", {"seat": target})
            await self._change_seats(table, [(target, values)], [note])
            self._drop_holders(table, target)
            link = seating.invite_link(table.id, code)
            return {"seat": target, "link": link, "qr": seating.qr_svg(origin + link)}

    async def device_link(
        self, table_id: str, token: object, seat: object, origin: str
    ) -> dict[str, Any]:
        """A seat's own link, to continue on another device (it is the seat's secret)."""
        table = await self.table(table_id)
        own = self.authenticate(table, token)
        if own != self._seat_index(table, seat):
            raise ServiceError("bad_token", "only the seat's own secret gives its link")
        link = f"/t/{table.id}#{token}"
        return {"seat": own, "link": link, "qr": seating.qr_svg(origin + link)}

    # -- listeners -----------------------------------------------------------------------------

    def subscribe(self, table: LiveTable, listener: Listener) -> None:
        before = table.present_seats()
        table.listeners.add(listener)
        listener.send(table.snapshot(listener))
        self._count(table, set(), listener.seats)
        self._presence(table, before)

    def unsubscribe(self, table: LiveTable, listener: Listener) -> None:
        before = table.present_seats()
        if listener in table.listeners:
            table.listeners.discard(listener)
            self._count(table, listener.seats, set())
        self._presence(table, before)

    def hold(self, table: LiveTable, listener: Listener, held: set[int]) -> None:
        """`listener` now holds the seats `held` (a hello with its tokens)."""
        before = table.present_seats()
        if listener in table.listeners:
            self._count(table, listener.seats, held)
        listener.seats = held
        self._presence(table, before)

    def _count(self, table: LiveTable, old: set[int], new: set[int]) -> None:
        """A connection here no longer holds `old` but `new`: noted for the cluster's presence
        (written by `_presence`, which every caller calls next)."""
        table.presence_pending += [(seat, -1) for seat in old - new]
        table.presence_pending += [(seat, +1) for seat in new - old]

    async def _connected_anywhere(self, table: LiveTable, seat: int) -> bool:
        """Held by a connection here, or (scaled out) in another process: asked of Redis, not
        of this copy's last news, since a hand-over must not rest on a stale dot."""
        if seat in table.present_seats():
            return True
        if not self.cluster.shared:
            return False
        return (await self.cluster.presence.totals(table.id)).get(seat, 0) > 0

    def _presence(self, table: LiveTable, before: set[int]) -> None:
        """Who is connected here changed: remember when, show everyone here, and tell the
        cluster (its presence first, then the other processes, which read it on that news)."""
        after = table.present_seats()
        changed = before ^ after
        pending, table.presence_pending = table.presence_pending, []
        now = now_ms()
        for seat in changed:  # arrived or left: seen now
            table.seats[seat].seen_at = now
            self._in_background(asyncio.to_thread(self.store.set_seen, table.id, seat, now))
        if changed:
            table.broadcast_state()
        if before - after:  # someone left: tell everyone again when the seat counts as absent
            self._absence_later(table)
        if pending or changed:
            self._in_background(self._share_presence(table, pending, {s: now for s in changed}))

    async def _share_presence(
        self, table: LiveTable, pending: list[tuple[int, int]], seen: dict[int, int]
    ) -> None:
        for seat, delta in pending:
            await self.cluster.presence.change(table.id, seat, delta)
        if seen:
            self._publish(table, {"k": "presence", "seen": seen})

    async def _presence_elsewhere(self, table: LiveTable, message: dict[str, Any]) -> None:
        """Another process saw seats arrive or leave (a bus message): their last-seen times,
        and who is connected there now."""
        for seat, seen in message.get("seen", {}).items():
            if 0 <= int(seat) < len(table.seats):
                table.seats[int(seat)].seen_at = int(seen)
        await self._refresh_presence(table)

    async def _refresh_presence(self, table: LiveTable) -> None:
        """Read who is connected to the other processes (scaled out), and show everyone."""
        if self.cluster.shared:
            table.present_elsewhere = await self.cluster.presence.elsewhere(table.id)
        table.broadcast_state()

    async def _sweep_presence(self) -> None:
        """Scaled out: the dots of a process that died (its connections gone with it, no news
        from it) go out within two PRESENCE_TTL."""
        while True:
            await asyncio.sleep(PRESENCE_TTL)
            for table in list(self._tables.values()):
                if table.present_elsewhere and table.listeners:
                    before = table.present_elsewhere
                    table.present_elsewhere = await self.cluster.presence.elsewhere(table.id)
                    if table.present_elsewhere != before:
                        table.broadcast_state()

    def _absence_later(self, table: LiveTable) -> None:
        """Tell everyone again when a seat that left counts as absent (and look again then at
        the other processes: one may have died with its connections)."""
        asyncio.get_running_loop().call_later(
            table.absent_after + 0.05, lambda: self._chore(self._refresh_presence(table))
        )

    def _in_background(self, work: Any) -> None:
        """Run `work` without waiting for it; a failure is logged (presence is not a move)."""

        async def run() -> None:
            try:
                await work
            except Exception as e:
                log.warning("a background write failed: %s", e)

        self._chore(run())


def _apply_seat_changes(table: LiveTable, changes: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """The stored seat changes, made in memory too (after the commit)."""
    for seat, values in changes:
        for column, value in values.items():
            setattr(table.seats[seat], column, value)
