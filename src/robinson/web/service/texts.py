"""Texts for the web: narration, squares and UI strings in the viewer's language, all through
`robinson.i18n` (the project's gettext layer), shaped as the page and the protocol want them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from robinson.engine import OPTIONS, SQUARES, Event, Ruleset, State
from robinson.i18n import LANGUAGES, Translator
from robinson.i18n.catalogs import check_language, load_catalog, translations
from robinson.i18n.leads import leads as option_leads

__all__ = ["LANGUAGES", "check_language"]


@lru_cache(maxsize=8)
def _translator(lang: str) -> Translator:
    return Translator(lang)


def narrate(lang: str, event: Event, names: Sequence[str]) -> str:
    return _translator(lang).narrate(event, names)


def narrate_each(lang: str, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """One entry per event ("" where another event's line says it): the page pairs lines with
    the events they tell (their icons and seats) through `told`."""
    return _translator(lang).narrate_each(events, names)


def narrate_both(
    lang: str, events: Sequence[Event], names: Sequence[str]
) -> tuple[list[str], list[str]]:
    """`narrate_each` and `narrate_each_you` in one pass (every move is told in both)."""
    return _translator(lang).narrate_both(events, names)


def told(lines: Sequence[str]) -> list[int]:
    """The indices of the events that have a line of their own, in order."""
    return [i for i, line in enumerate(lines) if line]


def prompt(lang: str, state: State, names: Sequence[str], second: bool = False) -> str:
    """What the player to move is asked (`second`: in the second person, or "")."""
    return _translator(lang).prompt(state, names, second)


def leads(lang: str, state: State) -> list[dict[str, Any]]:
    """Where each option of the pending decision takes the pawn (None: it stays), as the
    terminal says it (robinson.i18n.leads): the page names it on the option's button."""
    found = option_leads(_translator(lang), state)
    return [{"option": x.option, "square": x.square} for x in found]


def option_labels(lang: str) -> dict[str, str]:
    t = _translator(lang)
    return {o: t.option(o) for o in OPTIONS}


def squares(lang: str, ruleset: Ruleset) -> list[dict[str, Any]]:
    """Number, kind, title, story and effect line (the rule in force) of squares 1..45."""
    t = _translator(lang)
    out = []
    for sq in SQUARES[1:]:
        text = t.square(sq.number, ruleset)
        out.append(
            {
                "number": sq.number,
                "kind": sq.effect.value,
                "title": text.title,
                "story": text.story,
                "effect": text.effect,
            }
        )
    return out


def ui_strings(lang: str) -> dict[str, str]:
    return dict(_translator(lang).ui_strings())


def ui_plurals(lang: str) -> dict[str, list[str]]:
    """The page's counted labels (`web.*` plural messages) with every form of the language, in
    the catalog's order; `plural_index` says which form a count takes."""
    out = {}
    for message in load_catalog(lang):
        if isinstance(message.id, tuple) and message.id[0].startswith("web."):
            out[message.id[0]] = [str(form) for form in message.string or ()]
    return out


PLURAL_TABLE = 200


def plural_index(lang: str) -> list[int]:
    """The form index of counts 0..199, computed by the catalog's own plural rule. Every rule of
    our four languages depends only on n % 100 (and n itself below 200), so a client takes
    count n >= 200 as 100 + n % 100: data, not a rule re-written in JavaScript."""
    rule = translations(lang).plural
    return [int(rule(n)) for n in range(PLURAL_TABLE)]


@lru_cache(maxsize=256)  # in every view: a handful of rulesets, four languages
def rules_summary(lang: str, ruleset: Ruleset) -> str:
    return _translator(lang).rules_summary(ruleset)


# -- seat notes (docs/protocol.md "Seats"): who handed which seat to a bot, timeouts -------------

# A duration in the largest unit that gives a count of at least 2 (no "away for 1 minute" for
# 119 seconds): seconds below 2 minutes, minutes below 2 hours, hours below 2 days, then days.
_UNITS = (("seat.seconds", 1, 120), ("seat.minutes", 60, 7200), ("seat.hours", 3600, 172800))


def duration(lang: str, seconds: int) -> str:
    t = _translator(lang)
    for key, size, below in _UNITS:
        if seconds < below:
            return t.nformat(key, seconds // size)
    return t.nformat("seat.days", seconds // 86400)


def note(lang: str, item: Any, names: Sequence[str]) -> str:
    """One note of the log (a `store.Note`) as a sentence in `lang`."""
    t = _translator(lang)
    data = item.data

    def name(key: str) -> str:
        seat = data.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    fields = {"name": name("seat"), "actor": name("actor")}
    kind = item.kind
    if kind == "bot":
        if data.get("actor") == data.get("seat"):
            return t.format("seat.bot_self", **fields)
        if data.get("timeouts"):  # connected, after TIMEOUT_LIMIT timeouts in a row
            return t.nformat("seat.bot_timeouts", int(data["timeouts"]), **fields)
        if data.get("out_of_time"):
            return t.format("seat.bot_out_of_time", **fields)
        return t.format("seat.bot_away", away=duration(lang, int(data.get("away") or 0)), **fields)
    if kind == "clock_restart":
        seconds = duration(lang, int(data.get("seconds") or 0))
        return t.format("seat.clock_restart", time=seconds, **fields)
    if kind == "timeout_bot":
        return t.nformat("seat.timeout_bot", int(data.get("count") or 0), **fields)
    if kind == "reinvited" and data.get("out_of_time"):
        return t.format("seat.reinvited_out_of_time", **fields)
    if kind == "reinvited" and "away" in data:
        away = duration(lang, int(data.get("away") or 0))
        return t.format("seat.reinvited_away", away=away, **fields)
    if kind == "vacation":
        return t.nformat("seat.vacation", int(data.get("days") or 0), **fields)
    if kind == "waiting":
        awaited = ", ".join(names[s] for s in data.get("seats", []) if 0 <= s < len(names))
        return t.format("seat.waiting", names=awaited)
    if kind == "started":
        return t.format("seat.started_host" if data.get("host") else "seat.started")
    if kind in ("claimed", "back", "returned", "timeout", "reinvited"):
        return t.format(f"seat.{kind}", **fields)
    return ""
