"""Seat names: what a name may hold, and when two names are the same.

A name is shown to everyone at the table, in narration and on the board, so it must be visible
and must not rearrange the text around it: bidi controls (which can make "Anna" print as
"annA" and reorder a whole narration line) and names with no visible character are refused, and
two seats of one table may not share a name, compared case-insensitively after NFKC (so "ANNA",
"anna" and "Ａｎｎａ" are one name).
"""

from __future__ import annotations

import unicodedata

from robinson.web.protocol.errors import ServiceError
from robinson.web.protocol.limits import MAX_NAME

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f"  # Arabic letter mark, left-to-right and right-to-left marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # isolates
)
# Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
VISIBLE = ("L", "N", "P", "S")  # letters, numbers, punctuation, symbols


def clean(seat: int, raw: str) -> str:
    """The name as stored (runs of white space made one space), or a `bad_request` saying why."""
    name = " ".join(raw.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise ServiceError("bad_request", f"seat {seat}: a name has 1 to {MAX_NAME} characters")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        # Control characters (NUL above all: PostgreSQL text cannot hold it) and lone
        # surrogates (not encodable as UTF-8) would fail in the store, not here.
        raise ServiceError(
            "bad_request", f"seat {seat}: a name has no control characters or lone surrogates"
        )
    if any(c in BIDI_CONTROLS for c in name):
        raise ServiceError(
            "bad_request", f"seat {seat}: a name may not hold text-direction controls"
        )
    if not any(unicodedata.category(c)[0] in VISIBLE and c not in BLANK_LETTERS for c in name):
        raise ServiceError("bad_request", f"seat {seat}: a name needs a visible character")
    return name


def same(name: str) -> str:
    """The form two names are compared in."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_distinct(names: list[str]) -> None:
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        key = same(name)
        if key in seen:
            raise ServiceError(
                "bad_request",
                f"seat {seat}: the name {name!r} is taken by seat {seen[key]}; "
                "each seat needs a name of its own",
            )
        seen[key] = seat
