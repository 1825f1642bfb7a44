"""Who is at a table: the connections following it, the seats they hold, and since when a seat
has been away (docs/protocol.md "Seats").

A connection (a `Listener`) subscribes to a table and holds the seats whose tokens it showed.
When the seats held here change, this part notes when (stored as the seat's `seen_at`), shows
everyone, counts them in the cluster's presence (cluster/presence.py) and tells the other
processes (`Seen`), which read the cluster's counts again. A seat that left is shown again as
absent once `absent_after` has passed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from robinson.web.cluster import Cluster
from robinson.web.cluster.messages import Seen
from robinson.web.cluster.presence import PRESENCE_TTL, PresenceUnknown
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import views
from robinson.web.service.clock import Clock, Timer
from robinson.web.service.live import Listener, LiveTable
from robinson.web.service.tables import Tables

if TYPE_CHECKING:
    from robinson.web.store import Store

log = logging.getLogger("robinson.web")

# Presence changes are shown (a `state` to the table's viewers) at most BURST at once, then RATE
# a second per table; the changes meanwhile go out together (`Presence._soon`).
BURST = 3
RATE = 4.0

# Called with a table and the seats whose last connection to this process just closed (the
# notifier tells one who left during his own turn, once he stays away).
OnLeft = Callable[[LiveTable, set[int]], None]


class Presence:
    def __init__(
        self, tables: Tables, cluster: Cluster, store: Store, clock: Clock, absent_after: float
    ) -> None:
        self.tables = tables
        self.cluster = cluster
        self.store = store
        self.clock = clock
        self.absent_after = absent_after
        self.chores: set[asyncio.Task[Any]] = set()
        self._timers: list[Timer] = []  # absences and broadcasts to come (cancelled at stop)
        self._absences: dict[str, tuple[float, Timer]] = {}  # per table: its latest absence
        self.on_left: list[OnLeft] = []
        tables.on_loaded.append(self.loaded)

    async def start(self) -> None:
        await self.cluster.presence.start()
        if self.cluster.shared:
            self._chore(self._sweep())

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        for task in self.chores:
            task.cancel()
        await asyncio.gather(*self.chores, return_exceptions=True)
        await self.cluster.presence.stop()

    def loaded(self, table: LiveTable) -> None:
        """A table just taken up: absence counts from now; who is on the other processes."""
        self.absence_later(table)
        if self.cluster.shared:
            self._chore(self.refresh(table))

    # -- listeners -----------------------------------------------------------------------------

    def subscribe(
        self,
        table: LiveTable,
        listener: Listener,
        game: str | None = None,
        version: int | None = None,
    ) -> None:
        """`listener` follows the table from now on; it is sent what it lacks (`views.greet`:
        it shows `game` at `version`, if it says so)."""
        before = table.present_seats()
        table.listeners.add(listener)
        views.greet(table, listener, game, version)
        self._count(table, set(), listener.seats)
        if not listener.seats:  # one more spectator: "2 watching"
            table.news.owed = True
        self._changed(table, before)

    def unsubscribe(self, table: LiveTable, listener: Listener) -> None:
        before = table.present_seats()
        if listener in table.listeners:
            table.listeners.discard(listener)
            self._count(table, listener.seats, set())
            if not listener.seats:
                table.news.owed = True
        self._changed(table, before)

    def hold(self, table: LiveTable, listener: Listener, held: set[int]) -> None:
        """`listener` now holds the seats `held` (a hello with its tokens)."""
        before = table.present_seats()
        if listener in table.listeners:
            self._count(table, listener.seats, held)
        listener.seats = held
        self._changed(table, before)

    def drop_holders(self, table: LiveTable, seat: int) -> None:
        """Connections that held `seat` with its old secret hold it no more."""
        before = table.present_seats()
        for listener in list(table.listeners):
            if seat in listener.seats:
                self._count(table, {seat}, set())
                listener.seats = listener.seats - {seat}
                listener.send(views.snapshot(table, listener))
        self._changed(table, before)

    async def connected_anywhere(self, table: LiveTable, seat: int) -> bool:
        """Held by a connection here, or (scaled out) in another process: asked of Redis, not
        of this copy's last news, since a hand-over must not rest on a stale dot. Fails
        closed: `presence_unknown` while that cannot be known (Redis away or just restarted).
        A seat whose process died counts as left when that process was last alive."""
        if seat in table.present_seats():
            return True
        if not self.cluster.shared:
            return False
        try:
            count, left = await self.cluster.presence.seat(table.id, seat)
        except PresenceUnknown as e:
            log.info("presence of table %s not known: %s", table.id, e)
            raise ServiceError(
                "presence_unknown",
                "who is at the table cannot be known right now (the servers cannot reach "
                "each other); try again in a moment",
            ) from None
        if count > 0:
            return True
        if left is not None and left > (table.seats[seat].seen_at or 0):
            table.seen(seat, left)  # its process died: the player left then, not on arrival
            self._in_background(asyncio.to_thread(self.store.set_seen, table.id, {seat: left}))
        return False

    # -- keeping everyone told -----------------------------------------------------------------

    def _count(self, table: LiveTable, old: set[int], new: set[int]) -> None:
        """A connection here no longer holds `old` but `new`, for the cluster's presence. An
        arrival is counted there at once, a departure with the next broadcast (`_tell`): the
        cluster may count a seat a moment too long, never too short (a hand-over waits)."""
        leaving = table.news.leaving
        for seat in old - new:
            leaving[seat] = leaving.get(seat, 0) - 1
        arrived = []
        for seat in new - old:
            leaving[seat] = leaving.get(seat, 0) + 1
            if leaving[seat] > 0:  # more arrivals than departures not yet told: now
                arrived.append(seat)
                leaving[seat] -= 1
            if not leaving[seat]:
                del leaving[seat]
        if arrived:
            self._in_background(self._share(table, [(seat, +1) for seat in arrived], {}))

    def _changed(self, table: LiveTable, before: set[int]) -> None:
        """Who is connected here changed: remember when (in memory at once: hand-overs read
        it), then show everyone, store it and tell the cluster, coalesced (`_soon`)."""
        after = table.present_seats()
        changed = before ^ after
        now = self.clock.now_ms()
        for seat in changed:  # arrived or left: seen now
            table.seen(seat, now)
            table.news.seen[seat] = now
        if changed:
            table.news.owed = True
        if before - after:  # someone left: tell everyone again when the seat counts as absent
            self.absence_later(table)
            for hook in self.on_left:
                hook(table, before - after)
        if table.news.owed or table.news.leaving:
            self._soon(table)

    def _soon(self, table: LiveTable) -> None:
        """Tell the table's presence news now if its budget allows (BURST at once, then RATE a
        second), else once when it does: a flood of changes reaches each viewer as a few
        `state`s a second, the last one right, and a few writes of `seen_at`."""
        news = table.news
        if news.timer is not None:
            return  # a broadcast is due already: it will carry this change too
        now = self.clock.monotonic()
        if news.filled_at is None:
            news.budget = BURST
        else:
            news.budget = min(BURST, news.budget + (now - news.filled_at) * RATE)
        news.filled_at = now
        if news.budget >= 1:
            news.budget -= 1
            self._tell(table)
            return

        def due() -> None:
            news.timer = None
            self._timers.remove(timer)
            self._soon(table)

        timer = news.timer = self.clock.call_later((1 - news.budget) / RATE, due)
        self._timers.append(timer)

    def _tell(self, table: LiveTable) -> None:
        news = table.news
        seen, news.seen = news.seen, {}
        leaving = [(seat, n) for seat, n in news.leaving.items() if n]
        news.leaving = {}
        if news.owed:
            news.owed = False
            views.tell_state(table)
        if seen:
            write = asyncio.to_thread(self.store.set_seen, table.id, seen)
            self._in_background(write)
        if leaving or seen:
            self._in_background(self._share(table, leaving, seen))

    async def _share(
        self, table: LiveTable, deltas: list[tuple[int, int]], seen: dict[int, int]
    ) -> None:
        for seat, delta in deltas:
            await self.cluster.presence.change(table.id, seat, delta)
        if seen or deltas:
            # After the counts are in Redis: the other processes read them when this comes.
            # An arrival's counts are written at once, apart from the `seen` of the same
            # change (`_count`), whose message may come first: the others then read the
            # counts before they are there, and without this second word their dots for those
            # seats would stay dark (their sweep looks again only at tables with dots lit).
            self.cluster.bus.publish(table.id, Seen(seen=seen))

    async def seen_elsewhere(self, table: LiveTable, message: Seen) -> None:
        """Another process saw seats arrive or leave: their last-seen times, and who is
        connected there now."""
        for seat, at in message.seen.items():
            if 0 <= seat < len(table.seats):
                table.seen(seat, at)
        await self.refresh(table)

    async def refresh(self, table: LiveTable) -> None:
        """Read who is connected to the other processes (scaled out), and show everyone."""
        if self.cluster.shared:
            table.present_elsewhere = await self.cluster.presence.elsewhere(table.id)
        table.news.owed = True
        self._soon(table)

    async def _sweep(self) -> None:
        """Scaled out: the dots of a process that died (its connections gone with it, no news
        from it) go out within two PRESENCE_TTL. One question to the cluster per sweep, for
        every table shown here with dots of another process."""
        while True:
            await self.clock.sleep(PRESENCE_TTL)
            shown = [t for t in self.tables.held.values() if t.present_elsewhere and t.listeners]
            now = await self.cluster.presence.elsewhere_many([t.id for t in shown])
            for table in shown:
                before = table.present_elsewhere
                table.present_elsewhere = now.get(table.id, set())
                if table.present_elsewhere != before:
                    views.tell_state(table)

    def absence_later(self, table: LiveTable) -> None:
        """Tell everyone again when a seat that left counts as absent (and look again then at
        the other processes: one may have died with its connections). Departures less than a
        second apart share one look, at the later one's time (a flood of them makes one)."""
        due = self.clock.monotonic() + self.absent_after + 0.05
        last = self._absences.get(table.id)
        if last is not None and due - last[0] < 1.0:
            last[1].cancel()
            self._timers.remove(last[1])

        def show() -> None:
            self._timers.remove(timer)
            if self._absences.get(table.id, (0.0, None))[1] is timer:
                del self._absences[table.id]
            self._chore(self.refresh(table))

        timer = self.clock.call_later(due - self.clock.monotonic(), show)
        self._timers.append(timer)
        self._absences[table.id] = (due, timer)

    def _in_background(self, work: Awaitable[None]) -> None:
        """Run `work` without waiting for it; a failure is logged (presence is not a move)."""

        async def run() -> None:
            try:
                await work
            except Exception as e:
                log.warning("a background write failed: %s", e)

        self._chore(run())

    def _chore(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)
