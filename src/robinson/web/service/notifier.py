"""Telling a player who is away (docs/notifications.md): the `Notifier` makes the `Notice`s
(notices.py) and hands them to the channels (web/notify/: Web Push, e-mail).

What is told, and to whom (a human seat with no connected socket on any process):

- `turn`: it became the seat's turn; also once when the seat leaves (closes the tab) during its
  own turn and stays away for `absent_after` seconds (the same key: told once per turn);
- `ended`: the game is over, to each human seat (and each the clock gave to a bot);
- `claimed`: an invite was taken, to every other human seat (the host learns his friend came);
- `handed`: the seat was handed to a bot (after timeouts, or by another player);
- `reminder`: a clocked move of at least an hour at 80 % of its time, and, for a move of at
  least ten hours, one hour before its end as well, from the stored deadline (so through a
  restart), by the process holding the table's driver lease.

Each notice goes out once: its key (`Notice.key`) is claimed in the store before the channels
are called, so of the processes that see a change (every one following the table) and of the
restarts of one, exactly one tells it. A seat whose presence cannot be known (Redis away) is
taken as present: nothing is sent rather than something wrong.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

from robinson.web.cluster.leases import Leases
from robinson.web.protocol.errors import ServiceError
from robinson.web.service.clock import Clock, Timer
from robinson.web.service.live import TIMEOUT_LIMIT, LiveTable
from robinson.web.service.notices import Channel, Notice, NoticeKind
from robinson.web.service.presence import Presence
from robinson.web.service.tables import Tables

if TYPE_CHECKING:
    from robinson.web.store import Store

log = logging.getLogger("robinson.web")

REMINDER_MIN_SECONDS = 3600  # a move this long or longer is reminded of at 80 % of its time
# ... and one this long (its 80 % point two hours or more before the end) an hour before it too
LAST_HOUR_MIN_SECONDS = 36000
HOUR_MS = 3_600_000
REMINDER_POLL = 600.0  # seconds: the most between two looks at the store's deadlines
LEASE_WAIT = 0.5  # seconds before looking again at a due reminder of a table driven elsewhere
KEEP_SENT_MS = 90 * 86_400_000  # the keys of notices told are forgotten after 90 days
UNKNOWN_TRIES = 10  # a notice whose seat's presence is unknown is asked again this often...
UNKNOWN_PAUSE = 3.0  # ... this many seconds apart (Redis restarted: counts back within 6 s)


def reminder_stage(now: int, deadline: int, move_seconds: int) -> str | None:
    """The latest reminder due at `now` for a move of `move_seconds` ending at `deadline`:
    "hour" (an hour before the end), "share" (80 % of the time gone) or None."""
    if move_seconds < REMINDER_MIN_SECONDS or now >= deadline:
        return None
    if move_seconds >= LAST_HOUR_MIN_SECONDS and now >= deadline - HOUR_MS:
        return "hour"
    if now >= deadline - move_seconds * 200:
        return "share"
    return None


class Notifier:
    def __init__(
        self,
        tables: Tables,
        presence: Presence,
        leases: Leases,
        store: Store,
        clock: Clock,
        channels: Sequence[Channel],
    ) -> None:
        self.tables = tables
        self.presence = presence
        self.leases = leases
        self.store = store
        self.clock = clock
        self.channels = list(channels)
        # Per table: the game, the seat to move (None: over) and the version its turn began at.
        self._turns: dict[str, tuple[str, int | None, int]] = {}
        self._notes: dict[str, tuple[str, int]] = {}  # per table: the game, its notes looked at
        self._reminded: set[str] = set()  # reminders told (or found told) here
        self._elsewhere: set[str] = set()  # reminders due at tables another process drives
        self._timers: set[Timer] = set()  # absences to look at (cancelled at stop)
        self.chores: set[asyncio.Task[Any]] = set()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._next: int | None = None  # Unix ms the reminders' loop plans to look again
        self._started = 0  # Unix ms this process started reminding
        if self.channels:
            tables.on_loaded.append(self.loaded)
            presence.on_left.append(self.left)

    def start(self) -> None:
        self._started = self.clock.now_ms()
        if self.channels:
            self._task = asyncio.create_task(self._run_reminders())

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        tasks = [*self.chores, *([self._task] if self._task else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- changes -------------------------------------------------------------------------------

    def loaded(self, table: LiveTable) -> None:
        """A table taken up from the store: what was told before is not told again here."""
        game = table.game
        to_move = None if table.awaited() else game.state.to_move  # a waiting room: nobody yet
        self._turns[table.id] = (game.id, to_move, game.version)
        self._notes[table.id] = (game.id, len(game.notes))

    def changed(self, table: LiveTable) -> None:
        """The hook after any change of a table (moves.py `after_change`), on every process
        following it: what became true is told to the seats away."""
        if not self.channels:
            return
        game, st = table.game, table.game.state
        # A waiting room (waiting.py) has nobody to move yet: its first turn begins when the
        # game starts, and is told then.
        to_move = None if table.awaited() else st.to_move
        before = self._turns.get(table.id)
        began = game.version
        if before is not None and before[0] == game.id and before[1] == to_move:
            began = before[2]
        self._turns[table.id] = (game.id, to_move, began)
        self._told_notes(table)
        self.deadline_changed(table)
        if before is None:
            return  # a table just made (nobody can have subscribed yet) or seen first mid-game
        same_game = before[0] == game.id
        if same_game and before[1] == to_move:
            return  # the same turn goes on (a second roll, a seat change), or nobody's yet
        if st.over:
            if same_game:
                facts: dict[str, str | int] = {}
                if st.winner is not None:
                    facts["winner"] = table.seats[st.winner].name
                for row in table.seats:  # its players, those the clock gave a bot too
                    if row.kind == "human" or row.timeouts >= TIMEOUT_LIMIT:
                        self._send(table, self._notice("ended", table, row.seat, facts))
            return
        seat = to_move
        if seat is None or table.seats[seat].kind != "human" or table.closed is not None:
            return
        facts = {"square": st.players[seat].position}
        face = game.last_roll()
        mover = before[1] if same_game else None
        if face is not None and mover is not None and mover != seat:
            facts |= {"mover": table.seats[mover].name, "face": face}
        self._send(table, self._notice("turn", table, seat, facts))

    def _told_notes(self, table: LiveTable) -> None:
        """The seat notes new since the last look: invites taken, seats handed to a bot."""
        game = table.game
        seen_game, count = self._notes.get(table.id, (game.id, len(game.notes)))
        start = count if seen_game == game.id else 0
        self._notes[table.id] = (game.id, len(game.notes))
        new = game.notes[start:]
        # The claim that ends a waiting room starts the game: the mover is told his turn, and
        # the others need no word that somebody came (waiting.py).
        starts = any(n.kind == "started" for n in new)
        for note in new:
            seat = note.data.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
                continue
            if note.kind == "claimed" and not starts:
                facts: dict[str, str | int] = {"name": table.seats[seat].name}
                for row in table.seats:
                    if row.kind == "human" and row.seat != seat:
                        notice = Notice("claimed", table.id, game.id, row.seat, note.version, facts)
                        self._send(table, notice, tag=str(seat))
            elif note.kind == "timeout_bot" or (
                note.kind == "bot" and note.data.get("actor") != seat
            ):
                bot = str(table.seats[seat].bot or "")
                notice = Notice("handed", table.id, game.id, seat, note.version, {"bot": bot})
                self._send(table, notice)

    def _notice(
        self, kind: NoticeKind, table: LiveTable, seat: int, facts: dict[str, str | int]
    ) -> Notice:
        return Notice(kind, table.id, table.game.id, seat, table.game.version, facts)

    def left(self, table: LiveTable, seats: set[int]) -> None:
        """Seats' last connections here closed (presence.py): one who left during his own turn
        is told it is his turn once he has stayed away `absent_after` seconds."""
        st = table.game.state
        if st.to_move is None or st.to_move not in seats or table.game.state.over:
            return
        turn = self._turns.get(table.id)
        if turn is None or turn[0] != table.game.id or turn[1] != st.to_move:
            return
        seat, began = st.to_move, turn[2]

        def due() -> None:
            self._timers.discard(timer)
            now = self._turns.get(table.id)
            if now == (table.game.id, seat, began) and table.seats[seat].kind == "human":
                facts = {"square": table.game.state.players[seat].position}
                notice = Notice("turn", table.id, table.game.id, seat, began, facts)
                self._send(table, notice)

        timer = self.clock.call_later(table.absent_after, due)
        self._timers.add(timer)

    # -- telling -------------------------------------------------------------------------------

    def _send(self, table: LiveTable, notice: Notice, tag: str = "") -> None:
        if notice.seat in table.present_anywhere():
            # Connected here, or to another process as this one last heard (each arrival and
            # departure there reaches it on the bus, `Seen`): no task, and no question to Redis,
            # on every move of every process that follows the table. The process the seat's
            # last connection closed on knows it left and asks (`tell`), as does the `left`
            # timer there; a seat this view takes for present by mistake is not told (as one
            # whose presence is unknown): nothing wrong is sent.
            return
        if tag:
            notice = Notice(
                notice.kind,
                notice.table_id,
                notice.game_id,
                notice.seat,
                notice.version,
                notice.facts,
                tag,
            )
        self._chore(self.tell(table, notice))

    async def tell(self, table: LiveTable, notice: Notice, attempt: int = 0) -> bool:
        """Tell `notice` through every channel unless its seat is connected anywhere or the
        notice was told already (by any process). Returns whether it was told now. While
        who is connected cannot be known (Redis away, or just started), it is asked again a
        few times, as long as the turn it tells of goes on."""
        if notice.kind == "turn":
            turn = self._turns.get(table.id)
            if turn != (notice.game_id, notice.seat, notice.version):
                return False  # that turn is over: nothing to tell any more
        present = await self._present(table, notice.seat)
        if present is None and attempt < UNKNOWN_TRIES:

            def again() -> None:
                self._timers.discard(timer)
                self._chore(self.tell(table, notice, attempt + 1))

            timer = self.clock.call_later(UNKNOWN_PAUSE, again)
            self._timers.add(timer)
        if present is not False:
            return False
        return await self._once(notice)

    async def _present(self, table: LiveTable, seat: int) -> bool | None:
        """Whether a connection holds the seat on any process; None: cannot be known now
        (never taken for absent: nothing wrong is sent)."""
        try:
            return await self.presence.connected_anywhere(table, seat)
        except ServiceError:  # presence_unknown
            return None

    async def _once(self, notice: Notice) -> bool:
        """Claim the notice's key in the store, then hand it to every channel (which never
        raise). False if it was claimed before: told already."""
        claimed = await asyncio.to_thread(self.store.claim_notice, notice.key, self.clock.now_ms())
        if not claimed:
            return False
        await asyncio.gather(*(channel.deliver(notice) for channel in self.channels))
        log.info("told %s", notice.key)
        return True

    def _chore(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception as e:  # a notice is never worth a failed move
                log.warning("a notice failed: %s", e)

        task = asyncio.ensure_future(run())
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)

    # -- reminders -----------------------------------------------------------------------------

    def deadline_changed(self, table: LiveTable) -> None:
        """A new deadline (after any change): wake the loop if its reminder comes sooner."""
        deadline, seconds = table.game.deadline, table.move_seconds or 0
        if deadline is None or seconds < REMINDER_MIN_SECONDS:
            return
        first = deadline - seconds * 200
        if self._next is None or first < self._next:
            self._wake.set()

    async def _run_reminders(self) -> None:
        pruned = 0
        while True:
            self._wake.clear()
            pause = REMINDER_POLL
            try:
                now = self.clock.now_ms()
                if now - pruned > 86_400_000:  # once a day: forget what was told long ago
                    await asyncio.to_thread(self.store.prune_notices, now - KEEP_SENT_MS)
                    pruned = now
                    self._reminded.clear()  # the store knows them: asked again when due
                    self._elsewhere.clear()
                    for gone in set(self._turns) - set(self.tables.held):  # unloaded since
                        self._turns.pop(gone, None)
                        self._notes.pop(gone, None)
                due = await asyncio.to_thread(self.store.reminders_due, now, REMINDER_MIN_SECONDS)
                for game_id, table_id, deadline, seconds, seat in due:
                    stage = reminder_stage(now, deadline, seconds)
                    if stage is None or seat is None:
                        continue
                    key = f"{game_id}:{stage}:{deadline}"
                    if key in self._reminded:
                        continue
                    if not self.leases.holds(table_id):
                        if key not in self._elsewhere:  # its driver reminds; if none, we will
                            self._elsewhere.add(key)
                            self.leases.want(table_id)
                            pause = LEASE_WAIT  # look again once the lease may be ours
                        continue
                    wait = await self._remind(table_id, game_id, deadline, stage)
                    if wait is not None:  # the seat left only now: look again when absent
                        pause = min(pause, wait)
                upcoming = await asyncio.to_thread(
                    self.store.next_reminder, now, REMINDER_MIN_SECONDS, LAST_HOUR_MIN_SECONDS
                )
                if upcoming is not None:
                    pause = min(pause, max(0.0, (upcoming - self.clock.now_ms()) / 1000 + 0.005))
            except asyncio.CancelledError:
                raise
            except Exception:  # the reminders go on: a database outage is retried
                log.exception("the reminders failed; retrying")
                pause = 5.0
            self._next = self.clock.now_ms() + int(pause * 1000)
            await self.clock.wait(self._wake, pause)

    async def _remind(self, table_id: str, game_id: str, deadline: int, stage: str) -> float | None:
        """Remind the seat to move unless it is at the table. A seat connected nowhere that
        has not been away `absent_after` seconds yet (it left only now, or this process
        started only now: after a restart everyone gets the time to reconnect) is looked at
        again then: returns in how many seconds."""
        table = await self.tables.get(table_id)
        game, st = table.game, table.game.state
        seat = st.to_move
        if game.id != game_id or game.deadline != deadline or seat is None or st.over:
            return None
        if table.seats[seat].kind != "human":
            return None
        if await self._present(table, seat) is not False:
            return None  # at the table (or unknown): no reminder now; looked at again later
        now = self.clock.now_ms()
        since = max(table.away_since(seat), self._started)
        if now - since < table.absent_after * 1000:
            return (since - now) / 1000 + table.absent_after + 0.005
        notice = Notice(
            "reminder",
            table.id,
            game.id,
            seat,
            game.version,
            {"seconds_left": max(0, (deadline - now) // 1000)},
            f"{stage}:{deadline}",
        )
        await self._once(notice)  # told now, or before (by another process, before a restart)
        self._reminded.add(f"{game_id}:{stage}:{deadline}")
        return None
