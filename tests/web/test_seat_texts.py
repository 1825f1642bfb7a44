"""The log's seat lines (hand-overs, take-backs, timeouts) in every language: each names who did
it to whom, and counts take the catalog's plural forms."""

from __future__ import annotations

import pytest

from robinson.i18n import LANGUAGES
from robinson.web.service import texts
from robinson.web.store import Note

NAMES = ["Anna", "Bruno"]
NOTES = [
    Note(0, "bot", {"seat": 0, "actor": 1, "bot": "eager", "away": 135}),
    Note(0, "bot", {"seat": 0, "actor": 1, "bot": "eager", "out_of_time": True}),
    Note(0, "bot", {"seat": 1, "actor": 1, "bot": "eager"}),
    Note(0, "bot", {"seat": 0, "actor": 1, "bot": "random", "timeouts": 3}),
    Note(0, "back", {"seat": 0}),
    Note(0, "returned", {"seat": 0}),
    Note(0, "timeout", {"seat": 0}),
    Note(0, "clock_restart", {"seat": 0, "seconds": 60}),
    Note(0, "timeout_bot", {"seat": 0, "count": 3}),
    Note(0, "claimed", {"seat": 0}),
    Note(0, "reinvited", {"seat": 0}),
    Note(0, "reinvited", {"seat": 0, "unclaimed": True}),
    Note(0, "reinvited", {"seat": 0, "away": 75}),
    Note(0, "reinvited", {"seat": 0, "out_of_time": True}),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_seat_line_names_the_seat_and_who_did_it(lang: str) -> None:
    for note in NOTES:
        line = texts.note(lang, note, NAMES)
        seat = NAMES[note.data["seat"]]
        assert seat in line and "seat." not in line and "{" not in line, (lang, note, line)
        if note.kind == "bot":  # the actor is named too ("Bruno let a bot play for Anna ...")
            assert NAMES[note.data["actor"]] in line, (lang, line)


@pytest.mark.parametrize(
    ("lang", "seconds", "expected"),
    [
        ("en", 135, "2 minutes"),
        ("en", 61, "61 seconds"),  # below 2 minutes: seconds, never "1 minute" for 119 s
        ("en", 3 * 86400, "3 days"),
        ("cs", 150, "2 minuty"),
        ("cs", 300, "5 minut"),
        ("lv", 21 * 60, "21 minūti"),  # 21 takes the singular form in Latvian
        ("lv", 300, "5 minūtes"),
        ("ca", 7200, "2 hores"),
    ],
)
def test_how_long_a_seat_was_away_takes_the_languages_plural_forms(
    lang: str, seconds: int, expected: str
) -> None:
    assert texts.duration(lang, seconds) == expected
