"""The effect line always states the rule in force under the ruleset (RULES.md section 9)."""

from __future__ import annotations

import pytest

from robinson.engine import EDITIONS, RobinsonError, Ruleset
from robinson.i18n import LANGUAGES, Translator

STORY_ONLY = {2, 5, 6, 9, 13, 16, 19, 21, 22, 24, 27, 28, 30, 31, 34, 35, 37, 38, 39, 41, 43, 44}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_square_has_title_and_story(lang: str, edition: str) -> None:
    t = Translator(lang)
    for n in range(1, 46):
        sq = t.square(n, Ruleset(edition))
        assert sq.number == n and sq.title and sq.story
        assert not sq.title.startswith("square."), (lang, n)
        assert (sq.effect is None) == (n in STORY_ONLY), (lang, edition, n)


def test_square_12_states_the_fever_of_the_edition() -> None:
    lv = Translator("lv")
    assert lv.square(12, Ruleset("lv")).effect == "Tev tiek vēl viens metiens."  # the seed
    assert lv.square(12, Ruleset("standard")).effect == "Tu izlaid nākamo gājienu."
    ca = Translator("ca")
    assert ca.square(12, Ruleset("ca")).effect == "Et saltes una tirada."  # the seed
    assert ca.square(12, Ruleset("cs")).effect == "Tens una tirada més."
    cs = Translator("cs")
    assert cs.square(12, Ruleset("classic")).effect == "Příští kolo vynecháš."
    en = Translator("en")
    assert en.square(12, Ruleset("standard")).effect == "You miss your next turn."
    assert en.square(12, Ruleset("lv")).effect == "You get one more roll."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_classic_makes_the_may_squares_compulsory(lang: str) -> None:
    t = Translator(lang)
    for n in (4, 7, 20, 23):
        optional = t.square(n, Ruleset("standard")).effect
        compulsory = t.square(n, Ruleset("classic")).effect
        assert optional == t.gettext(f"square.{n}.effect")
        assert compulsory != optional
    assert "27" in t.square(23, Ruleset("classic")).effect  # type: ignore[operator]


def test_classic_texts_in_english() -> None:
    t = Translator("en")
    assert t.square(7, Ruleset("classic")).effect == "You sleep here: miss your next turn."
    assert t.square(4, Ruleset("classic")).effect == (
        "Your next roll must be counted from the beginning."
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_share_third_changes_square_45_only(lang: str) -> None:
    t = Translator(lang)
    half, third = Ruleset("standard"), Ruleset("standard", share="third")
    for n in range(1, 46):
        changed = t.square(n, half) != t.square(n, third)
        assert changed == (n == 45), (lang, n)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_start_tokens_and_stake_change_no_square(lang: str) -> None:
    t = Translator(lang)
    a, b = Ruleset("ca"), Ruleset("ca", start_tokens=50, stake=0)
    assert all(t.square(n, a) == t.square(n, b) for n in range(1, 46))


def test_latvian_ship_moves_the_player_from_41() -> None:
    t = Translator("lv")
    effect = t.square(36, Ruleset("lv")).effect
    assert effect is not None and "drīkst" not in effect and "iet atpakaļ uz Nr. 36" in effect
    # Czech and Catalan already say the player from 41 goes back: their seed line stands.
    assert Translator("cs").square(36, Ruleset("cs")).effect == Translator("cs").gettext(
        "square.36.effect"
    )


@pytest.mark.parametrize("bad", [0, 46, -1, "3"])
def test_bad_square_number(bad: object) -> None:
    with pytest.raises(RobinsonError, match="1 to 45"):
        Translator("en").square(bad, Ruleset())  # type: ignore[arg-type]


def test_rules_summary_names_edition_and_options() -> None:
    t = Translator("en")
    text = t.rules_summary(Ruleset("classic", start_tokens=40, stake=5, share="third"))
    assert "Classic" in text and "40 tokens" in text and "5 tokens" in text
    assert "without a choice" in text and "a third to the nearest" in text
    assert "one more roll" in t.rules_summary(Ruleset("lv"))
