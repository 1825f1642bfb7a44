"""A notice in words (title and body) in one player's language, from the catalogs' `web.notify.*`
messages (docs/notifications.md): what a push notification (or a mail's subject) says."""

from __future__ import annotations

from functools import lru_cache

from robinson.i18n import Translator
from robinson.web.service.notices import Notice


@lru_cache(maxsize=8)
def _translator(lang: str) -> Translator:
    return Translator(lang)


def words(notice: Notice, lang: str) -> tuple[str, str]:
    """(title, body) of `notice` in `lang` (one of the four languages)."""
    t = _translator(lang)
    facts = notice.facts
    kind = notice.kind
    if kind == "turn":
        title = t.gettext("web.notify.turn_title")
        square = int(facts.get("square") or 0)
        if "mover" in facts:  # on the board, or still at the start
            key = "web.notify.turn_body" if square > 0 else "web.notify.turn_first"
            body = t.format(key, mover=str(facts["mover"]), face=int(facts["face"]), square=square)
        else:
            body = t.gettext("web.notify.turn_waits")
        return title, body
    if kind == "reminder":
        left = int(facts.get("seconds_left") or 0)
        if left >= 5400:  # in whole hours from an hour and a half, rounded
            body = t.nformat("web.notify.hours_left", (left + 1800) // 3600)
        else:
            body = t.nformat("web.notify.minutes_left", max(1, (left + 30) // 60))
        return t.gettext("web.notify.reminder_title"), body
    if kind == "ended":
        title = t.gettext("web.notify.ended_title")
        if "winner" in facts:
            return title, t.format("web.notify.ended_won", name=str(facts["winner"]))
        return title, t.gettext("web.notify.ended_nobody")
    if kind == "claimed":
        return t.gettext("web.notify.claimed_title"), t.format(
            "seat.claimed", name=str(facts.get("name", "?"))
        )
    return t.gettext("web.notify.handed_title"), t.gettext("web.notify.handed_body")
