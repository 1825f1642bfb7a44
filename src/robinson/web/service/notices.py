"""What a player is told while he is away from his table, and the channels that tell him
(issue 19: "Your turn, wherever you are").

The `Notifier` part (notifier.py) decides *that* a seat is to be told and makes a `Notice`: it
becomes an absent seat's turn, a reminder falls due on a clocked move, the game ends, an invite
is claimed, a seat is handed to a bot. It sends only from the table's driver (the lease holder
in a cluster), once per notice, and never to a seat with a connected socket.

A `Channel` decides *how*: Web Push (web/notify/push.py) and e-mail (web/notify/mail.py). Each
keeps its own subscribers (a browser's push subscription, a confirmed address), each with the
language the player chose, and words the notice in it. A channel never raises: a subscriber
that cannot be reached is logged, and dropped when the service says it is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

# turn:     it became the seat's turn (facts: mover, face, square: the last roll and where the
#           seat stands; absent on the game's first turn)
# reminder: a clocked move's time is running out (facts: seconds_left)
# ended:    the game is over (facts: winner, the winner's name, or absent when nobody won)
# claimed:  an invite of the table was taken (facts: name, the newcomer's name; claimed_seat)
# handed:   the seat was handed to a bot after timeouts (facts: bot, the bot's kind)
NoticeKind = Literal["turn", "reminder", "ended", "claimed", "handed"]


@dataclass(frozen=True, slots=True)
class Notice:
    kind: NoticeKind
    table_id: str
    game_id: str
    seat: int  # the seat told
    version: int  # the game's version it is about: with the game, kind and seat, its identity
    facts: Mapping[str, str | int] = field(default_factory=dict)
    # What tells notices of one kind at one version apart: a reminder's stage and deadline
    # ("share:<ms>", "hour:<ms>"); empty for the others.
    tag: str = ""

    @property
    def key(self) -> str:
        """The same for the same notice on every process: a channel sends each key once."""
        key = f"{self.game_id}:{self.version}:{self.seat}:{self.kind}"
        return f"{key}:{self.tag}" if self.tag else key

    @property
    def path(self) -> str:
        """Where a click on the notice leads: the table's page (the browser keeps the seat)."""
        return f"/t/{self.table_id}"


class Channel(Protocol):
    async def deliver(self, notice: Notice) -> None:
        """Tell every subscriber of the notice's seat at its table, in each one's language.
        Never raises."""
