"""Canned reactions (issue 18 "Social"): a seated player sends one of a few (protocol/limits.py
`REACTIONS`), everyone following the table sees it as a bubble by his pawn. Nothing is stored:
a reaction is a moment, not part of the game's record, and a viewer who comes later never sees
it. Each seat may send REACTION_BURST at once, then one every REACTION_SECONDS (a token bucket
kept with the table, so it leaves memory with it): more is `rate_limited`. In a cluster the
reaction goes to the other processes' viewers over the bus (`Reacted`).
"""

from __future__ import annotations

from robinson.web.cluster import Cluster
from robinson.web.cluster.messages import Reacted
from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.limits import REACTION_BURST, REACTION_SECONDS, REACTIONS
from robinson.web.protocol.messages import encode
from robinson.web.service.clock import Clock
from robinson.web.service.live import Listener, LiveTable


class Reactions:
    def __init__(self, cluster: Cluster, clock: Clock) -> None:
        self.cluster = cluster
        self.clock = clock

    def react(self, table: LiveTable, listener: Listener, seat: int, reaction: str) -> None:
        """`listener` (a connection) sends `reaction` for `seat`, which it must hold."""
        if seat not in listener.seats:
            raise ServiceError("bad_token", "this connection does not hold that seat")
        if reaction not in REACTIONS:  # the socket's model checks it too
            raise ServiceError("bad_request", f"a reaction is one of {', '.join(REACTIONS)}")
        self._spend(table, seat)
        self.show(table, seat, reaction)
        self.cluster.bus.publish(table.id, Reacted(seat=seat, reaction=reaction))

    def show(self, table: LiveTable, seat: int, reaction: str) -> None:
        """Tell every viewer here (encoded once for all)."""
        text = encode({"type": "reaction", "seat": seat, "reaction": reaction})
        for listener in list(table.listeners):
            listener.send(text)

    def _spend(self, table: LiveTable, seat: int) -> None:
        now = self.clock.monotonic()
        left, then = table.reaction_buckets.get(seat, (float(REACTION_BURST), now))
        left = min(float(REACTION_BURST), left + (now - then) / REACTION_SECONDS)
        if left < 1:
            wait = max(1, round((1 - left) * REACTION_SECONDS))
            raise ServiceError(
                "rate_limited",
                f"too many reactions at once; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        table.reaction_buckets[seat] = (left - 1, now)
