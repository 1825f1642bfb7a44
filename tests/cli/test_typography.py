"""Issue 20: the terminal's typography in each language: a square's story in the language's own
quotation marks, percentages the language's way (a no-break space before % in lv, cs, ca), the
seeds' spaced en dash, and "Nr." / "núm." never left at a line end apart from its number."""

from __future__ import annotations

import pytest

from robinson.cli.odds import OddsLines
from robinson.engine import Ruleset
from robinson.i18n import LANGUAGES, Translator
from robinson.tui.board import rules_help, square_card

QUOTES = {"lv": ("“", "”"), "cs": ("„", "“"), "ca": ("«", "»"), "en": ("“", "”")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_square_story_is_quoted_the_languages_way(lang: str) -> None:
    t = Translator(lang)
    card = " ".join(
        line.strip() for line in square_card(t, 4, Ruleset(lang if lang != "en" else "standard"))
    )
    story = t.gettext("square.4.story")
    opening, closing = QUOTES[lang]
    assert card.startswith(f"{opening}{story.split()[0]}") and f"{closing} – " in card


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("lv", "40,3\u00a0%"), ("cs", "40,3\u00a0%"), ("ca", "40,3\u00a0%"), ("en", "40.3%")],
)
def test_percent_in_the_terminal_odds(lang: str, expected: str) -> None:
    odds = OddsLines(Translator(lang), ("Anna", "Bruno"), "eager", 1000)
    assert odds.percent(0.403) == expected
    assert Translator(lang).percent(-0.031) == "\u2212" + expected.replace("40,3", "3,1").replace(
        "40.3", "3.1"
    )


@pytest.mark.parametrize("lang", ["lv", "ca"])
def test_number_signs_stay_with_their_numbers_when_the_help_wraps(lang: str) -> None:
    sign = {"lv": "Nr.", "ca": "núm."}[lang]
    t = Translator(lang)
    for ruleset in (Ruleset(lang), Ruleset("classic")):
        lines = rules_help(t, ruleset)
        assert not [line for line in lines if line.rstrip().endswith(sign)]
        assert any(f"{sign}\u00a0" in line for line in lines)  # the seeds' "Nr. 45" is joined


@pytest.mark.parametrize("lang", ["lv", "ca"])
def test_catalog_strings_join_the_number_sign_to_its_number(lang: str) -> None:
    sign = {"lv": "Nr. ", "ca": "núm. "}[lang]
    t = Translator(lang)
    for key, text in t.ui_strings().items():
        seed_text = key.startswith(("rules.", "square.")) and not key.endswith(".title")
        if not seed_text and key != "effect.36.swap":  # the seeds' own spaces stay
            assert sign not in text, key


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("lv", "Lūdzu, atbildi 1 vai 2."), ("cs", "Odpověz prosím 1, nebo 2."),
     ("ca", "Respon 1 o 2, si us plau."), ("en", "Please answer 1 or 2.")],
)  # fmt: skip
def test_a_decision_asks_for_one_choice_or_the_other_in_words(lang: str, expected: str) -> None:
    t = Translator(lang)
    assert t.format("cli.bad_choice", choices=t.alternatives(["1", "2"])) == expected


INNER = {"lv": ("‘", "’"), "cs": ("‚", "‘"), "ca": ("“", "”"), "en": ("‘", "’")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_quotation_inside_a_story_takes_the_inner_marks(lang: str) -> None:
    """Found by reading a terminal game (issue 20): square 41's story names the governor in the
    seed's own quotation marks, and quoting the story in the same marks read «…«el
    governador».» / “…“the Governor”.”."""
    t = Translator(lang)
    card = " ".join(line.strip() for line in square_card(t, 41, Ruleset("standard")))
    opening, closing = QUOTES[lang]
    inner_opening, inner_closing = INNER[lang]
    story = card.split(" – ")[0]
    assert story.startswith(opening) and story.endswith(closing)
    assert story.count(opening) == 1 and story.count(inner_opening) == 1, story
    assert inner_closing in story[story.index(inner_opening) + 1 :]
